/**
 * Explicit memory tags: `[MEMORY: kind] text`, kind one of decision | rejected | learned |
 * preference | task (case-insensitive). The text runs to the end of the line, or to the next tag
 * on the same line; a tag alone on its line takes the following lines up to a blank line. Tags
 * inside code (fenced blocks, inline spans) and tags with an unknown kind or no text are ignored.
 * Confidence is 1.0. Pure.
 */

export type TagKind = "decision" | "rejected" | "learned" | "preference" | "task";
export const TAG_KINDS: readonly TagKind[] = ["decision", "rejected", "learned", "preference", "task"];

export interface TagHit {
  type: TagKind;
  text: string;
  confidence: 1;
}

export const MAX_TAG_TEXT = 2000;
const TAG = /\[\s*memory\s*:\s*([a-z_-]*)\s*\]/gi;

/** `text` with code replaced by spaces of the same length, so offsets still line up. */
function maskCode(text: string): string {
  const blank = (m: string): string => m.replace(/[^\n]/g, " ");
  return text.replace(/```[\s\S]*?(?:```|$)/g, blank).replace(/`[^`\n]*`/g, blank);
}

export function extractTags(text: string): TagHit[] {
  const masked = maskCode(text);
  const out: TagHit[] = [];
  const tags = [...masked.matchAll(TAG)];
  tags.forEach((m, i) => {
    const kind = (m[1] ?? "").toLowerCase() as TagKind;
    if (!TAG_KINDS.includes(kind)) return;
    const start = m.index + m[0].length;
    const eol = masked.indexOf("\n", start);
    const next = tags[i + 1]?.index ?? Number.POSITIVE_INFINITY;
    let end = Math.min(eol === -1 ? masked.length : eol, next);
    let body = text.slice(start, end).trim();
    if (body === "" && end === eol && next > eol) {
      const para = masked.slice(eol + 1).search(/^[ \t]*$/m); // the next blank line
      end = Math.min(para === -1 ? masked.length : eol + 1 + para, next);
      body = text.slice(start, end).trim();
    }
    body = body.replace(/\s+/g, " ");
    if (body === "") return;
    out.push({ type: kind, text: body.length > MAX_TAG_TEXT ? `${body.slice(0, MAX_TAG_TEXT - 1)}…` : body, confidence: 1 });
  });
  return out;
}

/** `text` without its tagged spans (so the keyword layer does not count them twice). */
export function withoutTags(text: string): string {
  const masked = maskCode(text);
  let out = "";
  let last = 0;
  for (const m of masked.matchAll(TAG)) {
    const eol = masked.indexOf("\n", m.index);
    out += text.slice(last, m.index);
    last = eol === -1 ? text.length : eol;
  }
  return out + text.slice(last);
}
