import type { Db } from "../store/db.js";
import { prepared } from "../store/statements.js";

/**
 * Finding a statement's twins (stored statements that share at least a fraction `threshold` of
 * its words, by Jaccard) through the text index, at a cost that does not grow with the number
 * stored. A twin lacks at most ⌊(1 − threshold)·n⌋ of the statement's n words, so any
 * ⌊(1 − threshold)·n⌋ + 1 of them include one it has: the rarest are taken (fewest documents to
 * read), and only the documents that hold one of them are candidates.
 */

/**
 * A statement's words are looked for as written, in a chunk's heading and text: not among the
 * words of its identifiers (the index's third column), which a twin's words are not.
 */
const written = (expr: string) => `{heading text} : (${expr})`;

/** The `count` rarest of `words` by `df` (documents holding the word), rarest first. Pure. */
export function rarest(words: readonly string[], count: number, df: (word: string) => number): string[] {
  return words
    .map((w) => ({ w, n: df(w) }))
    .sort((a, b) => a.n - b.n || (a.w < b.w ? -1 : a.w > b.w ? 1 : 0))
    .slice(0, count)
    .map((x) => x.w);
}

/** How many of `n` words a twin at `threshold` is sure to keep one of. */
export const probeSize = (n: number, threshold: number) => Math.min(n, Math.floor((1 - threshold) * n + 1e-9) + 1);

/** Documents holding `word` (FTS5, Porter-stemmed as indexed), all projects and kinds. */
function documentsWith(db: Db, word: string): number {
  return prepared(db, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?").pluck().get(written(`"${word.replace(/"/g, '""')}"`)) as number;
}

/**
 * Chunks of `project` and `kind` that hold at least one of the probe words of `words` (distinct
 * words of the statement, one per content word), at most `limit`; their order is the index's.
 */
export function twinCandidates(db: Db, words: readonly string[], threshold: number, project: string, kind: string, limit: number): string[] {
  if (words.length === 0) return [];
  const probe = rarest(words, probeSize(words.length, threshold), (w) => documentsWith(db, w));
  const match = probe.map((w) => `"${w.replace(/"/g, '""')}"`).join(" OR ");
  return prepared(
    db,
    `SELECT c.id FROM chunks_fts f JOIN chunks c ON c.rowid = f.rowid
     WHERE chunks_fts MATCH ? AND c.project = ? AND c.kind = ? LIMIT ?`,
  )
    .pluck()
    .all(written(match), project, kind, limit) as string[];
}

/**
 * Chunks of `project` and `kind` holding every one of `words` (the first `max`: put the most
 * telling first), at most `limit`. For an exact twin, whose words are all there: the index's
 * intersection finds it at once, however common each word is.
 */
export function chunksWithAll(db: Db, words: readonly string[], project: string, kind: string, limit: number, max = 8): string[] {
  const ask = [...new Set(words)].slice(0, max);
  if (ask.length === 0) return [];
  const match = ask.map((w) => `"${w.replace(/"/g, '""')}"`).join(" AND ");
  return prepared(db, "SELECT c.id FROM chunks_fts f JOIN chunks c ON c.rowid = f.rowid WHERE chunks_fts MATCH ? AND c.project = ? AND c.kind = ? LIMIT ?").pluck().all(written(match), project, kind, limit) as string[];
}
