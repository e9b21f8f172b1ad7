/**
 * How a result's score is made, in words: what it is (a note's lines, a memory), its legs, the
 * ranking formula's factors and how fusion weighed the legs. `mem query --explain`, `mem why` and
 * the explorer all say it so. Pure.
 */
import { relative } from "node:path";
import type { SalienceConfig } from "../memory/salience.js";
import type { SearchResponse, SearchResult } from "./search.js";
import { field, prose, shortSession } from "../render/line.js";

/** A leg's own score, short. */
export function fmt(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(1) : n.toPrecision(4);
}

/**
 * What a result is: a note's passage by its file and lines, or a memory (explicit or captured,
 * whose chunk's source is its session) by its kind and session: `decision memory · no session`.
 */
export function what(r: Pick<SearchResult, "path" | "startLine" | "endLine" | "kind">, root: string | undefined): string {
  if (r.path.startsWith("session:")) {
    const session = r.path.slice("session:".length);
    return `${field(r.kind, 40)} memory · ${session === "" || session === "unknown" ? "no session" : `session ${field(shortSession(session), 40)}`}`;
  }
  return `${field(root ? relative(root, r.path) || r.path : r.path, 300)}:${r.startLine}-${r.endLine}`;
}

/**
 * The factor of the one ranking formula (src/retrieve/salience-rank.ts), term by term:
 * `salience term 0.96 (salience 0.85 = …; weight 0.25) × possibly outdated 0.90 × in play 1.08 (src/a.ts changed in git)`
 */
export function explainFactor(r: Pick<SearchResult, "salience" | "kind">, cfg: SalienceConfig, root: string | undefined): string {
  const s = r.salience!;
  const terms = [`salience term ${(1 - cfg.weight + cfg.weight * s.value).toFixed(3)} (${explainSalience(r)}; weight ${cfg.weight})`];
  if (s.stale) terms.push(`possibly outdated ${cfg.stalePenalty.toFixed(2)}`);
  if (s.inPlay) terms.push(`in play ${(1 + cfg.inPlayBoost).toFixed(2)} (${field(root ? relative(root, s.inPlay.path) || s.inPlay.path : s.inPlay.path, 200)} ${s.inPlay.why})`);
  return terms.join(" × ");
}

/** `salience 0.94 = decision default 1.00, used 2×, last 12 h ago (× 0.94 decay); weight 0.25` */
function explainSalience(r: Pick<SearchResult, "salience" | "kind">): string {
  const s = r.salience!;
  const what = s.source === "markdown" ? `${s.tier ?? "warm"} note` : field(r.kind, 30);
  const parts = [`salience ${s.value.toFixed(2)} = ${what} default ${s.base.toFixed(2)}`];
  if (s.uses > 0) parts.push(`used ${s.uses}× (stored ${s.stored.toFixed(2)})`);
  if (s.decay < 1) parts.push(`${s.hours < 48 ? `${s.hours.toFixed(0)} h` : `${(s.hours / 24).toFixed(0)} d`} since last use: × ${s.decay.toFixed(3)}`);
  else parts.push(s.source === "markdown" ? "notes do not decay" : s.uses > 0 ? "used just now" : "made just now");
  if (s.floored) parts.push("held at the floor of an immortal kind");
  return parts.join(", ");
}


/**
 * How fusion weighed the legs (`--explain`, `mem why`): one line, e.g.
 * `fusion: weighted RRF (k 10); BM25 1, vector 0.46 = calibrated 0.91 × this query 50% (on 51 …)`.
 */
export function fusionLine(f: SearchResponse["fusion"]): string | undefined {
  if (!f) return undefined;
  const un = f.unembedded > 0 ? `; ${f.unembedded} candidate(s) with no vector yet ranked by BM25 alone` : "";
  const how = f.method === "rrf" ? `weighted RRF (k ${f.k ?? "?"})` : "calibrated (convex combination of normalised scores)";
  const lead = f.lead !== undefined && f.lead < 1 && f.weights.vector >= 0.02 ? `, in RRF × ${f.lead.toFixed(2)} for BM25's lead at the top` : "";
  return `fusion: ${how}; BM25 ${fmt(f.weights.bm25)}, vector ${f.weights.vector.toFixed(2)} = calibrated ${f.calibrated.toFixed(2)} × this query ${Math.round(f.query * 100)}%${f.weights.vector < 0.02 ? " (left out)" : ""}${lead}: ${prose(f.reason, 400)}${un}`;
}
