/**
 * How rare a word is in the store: the BM25 inverse document frequency of its stem over every
 * indexed chunk, read from the text index's own vocabulary (an FTS5 `fts5vocab` view, one index
 * seek per word). The relevance floor weighs the prompt's words by it: a memory that holds the
 * prompt's rare words is about it; one that shares only its common words may not be.
 */
import type { Db } from "../store/db.js";
import { prepared } from "../store/statements.js";

/** How much a word (its stem) tells apart: an inverse document frequency, at least 0. */
export type Rarity = (stem: string) => number;

/** Every word alike: what the floor counts without the store's statistics. */
export const EVEN: Rarity = () => 1;

/** The BM25 inverse document frequency of a stem found in `df` of `n` documents. */
export const idf = (df: number, n: number) => Math.log(1 + (Math.max(0, n - df) + 0.5) / (df + 0.5));

/**
 * Documents the store's counts are taken against besides its own, none of which holds any word:
 * a small store's statistics say little (in a store of three notes every word it holds looks
 * common next to one it lacks), so until a store has thousands of chunks its words weigh nearly
 * alike, and the counts take over as it grows.
 */
export const BACKGROUND_DOCS = 1_000;

/**
 * The store's rarity of stems (as the index's Porter tokenizer makes them), for one prompt: the
 * counts are read when asked and kept for the life of the returned function. A store the view
 * cannot be made on (an old SQLite, a damaged index) weighs every word alike.
 */
export function storeRarity(db: Db): Rarity {
  try {
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_chunk_vocab USING fts5vocab(main, chunks_fts, row)");
    const docs = prepared(db, "SELECT count(*) FROM chunks").pluck().get() as number;
    const df = prepared(db, "SELECT doc FROM temp.mem_chunk_vocab WHERE term = ?").pluck();
    const seen = new Map<string, number>();
    return (stem) => {
      let r = seen.get(stem);
      if (r === undefined) {
        r = idf((df.get(stem) as number | undefined) ?? 0, docs + BACKGROUND_DOCS);
        seen.set(stem, r);
      }
      return r;
    };
  } catch {
    return EVEN;
  }
}
