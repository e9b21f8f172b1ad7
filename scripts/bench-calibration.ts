/**
 * `npm run bench:calibration`: how far the vector leg's calibrated weight (indexer/calibrate-step.ts)
 * moves with the sample of chunks its pseudo-queries are made from. Each LoCoMo dev conversation
 * is indexed as a project with a loopback leg (noise, good: ./bench/fusion-legs.ts; USE over
 * conv-30), then calibrated again and again, `--draws` samples of each size (`--sizes`; each draw
 * another start of the walk through the ids, `sampleIds`' offset). Reported per leg,
 * conversation and size: the weight's mean, spread (sd) and range, and the time a calibration
 * takes. A store's weight is one such draw: its spread is what the fusion figures of two copies
 * of one store can differ by. Prints figures, asserts nothing; skips what ../shared does not hold.
 *
 *   --sizes 40,100   --draws 10   --legs noise,good,use
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { calibrateStep } from "../indexer/calibrate-step.js";
import { OllamaProvider } from "../src/embed/ollama.js";
import { resolveProject } from "../src/project/identity.js";
import { openDb } from "../src/store/db.js";
import { VectorStore } from "../src/store/vectors.js";
import { adr2Dir, loadAdr2Questions } from "./bench/adr2.js";
import { adrRecords } from "./bench/fusion-adr.js";
import { scifactDir } from "./bench/scifact.js";
import { goodLeg, locomoAnswers, useLeg, useVectorsFile, type LegParams } from "./bench/fusion-legs.js";
import { copyMarkdown, indexInto } from "./bench/fusion-run.js";
import { loadLocomo, locomoDir } from "./bench/locomo-data.js";
import { locomoTurns } from "./bench/locomo-gap.js";
import { startLegServer } from "./bench/ollama-legs.js";
import { noiseLeg, type Embed } from "./bench/vector-legs.js";

const { values: a } = parseArgs({ options: { sizes: { type: "string", default: "40,100" }, draws: { type: "string", default: "10" }, legs: { type: "string", default: "noise,good,use" } } });
const log = (s: string) => process.stdout.write(`${s}\n`);
const sizes = a.sizes!.split(",").map(Number);
const draws = Number(a.draws);
if (sizes.some((n) => !Number.isInteger(n) || n < 8) || !Number.isInteger(draws) || draws < 2) {
  log("usage: npm run bench:calibration -- [--sizes 40,100] [--draws 10] [--legs noise,good,use]");
  process.exit(2);
}
const ld = locomoDir();
if (!ld) {
  log("bench:calibration: ../shared/data/locomo-dev not found (MEM_LOCOMO_DIR): skipped");
  process.exit(0);
}
const MODEL = "nomic-embed-text";
const params: LegParams = { seed: 23, dims: 512, goodNoise: 2.5 };
const { convs: all, questions } = loadLocomo(ld);
const turns = locomoTurns(ld, all);
const texts = new Map([...turns].map(([k, t]) => [k, `${t.speaker}: ${t.text}`] as const));

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const sd = (xs: number[]) => Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1));

interface Proj {
  label: string;
  /** Fills the project's folder (`root`). */
  fill: (root: string) => void;
}

const conv = (c: string): Proj => ({ label: c, fill: (root) => copyMarkdown(join(ld!, c), root) });

/** Indexes each project with the leg, then calibrates each `draws` times per sample size; a row each. */
async function legRows(name: string, embed: Embed, projects: readonly Proj[], work: string): Promise<void> {
  const server = await startLegServer({ model: MODEL, embed });
  const key = name.replace(/\W+/g, "-");
  const roots = projects.map((p) => [p.label, join(work, key, "projects", p.label)] as const);
  for (const [i, [, root]] of roots.entries()) projects[i]!.fill(root);
  const home = join(work, key, "home");
  try {
    await indexInto(home, roots.map(([, r]) => r), { url: server.url, model: MODEL });
    const db = openDb(join(home, "mem.sqlite"));
    const store = VectorStore.open(join(home, "vectors"));
    const provider = new OllamaProvider({ host: server.url, model: MODEL, timeoutMs: 30_000, healthTimeoutMs: 5_000 });
    try {
      const table = db.prepare("SELECT name FROM vec_tables ORDER BY created_at DESC LIMIT 1").pluck().get() as string;
      for (const [label, root] of roots) {
        const project = resolveProject(root).id;
        const chunks = db.prepare("SELECT count(*) FROM chunks WHERE project = ?").pluck().get(project) as number;
        for (const size of sizes) {
          const weights: number[] = [];
          const t0 = performance.now();
          for (let k = 0; k < draws; k++) {
            const report = { status: "ok" as const, provider: provider.name, model: provider.model, table, embedded: 0, removed: 0, unavailable: [], failovers: [] };
            const cal = await calibrateStep({ db, project, providers: [provider], vectors: () => store, report, now: Date.now, warn: log, force: true, sample: { size, offset: k / draws } });
            if (cal) weights.push(cal.weight);
          }
          const ms = (performance.now() - t0) / draws;
          const f = (x: number) => x.toFixed(3);
          log(`| ${name} | ${label} | ${chunks} | ${Math.min(size, chunks)} | ${weights.length ? `${f(mean(weights))} | ${f(sd(weights))} | ${f(Math.min(...weights))}–${f(Math.max(...weights))}` : "- | - | -"} | ${ms.toFixed(0)} |`);
        }
      }
    } finally {
      (await store).close();
      db.close();
    }
  } finally {
    await server.close();
  }
}

/** SciFact's abstracts as markdown notes, ten to a file (title as heading). */
function scifactNotes(dir: string): Proj {
  return {
    label: "SciFact",
    fill: (root) => {
      mkdirSync(root, { recursive: true });
      const docs = readFileSync(join(dir, "corpus.jsonl"), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as { title: string; text: string });
      for (let i = 0; i < docs.length; i += 10) writeFileSync(join(root, `abstracts-${i}.md`), docs.slice(i, i + 10).map((d) => `# ${d.title}\n\n${d.text}\n`).join("\n"));
    },
  };
}

const work = mkdtempSync(join(tmpdir(), "mem-bench-calibration-"));
try {
  log(`mem bench:calibration — ${new Date().toISOString()}; ${draws} draws per sample size (${sizes.join(", ")}); each conversation, adr-2 and SciFact a project`);
  log("\n| leg | conversation | chunks | queries | weight mean | sd | range | ms per calibration |\n|---|---|---|---|---|---|---|---|");
  const legs = a.legs!.split(",");
  const a2 = adr2Dir();
  const sf = scifactDir();
  const adr2: Proj[] = a2 ? [{ label: "adr-2", fill: (root) => copyMarkdown(join(a2, "corpus"), root) }] : [];
  if (legs.includes("noise")) await legRows("noise", noiseLeg(params.seed, params.dims), [...all.map(conv), ...adr2, ...(sf ? [scifactNotes(sf)] : [])], work);
  if (legs.includes("good")) {
    await legRows("good", goodLeg(texts, locomoAnswers(questions), params), all.map(conv), work);
    if (a2) await legRows("good (ADR)", goodLeg(adrRecords(join(a2, "corpus")), loadAdr2Questions(a2).map((q) => ({ text: q.question, answers: q.answers })), { ...params, goodNoise: 8 }), adr2, work);
  }
  const file = useVectorsFile(ld);
  if (legs.includes("use") && existsSync(file) && all.includes("conv-30")) {
    await legRows("USE", useLeg(file, new Map([...texts].filter(([k]) => k.startsWith("conv-30 "))), params), [conv("conv-30")], work);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
