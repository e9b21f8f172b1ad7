/**
 * `npm run bench:fusion`: what a vector leg does to retrieval and to what the prompt hook injects,
 * with legs of known quality served by a loopback Ollama (scripts/bench/ollama-legs.ts):
 *  - LoCoMo (../shared/data/locomo-dev): BM25 alone on the dev split; the real USE vectors on
 *    conv-30; a noise leg and a synthetic good leg on the dev split. R@1, R@5, MRR (hybrid and the
 *    vector leg alone), the hook's context recall, hit share and nothing-injected share.
 *  - Decision records (../shared/data/adr) and the developer questions of
 *    scripts/bench/adr-questions.json: BM25 alone, noise, good; the same figures and the share of
 *    off-topic prompts that got something injected.
 * Prints figures, asserts nothing; skips what ../shared does not hold. `--help` for the flags.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadLocomo, locomoDir, scifactQueries, transcriptPrompts, transcriptsDir, classifyPrompt } from "./bench/locomo-data.js";
import { locomoTurns } from "./bench/locomo-gap.js";
import { scifactDir } from "./bench/scifact.js";
import { adrDir, adrLeg, adrRecords, ADR_QUESTIONS, loadAdrQuestions, type AdrQuestion } from "./bench/fusion-adr.js";
import { goodLeg, locomoAnswers, useLeg, useVectorsFile, type LegName, type LegParams } from "./bench/fusion-legs.js";
import { locomoLeg, type LegRun } from "./bench/fusion-locomo.js";
import { row, table, type Row } from "./bench/fusion-metrics.js";
import { noiseLeg } from "./bench/vector-legs.js";
import { existsSync } from "node:fs";
import { adr2Dir, loadAdr2Questions } from "./bench/adr2.js";
import { halfOf, inHalf } from "./bench/split.js";

const HELP = `npm run bench:fusion [-- options]

  --legs LIST        none,use,noise,good (default all)
  --sets LIST        locomo,adr,adr2 (default all three)
  --fusion NAME      rrf or calibrated: query.fusion for the runs with a vector leg (default: mem's)
  --rrf-k N          query.rrfK, RRF's k (default: mem's)
  --quick            one conversation (conv-30), 30 questions, 20 ADR questions, 30 off-topic prompts
  --convs LIST       LoCoMo conversations for the none/noise/good legs (default: the dev split)
  --limit N          at most N LoCoMo questions per conversation, N ADR questions
  --off-topic N      at most N off-topic prompts on the ADR store (default all)
  --seed N           seed of the noise and good legs (default 23)
  --good-noise X     the good leg's question noise against its signal, LoCoMo (default 2.5)
  --adr-good-noise X the same on the decision records, whose chunks each hold one record (default 8)
  --dims N           dimensions of the noise and good legs (default 512)
  --model NAME       the model name the loopback Ollama serves (default nomic-embed-text)
  --vector-budget MS how long the daemon waits for the prompt's vector (default: mem's, daemon.vectorBudgetMs);
                     the hook's budget is raised to match. On a loaded machine, a late vector means BM25 alone
  --keep             keep the work folder (the stores, with the prompt hook's log of each prompt) and print its path
Every set is reported whole and in its two halves (tuning, checking: scripts/bench/split.ts).
Data: MEM_LOCOMO_DIR, MEM_ADR_DIR, MEM_ADR2_DIR, MEM_SCIFACT_DIR, MEM_TRANSCRIPTS_DIR (default ../shared/data/*).`;

const log = (s: string) => process.stdout.write(`${s}\n`);
const { values: a } = parseArgs({
  options: {
    legs: { type: "string", default: "none,use,noise,good" },
    sets: { type: "string", default: "locomo,adr,adr2" },
    fusion: { type: "string" },
    "rrf-k": { type: "string" },
    quick: { type: "boolean", default: false },
    convs: { type: "string" },
    limit: { type: "string" },
    "off-topic": { type: "string" },
    seed: { type: "string", default: "23" },
    "good-noise": { type: "string", default: "2.5" },
    "adr-good-noise": { type: "string", default: "8" },
    dims: { type: "string", default: "512" },
    model: { type: "string", default: "nomic-embed-text" },
    "vector-budget": { type: "string" },
    keep: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (a.help) {
  log(HELP);
  process.exit(0);
}
const num = (name: string, v: string | undefined, min: number): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) {
    process.stderr.write(`bench:fusion: --${name} must be a number ≥ ${min} (got "${v}")\n`);
    process.exit(2);
  }
  return n;
};
const list = (name: string, v: string, allowed: readonly string[]) => {
  const xs = v.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = xs.filter((x) => !allowed.includes(x));
  if (bad.length > 0) {
    process.stderr.write(`bench:fusion: --${name}: unknown ${bad.join(", ")} (use ${allowed.join(", ")})\n`);
    process.exit(2);
  }
  return xs;
};
const legs = list("legs", a.legs!, ["none", "use", "noise", "good"]) as LegName[];
const sets = list("sets", a.sets!, ["locomo", "adr", "adr2"]);
const fusion = a.fusion === undefined ? undefined : list("fusion", a.fusion, ["rrf", "calibrated"])[0];
const limit = num("limit", a.limit, 1) ?? (a.quick ? 30 : undefined);
const adrLimit = num("limit", a.limit, 1) ?? (a.quick ? 20 : undefined);
const offLimit = num("off-topic", a["off-topic"], 0) ?? (a.quick ? 30 : Number.POSITIVE_INFINITY);
const params: LegParams = { seed: num("seed", a.seed, 0)!, dims: num("dims", a.dims, 2)!, goodNoise: num("good-noise", a["good-noise"], 0)! };
const adrParams: LegParams = { ...params, goodNoise: num("adr-good-noise", a["adr-good-noise"], 0)! };
const model = a.model!;
const budget = num("vector-budget", a["vector-budget"], 1);
const rrfK = num("rrf-k", a["rrf-k"], 0.001);
const query = { ...(fusion === undefined ? {} : { fusion }), ...(rrfK === undefined ? {} : { rrfK }) };
const config =
  budget === undefined && Object.keys(query).length === 0
    ? undefined
    : { ...(budget === undefined ? {} : { daemon: { vectorBudgetMs: budget, clientBudgetMs: budget + 250 } }), ...(Object.keys(query).length === 0 ? {} : { query }) };

log(`mem bench:fusion — node ${process.version}, ${cpus().length} cores, ${new Date().toISOString()}`);
log(`fusion ${fusion ?? "mem's default"}${rrfK === undefined ? "" : ` (rrfK ${rrfK})`}; legs ${legs.join(", ")}; seed ${params.seed}; noise/good ${params.dims} dims; good leg question noise ${params.goodNoise} (LoCoMo), ${adrParams.goodNoise} (ADR); served as Ollama model "${model}"${budget === undefined ? "" : `; the daemon waits ${budget} ms for a prompt's vector`}`);
const work = mkdtempSync(join(tmpdir(), "mem-bench-fusion-"));
const rows: Row[] = [];
const t0 = performance.now();
const note = (label: string, r: LegRun) => log(`  ${label}: ${r.indexed.chunks} chunks, ${r.indexed.embedded} with vectors${r.indexed.skipped ? ` (vectors skipped: ${r.indexed.skipped})` : ""}; ${r.embedded} texts embedded by the leg; ${r.late} prompt(s) past the hook's budget; ${r.seconds.toFixed(0)} s`);
const modeName = (mode: string) => (mode === "vector" ? "vector alone" : mode === "bm25" ? "BM25 alone" : "hybrid");
/** The rows of a set: all its questions, then its tuning and checking halves. */
const rowsOf = (set: string, leg: string, ids: string[], r: LegRun) => {
  for (const [mode, ranks] of r.ranks) {
    rows.push(row(set, leg, modeName(mode), ids, ranks, mode === "vector" ? undefined : r.hook, mode === "vector" ? undefined : r.offTopic));
    for (const h of ["tuning", "checking"] as const) rows.push(row(`${set}, ${h}`, leg, modeName(mode), inHalf(ids, h), ranks, mode === "vector" ? undefined : r.hook));
  }
};

