/**
 * The LoCoMo bench (../shared/data/locomo-dev): each conversation indexed as its own project, then
 *  - R@5, R@10 over the top results of `mem query --batch` (k 10), as the dev README defines them;
 *  - context recall over what the UserPromptSubmit hook injects, run as Claude Code runs it (a new
 *    `mem hook user-prompt-submit` process, the payload on stdin, a warm daemon, cwd the
 *    conversation's folder, a new session per question), with leaks between conversations;
 *  - off-topic injection: SciFact's queries and real Claude Code prompts asked in those projects;
 *  - where evidence is lost between the search and the injected text (./locomo-stages.ts).
 * BM25 leg only (MEM_EMBED_ORDER=none). Asserts nothing: it prints figures.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexPaths } from "../../indexer/pipeline.js";
import { defaultConfig } from "../../src/config/config.js";
import { ask } from "../../src/daemon/client.cjs";
import { resolveProject } from "../../src/project/identity.js";
import { openDb } from "../../src/store/db.js";
import { CATEGORIES, classifyPrompt, evidenceRecall, leaks, loadLocomo, scifactQueries, transcriptPrompts, transcriptsDir, type LocomoQuestion, type PromptClass } from "./locomo-data.js";
import { lexicalGap, locomoTurns } from "./locomo-gap.js";
import { lossStages, printStages } from "./locomo-stages.js";
import { percentile } from "./metrics.js";
import { scifactDir } from "./scifact.js";
import { additionalContext, BIN, run, runHook } from "./spawn.js";

const pct = (x: number) => (100 * x).toFixed(1);
const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

/** Copies each conversation's markdown into `dest/<conv>` (writable, outside any git repository). */
function copyConvs(dir: string, convs: string[], dest: string): Map<string, string> {
  const roots = new Map<string, string>();
  const copy = (from: string, to: string) => {
    mkdirSync(to, { recursive: true });
    for (const e of readdirSync(from, { withFileTypes: true })) {
      if (e.isDirectory()) copy(join(from, e.name), join(to, e.name));
      else if (e.isFile() && e.name.endsWith(".md")) writeFileSync(join(to, e.name), readFileSync(join(from, e.name)));
    }
  };
  for (const c of convs) {
    copy(join(dir, c), join(dest, c));
    roots.set(c, join(dest, c));
  }
  return roots;
}

/** Indexes every conversation into the data home `home`, one project each (BM25 only). */
async function indexAll(home: string, roots: Map<string, string>): Promise<number> {
  const db = openDb(join(home, "mem.sqlite"));
  let chunks = 0;
  try {
    for (const root of roots.values()) {
      const s = await indexPaths({ db, config: defaultConfig(), providers: [], vectors: async () => Promise.reject(new Error("no vectors in this bench")) }, { roots: [root], project: resolveProject(root), full: false });
      chunks += s.chunks.total;
    }
  } finally {
    db.close();
  }
  return chunks;
}

const payload = (prompt: string, cwd: string, session: string) => JSON.stringify({ session_id: session, transcript_path: "/nonexistent", cwd, hook_event_name: "UserPromptSubmit", prompt });

interface Asked {
  q: LocomoQuestion;
  context: string;
  recall: number;
  leaked: string[];
}

