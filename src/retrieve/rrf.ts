/**
 * Reciprocal Rank Fusion (Cormack et al. 2009): each leg contributes weight / (k + rank) for every
 * item it returned, rank starting at 1. Pure.
 */
export interface LegHit {
  id: string;
  /** The leg's own score (higher is better); reported, not used for fusion. */
  score: number;
}

export interface Leg {
  name: string;
  weight: number;
  /** Best first. */
  hits: LegHit[];
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

export function rrf(legs: Leg[], k: number): Fused[] {
  const byId = new Map<string, Fused>();
  for (const leg of legs) {
    const seen = new Set<string>();
    leg.hits.forEach((hit, i) => {
      if (seen.has(hit.id)) return; // a leg counts each item once, at its best rank
      seen.add(hit.id);
      const rank = i + 1;
      let f = byId.get(hit.id);
      if (!f) byId.set(hit.id, (f = { id: hit.id, score: 0, legs: {} }));
      f.score += leg.weight / (k + rank);
      f.legs[leg.name] = { rank, score: hit.score };
    });
  }
  const bestRank = (f: Fused) => Math.min(...Object.values(f.legs).map((l) => l.rank));
  return [...byId.values()].sort((a, b) => b.score - a.score || bestRank(a) - bestRank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