/** One decision-record set with every leg asked for: its rows, and what BM25 alone missed. */
async function adrSet(name: string, key: string, dir: string, questions: AdrQuestion[], off: string[]): Promise<void> {
  const ids = questions.map((q) => q.id);
  const para = questions.filter((q) => q.paraphrase).map((q) => q.id);
  const lit = questions.filter((q) => !q.paraphrase).map((q) => q.id);
  for (const leg of legs) {
    if (leg === "use") continue; // no real vectors for the records
    const embed = leg === "noise" ? noiseLeg(params.seed, params.dims) : leg === "good" ? goodLeg(adrRecords(dir), questions.map((q) => ({ text: q.question, answers: q.answers })), adrParams) : undefined;
    const r = await adrLeg(dir, questions, off, { work: join(work, `${key}-${leg}`), model, config, ...(embed ? { embed } : {}) });
    note(`${key} ${leg}`, r);
    const label = leg === "none" ? "none" : leg === "noise" ? "noise" : `good (noise ${adrParams.goodNoise})`;
    rowsOf(`${name} all`, label, ids, r);
    for (const [mode, ranks] of r.ranks) {
      const m = mode === "vector" ? "vector alone" : mode === "bm25" ? "BM25 alone" : "hybrid";
      rows.push(row(`${name} paraphrased`, label, m, para, ranks, mode === "vector" ? undefined : r.hook));
      rows.push(row(`${name} in the records' words`, label, m, lit, ranks, mode === "vector" ? undefined : r.hook));
    }
    const injected = off.filter((_, i) => r.offTopic[i]);
    if (injected.length > 0) log(`  off-topic prompts that got something: ${injected.slice(0, 5).map((p) => JSON.stringify(p.replace(/\s+/g, " ").slice(0, 80))).join("; ")}${injected.length > 5 ? `; … ${injected.length - 5} more` : ""}`);
    if (leg === "none") {
      const ranks = r.ranks.get("bm25")!;
      const firstButNothing = questions.filter((q) => ranks.get(q.id)?.r1 === 1 && r.hook.get(q.id)?.nothing);
      log(`  BM25 alone: the hook injected nothing for ${questions.filter((q) => r.hook.get(q.id)?.nothing).length} question(s), ${firstButNothing.length} of them with an answer record ranked first by \`mem query\``);
      const missed = questions.filter((q) => (ranks.get(q.id)?.rr ?? 0) < 1 || r.hook.get(q.id)?.recall === 0);
      log(`  BM25 alone: ${missed.length} question(s) whose first result is no answer, or missing the injection:`);
      for (const q of missed) {
        const rk = ranks.get(q.id);
        const h = r.hook.get(q.id);
        log(`    - ${q.id} (${halfOf(q.id)})${q.paraphrase ? " (paraphrased)" : ""} "${q.question}" → wants ${q.answers.join(" | ")}; rank ${rk && rk.rr > 0 ? Math.round(1 / rk.rr) : "-"}; top ${(r.tops?.get(q.id) ?? []).join(", ") || "nothing"}; hook ${h?.nothing ? "injected nothing" : h?.recall ? "injected it" : "injected other records"}`);
      }
    }
  }
}

