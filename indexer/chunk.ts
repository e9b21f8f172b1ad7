/**
 * Heading-aware markdown chunking. Pure: text + options in, chunks out. This file parses blocks and
 * headings and packs them into chunks; ./chunk-size.ts holds the types, the token estimate and the
 * passes that cap chunks too long and join chunks too short.
 *
 * - Every heading starts a new chunk (a heading with nothing under it yet is carried into the next
 *   chunk, so "# A" directly followed by "## B" gives one chunk under A > B).
 * - Inside a section, blocks (paragraphs, list items, fenced code) are packed up to `chunkTokens`;
 *   a section that does not fit is cut at a block boundary and the next chunk repeats up to
 *   `overlapTokens` of trailing blocks.
 * - A fenced code block is never cut unless it alone exceeds `chunkTokens`; then it is cut at line
 *   boundaries. A single line longer than a chunk is cut at word boundaries.
 * - Each chunk keeps its heading path and 1-based inclusive line range in the original file.
 * - A section smaller than `minChunkTokens` joins its neighbour under the same top heading, while
 *   the two fit in `chunkTokens` (./chunk-size.ts `joinSmall`).
 * - Whatever the input, no chunk is longer than `maxChunkChars` (twice the chunk size): a run of
 *   headings with nothing under them is cut like any other content, and a chunk still too long
 *   (long runs of blank lines) is cut at line, then word boundaries (./chunk-size.ts `capChunk`).
 *   Heading titles are cut at MAX_TITLE_CHARS. Linear time: no regular expression here backtracks
 *   on long lines.
 */
import { capChunk, estimateTokens, joinSmall, maxChunkChars, splitWords, type Chunk, type ChunkOptions } from "./chunk-size.js";

/** Heading titles longer than this are cut (with "…") in heading paths. */
export const MAX_TITLE_CHARS = 1_000;

type BlockKind = "heading" | "code" | "text";
interface Block {
  kind: BlockKind;
  start: number; // 0-based line index, inclusive
  end: number;
  level?: number;
  title?: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+/;

const isBlank = (c: string | undefined) => c === " " || c === "\t";

/**
 * An ATX heading: what `/^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/` matches (title:
 * group 2, trimmed), found in linear time: that expression backtracks quadratically on a long run
 * of spaces.
 */
export function parseHeading(line: string): { level: number; title: string } | undefined {
  let i = 0;
  while (i < 3 && line[i] === " ") i++;
  let level = 0;
  while (line[i + level] === "#") level++;
  if (level === 0 || level > 6) return undefined;
  const after = line.slice(i + level);
  if (after === "") return { level, title: "" };
  if (!isBlank(after[0]) || /[\r\n\u2028\u2029]/.test(after)) return undefined;
  let start = 0;
  while (isBlank(after[start])) start++;
  // The title is what is left once the longest closing sequence ([ \t]+#+)?[ \t]* is taken off the end.
  let end = after.length;
  while (end > start && isBlank(after[end - 1])) end--;
  let hashes = end;
  while (hashes > start && after[hashes - 1] === "#") hashes--;
  let blanks = hashes;
  while (blanks > start && isBlank(after[blanks - 1])) blanks--;
  if (hashes < end && blanks < hashes) end = blanks;
  const title = after.slice(start, end).trim();
  return { level, title: title.length > MAX_TITLE_CHARS ? `${title.slice(0, MAX_TITLE_CHARS)}…` : title };
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let para: Block | undefined;
  const closePara = () => {
    if (para) blocks.push(para);
    para = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      closePara();
      const marker = fence[1]!;
      let end = i + 1;
      const closer = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
      while (end < lines.length && !closer.test(lines[end]!)) end++;
      end = Math.min(end, lines.length - 1);
      blocks.push({ kind: "code", start: i, end });
      i = end;
      continue;
    }
    const heading = line.includes("#") ? parseHeading(line) : undefined;
    if (heading) {
      closePara();
      blocks.push({ kind: "heading", start: i, end: i, level: heading.level, title: heading.title });
      continue;
    }
    if (line.trim() === "") {
      closePara();
      continue;
    }
    if (LIST_ITEM.test(line)) closePara();
    if (para) para.end = i;
    else para = { kind: "text", start: i, end: i };
  }
  closePara();
  return blocks;
}

