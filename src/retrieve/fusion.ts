/**
 * Fusion that knows how far to trust each leg. Pure.
 *
 * Each leg's scores are normalised to 0..1 (BM25 as a share of its best score, similarities min-max
 * over what the leg returned), then combined convexly:
 *
 *   score = Σ over the legs present for the item of  weight × normalised score  /  Σ of those weights
 *
 * BM25 is the anchor (weight 1). The vector leg's weight is how far to trust it here:
 *
 *   weight = calibrated (what the leg showed on pseudo-queries made from this store's own chunks,
 *            for this model: src/retrieve/calibration.ts) × query (how clearly its best hit stands
 *            out of the rest of its list for this query: a broken or name-dominated model answers
 *            every question with a flat list, a leg that knows the answer with one that stands out)
 *
 * A leg is "present" for an item unless the item cannot be in it at all (a chunk with no vector
 * yet): such an item is ranked by the other legs, not as if the missing leg had ranked it last.
 * An item a leg could have returned but did not scores 0 in that leg.
 */
import { byScore, ranksOf, rrf, type Fused, type Leg, type LegHit } from "./rrf.js";

/** A leg as both fusions take it: best first, the leg's own scores (higher is better), its weight for this query (0 to 1), and whether it could have returned an item (default: yes). */
export interface FusionLeg extends Leg {
  /**
   * How its scores become 0 to 1: "ratio" (score / best: BM25, whose scores are positive and whose
   * ratios say how close two matches are) or "range" (min-max over the list: similarities). Default "range".
   */
  scale?: "ratio" | "range";
}

/** The mean and (population) standard deviation of scores, and how many there are. */
export function spread(xs: readonly number[]): { mean: number; sd: number; n: number } {
  const mean = xs.length > 0 ? xs.reduce((a, x) => a + x, 0) / xs.length : 0;
  return { mean, sd: xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length) : 0, n: xs.length };
}

/** How clearly a list's best score stands out of the others: (best − mean of the rest) / their spread. */
export function standout(scores: readonly number[]): number {
  if (scores.length < 3) return 0;
  const [top, ...rest] = scores as [number, ...number[]];
  const { mean, sd } = spread(rest);
  if (!(sd > 1e-9)) return top > mean ? 10 : 0;
  return (top - mean) / sd;
}

export interface TrustConfig {
  /** The share a query earns however flat the leg's list (the calibration already vouches for the leg). */
  floor: number;
  /** Below this standout the leg's answer for the query earns only the floor. */
  standoutLow: number;
  /** At or above this standout it earns its full calibrated weight. */
  standoutHigh: number;
}

/**
 * A flat list earns 30% of the calibrated weight. Calibration asks questions made from the store's
 * own text, which a model answers better than a person's question: a leg that finds those (weight
 * near 1) may still answer real questions with lists no better than chance. At 0.8 such a leg
 * (bench:fusion's good leg at noise 10: vector alone R@5 29) took hybrid R@5 2 points under BM25
 * alone; at 0.3 it stays level, for 0.5–1 point less of a good leg's gain (npm run bench:fusion).
 */
export const TRUST_DEFAULTS: TrustConfig = { floor: 0.3, standoutLow: 2, standoutHigh: 4 };

/** The per-query share of the calibrated weight a vector leg earns, from its scores (0 to 1). */
export function queryTrust(scores: readonly number[], c: TrustConfig = TRUST_DEFAULTS): number {
  const z = standout(scores);
  const ramp = z <= c.standoutLow ? 0 : z >= c.standoutHigh ? 1 : (z - c.standoutLow) / (c.standoutHigh - c.standoutLow);
  return c.floor + (1 - c.floor) * ramp;
}

/** Normalised scores of one leg, the best 1: min-max ("range"; all equal: all 1), or score / best ("ratio", for positive scores). */
export function normalise(hits: readonly LegHit[], scale: "ratio" | "range" = "range"): Map<string, number> {
  const out = new Map<string, number>();
  if (hits.length === 0) return out;
  if (scale === "ratio") {
    const best = Math.max(...hits.map((h) => h.score));
    if (best > 0) {
      for (const h of hits) if (!out.has(h.id)) out.set(h.id, Math.max(0, h.score) / best);
      return out;
    }
  }
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const h of hits) {
    lo = Math.min(lo, h.score);
    hi = Math.max(hi, h.score);
  }
  const span = hi - lo;
  for (const h of hits) if (!out.has(h.id)) out.set(h.id, span > 0 ? (h.score - lo) / span : 1);
  return out;
}

