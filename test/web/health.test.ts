/**
 * The explorer's health page over a real `mem ui` (a child process on a temp data home, real
 * SQLite): the counts it shows are the store's, stored text is escaped, the latency chart draws
 * the prompt hook's runs with the right median and 95th percentile, and what is absent (no
 * provider, maintenance never run, no daemon) says so; a running daemon's memory is shown.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openApp } from "../../src/app.js";
import { clean } from "../../src/redact/clean.cjs";
import { finishJob, startJob } from "../../src/store/jobs.js";
import { recordPromptRun } from "../../src/store/prompt-log.js";
import { BIN, runMem, show } from "../helpers/mem-cli.js";
import { ask } from "../../src/daemon/client.cjs";
import { until } from "../helpers/until.js";
import { get, startUiChild, uiHome, type UiChild } from "../helpers/ui-child.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-web-health-")));
const children: UiChild[] = [];
const daemons: ChildProcess[] = [];
after(async () => {
  for (const c of children) await c.stop();
  for (const d of daemons) if (d.exitCode === null) d.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

/** The HTML of the card of one measure. */
function card(body: string, measure: string): string {
  const m = new RegExp(`<div class="card[^"]*" data-measure="${measure}">([\\s\\S]*?)</div>(?=<div class="card|</div>\\n<section)`).exec(body);
  assert.ok(m, `a card for ${measure}`);
  return m[1]!;
}
const cell = (html: string, row: string, of: "project" | "all") => Number(new RegExp(`<th>${row}</th><td class="num" data-of="project">([\\d,]+)</td><td class="num" data-of="all">([\\d,]+)</td>`).exec(html)?.[of === "project" ? 1 : 2]?.replace(/,/g, ""));

test("health: counts, escaping, the latency chart, and absent states said so", async () => {
  const { proj, env } = await uiHome(tmp, "proj", {
    "storage.md": "# Storage\n\nWe chose SQLite over Postgres because the laptop runs no server.\n",
    "deploy.md": "# Deploy\n\nDeploys run on Fridays.\n\n## Rollback\n\nRoll back with the previous tag.\n",
  });
  // Another project in the same store: in the whole store's counts, never in this project's.
  const other = join(tmp, "other");
  mkdirSync(join(other, "memory"), { recursive: true });
  writeFileSync(join(other, "memory", "x.md"), "# Other\n\nSomething else entirely.\n");
  assert.equal((await runMem(["index", join(other, "memory"), "-q"], { env, cwd: other })).code, 0);
  for (const [kind, text] of [["decision", 'Use <script>alert(1)</script> "quoted" ] here'], ["learned", "The CI runs on Tuesdays"]] as const) {
    const r = await runMem(["remember", "--kind", kind, text, "-q"], { env, cwd: proj });
    assert.equal(r.code, 0, show(r));
  }
  assert.equal((await runMem(["remember", "--kind", "note", "elsewhere", "-q"], { env, cwd: other })).code, 0);

  const app = openApp(env);
  const now = Date.now();
  try {
    // Prompt hook runs of this project: 5 in the last week, one older, one briefing, one of another project.
    const run = (at: number, ms: number, project = proj, hook: "prompt" | "briefing" = "prompt") =>
      recordPromptRun(app.db, { at, session: clean("s1"), project: clean(project), hook, ms, mode: "bm25", prompt: clean("p"), injected: null, ids: [], candidates: clean([]) });
    [10, 20, 30, 40, 200].forEach((ms, i) => run(now - (5 - i) * 3_600_000, ms));
    run(now - 10 * 86_400_000, 5_000);
    run(now - 3_600_000, 7_000, proj, "briefing");
    run(now - 3_600_000, 9_000, other);

    const ui = await startUiChild(env, proj);
    children.push(ui);
    const page = await get(`${ui.url}health`);
    assert.equal(page.status, 200);
    const body = page.body;
    const expect = (sql: string, ...args: unknown[]) => app.db.prepare(sql).pluck().get(...args) as number;

    const sqlite = card(body, "sqlite");
    assert.equal(cell(sqlite, "chunks", "project"), expect("SELECT count(*) FROM chunks WHERE project = ?", proj));
    assert.equal(cell(sqlite, "chunks", "all"), expect("SELECT count(*) FROM chunks"));
    assert.ok(cell(sqlite, "chunks", "all") > cell(sqlite, "chunks", "project"));
    assert.equal(cell(sqlite, "memories", "project"), 2);
    assert.equal(cell(sqlite, "memories", "all"), 3);
    assert.equal(cell(sqlite, "events", "project"), expect("SELECT count(*) FROM events WHERE project = ? AND deleted_at IS NULL", proj));
    assert.equal(cell(sqlite, "sources", "all"), expect("SELECT count(*) FROM sources"));

    assert.match(card(body, "provider"), /BM25 only/);
    assert.match(card(body, "coverage"), /no current embedding model/);
    assert.match(card(body, "lancedb"), /No vector tables/);
    assert.match(card(body, "maintenance"), /never run/);
    assert.match(card(body, "daemon"), /not running/);
    assert.match(card(body, "warnings"), /no mem hooks in any Claude Code settings file/, "doctor's hook check, as mem doctor says it");

    // The chart: this project's five prompt runs of the week (not the old one, the briefing, the other project's).
    const latency = card(body, "latency");
    assert.match(latency, /<span data-figure="p50">30<\/span> ms/);
    assert.match(latency, /<span data-figure="p95">200<\/span> ms/);
    assert.match(latency, /median of 5 prompts/);
    const svg = /<svg class="chart"[^>]*data-points="(\d+)"[^>]*data-max="(\d+)"[^>]*data-shape="points"[\s\S]*?<\/svg>/.exec(body);
    assert.ok(svg, "an svg.chart of dots (a few runs)");
    assert.equal(svg[1], "5");
    assert.equal(svg[2], "200", "the scale tops at the slowest run (rounded up)");
    const points = [...svg[0].matchAll(/<circle class="point" cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])] as [number, number]);
    assert.equal(points.length, 5);
    for (let i = 1; i < points.length; i++) assert.ok(points[i]![0] > points[i - 1]![0], "oldest first, left to right");
    assert.ok(points[4]![0] - points[0]![0] > 400, `five runs of the last five hours spread across the plot, not one spike at its right end: ${points.map((p) => p[0]).join(", ")}`);
    assert.ok(points[4]![1] < points[0]![1], "the slowest run is drawn highest");
    assert.equal(points[4]![1], 8, "200 ms at the top of the plot");

    // A maintenance run that failed, with hostile problems: said so, escaped.
    const id = startJob(app.db, clean("reindex"), now - 60_000);
    finishJob(app.db, id, "failed", clean(['root <script>alert("x")</script> is missing']), clean({ events: 3, note: '<img src=x onerror="y">' }), now - 30_000);
    const again = (await get(`${ui.url}health`)).body;
    const m = card(again, "maintenance");
    assert.match(m, /failed/);
    assert.match(m, /root &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; is missing/);
    assert.match(m, /&lt;img src=x onerror=&quot;y&quot;&gt;/);
    assert.doesNotMatch(again, /<script>alert/);
    assert.doesNotMatch(again, /<img src=x/);

    // Another project's page: its own counts and no latency of this one's.
    const theirs = (await get(`${ui.url}health?project=${encodeURIComponent(other)}`)).body;
    assert.equal(cell(card(theirs, "sqlite"), "memories", "project"), 1);
    assert.match(card(theirs, "latency"), /median of 1 prompts|<span data-figure="p50">9000<\/span>/);
    // A bad value is a clear error, not a default.
    assert.equal((await get(`${ui.url}health?days=0`)).status, 400);
  } finally {
    await app.close();
  }
});

