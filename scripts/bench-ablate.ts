/**
 * `npm run bench:ablate`: each ranking rule taken away in turn (./bench/ablations.ts), BM25 alone,
 * on the decision-record sets (../shared/data/adr with scripts/bench/adr-questions.json, and
 * ../shared/data/adr-2) and on LoCoMo dev, each in its tuning and checking halves
 * (./bench/split.ts). The stores are indexed once; `mem query`'s search (searchMemories) and the
 * prompt hook's search, floor and selection (promptCandidates, formatInjection) then run in
 * process, as the CLI and the daemon run them. Figures: R@1 / R@5 / MRR of the ranking; the hook's
 * hits and empty answers; the share of the ADR set's off-topic prompts that got something; LoCoMo's
 * context recall. Prints figures, asserts nothing; skips what ../shared does not hold.
 *
 * `use`: LoCoMo conv-30 alone, hybrid, with its real Universal Sentence Encoder vectors served by
 * a loopback Ollama (./bench/ollama-legs.ts; prompts with no USE vector get a noise vector).
 *
 *   --sets adr,adr2,locomo,use   (default all)    --variants NAME,NAME   (default all)
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openApp } from "../src/app.js";
import { firstHealthy } from "../src/embed/chain.js";
import type { Mode } from "../src/retrieve/search.js";
import { formatInjection } from "../src/inject/format.js";
import { promptCandidates, promptDescribe, redactText } from "../src/inject/for-prompt.js";
import { projectAt } from "../src/project/scope.js";
import { EVEN } from "../src/retrieve/rarity.js";
import { searchMemories } from "../src/service/search.js";
import { adr2Dir, loadAdr2Questions } from "./bench/adr2.js";
import { locomoTurns } from "./bench/locomo-gap.js";
import { useLeg, useVectorsFile } from "./bench/fusion-legs.js";
import { startLegServer, type LegServer } from "./bench/ollama-legs.js";
import { VARIANTS, type Variant } from "./bench/ablations.js";
import { adrDir, anyRanks, ADR_QUESTIONS, loadAdrQuestions, shareRanks } from "./bench/fusion-adr.js";
import { mean, recordsIn, reciprocalRank, type Ranks } from "./bench/fusion-metrics.js";
import { copyMarkdown, indexInto } from "./bench/fusion-run.js";
import { classifyPrompt, evidenceRecall, loadLocomo, locomoDir, scifactQueries, transcriptPrompts, transcriptsDir, turnTags } from "./bench/locomo-data.js";
import { scifactDir } from "./bench/scifact.js";
import { halfOf } from "./bench/split.js";

const log = (s: string) => process.stdout.write(`${s}\n`);
const { values: a } = parseArgs({ options: { sets: { type: "string", default: "adr,adr2,locomo,use" }, variants: { type: "string" } } });
const sets = a.sets!.split(",");
const variants = a.variants ? VARIANTS.filter((x) => a.variants!.split(",").includes(x.name)) : VARIANTS;

/** One question of any set: where it is asked, how its ranking and injection are scored. */
interface Q {
  id: string;
  text: string;
  cwd: string;
  rank: (hits: readonly { path: string; text: string }[]) => Ranks;
  /** The share of its evidence an injected context holds (0 to 1). */
  recall: (context: string) => number;
}

interface SetRun {
  name: string;
  home: string;
  mode: Mode;
  /** The loopback Ollama serving the vector leg (hybrid runs). */
  leg?: { url: string; model: string };
  questions: Q[];
  offTopic: { text: string; cwd: string }[];
}

/** Per variant and half: R@1, R@5, MRR, hook recall, hit, nothing; off-topic share. */
interface Figures {
  r1: number;
  r5: number;
  mrr: number;
  recall: number;
  hit: number;
  nothing: number;
  n: number;
}