try {
  const ldir = sets.includes("locomo") ? locomoDir() : undefined;
  if (sets.includes("locomo") && !ldir) log("\nLoCoMo: skipped (../shared/data/locomo-dev not found; set MEM_LOCOMO_DIR)");
  if (ldir) {
    const { convs: all, questions: allQs } = loadLocomo(ldir);
    const convs = a.convs ? list("convs", a.convs, all) : a.quick ? all.filter((c) => c === "conv-30") : all;
    const pick = (cs: readonly string[]) => cs.flatMap((c) => allQs.filter((q) => q.conv === c).slice(0, limit));
    const qs = pick(convs);
    const turns = locomoTurns(ldir, all);
    log(`\nLoCoMo dev (${ldir}): ${convs.join(", ")}, ${qs.length} questions`);
    const ids = (cs: readonly string[]) => qs.filter((q) => cs.includes(q.conv)).map((q) => q.qid);
    const setName = convs.length === all.length ? "LoCoMo dev" : convs.length === 1 ? `LoCoMo ${convs[0]} alone` : `LoCoMo ${convs.join("+")}`;
    const baseDone = legs.includes("none") && convs.length === 1 && convs[0] === "conv-30";
    for (const leg of legs) {
      if (leg === "use") {
        const file = useVectorsFile(ldir);
        if (!existsSync(file) || !all.includes("conv-30")) {
          log("  use: skipped (vectors/use-conv-30.json or conv-30 not found)");
          continue;
        }
        const c30 = pick(["conv-30"]);
        const text = new Map([...turns].filter(([k]) => k.startsWith("conv-30 ")).map(([k, t]) => [k, `${t.speaker}: ${t.text}`] as const));
        // Its own BM25 baseline: FTS5's idf counts every project of the store, so conv-30 ranks
        // differently alone than beside the other conversations.
        if (!baseDone) {
          const base = await locomoLeg(ldir, ["conv-30"], c30, { work: join(work, "locomo-use-base"), model, config });
          note("none (conv-30 alone)", base);
          rowsOf("LoCoMo conv-30 alone", "none", c30.map((q) => q.qid), base);
        }
        const r = await locomoLeg(ldir, ["conv-30"], c30, { work: join(work, "locomo-use"), model, config, embed: useLeg(file, text, params) });
        note("use (conv-30 alone)", r);
        rowsOf("LoCoMo conv-30 alone", "USE (real)", c30.map((q) => q.qid), r);
        continue;
      }
      const embed = leg === "noise" ? noiseLeg(params.seed, params.dims) : leg === "good" ? goodLeg(new Map([...turns].map(([k, t]) => [k, `${t.speaker}: ${t.text}`] as const)), locomoAnswers(allQs), params) : undefined;
      const r = await locomoLeg(ldir, convs, qs, { work: join(work, `locomo-${leg}`), model, config, ...(embed ? { embed } : {}) });
      note(leg, r);
      const label = leg === "none" ? "none" : leg === "noise" ? "noise" : `good (noise ${params.goodNoise})`;
      rowsOf(setName, label, ids(convs), r);
      if (convs.length > 1 && convs.includes("conv-30")) rowsOf("LoCoMo conv-30 (in the dev store)", label, ids(["conv-30"]), r);
    }
  }

  const adir = sets.includes("adr") ? adrDir() : undefined;
  if (sets.includes("adr") && !adir) log("\nDecision records: skipped (../shared/data/adr not found; set MEM_ADR_DIR)");
  if (adir) {
    const loaded = loadAdrQuestions(ADR_QUESTIONS, adir);
    const questions = loaded.questions.slice(0, adrLimit);
    const sf = scifactDir();
    const td = transcriptsDir();
    const tasks = td ? transcriptPrompts(td).filter((p) => classifyPrompt(p) === "task") : [];
    // Interleaved so that a cap keeps some of each kind.
    const kinds = [loaded.offTopic, tasks, sf ? scifactQueries(sf) : []];
    const off: string[] = [];
    for (let i = 0; off.length < offLimit && kinds.some((k) => i < k.length); i++) for (const k of kinds) if (i < k.length && off.length < offLimit) off.push(k[i]!);
    log(`\nDecision records (${adir}): ${adrRecords(adir).size} records, ${questions.length} questions (${questions.filter((q) => q.paraphrase).length} paraphrased), ${off.length} off-topic prompts (coding prompts of adr-questions.json, coding tasks of real transcripts${td ? "" : " [not found]"}, SciFact claims${sf ? "" : " [not found]"})`);
    await adrSet("ADR", "adr", adir, questions, off);
  }
  const a2dir = sets.includes("adr2") ? adr2Dir() : undefined;
  if (sets.includes("adr2") && !a2dir) log("\nDecision records 2: skipped (../shared/data/adr-2 not found; set MEM_ADR2_DIR)");
  if (a2dir) {
    const questions = loadAdr2Questions(a2dir).slice(0, adrLimit);
    log(`\nDecision records 2 (${a2dir}): ${adrRecords(join(a2dir, "corpus")).size} records, ${questions.length} questions (R@k: the share of a question's records in the first k)`);
    await adrSet("ADR-2", "adr2", join(a2dir, "corpus"), questions, []);
  }

  if (rows.length === 0) log("\nNothing measured.");
  else log("");
  if (rows.length > 0) for (const l of table(rows)) log(l);
  if (rows.length > 0) log("\nR@1/R@5: LoCoMo the share of evidence turns in the top 1/5 results of `mem query` (k 10); ADR whether an answer record is there. MRR: the first result holding evidence. Context recall: LoCoMo the evidence turns in what the prompt hook injects; ADR an answer record among the files it shows. Off-topic: prompts no record answers that got something injected.");
  log(`\n  bench:fusion: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
} finally {
  if (a.keep) log(`  kept: ${work}`);
  else rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
}
