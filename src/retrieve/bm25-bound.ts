/**
 * Which chunks the BM25 leg ranks when a prompt's words match more of them than it can afford to
 * score. FTS5 scores every chunk a MATCH finds with `bm25()` (a lookup of the chunk's length and a
 * walk of its positions each) and sorts them; an OR of 3 to 7 everyday words matches a few percent
 * of a large store (about 58,000 chunks of a million), and that scoring is what grows with the
 * store. Finding the matches is cheap next to it.
 *
 * The rule: each matching chunk is weighed by the inverse document frequencies of the query's
 * words it holds, each word once (BM25 with every term frequency and length alike: what a chunk's
 * score is made of before its counts are looked at). Chunks of equal weight form a level; whole
 * levels are kept from the heaviest down while they fit the budget, and at least `least` chunks
 * are kept when as many match. A chunk holding a rare word weighs more than one holding a common
 * word, and one holding two words more than one holding either: the rare words come first, and a
 * common word alone adds nothing to the ranking's candidates once heavier ones fill the budget.
 * `bm25()` then ranks the kept chunks exactly as before. What is left out can only have scored
 * higher through its counts (a common word repeated in a short chunk). Pure.
 */

/** FTS5's `bm25()` inverse document frequency of a phrase in `df` of `rows` rows (floored at 1e-6, as FTS5 does). */
export function fts5Idf(df: number, rows: number): number {
  const x = Math.log((rows - df + 0.5) / (df + 0.5));
  return x > 1e-6 ? x : 1e-6;
}

/**
 * A word's weight in whole units of 1/65,536 (integers add up exactly, in any order: chunks holding
 * the same words weigh exactly alike).
 */
const UNIT = 65_536;

/** Rowids in ascending order, each with a weight. */
interface Weighed {
  rows: ArrayLike<number>;
  weights: Int32Array;
}

/** Two weighed lists as one: a rowid in both gets the sum of its weights. */
function merge(a: Weighed, b: Weighed): Weighed {
  const ar = a.rows;
  const aw = a.weights;
  const br = b.rows;
  const bw = b.weights;
  const rows = new Float64Array(ar.length + br.length);
  const weights = new Int32Array(rows.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < ar.length && j < br.length) {
    const x = ar[i]!;
    const y = br[j]!;
    if (x < y) {
      rows[n] = x;
      weights[n++] = aw[i++]!;
    } else if (y < x) {
      rows[n] = y;
      weights[n++] = bw[j++]!;
    } else {
      rows[n] = x;
      weights[n++] = aw[i++]! + bw[j++]!;
    }
  }
  for (; i < ar.length; n++, i++) {
    rows[n] = ar[i]!;
    weights[n] = aw[i]!;
  }
  for (; j < br.length; n++, j++) {
    rows[n] = br[j]!;
    weights[n] = bw[j]!;
  }
  return { rows: rows.subarray(0, n), weights: weights.subarray(0, n) };
}

/** The list in ascending order (FTS5 gives it so; sorted if not). */
function ascending(list: readonly number[]): ArrayLike<number> {
  for (let k = 1; k < list.length; k++) if (list[k - 1]! >= list[k]!) return Float64Array.from(new Set(list)).sort();
  return list;
}

/**
 * The chunks to rank: `lists` holds, for each of the query's words, the rowids of the chunks that
 * hold it (in any of its forms); `rows` is the number of chunks indexed. `undefined` when every
 * match is kept (they fit the budget, or they are one level): rank them all, as without a bound.
 * `dfs`: each word's matches in the whole index, when `lists` holds only some of them (`inScope`).
 */
export function chunksToRank(lists: readonly (readonly number[])[], rows: number, budget: number, least: number, dfs?: readonly number[]): number[] | undefined {
  const sorted = lists.map(ascending);
  const weights = sorted.map((list, k) => Math.round(fts5Idf(dfs?.[k] ?? list.length, rows) * UNIT));
  return sorted.length <= MASK_WORDS ? byMasks(sorted, weights, budget, least) : bySums(sorted, weights, budget, least);
}

/** Up to this many words, a chunk's words are a bit mask and the levels counted per mask (an array of 2^words counts). */
const MASK_WORDS = 16;

/**
 * Every chunk of the lists once, ascending, with the sum of the weights of the lists holding it
 * (`weight(k)` for list k): the lists merged pairwise, a walk through memory in order, not a
 * lookup per rowid.
 */