test("health: an embedding provider that does not answer is said so, with the reason", async () => {
  const { home, proj, env } = await uiHome(tmp, "down", { "a.md": "# A\n\nSome words.\n" });
  writeFileSync(join(home, "config.json"), JSON.stringify({ embedding: { order: ["ollama"], ollama: { host: "http://127.0.0.1:9" } } }));
  const { MEM_EMBED_ORDER: _, ...withModel } = env;
  const ui = await startUiChild(withModel, proj);
  children.push(ui);
  const body = (await get(`${ui.url}health`)).body;
  const provider = card(body, "provider");
  assert.match(provider, /<div class="big bad">none<\/div>/);
  assert.match(provider, /search answers from BM25/);
  assert.match(card(body, "warnings"), /data-status="warn"><span class="warn">warn<\/span> <strong>ollama<\/strong>/, "doctor's provider check");
  assert.match(card(body, "latency"), /no prompt hook run recorded/);
});

test("health: the running daemon's memory (RSS, heap, vector copies), a warning over daemon.rssWarnMB", async () => {
  const { home, proj, env } = await uiHome(tmp, "rss", { "a.md": "# A\n\nSome words.\n" });
  const daemon = spawn(process.execPath, [BIN, "serve", "-q"], { env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, MEM_EMBED_ORDER: "none" }, stdio: "ignore" });
  daemons.push(daemon);
  await until(async () => (await ask(home, { op: "ping" }, 500)).kind === "reply");
  const ui = await startUiChild(env, proj);
  children.push(ui);
  const shown = card((await get(`${ui.url}health`)).body, "daemon");
  const rss = /<div class="note" data-figure="rss">RSS (\d+) MB \(V8 heap (\d+) MB; vector copies (\d+) MB\)/.exec(shown);
  assert.ok(rss, shown);
  assert.ok(Number(rss[1]) >= 20 && Number(rss[1]) > Number(rss[2]), "a Node process's RSS, over its heap");
  assert.match(shown, new RegExp(`pid ${daemon.pid}`));
  assert.doesNotMatch(shown, /rssWarnMB/);

  await ui.stop(); // one explorer per data home: the next reads the new config
  writeFileSync(join(home, "config.json"), JSON.stringify({ daemon: { rssWarnMB: 1 } }));
  const ui2 = await startUiChild(env, proj);
  children.push(ui2);
  const body = (await get(`${ui2.url}health`)).body;
  assert.match(body, /<div class="card warn-card" data-measure="daemon">/);
  assert.match(card(body, "daemon"), /over daemon\.rssWarnMB \(1 MB\); fix: lower <code>daemon\.vectorMemoryMB<\/code>/);
  await ask(home, { op: "stop" }, 2_000);
});
