/**
 * `mem query`'s human output: each result rendered as for the model's context (its preview: the
 * lines that hold the query's words, src/inject/preview.ts), and with --explain
 * how its score is made, the one ranking formula term by term (src/retrieve/salience-rank.ts).
 */
import { relative } from "node:path";
import type { Annotation } from "../anchor/annotate.js";
import type { SalienceConfig } from "../memory/salience.js";
import { markMatches, preview } from "../inject/preview.js";
import { field, prose } from "../render/line.js";
import type { SearchResponse, SearchResult } from "../retrieve/search.js";
import { WEAK_EXPLAIN } from "../retrieve/weak-hits.js";
import { shortSession } from "../brief/render.js";
import { oneId } from "../store/one-id.js";
import { withoutKind } from "../inject/items.js";

/** A leg's own score, short. */
function fmt(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(1) : n.toPrecision(4);
}

/** What a result's preview looks for: the query's content stems (`previewStems`); `mark` sets off the words that matched (bold on a terminal). */
export interface PreviewOf {
  stems: readonly string[];
  mark?: ((word: string) => string) | undefined;
}

/** Bold, for a terminal: `mem query`'s matched words. */
export const BOLD = (w: string) => `\u001b[1m${w}\u001b[22m`;

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

export function human(r: SearchResult, i: number, root: string | undefined, explain: boolean, cfg: SalienceConfig, note?: Annotation, shown: PreviewOf = { stems: [] }): string {
  // Rendered as for the model's context (one line, control characters escaped, markup defused): a
  // model may run this command too, and a terminal must not take stored text for escape sequences.
  const head = `${i + 1}. ${oneId(r.id)} · ${what(r, root)}${r.date ? `  (${field(r.date.slice(0, 10))})` : ""}`;
  const lines = [head];
  // A memory's heading is its kind, and its text starts with it: said once, in the head line.
  const memory = r.path.startsWith("session:");
  if (r.headingPath.length > 0 && !(memory && r.headingPath.join("") === r.kind)) lines.push(`   § ${field(r.headingPath.join(" › "), 300)}`);
  // Marked after it is rendered and cut: the only escapes in it are the marks.
  const seen = preview(r, shown.stems);
  const text = memory ? withoutKind(seen, r.kind) : seen;
  lines.push(`   ${shown.mark ? markMatches(text, shown.stems, shown.mark) : text}`);
  const flags = [note?.stale ? note.stale.text : "", note?.convergent ? "convergent: an explicit memory and an edit agree" : ""].filter(Boolean);
  if (flags.length > 0) lines.push(`   (${prose(flags.join("; "), 300)})`);
  if (explain) {
    const legs = Object.entries(r.legs)
      .map(([name, l]) => `${name} #${l!.rank} (${fmt(l!.score)})`)
      .join(", ");
    const fused = r.salience?.rrf ?? r.score;
    lines.push(`   fused ${fused.toFixed(5)} = ${legs || "no leg"}${r.duplicates.length ? `; ${r.duplicates.length} near-duplicate(s) collapsed` : ""}`);
    if (r.salience) lines.push(`   score ${r.score.toFixed(5)} = fused ${r.score >= fused ? "+" : "−"} ${Math.abs(r.score - fused).toFixed(5)} (priors break ties within ±0.1${r.salience.inPlay ? ", +0.35 in play" : ""}; factor ${r.salience.factor.toFixed(3)}: ${explainFactor(r, cfg, root)})`);
    if (r.weak) lines.push(`   ${WEAK_EXPLAIN}`);
  }
  return lines.join("\n");
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
 * `fusion: BM25 1, vector 0.47 = calibrated 0.94 × this query 50% (on 40 pseudo-queries …)`.
 */
export function fusionLine(f: SearchResponse["fusion"]): string | undefined {
  if (!f) return undefined;
  const un = f.unembedded > 0 ? `; ${f.unembedded} candidate(s) with no vector yet ranked by BM25 alone` : "";
  return `fusion: BM25 ${fmt(f.weights.bm25)}, vector ${f.weights.vector.toFixed(2)} = calibrated ${f.calibrated.toFixed(2)} × this query ${Math.round(f.query * 100)}%${f.weights.vector < 0.02 ? " (left out)" : ""}: ${prose(f.reason, 400)}${un}`;
}