async function runVariant(s: SetRun, v: Variant): Promise<{ halves: Record<"tuning" | "checking", Figures>; offTopic?: number }> {
  const opened = openApp({ PATH: process.env.PATH, HOME: tmpdir(), MEM_HOME: s.home, ...(s.leg ? { MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: s.leg.url, MEM_OLLAMA_MODEL: s.leg.model } : { MEM_EMBED_ORDER: "none" }) });
  const app = v.priorWeight === undefined ? opened : { ...opened, config: { ...opened.config, salience: { ...opened.config.salience, weight: v.priorWeight } } };
  try {
    const pickProvider = async () => firstHealthy(await app.providers());
    const ctx = { db: app.db, config: app.config, vectors: app.vectors, pickProvider, projectRoot: app.projectRoot };
    const bm25 = { rules: v.rules, weights: v.weights };
    const inject = async (text: string, cwd: string, session: string): Promise<string> => {
      const found = await promptCandidates(ctx, { prompt: text, cwd, session }, s.mode, { bm25, vectorBudgetMs: null });
      if (!found) return "";
      const d = { ...promptDescribe(app.db, found), floorRules: v.floor, ...(v.evenRarity ? { rarity: EVEN } : {}) };
      return formatInjection(found.results, found.terms, app.config.inject, redactText, d)?.text ?? "";
    };
    const per = new Map<string, { ranks: Ranks; recall: number; nothing: boolean }>();
    for (const q of s.questions) {
      const project = projectAt(app.db, q.cwd, app.config.project.enclosing);
      const ans = await searchMemories(app, { text: q.text, project, mode: s.mode, bm25 });
      const context = await inject(q.text, q.cwd, `ablate-${q.id}`);
      per.set(q.id, { ranks: q.rank(ans.results), recall: q.recall(context), nothing: context === "" });
    }
    const fig = (half: "tuning" | "checking"): Figures => {
      const xs = s.questions.filter((q) => halfOf(q.id) === half).map((q) => per.get(q.id)!);
      return { n: xs.length, r1: mean(xs.map((x) => x.ranks.r1)), r5: mean(xs.map((x) => x.ranks.r5)), mrr: mean(xs.map((x) => x.ranks.rr)), recall: mean(xs.map((x) => x.recall)), hit: mean(xs.map((x) => (x.recall > 0 ? 1 : 0))), nothing: mean(xs.map((x) => (x.nothing ? 1 : 0))) };
    };
    let off: number | undefined;
    if (s.offTopic.length > 0) {
      let got = 0;
      for (const [i, p] of s.offTopic.entries()) if ((await inject(p.text, p.cwd, `ablate-off-${i}`)) !== "") got++;
      off = got / s.offTopic.length;
    }
    return { halves: { tuning: fig("tuning"), checking: fig("checking") }, ...(off === undefined ? {} : { offTopic: off }) };
  } finally {
    await opened.close();
  }
}

