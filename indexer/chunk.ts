/**
 * Heading-aware markdown chunking. Pure: text + options in, chunks out.
 *
 * - Every heading starts a new chunk (a heading with nothing under it yet is carried into the next
 *   chunk, so "# A" directly followed by "## B" gives one chunk under A > B).
 * - Inside a section, blocks (paragraphs, list items, fenced code) are packed up to `chunkTokens`;
 *   a section that does not fit is cut at a block boundary and the next chunk repeats up to
 *   `overlapTokens` of trailing blocks.
 * - A fenced code block is never cut unless it alone exceeds `chunkTokens`; then it is cut at line
 *   boundaries. A single line longer than a chunk is cut at word boundaries.
 * - Each chunk keeps its heading path and 1-based inclusive line range in the original file.
 * - A section smaller than `minChunkTokens` ("Status: Accepted", a one-line "Decision") joins its
 *   neighbour under the same top heading, while the two fit in `chunkTokens`: alone it would rank
 *   on its heading and say nothing. The joined chunk's heading path is what the two share.
 */
export interface ChunkOptions {
  chunkTokens: number;
  overlapTokens: number;
  /** Sections below this many tokens join a neighbour. Default 0: every heading starts a chunk. */
  minChunkTokens?: number;
}

export interface Chunk {
  text: string;
  headingPath: string[];
  startLine: number;
  endLine: number;
}

/** A rough token count (≈ 4 characters a token for English prose and code). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

type BlockKind = "heading" | "code" | "text";
interface Block {
  kind: BlockKind;
  start: number; // 0-based line index, inclusive
  end: number;
  level?: number;
  title?: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+/;

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
    const heading = HEADING.exec(line);
    if (heading) {
      closePara();
      blocks.push({ kind: "heading", start: i, end: i, level: heading[1]!.length, title: (heading[2] ?? "").trim() });
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
  const maxChars = maxTokens * 4;
  const units: Unit[] = [];
  let rest = line;
  while (rest.length > 0) {
    let cut = rest.length <= maxChars ? rest.length : rest.lastIndexOf(" ", maxChars);
    if (cut <= maxChars / 2) cut = Math.min(rest.length, maxChars);
    const piece = rest.slice(0, cut);
    units.push({ start: index, end: index, tokens: estimateTokens(piece), heading: false, text: piece });
    rest = rest.slice(cut).replace(/^ +/, "");
  }
  return units;
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
    if (block.kind === "heading") {
      if (current.some((u) => !u.heading)) {
        emit();
        current = [];
      }
      while (stack.length > 0 && stack[stack.length - 1]!.level >= block.level!) stack.pop();
      stack.push({ level: block.level!, title: block.title! });
      currentPath = stack.map((h) => h.title).filter((t) => t !== "");
      current.push(...unitsOf(block, lines, opts.chunkTokens));
      continue;
    }
    for (const unit of unitsOf(block, lines, opts.chunkTokens)) {
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
  return joinSmall(chunks, opts);
}

function sharedPath(a: string[], b: string[]): string[] {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return a.slice(0, n);
}

/** Joins each chunk below `minChunkTokens` with the next (or the previous) one, as the options allow. */
function joinSmall(chunks: Chunk[], opts: ChunkOptions): Chunk[] {
  const min = opts.minChunkTokens ?? 0;
  if (min <= 0) return chunks;
  const out: Chunk[] = [];
  for (const c of chunks) {
    const prev = out[out.length - 1];
    const shared = prev ? sharedPath(prev.headingPath, c.headingPath) : [];
    const [a, b] = [prev ? estimateTokens(prev.text) : 0, estimateTokens(c.text)];
    const joinable =
      prev !== undefined &&
      (a < min || b < min) &&
      c.startLine > prev.endLine && // not the overlapping continuation of a section cut in two
      shared.length > 0 &&
      a + b <= opts.chunkTokens;
    if (!joinable) {
      out.push(c);
      continue;
    }
    const text = prev.text + "\n".repeat(c.startLine - prev.endLine) + c.text; // blank lines between, as emitted
    out[out.length - 1] = { text, headingPath: shared, startLine: prev.startLine, endLine: c.endLine };
  }
  return out;
}
