
import type { Annotation } from "../anchor/annotate.js";
import type { SalienceConfig } from "../memory/salience.js";
import { markMatches, preview } from "../inject/preview.js";
import { bracket, field, prose } from "../render/line.js";
import { absoluteTime } from "../render/time.js";
import { explainFactor, fmt, what } from "../retrieve/explain.js";
export { explainFactor, fusionLine, what } from "../retrieve/explain.js";
import type { SearchResult } from "../retrieve/search.js";
import { WEAK_EXPLAIN } from "../retrieve/weak-hits.js";
import { oneId } from "../store/one-id.js";
import { withoutKind } from "../inject/items.js";

/** What a result's preview looks for: the query's content stems (`previewStems`); `mark` sets off the words that matched (bold on a terminal). */
export interface PreviewOf {
  stems: readonly string[];
  mark?: ((word: string) => string) | undefined;
  /** `--absolute`: a result's whole date and time (UTC), not only its day. */
  absolute?: boolean | undefined;
}

/** Bold, for a terminal: `mem query`'s matched words. */
export const BOLD = (w: string) => `\u001b[1m${w}\u001b[22m`;

export function human(r: SearchResult, i: number, root: string | undefined, explain: boolean, cfg: SalienceConfig, note?: Annotation, shown: PreviewOf = { stems: [] }, sources: readonly string[] = []): string {
  // Rendered as for the model's context (one line, control characters escaped, markup defused): a
  // model may run this command too, and a terminal must not take stored text for escape sequences.
  const day = r.date ? (shown.absolute ? absoluteTime(r.date) || r.date : r.date.slice(0, 10)) : "";
  const head = `${i + 1}. ${oneId(r.id)} · ${what(r, root)}${day ? `  (${field(day)})` : ""}`;
  const lines = [head];
  // A record's status, date and authors; a local memory's team record (src/team/view.ts).
  const told = sources.filter((x) => x !== r.date?.slice(0, 10)); // its date is in the head line already
  if (told.length > 0) lines.push(`   ${bracket(told.map((x) => field(x, 120)))}`);
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

