/**
 * `npm run bench:ui:memories`: the explorer's browse and correct pages at scale. A fresh
 * data home gets `MEM_BENCH_SIZE` memories (default 100,000, so as many chunks; a sixth are tasks)
 * by `importLines`, and 100 markdown files indexed; then `mem ui`'s server (in this process, real
 * HTTP on 127.0.0.1) answers each page `MEM_BENCH_OPS` times (default 20): p50/p99 wall time of a
 * whole request. Not a test. `MEM_BENCH_KEEP=1` keeps the data home.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexPaths } from "../indexer/pipeline.js";
import { openApp } from "../src/app.js";
import { resolveProject } from "../src/project/identity.js";
import { importLines } from "../src/service/import.js";
import { uiContext } from "../src/web/context.js";
import { newToken } from "../src/web/guard.js";
import { startUi } from "../src/web/server.js";
import { percentile } from "./bench/metrics.js";
import { vocabulary, zipf } from "./bench/scale.js";
import { prng } from "./prng.js";

const SIZE = Number(process.env.MEM_BENCH_SIZE ?? 100_000);
const OPS = Number(process.env.MEM_BENCH_OPS ?? 20);
const KINDS = ["decision", "learned", "preference", "note", "rejected", "task"];
const log = (s: string) => process.stdout.write(`${s}\n`);

const work = mkdtempSync(join(tmpdir(), "mem-bench-ui-"));
const repo = join(work, "repo");
mkdirSync(join(repo, ".git"), { recursive: true });
const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: join(work, "home"), MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1" };
const project = resolveProject(repo);
const rand = prng(11);
const word = zipf(vocabulary(20_000, prng(7)), rand);
const sentence = () => Array.from({ length: 8 + Math.floor(rand() * 10) }, word).join(" ");
const app = openApp(env);
try {
  const lines = Array.from({ length: SIZE }, (_, i) =>
    JSON.stringify({ id: `mem:bench${i.toString(16).padStart(8, "0")}`, text: `${sentence()} (${i})`, kind: KINDS[i % KINDS.length], tags: [`t${i % 8}`], createdAt: new Date(Date.parse("2026-01-01T00:00:00Z") + i * 60_000).toISOString(), ...(i % 3 ? { session: `s-${Math.floor(i / 100)}` } : {}) }),
  );
  let t = performance.now();
  importLines({ db: app.db, config: app.config, projectRoot: app.projectRoot }, lines, { project: project.id });
  log(`import ${SIZE.toLocaleString("en")} memories: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  for (let f = 0; f < 100; f++) writeFileSync(join(repo, `note-${f}.md`), Array.from({ length: 5 }, (_, s) => `## Part ${s}\n\n${Array.from({ length: 30 }, sentence).join(". ")}\n`).join("\n"));
  t = performance.now();
  await indexPaths({ db: app.db, config: app.config, providers: [], vectors: app.vectors }, { roots: [repo], project, full: false });
  log(`index 100 files: ${((performance.now() - t) / 1000).toFixed(1)} s; chunks: ${app.db.prepare("SELECT count(*) FROM chunks").pluck().get()}`);
  const server = await startUi({ ctx: uiContext(app, project, repo), token: newToken(), port: 0, log: () => undefined });
  const someId = (await (await fetch(`${server.url}memories?offset=500`)).text()).match(/data-id="([0-9a-f]{12})"/)![1]!;
  const taskId = (await (await fetch(`${server.url}tasks`)).text()).match(/data-task="(\d+)"/)?.[1];
  const file = join(repo, "note-7.md");
  const pages: [string, string][] = [
    ["/memories", "memories"],
    ["/memories (page 1000)", "memories?offset=50000"],
    ["/memories?kind=decision", "memories?kind=decision"],
    ["/memories?tag=t3&text=…", "memories?tag=t3&text=the"],
    ["/memories?session=", "memories?session=s-500"],
    ["/memory?id=", `memory?id=${someId}`],
    ["/tasks", "tasks"],
    ["/sources", "sources"],
    ["/source?path=", `source?path=${encodeURIComponent(file)}`],
    ["/memories/new", "memories/new"],
  ];
  for (const [name, path] of pages) {
    const ms: number[] = [];
    for (let i = 0; i < OPS; i++) {
      const t0 = performance.now();
      const r = await fetch(`${server.url}${path}`);
      await r.text();
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    log(`${name.padEnd(28)} p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms (n=${ms.length})`);
  }
  const origin = new URL(server.url).origin;
  const post = async (path: string, fields: Record<string, string>) => {
    const t0 = performance.now();
    const r = await fetch(`${server.url}${path}`, { method: "POST", redirect: "manual", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
    await r.text();
    if (r.status !== 303) throw new Error(`${path}: ${r.status}`);
    return performance.now() - t0;
  };
  const writes: [string, number][] = [
    ["POST /memories/new", await post("memories/new", { text: `A new memory ${sentence()}`, kind: "note" })],
    ["POST /memory/edit", await post("memory/edit", { id: someId, text: `Edited ${sentence()}`, kind: "note", tags: "" })],
    ...(taskId ? [["POST /task/done", await post("task/done", { id: taskId })] as [string, number]] : []),
    ["POST /memory/forget", await post("memory/forget", { id: someId })],
  ];
  for (const [name, ms] of writes) log(`${name.padEnd(28)} ${ms.toFixed(1)} ms (one)`);
  await server.close();
} finally {
  await app.close();
  if (process.env.MEM_BENCH_KEEP !== "1") rmSync(work, { recursive: true, force: true });
  else log(`kept ${work}`);
}
