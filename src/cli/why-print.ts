/**
 * `mem why`'s text output: the report of src/inject/why.ts, every stored or typed string rendered
 * on one line with control characters escaped and markup defused (src/render/line.ts), so a
 * hostile chunk, path or prompt cannot write terminal escapes. Pure.
 */
import { relative } from "node:path";
import type { WhyCandidate, WhyReport } from "../inject/why.js";
import type { SalienceConfig } from "../memory/salience.js";
import { VECTOR_STANDOUT, VECTOR_TRUST } from "../inject/floor.js";
import { field, visible } from "../render/line.js";
import { explainFactor, fusionLine } from "./query-print.js";
import { isNoModel } from "../retrieve/warnings.js";
import { WEAK_EXPLAIN } from "../retrieve/weak-hits.js";

/** A number, short: four significant digits, no trailing zeros. */
const num = (n: number) => (Number.isInteger(n) ? String(n) : Math.abs(n) >= 100 ? n.toFixed(1) : String(Number(n.toPrecision(4))));
const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** Where a result comes from: a note's file and lines (relative to its project), or the day of the session that captured it. */
export function provenance(c: WhyCandidate): string {
  if (c.session !== null) {
    const day = c.sessionDay ?? c.date?.slice(0, 10);
    return c.session === "" || c.session === "unknown" ? "no session" : day ? `session of ${field(day, 40)}` : "session of an unknown day";
  }
  const rel = c.project.startsWith("/") ? relative(c.project, c.path) : c.path;
  return `${field(rel === "" || rel.startsWith("..") ? c.path : rel, 300)}:${c.startLine}-${c.endLine}`;
}

function evidence(c: WhyCandidate): string {
  const e = c.evidence!;
  const parts = [`${e.shown} of ${count(e.pieces, "piece")} shown${e.shown > 0 ? ` (${count(e.linesShown, "line")})` : ""}`];
  if (e.budget > 0) parts.push(`${e.budget} dropped for the budget`);
  if (e.maxItems > 0) parts.push(`${e.maxItems} dropped for the item cap`);
  if (e.unscored > 0) parts.push(`${e.unscored} hold no content word of the prompt`);
  if (e.elsewhere > 0) parts.push(`${e.elsewhere} shown from a better ranked result (overlap)`);
  return parts.join("; ");
}

function candidate(c: WhyCandidate, cfg: SalienceConfig): string {
  const lines = [`${c.rank}. ${field(c.shortId, 20)} · ${field(c.kind, 30)} · ${provenance(c)}${c.tier && c.tier !== "warm" ? ` · ${field(c.tier, 20)} tier` : ""}`];
  const legs = Object.entries(c.legs)
    .map(([name, l]) => `${field(name, 20)} #${l!.rank} (${num(l!.score)})`)
    .join(", ");
  lines.push(`   fused ${num(c.salience?.rrf ?? c.score)} = ${legs || "no leg"}`);
  // The ranking formula term by term, as `mem query --explain` prints it.
  if (c.salience) lines.push(`   score ${num(c.score)} = fused + priors (ties within ±0.1${c.salience.inPlay ? ", +0.35 in play" : ""}; factor ${c.salience.factor.toFixed(3)}: ${explainFactor({ kind: c.kind, salience: c.salience }, cfg, c.project.startsWith("/") ? c.project : undefined)})`);
  if (c.weak) lines.push(`   ${WEAK_EXPLAIN}`);
  if (c.flag) lines.push(`   flag: ${field(c.flag, 200)}`);
  if (c.linesShownBefore) lines.push(`   ${c.linesShownBefore} of its lines already shown in this session: left out, the rest may be shown`);
  if (c.excluded) {
    lines.push(`   excluded: ${c.excluded}`);
    return lines.join("\n");
  }
  const f = c.floor!;
  lines.push(`   floor: ${f.pass ? "pass" : "fail"}: ${field(f.reason, 400)}`);
  if (c.evidence) lines.push(`   evidence: ${evidence(c)}`);
  lines.push(`   → ${c.injected ? "injected" : "not injected"}`);
  return lines.join("\n");
}

/** The search's legs in words, and where its vectors came from. */
function search(r: WhyReport, vectorNote: string): string {
  const legs = r.legs.length > 0 ? r.legs.join(" + ") : "none";
  const note = field(vectorNote, 600);
  const v = r.vector ? ` (${field(r.vector.provider, 40)} ${field(r.vector.model, 80)}; ${note})` : ` (${note})`;
  const weighed = fusionLine(r.fusion ?? undefined);
  return `search: ${legs}${v}${weighed ? `\n${weighed}` : ""}`;
}

export function whyText(r: WhyReport, vectorNote: string, cfg: SalienceConfig): string {
  const out = [`prompt: ${field(r.prompt, 300)}`, `project: ${field(r.project.root ?? r.project.id, 300)}`];
  out.push(r.session === null ? "session: a fresh one (nothing shown yet)" : `session: ${field(r.session, 120)} (what was injected into its current context window is left out)`);
  if (r.skipped) {
    out.push(`skipped: ${field(r.skipped, 80)}: the hook searches nothing and injects nothing for this prompt`);
    return `${out.join("\n")}\n`;
  }
  out.push("skipped: no", search(r, vectorNote));
  for (const w of r.warnings) if (!isNoModel(w)) out.push(`warning: ${field(w, 300)}`); // no model: the search line says it
  const words = r.words.map((w) => (w.word === w.stem ? field(w.word, 60) : `${field(w.word, 60)} (${field(w.stem, 60)})`));
  out.push(`content words (stems): ${words.length > 0 ? words.join(", ") : "none"}`);
  const o = r.options;
  const byVector = r.fusion
    ? `; or, the vector leg trusted ${VECTOR_TRUST} or more, a similarity ${VECTOR_STANDOUT} spreads above its other answers, or both legs' first answer (holding one of the words)`
    : r.legs.includes("vector")
      ? `; or a vector similarity of ${o.minSimilarity} or more`
      : "";
  out.push(`floor: at least 2 of ${count(r.stems.length, "stem")} and ${Math.round(o.minTermCoverage * 100)}% of their weight (a word weighs what it tells apart: rare in the store, heavy)${byVector}`);
  out.push(`budget: ${count(o.budgetChars, "character")}, frame included; at most ${count(o.maxItems, "item")}`);
  if (r.filesInPlay > 0) out.push(`files in play: ${r.filesInPlay}`);
  out.push("");
  out.push(r.candidates.length > 0 ? `candidates, in rank order (${r.candidates.length}):` : "candidates: none (the search found nothing in this project)");
  for (const c of r.candidates) out.push(candidate(c, cfg));
  out.push("");
  if (r.injection) {
    out.push(`injected (${r.injection.chars.toLocaleString("en-US")} of ${count(o.budgetChars, "character")}; ${count(r.injection.items, "item")}):`);
    out.push(visible(r.injection.text));
  } else {
    out.push(`nothing would be injected: ${field(r.nothing ?? "", 300)}`);
  }
  return `${out.join("\n")}\n`;
}
