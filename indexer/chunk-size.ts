/**
 * Chunk sizes, for ./chunk.ts: the chunk and option types, the token estimate, and the two passes
 * that keep chunks within bounds once cut. Pure.
 *
 * - Too long: no chunk is longer than `maxChunkChars` (twice the chunk size); `capChunk` cuts one
 *   still too long (long runs of blank lines) at line, then word boundaries (`splitWords`, which
 *   ./chunk.ts also uses for a single line longer than a chunk).
 * - Too short: `joinSmall` joins a section smaller than `minChunkTokens` ("Status: Accepted", a
 *   one-line "Decision") with its neighbour under the same top heading, while the two fit in
 *   `chunkTokens`: alone it would rank on its heading and say nothing. The joined chunk's heading
 *   path is what the two share.
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

/** The hard limit on a chunk's text, in characters: twice the chunk size. */
export function maxChunkChars(opts: ChunkOptions): number {
  return opts.chunkTokens * 4 * 2;
}

/** Cuts a line into pieces of at most `maxChars`, at the last space of each when there is one past the middle. */
export function splitWords(line: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > 0) {
    let cut = rest.length <= maxChars ? rest.length : rest.lastIndexOf(" ", maxChars);
    if (cut <= maxChars / 2) cut = Math.min(rest.length, maxChars);
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ +/, "");
  }
  return pieces;
}

/**
 * Cuts a chunk longer than `maxChars` (only pathological input makes one: thousands of blank
 * lines inside a section) at line boundaries, a line longer than that at word boundaries. Blank
 * lines at the edges of a piece are dropped; a piece's lines are counted from the chunk's first.
 */
export function capChunk(c: Chunk, maxChars: number): Chunk[] {
  const lines = c.text.split("\n");
  const out: Chunk[] = [];
  const push = (text: string, a: number, b: number) =>
    out.push({ text, headingPath: c.headingPath, startLine: Math.min(c.startLine + a, c.endLine), endLine: Math.min(c.startLine + b, c.endLine) });
  let from = -1; // first line of the piece being gathered
  let len = 0;
  const flush = (to: number) => {
    if (from < 0) return;
    let [a, b] = [from, to - 1];
    while (a <= b && lines[a]!.trim() === "") a++;
    while (b >= a && lines[b]!.trim() === "") b--;
    if (a <= b) push(lines.slice(a, b + 1).join("\n"), a, b);
    from = -1;
    len = 0;
  };
  lines.forEach((line, i) => {
    if (line.length > maxChars) {
      flush(i);
      for (const piece of splitWords(line, maxChars)) if (piece.trim() !== "") push(piece, i, i);
      return;
    }
    if (from >= 0 && len + 1 + line.length > maxChars) flush(i);
    if (from < 0 && line.trim() === "") return; // a piece never starts with a blank line
    len = from < 0 ? line.length : len + 1 + line.length;
    if (from < 0) from = i;
  });
  flush(lines.length);
  return out;
}

function sharedPath(a: string[], b: string[]): string[] {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return a.slice(0, n);
}

/** Joins each chunk below `minChunkTokens` with the next (or the previous) one, as the options allow. */
export function joinSmall(chunks: Chunk[], opts: ChunkOptions): Chunk[] {
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