/** How the legs were weighed for one search (hybrid with both legs), as `--explain`, `--json` and the Legs page show it. */
export interface FusionReport {
  /** How the legs were combined: weighted RRF (with its `k`) or the calibrated convex combination. */
  method: FusionMethod; k?: number;
  /** RRF: the share of its weight the vector leg kept against BM25's lead at the top (./rrf.ts leadShare; 1: none lost). */
  lead?: number;
  /** The weight each leg got for this query (BM25 the anchor, 1). */
  weights: { bm25: number; vector: number };
  /** The vector leg's calibrated weight for this store and model (the prior when never calibrated). */
  calibrated: number;
  /** The share of it this query earned, from how far its best hit stands out (0 to 1). */
  query: number;
  standout: number;
  /** Why, in words. */
  reason: string;
  /** Candidates with no vector in this model's table: ranked by BM25 alone. */
  unembedded: number;
  /**
   * The leg's own scores for this query but its best (mean and spread): a result's similarity
   * is judged by how far it stands out of them (the relevance floor), not by a raw cosine whose
   * range differs from model to model.
   */
  spread: { mean: number; sd: number; n: number };
}

/** The two ways to combine the legs (`query.fusion`, `--fusion`). */
export type FusionMethod = "rrf" | "calibrated";
export const FUSION_METHODS: readonly FusionMethod[] = ["rrf", "calibrated"];

/**
 * Fuses the legs by `method`: weighted RRF (./rrf.ts, constant `k`) or the calibrated convex
 * combination (`fuse`). Either way a leg under weight 0 is left out; and when one leg is left,
 * there is nothing to fuse: it ranks by its own normalised scores, the same for both methods (a
 * vector leg calibrated to 0 leaves BM25's ranking exactly as it is alone).
 */
export function fuseBy(method: FusionMethod, legs: readonly FusionLeg[], k: number): Fused[] {
  return method === "rrf" && legs.filter((l) => l.weight > 0).length > 1 ? rrf(legs, k) : fuse(legs);
}

/** Weighted convex fusion over the legs present for each item (see the file's comment). */
export function fuse(all: readonly FusionLeg[]): Fused[] {
  const legs = all.filter((l) => l.weight > 0); // a leg not trusted at all adds nothing, not even its items
  const norms = legs.map((l) => normalise(l.hits, l.scale));
  const byId = ranksOf(legs);
  for (const f of byId.values()) {
    let num = 0;
    let den = 0;
    legs.forEach((leg, li) => {
      const inLeg = f.legs[leg.name] !== undefined;
      if (!inLeg && leg.covers && !leg.covers(f.id)) return; // missing that leg: ranked by the others
      num += leg.weight * (norms[li]!.get(f.id) ?? 0);
      den += leg.weight;
    });
    f.score = den > 0 ? num / den : 0;
  }
  return byScore(byId.values());
}

/**
 * Vector similarities with the direction every text of the store shares taken out. Some models
 * (USE on a conversation, where every turn names its speaker) give every text a large common
 * component; its share in a chunk's similarity then ranks the same chunks first whatever is asked.
 * `hub` is that share per chunk (its project's mean vector · the chunk's, src/store/fusion-calibration.ts);
 * a chunk without one gets the mean of those known. Returns the hits re-ranked, best first. Pure.
 */
export function centred(hits: readonly LegHit[], hub: ReadonlyMap<string, number>): LegHit[] {
  if (hub.size === 0) return [...hits];
  const known = hits.map((h) => hub.get(h.id)).filter((x): x is number => x !== undefined);
  const mean = known.length > 0 ? known.reduce((s, x) => s + x, 0) / known.length : 0;
  return hits.map((h) => ({ id: h.id, score: h.score - (hub.get(h.id) ?? mean) })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The mean of unit vectors (not normalised): its length says how much of each text is shared. */
export function meanVector(vs: readonly Float32Array[]): Float32Array {
  const dims = vs[0]?.length ?? 0;
  const m = new Float32Array(dims);
  for (const v of vs) {
    const n = Math.hypot(...v) || 1;
    for (let i = 0; i < dims; i++) m[i] = m[i]! + v[i]! / n / vs.length;
  }
  return m;
}
