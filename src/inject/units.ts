/**
 * The pieces a memory's evidence is chosen from: each line of a chunk (a list item, a turn of a
 * conversation, a line of a paragraph or of code), a long line cut into its sentences, a sentence
 * still too long cut between words. A cut never falls inside brackets, backticks, a tag or a word,
 * so an identifier, a path or a `[label]` is always whole. Each piece keeps its place: the line
 * of the file it comes from and its part of that line. Pure.
 */

export interface Piece {
  /** 1-based line in the source file (the chunk's start line plus the line's offset in it). */
  line: number;
  /** Which part of its line (0 for the first or only one), and how many parts the line has. */
  part: number;
  parts: number;
  text: string;
}

/** A markdown heading line: shown as the item's heading, not as evidence. */
const HEADING = /^ {0,3}#{1,6}(\s|$)/;
/** A code fence: no evidence of its own. */
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*\S*\s*$/;

const CLOSER: Record<string, string> = { "[": "]", "(": ")", "<": ">", "{": "}", "`": "`" };
/** How far a bracket's or a backtick's closer is looked for: one left open protects nothing. */
const SPAN = 300;

/**
 * Where a text may be cut: after whitespace outside `[...]`, `(...)`, `<...>`, `{...}` and
 * backticks (each closed within SPAN characters). Returns the offsets where a new piece may start.
 */
function cutPoints(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const closer = CLOSER[c];
    if (closer !== undefined) {
      const j = text.indexOf(closer, i + 1);
      if (j > i && j - i <= SPAN) i = j;
      continue;
    }
    if ((c === " " || c === "\t") && i + 1 < text.length && text[i + 1] !== " " && text[i + 1] !== "\t") out.push(i + 1);
  }
  return out;
}

/**
 * A line cut into parts of at most `max` characters (a part that has no allowed cut within `max`
 * stays whole, however long: a cut inside it would break a tag or an identifier). Sentence ends
 * are preferred; else the last allowed cut that fits.
 */
export function splitLine(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const points = cutPoints(text);
  const sentence = new Set(points.filter((p) => /[.!?:;]["')\]]?\s+$/.test(text.slice(Math.max(0, p - 4), p))));
  const parts: string[] = [];
  let start = 0;
  while (text.length - start > max) {
    const fits = points.filter((p) => p > start && p - start <= max);
    if (fits.length === 0) {
      // Nothing to cut at within `max`: the part runs to the next allowed cut.
      const next = points.find((p) => p > start);
      if (next === undefined) break;
      parts.push(text.slice(start, next).trimEnd());
      start = next;
      continue;
    }
    // The last sentence end that keeps the part at least a third full, else the last cut that fits.
    const ends = fits.filter((p) => sentence.has(p) && p - start >= max / 3);
    const at = ends.length > 0 ? ends[ends.length - 1]! : fits[fits.length - 1]!;
    parts.push(text.slice(start, at).trimEnd());
    start = at;
  }
  parts.push(text.slice(start));
  return parts.filter((p) => p.trim() !== "");
}

/**
 * A chunk's text as pieces: heading lines, fences and blank lines left out; lines longer than
 * `maxChars` cut (`splitLine`). `firstLine` is the chunk's first line in its file.
 */
export function piecesOf(text: string, firstLine: number, maxChars: number): Piece[] {
  const out: Piece[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\s+$/, "");
    if (line.trim() === "" || HEADING.test(line) || FENCE.test(line)) return;
    const parts = splitLine(line.trim(), maxChars);
    parts.forEach((p, part) => out.push({ line: firstLine + i, part, parts: parts.length, text: p }));
  });
  return out;
}
