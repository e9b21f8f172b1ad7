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

/** What a connection read of the index's counts, while the index is as it was (`stamp`). */
interface Counts {
  stamp: Buffer | undefined;
  docs: number;
  df: Map<string, number>;
}
const read = new WeakMap<Db, Counts>();
/** At most this many words' counts are kept per connection (emptied when full). */
const MOST_WORDS = 20_000;

/**
 * FTS5's structure record: it is written again whenever the index changes (a flushed write, a
 * delete, a merge), so while it is the same so is every word's count and the chunks' number.
 */
function indexStamp(db: Db): Buffer | undefined {
  return prepared(db, "SELECT block FROM chunks_fts_data WHERE id = 10").pluck().get() as Buffer | undefined;
}

/**
 * The store's rarity of stems (as the index's Porter tokenizer makes them), for one prompt. A
 * word's count walks its whole list of chunks in the index (at a million chunks, milliseconds for
 * a common word): the counts are kept per connection while the index is unchanged (its structure
 * record), so a long-running process (the daemon) reads a word's count once per change of the
 * store, not once per prompt. A store the view cannot be made on (an old SQLite, a damaged index)
 * weighs every word alike.
 */
export function storeRarity(db: Db): Rarity {
  try {
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_chunk_vocab USING fts5vocab(main, chunks_fts, row)");
    const stamp = indexStamp(db);
    let counts = read.get(db);
    if (!counts || !(stamp === undefined ? counts.stamp === undefined : counts.stamp?.equals(stamp))) {
      counts = { stamp, docs: prepared(db, "SELECT count(*) FROM chunks").pluck().get() as number, df: new Map() };
      read.set(db, counts);
    }
    const { docs, df: known } = counts;
    const df = prepared(db, "SELECT doc FROM temp.mem_chunk_vocab WHERE term = ?").pluck();
    return (stem) => {
      let n = known.get(stem);
      if (n === undefined) {
        n = (df.get(stem) as number | undefined) ?? 0;
        if (known.size >= MOST_WORDS) known.clear();
        known.set(stem, n);
      }
      return idf(n, docs + BACKGROUND_DOCS);
    };
  } catch {
    return EVEN;
  }
}
