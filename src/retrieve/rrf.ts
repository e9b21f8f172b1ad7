/**
 * Weighted reciprocal rank fusion (Cormack et al. 2009, with leg weights). Pure.
 *
 * Each leg contributes weight × 1 / (k + rank) for every item it returned, rank starting at 1. As
 * in the calibrated fusion (./fusion.ts), a leg that cannot hold an item at all (a chunk with no
 * vector yet) is left out of that item's sum and of its weights, so the item is ranked by the
 * other legs, not as if the missing leg had ranked it last; an item a leg could have returned but
 * did not contributes 0 from it. The sum is divided by the weights present and scaled by (k + 1):
 * an item every present leg ranked first scores 1, and scores stay on the 0-to-1 scale the priors
 * expect (src/retrieve/salience-rank.ts).
 */
export interface LegHit {
  id: string;
  /** The leg's own score (higher is better); reported, not used by RRF. */
  score: number;
}

export interface Leg {
  name: string;
  weight: number;
  /** Best first. */
  hits: LegHit[];
  /** Whether the leg could have returned this item (default: yes). */
  covers?: (id: string) => boolean;
}

export interface LegRank {
  rank: number;
  score: number;
}

export interface Fused {
  id: string;
  score: number;
  legs: Record<string, LegRank>;
}

/** Each leg's rank and score per item (a leg counts an item once, at its best rank). */
export function ranksOf(legs: readonly Leg[]): Map<string, Fused> {
  const byId = new Map<string, Fused>();
  for (const leg of legs) {
    leg.hits.forEach((hit, i) => {
      let f = byId.get(hit.id);
      if (!f) byId.set(hit.id, (f = { id: hit.id, score: 0, legs: {} }));
      if (f.legs[leg.name] === undefined) f.legs[leg.name] = { rank: i + 1, score: hit.score };
    });
  }
  return byId;
}

/** Best first: by score, then by the best rank any leg gave, then by id. */
export function byScore(fused: Iterable<Fused>): Fused[] {
  const bestRank = (f: Fused) => Math.min(...Object.values(f.legs).map((l) => l.rank));
  return [...fused].sort((a, b) => b.score - a.score || bestRank(a) - bestRank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Weighted RRF over the legs present for each item (see the file's comment); `k` > 0. */
export function rrf(all: readonly Leg[], k: number): Fused[] {
  const legs = all.filter((l) => l.weight > 0); // a leg not trusted at all adds nothing, not even its items
  const byId = ranksOf(legs);
  for (const f of byId.values()) {
    let num = 0;
    let den = 0;
    for (const leg of legs) {
      const r = f.legs[leg.name];
      if (r === undefined && leg.covers && !leg.covers(f.id)) continue; // missing that leg: ranked by the others
      num += r === undefined ? 0 : leg.weight / (k + r.rank);
      den += leg.weight;
    }
    f.score = den > 0 ? ((k + 1) * num) / den : 0;
  }
  return byScore(byId.values());
}

/**
 * The share of their weight the other legs keep in RRF for a query whose anchor leg (BM25) puts
 * its first result clearly ahead of its second. Pure.
 *
 * Ranks are all RRF sees: on its scale (scaled by k + 1) a leg's first result leads its second by
 * 1/(k + 2), whatever their scores. When BM25's second scores a small share of its first (a
 * question whose rare words only one text holds), that lead is 1 − second/first in BM25's own
 * terms, many times more. RRF then lets a light leg overturn a lead it could not overturn in the
 * scores. So the other legs' weights are scaled by 1/(k + 2) over the score lead, when that is the
 * larger: BM25's lead then costs them in RRF what it costs them in the scores. Two results close
 * in score, or no scores to compare, leave the weights whole (1). No parameter but RRF's own k.
 */
export function leadShare(anchorScores: readonly number[], k: number): number {
  const [first, second] = anchorScores;
  if (first === undefined || second === undefined || !(first > 0) || !Number.isFinite(first) || !Number.isFinite(second)) return 1;
  const lead = 1 - Math.max(0, second) / first;
  const rankLead = 1 / (k + 2);
  return lead > rankLead ? rankLead / lead : 1;
}