function mergedAll(lists: readonly ArrayLike<number>[], weight: (k: number) => number): Weighed | undefined {
  let layer: Weighed[] = lists.map((rows, k) => ({ rows, weights: new Int32Array(rows.length).fill(weight(k)) }));
  while (layer.length > 1) {
    const next: Weighed[] = [];
    for (let k = 0; k < layer.length; k += 2) next.push(k + 1 < layer.length ? merge(layer[k]!, layer[k + 1]!) : layer[k]!);
    layer = next;
  }
  return layer[0];
}

/** The rowids of `all` whose level (`levelOf` its merged weight) is at least `lightest`. */
function keptRows(all: Weighed, levelOf: (w: number) => number, lightest: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < all.rows.length; k++) if (levelOf(all.weights[k]!) >= lightest) out.push(all.rows[k]!);
  return out;
}

/**
 * `chunksToRank` counting the chunks per mask of words held (no map of weights per chunk): a
 * mask's weight is the sum of its words' weights, masks of equal weight one level, so the levels
 * and the cut are those of the sums (`bySums`), to the chunk.
 */
function byMasks(lists: readonly ArrayLike<number>[], weights: readonly number[], budget: number, least: number): number[] | undefined {
  // disjoint bits: a chunk's lists' bits added up in the merge are its mask
  const all = mergedAll(lists, (k) => 1 << k);
  if (!all || all.rows.length <= budget) return undefined;
  const counts = new Int32Array(1 << lists.length);
  for (let k = 0; k < all.weights.length; k++) counts[all.weights[k]!]!++;
  const of = new Int32Array(counts.length); // each mask's weight
  for (let m = 1; m < of.length; m++) of[m] = of[m & (m - 1)]! + weights[31 - Math.clz32(m & -m)]!;
  const levels = new Map<number, number>();
  for (let m = 1; m < counts.length; m++) if (counts[m]! > 0) levels.set(of[m]!, (levels.get(of[m]!) ?? 0) + counts[m]!);
  const lightest = cutAt(levels, budget, least, all.rows.length);
  return lightest === undefined ? undefined : keptRows(all, (m) => of[m]!, lightest);
}

/** The weight of the lightest level kept (whole levels, heaviest first, within the budget, at least `least` chunks); `undefined` when every level is kept. */
function cutAt(levels: ReadonlyMap<number, number>, budget: number, least: number, total: number): number | undefined {
  let kept = 0;
  let lightest = Number.POSITIVE_INFINITY;
  for (const [x, n] of [...levels].sort((p, q) => q[0] - p[0])) {
    if (kept >= least && kept + n > budget) break;
    kept += n;
    lightest = x;
  }
  return kept === total ? undefined : lightest;
}

/** `chunksToRank` for any number of words: each chunk's summed weight, levels counted per weight. */
function bySums(lists: readonly ArrayLike<number>[], weights: readonly number[], budget: number, least: number): number[] | undefined {
  const all = mergedAll(lists, (k) => weights[k]!);
  if (!all || all.rows.length <= budget) return undefined;
  const levels = new Map<number, number>();
  for (const x of all.weights) levels.set(x, (levels.get(x) ?? 0) + 1);
  const lightest = cutAt(levels, budget, least, all.rows.length);
  return lightest === undefined ? undefined : keptRows(all, (w) => w, lightest);
}

/** The rowids of an ascending `list` that `scope` (ascending) holds: one walk of both. */
export function within(list: readonly number[], scope: ArrayLike<number>): number[] {
  const sorted = ascending(list);
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    const x = sorted[i]!;
    while (j < scope.length && scope[j]! < x) j++;
    if (j === scope.length) break;
    if (scope[j] === x) out.push(x);
  }
  return out;
}

/**
 * The chunks the filtered ranking scores when the projects searched are a small part of the
 * store: the same rule as `chunksToRank`, over each word's matches within `scope` (the projects'
 * rowids, ascending), the words still weighed by their frequency in the whole index as `bm25()`
 * weighs them. `every`: no match in scope is left out (they fit the budget, or are one level).
 */
export function inScope(lists: readonly (readonly number[])[], scope: ArrayLike<number>, rows: number, budget: number, least: number): { rowids: number[]; every: boolean } {
  const scoped = lists.map((l) => within(l, scope));
  const kept = chunksToRank(scoped, rows, budget, least, lists.map((l) => l.length));
  if (kept) return { rowids: kept, every: false };
  return { rowids: [...new Set(scoped.flat())].sort((a, b) => a - b), every: true };
}
