import type { Db } from "./db.js";
import { prepared } from "./statements.js";

/**
 * How rare each indexed term (a stem, as the full-text index has it) is in the store: its BM25
 * inverse document frequency over the chunks holding it (chunks_vocab). Looked up once per term
 * per call of the returned function's owner (one prompt). A term the index never saw weighs 0 (no
 * chunk can hold it, so it cannot tell one candidate from another).
 */
export function termRarity(db: Db): (stem: string) => number {
  let n: number | undefined;
  const seen = new Map<string, number>();
  return (stem) => {
    let r = seen.get(stem);
    if (r !== undefined) return r;
    n ??= (prepared(db, "SELECT count(*) FROM chunks").pluck().get() as number) ?? 0;
    let df = 0;
    try {
      df = (prepared(db, "SELECT doc FROM chunks_vocab WHERE term = ?").pluck().get(stem) as number | undefined) ?? 0;
    } catch {
      df = 0; // no vocabulary table (an old store mid-migration): every word alike below
    }
    // A word no chunk holds is no evidence for or against any of them: it weighs nothing.
    r = df === 0 ? 0 : Math.log(1 + (Math.max(0, n - df) + 0.5) / (df + 0.5));
    seen.set(stem, r);
    return r;
  };
}