/** A piece of text to pack: whole lines [start, end], or (when `text` is set) part of one line. */
interface Unit {
  start: number;
  end: number;
  tokens: number;
  heading: boolean;
  text?: string;
}

function splitLongLine(line: string, index: number, maxTokens: number): Unit[] {
  return splitWords(line, maxTokens * 4).map((piece) => ({ start: index, end: index, tokens: estimateTokens(piece), heading: false, text: piece }));
}

/** Turns a block into packable units, cutting blocks larger than a chunk at line (then word) boundaries. */
function unitsOf(block: Block, lines: string[], maxTokens: number): Unit[] {
  const slice = lines.slice(block.start, block.end + 1);
  const tokens = estimateTokens(slice.join("\n"));
  if (tokens <= maxTokens) return [{ start: block.start, end: block.end, tokens, heading: block.kind === "heading" }];
  const units: Unit[] = [];
  let cur: Unit | undefined;
  for (let i = block.start; i <= block.end; i++) {
    const t = estimateTokens(lines[i]!) + 1;
    if (t > maxTokens) {
      if (cur) units.push(cur);
      cur = undefined;
      units.push(...splitLongLine(lines[i]!, i, maxTokens));
      continue;
    }
    if (cur && cur.tokens + t > maxTokens) {
      units.push(cur);
      cur = undefined;
    }
    if (cur) {
      cur.end = i;
      cur.tokens += t;
    } else cur = { start: i, end: i, tokens: t, heading: false };
  }
  if (cur) units.push(cur);
  return units;
}

export function chunkMarkdown(markdown: string, opts: ChunkOptions, firstLine = 1): Chunk[] {
  const lines = markdown.split(/\r?\n/);
  const chunks: Chunk[] = [];
  const stack: { level: number; title: string }[] = [];
  let current: Unit[] = [];
  let currentPath: string[] = [];

  const emit = () => {
    if (current.length === 0) return;
    const first = current[0]!;
    const last = current[current.length - 1]!;
    // Units are separated only by blank lines in the source, so the gaps are rebuilt as newlines.
    let text = "";
    let prevEnd = -1;
    for (const u of current) {
      const body = u.text ?? lines.slice(u.start, u.end + 1).join("\n");
      text = prevEnd < 0 ? body : text + "\n".repeat(Math.max(1, u.start - prevEnd)) + body;
      prevEnd = u.end;
    }
    if (text.trim() !== "") chunks.push({ text, headingPath: currentPath, startLine: first.start + firstLine, endLine: last.end + firstLine });
  };

  for (const block of parseBlocks(lines)) {
    const units = unitsOf(block, lines, opts.chunkTokens);
    if (block.kind === "heading") {
      // A heading ends the chunk before it; so does a run of headings alone that is full.
      const size = current.reduce((s, u) => s + u.tokens, 0) + units.reduce((s, u) => s + u.tokens, 0);
      if (current.some((u) => !u.heading) || (current.length > 0 && size > opts.chunkTokens)) {
        emit();
        current = [];
      }
      while (stack.length > 0 && stack[stack.length - 1]!.level >= block.level!) stack.pop();
      stack.push({ level: block.level!, title: block.title! });
      currentPath = stack.map((h) => h.title).filter((t) => t !== "");
      current.push(...units);
      continue;
    }
    for (const unit of units) {
      const size = current.reduce((s, u) => s + u.tokens, 0);
      const partial = unit.text !== undefined || current.some((u) => u.text !== undefined);
      if (current.length > 0 && (size + unit.tokens > opts.chunkTokens || partial) && current.some((u) => !u.heading)) {
        emit();
        // Overlap: repeat trailing whole-line units of the previous chunk, up to overlapTokens.
        const carried: Unit[] = [];
        let carriedTokens = 0;
        for (let i = current.length - 1; i >= 0; i--) {
          const u = current[i]!;
          if (u.text !== undefined || unit.text !== undefined || carriedTokens + u.tokens + unit.tokens > opts.chunkTokens) break;
          if (carriedTokens + u.tokens > opts.overlapTokens) break;
          carried.unshift(u);
          carriedTokens += u.tokens;
        }
        current = carried;
      }
      current.push(unit);
    }
  }
  emit();
  const max = maxChunkChars(opts);
  return joinSmall(chunks, opts).flatMap((c) => (c.text.length <= max ? [c] : capChunk(c, max)));
}