const work = mkdtempSync(join(tmpdir(), "mem-bench-ablate-"));
let server: LegServer | undefined;
const p1 = (x: number) => (x * 100).toFixed(1);
try {
  const runs: SetRun[] = [];
  const adir = sets.includes("adr") ? adrDir() : undefined;
  if (adir) {
    const root = join(work, "adr", "records");
    copyMarkdown(adir, root);
    await indexInto(join(work, "adr", "home"), [root], undefined);
    const { questions, offTopic } = loadAdrQuestions(ADR_QUESTIONS, adir);
    const sf = scifactDir();
    const td = transcriptsDir();
    const kinds = [offTopic, td ? transcriptPrompts(td).filter((p) => classifyPrompt(p) === "task") : [], sf ? scifactQueries(sf) : []];
    const off: string[] = [];
    for (let i = 0; kinds.some((k) => i < k.length); i++) for (const k of kinds) if (i < k.length) off.push(k[i]!);
    runs.push({
      name: "ADR",
      mode: "bm25",
      home: join(work, "adr", "home"),
      questions: questions.map((q) => ({ id: q.id, text: q.question, cwd: root, rank: (h) => anyRanks(h, q.answers), recall: (c) => (q.answers.some((x) => recordsIn(c).has(x)) ? 1 : 0) })),
      offTopic: off.map((text) => ({ text, cwd: root })),
    });
  }
  const a2 = sets.includes("adr2") ? adr2Dir() : undefined;
  if (a2) {
    const root = join(work, "adr2", "records");
    copyMarkdown(join(a2, "corpus"), root);
    await indexInto(join(work, "adr2", "home"), [root], undefined);
    const qs = loadAdr2Questions(a2);
    runs.push({ name: "adr-2", mode: "bm25", home: join(work, "adr2", "home"), questions: qs.map((q) => ({ id: q.id, text: q.question, cwd: root, rank: (h) => shareRanks(h, q.answers), recall: (c) => (q.answers.some((x) => recordsIn(c).has(x)) ? 1 : 0) })), offTopic: [] });
  }
  const ld = sets.includes("locomo") || sets.includes("use") ? locomoDir() : undefined;
  if (ld) {
    const { convs: all, questions: allQs } = loadLocomo(ld);
    const sf = scifactDir();
    const td = transcriptsDir();
    const offPrompts = [...(sf ? scifactQueries(sf) : []), ...(td ? transcriptPrompts(td).filter((p) => classifyPrompt(p) === "task") : [])];
    const locomoSet = async (name: string, key: string, convs: readonly string[], leg?: { url: string; model: string }): Promise<SetRun> => {
      const roots = new Map(convs.map((c) => [c, join(work, key, "convs", c)] as const));
      for (const [c, r] of roots) copyMarkdown(join(ld, c), r);
      await indexInto(join(work, key, "home"), [...roots.values()], leg);
      const questions = allQs.filter((q) => convs.includes(q.conv));
      return {
        name,
        mode: leg ? "hybrid" : "bm25",
        ...(leg ? { leg } : {}),
        home: join(work, key, "home"),
        questions: questions.map((q) => ({
          id: q.qid,
          text: q.question,
          cwd: roots.get(q.conv)!,
          rank: (h) => ({ r1: evidenceRecall(q, h.slice(0, 1).map((x) => x.text).join("\n")), r5: evidenceRecall(q, h.slice(0, 5).map((x) => x.text).join("\n")), rr: reciprocalRank(h, (x) => turnTags(x.text).some((t) => t.conv === q.conv && q.evidence.includes(t.turn))) }),
          recall: (c) => evidenceRecall(q, c),
        })),
        // Asked turn by turn over the conversations, as bench:locomo asks them.
        offTopic: offPrompts.map((text, i) => ({ text, cwd: roots.get(convs[i % convs.length]!)! })),
      };
    };
    if (sets.includes("locomo")) runs.push(await locomoSet("LoCoMo dev", "locomo", all));
    const file = useVectorsFile(ld);
    if (sets.includes("use") && existsSync(file) && all.includes("conv-30")) {
      const turns = locomoTurns(ld, all);
      const text = new Map([...turns].filter(([k]) => k.startsWith("conv-30 ")).map(([k, t]) => [k, `${t.speaker}: ${t.text}`] as const));
      server = await startLegServer({ model: "nomic-embed-text", embed: useLeg(file, text, { seed: 23, dims: 512, goodNoise: 2.5 }) });
      runs.push(await locomoSet("LoCoMo conv-30 alone, USE (real vectors), hybrid", "use", ["conv-30"], { url: server.url, model: "nomic-embed-text" }));
    }
  }
  log(`mem bench:ablate — ${new Date().toISOString()}; BM25 alone; each cell tuning | checking`);
  for (const s of runs) {
    log(`\n${s.name} (${s.questions.length} questions${s.offTopic.length ? `, ${s.offTopic.length} off-topic prompts` : ""})\n`);
    log("| variant | R@1 | R@5 | MRR | hook hit | nothing | context recall | off-topic |");
    log("|---|---|---|---|---|---|---|---|");
    for (const v of variants) {
      const t0 = performance.now();
      const r = await runVariant(s, v);
      const c = (f: (x: Figures) => number) => `${p1(f(r.halves.tuning))} \\| ${p1(f(r.halves.checking))}`;
      log(`| ${v.name} | ${c((x) => x.r1)} | ${c((x) => x.r5)} | ${c((x) => x.mrr)} | ${c((x) => x.hit)} | ${c((x) => x.nothing)} | ${c((x) => x.recall)} | ${r.offTopic === undefined ? "-" : p1(r.offTopic)} |`);
      process.stderr.write(`  ${s.name} ${v.name}: ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    }
  }
  log("");
  for (const v of variants) log(`- ${v.name}: ${v.what}`);
} finally {
  await server?.close();
  rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
}
