/**
 * HTML comments (`<!-- … -->`) of a markdown text, taken out as a reader sees it rendered, so what
 * `mem init`'s templates hint in comments is no memory, and text hidden from the rendered note is
 * not put before the model. Every line stays where it was (a comment's lines are left empty), so
 * line numbers after it hold. Two shapes are taken out, as CommonMark renders them:
 * - a comment that starts a line (up to 3 spaces in, after a quote's `>` markers too): an HTML
 *   block, to the line that holds `-->`, or to the end of the text (or of the quote) when none does;
 * - a comment inside a line that closes on that line.
 * Kept as text: fenced code (a fence inside a list item or a quote too, by its indent; a quote's
 * fence ends with the quote), a line
 * indented 4 spaces or more (code, or a nested item's text), a marker in a code span or escaped
 * (`\<!--`), and an inline `<!--` that does not close on its line (left as it is, not hidden).
 * Linear in the text's length. Pure.
 */
const BLOCK_START = /^ {0,3}<!--/;

/** A fence's marker (in a list item too; `line` is read after its quote markers), and whether it may close a fence (no info string). */
function fenceOf(line: string): { marker: string; bare: boolean } | undefined {
  const m = /^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(`{3,}|~{3,})(.*)$/.exec(line);
  if (!m) return undefined;
  if (m[1]![0] === "`" && m[2]!.includes("`")) return undefined; // a backtick fence's info string holds none
  return { marker: m[1]!, bare: m[2]!.trim() === "" };
}

export function withoutComments(text: string): string {
  if (!text.includes("<!--")) return text;
  const out: string[] = [];
  let inBlock = false;
  let blockDepth = 0; // how many quote markers (`>`) the block's lines start with
  let fence: string | undefined; // the opening fence's marker while inside fenced code
  let fenceDepth = 0; // the quote depth the fence opened at
  for (const line of text.split("\n")) {
    const { depth, content } = unquoted(line);
    // A block or a fence inside a quote ends with the quote (their lines are not lazy).
    if (inBlock && depth < blockDepth) inBlock = false;
    if (fence !== undefined && depth < fenceDepth) fence = undefined;
    if (inBlock) {
      const end = line.indexOf("-->");
      if (end < 0) {
        out.push("");
        continue;
      }
      inBlock = false;
      out.push(blankIfEmpty(inlineStripped(line.slice(end + 3))));
      continue;
    }
    // A fence is read after the line's quote markers; a line of a deeper or shallower quote does not close one.
    const f = fenceOf(content);
    if (fence !== undefined) {
      if (f?.bare && depth === fenceDepth && f.marker[0] === fence[0] && f.marker.length >= fence.length) fence = undefined;
      out.push(line);
      continue;
    }
    if (f !== undefined) {
      fence = f.marker;
      fenceDepth = depth;
      out.push(line);
      continue;
    }
    if (/^(?: {4}|\t)/.test(line)) {
      out.push(line); // indented code, or a nested item's text: left as written
      continue;
    }
    if (depth > 0 && /^(?: {4}|\t)/.test(content)) {
      out.push(line); // indented code in a quote
      continue;
    }
    if (BLOCK_START.test(content) && commentEnd(content, content.indexOf("<!--")) < 0) {
      inBlock = true;
      blockDepth = depth;
      out.push("");
      continue;
    }
    out.push(blankIfEmpty(inlineStripped(line)));
  }
  return out.join("\n");
}

const blankIfEmpty = (line: string) => (line.trim() === "" ? "" : line);

/** A line's quote markers (`> > `, each up to 3 spaces in) counted, and what follows them. */
function unquoted(line: string): { depth: number; content: string } {
  const m = /^(?: {0,3}>[ \t]?)+/.exec(line);
  if (!m) return { depth: 0, content: line };
  return { depth: (m[0].match(/>/g) ?? []).length, content: line.slice(m[0].length) };
}

/** One line with its comments that open and close on it taken out; code spans and escaped markers kept. */
function inlineStripped(line: string): string {
  if (!line.includes("<!--")) return line;
  const spans = codeSpans(line);
  let out = "";
  let pos = 0;
  let s = 0;
  for (let at = line.indexOf("<!--"); at >= 0; at = line.indexOf("<!--", at + 1)) {
    if (at < pos) continue;
    while (s < spans.length && spans[s]![1] <= at) s++;
    if (s < spans.length && spans[s]![0] <= at) continue; // inside a code span
    if (at > 0 && line[at - 1] === "\\") continue; // escaped
    const end = commentEnd(line, at);
    if (end < 0) break; // does not close on its line: text, as it is
    out += line.slice(pos, at);
    pos = end;
    at = end - 1;
  }
  return out + line.slice(pos);
}

/** Where the comment opened at `at` ends (after its `-->`), or -1 when it does not close on the line. `<!-->` and `<!--->` are whole. */
function commentEnd(line: string, at: number): number {
  const body = at + 4;
  if (line.startsWith(">", body)) return body + 1;
  if (line.startsWith("->", body)) return body + 2;
  const e = line.indexOf("-->", body);
  return e < 0 ? -1 : e + 3;
}

/**
 * The code spans of a line, as [start, end) pairs in order: a run of backticks (not escaped)
 * opens one that the next run of the same length closes; a run with no closer is text. Linear:
 * each run's closer is found through the runs of its length.
 */
function codeSpans(line: string): [number, number][] {
  const runs: { at: number; n: number }[] = [];
  for (const m of line.matchAll(/`+/g)) runs.push({ at: m.index, n: m[0].length });
  if (runs.length < 2) return [];
  const byLength = new Map<number, number[]>(); // the runs of each length, in order
  const place: number[] = []; // each run's place in its length's list
  runs.forEach((r, i) => {
    let list = byLength.get(r.n);
    if (!list) byLength.set(r.n, (list = []));
    place[i] = list.length;
    list.push(i);
  });
  const spans: [number, number][] = [];
  for (let i = 0; i < runs.length; ) {
    const r = runs[i]!;
    if (r.at > 0 && line[r.at - 1] === "\\") {
      i++;
      continue;
    }
    const same = byLength.get(r.n)!;
    const closer = same[place[i]! + 1];
    if (closer === undefined) {
      i++;
      continue;
    }
    spans.push([r.at, runs[closer]!.at + runs[closer]!.n]);
    i = closer + 1;
  }
  return spans;
}