export async function locomo(dir: string, log: (s: string) => void): Promise<void> {
  const { convs, questions } = loadLocomo(dir);
  const work = mkdtempSync(join(tmpdir(), "mem-bench-locomo-"));
  const t0 = performance.now();
  try {
    const roots = copyConvs(dir, convs, join(work, "convs"));
    // Three data homes indexed alike: hooks, `mem query`, and the in-process stages each start
    // from the same store (a memory shown is reinforced, which would move the next phase's ranks).
    const homes = { hook: join(work, "home-hook"), query: join(work, "home-query"), stages: join(work, "home-stages") };
    let chunks = 0;
    for (const h of Object.values(homes)) chunks = await indexAll(h, roots);
    log(`  ${convs.length} conversations (${convs.join(", ")}), one project each: ${chunks} chunks; ${questions.length} questions; BM25 leg only`);
    const envOf = (home: string) => ({ PATH: process.env.PATH, HOME: work, MEM_HOME: home, MEM_EMBED_ORDER: "none" });
    const env = envOf(homes.hook);

    // The hook as Claude Code runs it, through a warm daemon: the first prompt starts it.
    await runHook("user-prompt-submit", payload("warm up the daemon please", roots.get(convs[0]!)!, "warm-0"), env);
    for (let i = 0; i < 100 && (await ask(homes.hook, { op: "ping" }, 300)).kind !== "reply"; i++) await new Promise((r) => setTimeout(r, 100));
    for (let i = 1; i <= 3; i++) await runHook("user-prompt-submit", payload("what did they talk about last time", roots.get(convs[0]!)!, `warm-${i}`), env);
    const asked: Asked[] = [];
    const bare: number[] = [];
    const warm: number[] = [];
    for (const q of questions) {
      bare.push((await run(["-e", "0"], "", env)).ms);
      const r = await runHook("user-prompt-submit", payload(q.question, roots.get(q.conv)!, `locomo-${q.qid}`), env);
      warm.push(r.ms);
      const context = additionalContext(r.stdout);
      asked.push({ q, context, recall: evidenceRecall(q, context), leaked: leaks(q, context) });
    }

    // Off-topic prompts in the same projects (turn by turn over the conversations).
    const offTopic: { set: string; cls?: PromptClass; injected: boolean; chars: number }[] = [];
    const askOff = async (set: string, prompts: string[], cls?: (p: string) => PromptClass) => {
      for (const [i, p] of prompts.entries()) {
        const ctx = additionalContext((await runHook("user-prompt-submit", payload(p, roots.get(convs[i % convs.length]!)!, `off-${set}-${i}`), env)).stdout);
        offTopic.push({ set, ...(cls ? { cls: cls(p) } : {}), injected: ctx !== "", chars: ctx.length });
      }
    };
    const sf = scifactDir();
    if (sf) await askOff("scifact", scifactQueries(sf));
    const tdir = transcriptsDir();
    if (tdir) await askOff("transcripts", transcriptPrompts(tdir), classifyPrompt);
    const logFile = join(homes.hook, "hooks.log");
    const logged = existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").filter(Boolean) : [];
    await ask(homes.hook, { op: "stop" }, 2_000);

    // R@5, R@10: `mem query --batch` in each conversation's folder.
    const atK = new Map<string, { r5: number; r10: number }>();
    for (const c of convs) {
      const qs = questions.filter((q) => q.conv === c);
      const out = await run([BIN, "query", "--batch", "-", "--k", "10"], qs.map((q) => JSON.stringify({ id: q.qid, text: q.question })).join("\n"), envOf(homes.query), process.execPath, roots.get(c));
      for (const line of out.stdout.split("\n").filter(Boolean)) {
        const r = JSON.parse(line) as { id: string; results?: { text: string }[] };
        const q = qs.find((x) => x.qid === r.id);
        if (!q || !r.results) continue;
        const text = (n: number) => r.results!.slice(0, n).map((x) => x.text).join("\n");
        atK.set(q.qid, { r5: evidenceRecall(q, text(5)), r10: evidenceRecall(q, text(10)) });
      }
    }

    // The table, by category.
    log("\n | category | n | R@5 | R@10 | context recall | nothing injected |\n |---|---|---|---|---|---|");
    const row = (label: string, xs: Asked[]) => {
      const k = xs.map((a) => atK.get(a.q.qid) ?? { r5: 0, r10: 0 });
      log(` | ${label} | ${xs.length} | ${pct(mean(k.map((x) => x.r5)))} | ${pct(mean(k.map((x) => x.r10)))} | ${pct(mean(xs.map((a) => a.recall)))} | ${pct(xs.filter((a) => a.context === "").length / xs.length)}% |`);
    };
    for (const cat of Object.keys(CATEGORIES).map(Number)) {
      const xs = asked.filter((a) => a.q.category === cat);
      if (xs.length > 0) row(`${cat} ${CATEGORIES[cat]}`, xs);
    }
    row("all", asked);
    const gap = lexicalGap(questions, locomoTurns(dir, convs));
    const share = (x: { turns: number; unseen: number } | undefined) => (x ? `${pct(x.unseen / x.turns)}%` : "-");
    log(` evidence turns sharing no content word with their question (speaker names aside): ${share(gap.get(0))} of ${gap.get(0)?.turns ?? 0}; ${Object.entries(CATEGORIES).map(([c, name]) => `${name} ${share(gap.get(Number(c)))}`).join(", ")} (the BM25 leg reaches these only through the lines around them)`);
    const sizes = sorted(asked.filter((a) => a.context !== "").map((a) => a.context.length));
    log(` characters injected (prompts that got some): mean ${Math.round(mean(sizes))}, p50 ${percentile(sizes, 50)}, max ${sizes[sizes.length - 1] ?? 0}`);
    const leaked = asked.filter((a) => a.leaked.length > 0);
    log(` leaks between conversations: ${leaked.length === 0 ? "none" : `${leaked.length} question(s), e.g. ${leaked[0]!.q.qid} shows ${leaked[0]!.leaked.slice(0, 3).join(", ")}`} (tags of another conversation in a question's context)`);
    const b = sorted(bare);
    const w = sorted(warm);
    log(` prompt hook wall (warm daemon, paired with a bare \`node -e 0\`): p50 ${w.length ? percentile(w, 50).toFixed(0) : "-"} ms, p95 ${percentile(w, 95).toFixed(0)} ms; bare p50 ${percentile(b, 50).toFixed(0)} ms, p95 ${percentile(b, 95).toFixed(0)} ms; p95 ratio ${(percentile(w, 95) / percentile(b, 95)).toFixed(2)}× (target ≤ 1.5×)`);
    const misses = logged.filter((l) => /did not answer (the curl client )?within/.test(l)).length;
    log(` hooks.log: ${logged.length} line(s), ${misses} prompt(s) past the hook's budget (they got nothing)`);

    log("\n Off-topic prompts asked in the LoCoMo projects (any injection is off-topic):\n | prompts | n | injected |\n |---|---|---|");
    const off = (label: string, xs: typeof offTopic) => xs.length > 0 && log(` | ${label} | ${xs.length} | ${pct(xs.filter((x) => x.injected).length / xs.length)}% |`);
    off("SciFact queries", offTopic.filter((x) => x.set === "scifact"));
    off("transcripts: skip-worthy (Claude Code's own messages, go-aheads)", offTopic.filter((x) => x.cls === "claude-code" || x.cls === "go-ahead"));
    off("transcripts: coding tasks and questions", offTopic.filter((x) => x.cls === "task"));
    off("all off-topic prompts", offTopic);
    if (!sf) log(" (SciFact: skipped, ../shared/data/scifact not found; set MEM_SCIFACT_DIR)");
    if (!tdir) log(" (transcripts: skipped, ../shared/data/transcripts not found; set MEM_TRANSCRIPTS_DIR)");

    log("\n Where evidence is lost (in-process, the prompt's own search and selection, same store):");
    printStages(await lossStages(envOf(homes.stages), questions, roots), log);
    log(`\n  LoCoMo bench: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
