/**
 * Health at a glance: the stores' sizes and counts (the project's and the whole store's), the
 * embedding provider and the vector coverage of its table, each table's calibration, the last
 * index run and maintenance run, the daemon (and its memory), the prompt hook's latency over time (a chart), and
 * the warnings of `mem doctor`'s cheap checks. Every number comes from a count SQLite keeps or an
 * indexed query; LanceDB is never read (its folder's size is walked at most once a minute).
 */
import { describeUnhealthy } from "../../embed/chain.js";
import type { Check } from "../../health/check.js";
import { memoryLine, overRss, RSS_FIX, seeDaemon } from "../../health/daemon.js";
import { folderBytes, percentile, sqliteBytes, storeCounts, vectorTables, type Both } from "../../health/measures.js";
import { bm25OnlyCheck } from "../../health/providers.js";
import { LEFT_TO_DOCTOR, quickChecks } from "../../health/quick.js";
import { knownProjects } from "../../store/chunks.js";
import { calibrationsOf } from "../../store/fusion-calibration.js";
import { lastJob } from "../../store/jobs.js";
import { promptLatencies } from "../../store/prompt-log.js";
import { vectorTableName } from "../../store/vector-table-name.js";
import { MemoryError } from "../../util/memory-error.js";
import { latencyChart } from "../chart.js";
import { projectOf, type UiContext } from "../context.js";
import { codeSpans, html, type Html, type Part } from "../html.js";
import { page } from "../layout.js";
import type { Route, UiRequest } from "../request.js";
import { age } from "../show.js";

const DAY_MS = 86_400_000;
/** How long the daemon may take to say its status. */
const DAEMON_BUDGET_MS = 300;

const n = (x: number) => x.toLocaleString("en");
export function bytes(b: number): string {
  if (b < 1024) return `${b} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = b / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[i]}`;
}

const card = (measure: string, title: string, body: Part, status: "ok" | "warn" | "bad" | "" = "") => html`<div class="card${status ? ` ${status}-card` : ""}" data-measure="${measure}"><h2>${title}</h2>${body}</div>`;
const both = (label: string, b: Both) => html`<tr><th>${label}</th><td class="num" data-of="project">${n(b.project)}</td><td class="num" data-of="all">${n(b.all)}</td></tr>`;

async function view(ctx: UiContext, req: UiRequest): Promise<Html> {
  const daysParam = (req.query.get("days") ?? "").trim();
  const days = daysParam === "" ? 7 : Number(daysParam);
  if (!Number.isInteger(days) || days < 1 || days > 365) throw new MemoryError("bad_argument", "days must be an integer from 1 to 365");
  const project = projectOf(ctx, req.query);
  const projectParam = (req.query.get("project") ?? "").trim() || undefined;
  const { app } = ctx;
  const now = ctx.now();
  // "memories": what the Memories page lists and counts (the memory service's list), in this project and in every project.
  const listed = (p: string) => ctx.svc.list({ project: p, limit: 1 }).total;
  const counts = { ...storeCounts(app.db, project.id), memories: { project: listed(project.id), all: knownProjects(app.db).reduce((sum, p) => sum + listed(p), 0) } };
  const sq = sqliteBytes(app.paths.sqlite);
  const lance = folderBytes(app.paths.lance, now);
  const tables = vectorTables(app.db, project.id);
  const picked = await ctx.pickProvider();
  const bm25Only = app.config.embedding.order.length === 0;
  const current = picked.selected ? vectorTableName(picked.selected.provider, picked.selected.dims) : undefined;
  const cards: Html[] = [];

  cards.push(card("sqlite", "SQLite", html`<div class="big">${bytes(sq.db + sq.wal)}</div><div class="note">${app.paths.sqlite}${sq.wal > 0 ? ` (write-ahead log ${bytes(sq.wal)})` : ""}</div>
<table class="counts"><thead><tr><th></th><th class="num">this project</th><th class="num">whole store</th></tr></thead><tbody>${both("chunks", counts.chunks)}${both("memories", counts.memories)}${both("events", counts.events)}${both("sources", counts.sources)}</tbody></table>
<div class="note">memories: what Memories lists (everything captured or remembered, tool events too, and decision records; notes from markdown files are chunks); events: the captured and remembered ones alone</div>`));

  cards.push(card("lancedb", "LanceDB", html`<div class="big">${lance.absent ? "none yet" : `${lance.partial ? "≥ " : ""}${bytes(lance.bytes)}`}</div><div class="note">${app.paths.lance}${lance.absent ? "" : `, ${n(lance.files)} files`}</div>
${tables.length === 0 ? html`<p class="note">No vector tables: nothing was embedded.</p>` : html`<table class="tables"><thead><tr><th>table</th><th class="num">vectors</th></tr></thead><tbody>${tables.map((t) => html`<tr data-table="${t.name}"><td>${t.name}${t.name === current ? html` <span class="badge">current</span>` : ""}<div class="note">${t.provider} ${t.model}, ${t.dims} dims</div></td><td class="num">${n(t.vectors.all)}</td></tr>`)}</tbody></table>`}`));

  const provider = picked.selected
    ? html`<div class="big">${picked.selected.provider.name}</div><div class="id">${picked.selected.provider.model}</div><div class="note">${picked.selected.dims} dims; searches hybrid (BM25 + vectors)</div>`
    : bm25Only
      ? html`<div class="big">BM25 only</div><div class="note">${codeSpans(bm25OnlyCheck(process.env).detail)}</div>`
      : html`<div class="big bad">none</div><div class="note">${codeSpans(describeUnhealthy(picked.unhealthy))}; search answers from BM25</div>`;
  cards.push(card("provider", "Embedding provider", provider, picked.selected || bm25Only ? "ok" : "bad"));

  if (current) {
    const t = tables.find((x) => x.name === current);
    const have = t?.vectors.project ?? 0;
    const haveAll = t?.vectors.all ?? 0;
    const pct = counts.chunks.project === 0 ? 100 : Math.floor((have / counts.chunks.project) * 100);
    cards.push(card("coverage", "Vector coverage", html`<div class="big">${pct}%</div><div class="note"><span data-of="project">${n(have)} of ${n(counts.chunks.project)}</span> chunks of this project have a vector in ${current}; <span data-of="all">${n(haveAll)} of ${n(counts.chunks.all)}</span> in the whole store${have < counts.chunks.project ? html`; the daemon or the next <code>mem index</code> embeds the rest` : ""}</div>`, have < counts.chunks.project ? "warn" : "ok"));
  } else {
    cards.push(card("coverage", "Vector coverage", html`<div class="big">–</div><div class="note">no current embedding model: ${bm25Only ? "BM25 only, by your choice" : "none answers"}; search matches words only</div>`));
  }

  cards.push(card("calibration", "Calibration", calibration(ctx, project.id, tables, current, now)));
  cards.push(indexRun(ctx, project.id, now));
  cards.push(maintenance(ctx, now));
  cards.push(await daemon(ctx, now));

  const since = now - days * DAY_MS;
  const lat = promptLatencies(app.db, project.id, since);
  const sorted = lat.map((l) => l.ms).sort((a, b) => a - b);
  const p50 = Math.round(percentile(sorted, 0.5) ?? 0);
  const p95 = Math.round(percentile(sorted, 0.95) ?? 0);
  cards.push(card("latency", "Prompt hook latency", lat.length === 0 ? html`<div class="big">–</div><div class="note">no prompt hook run recorded in the last ${days} days</div>` : html`<div class="big"><span data-figure="p50">${p50}</span> ms</div><div class="note">median of ${n(lat.length)} prompts in the last ${days} days; 95th percentile <span data-figure="p95">${p95}</span> ms</div>`));

  const checks = quickChecks(app, { env: process.env, cwd: project.root ?? ctx.cwd }, picked, counts.events.all);
  cards.push(card("warnings", "Doctor's warnings", warnings(checks), checks.some((c) => c.status === "error") ? "bad" : checks.some((c) => c.status === "warn") ? "warn" : "ok"));

  const chart = lat.length === 0 ? html`<p class="note">The chart shows each prompt's answer time once the prompt hook has run.</p>` : latencyChart(lat, since, now, p50, p95);
  const body = html`<h1>Health</h1>
<form class="filters" method="get" action="${req.base}/health"><label>Project<input name="project" value="${projectParam ?? ""}" placeholder="this one" size="14"></label><label>Latency over the last<select name="days">${[1, 7, 30, 90].map((d) => html`<option value="${d}"${d === days ? html` selected` : ""}>${d} day${d === 1 ? "" : "s"}</option>`)}</select></label><button type="submit">Show</button></form>
<div class="cards">${cards}</div>
<section class="latency"><h2>Prompt hook latency, last ${days} days</h2>${chart}</section>`;
  return page({ base: req.base, title: "Health", active: "/health", project: project.id, projectParam, body });
}

function calibration(ctx: UiContext, project: string, tables: readonly { name: string }[], current: string | undefined, now: number): Html {
  if (tables.length === 0) return html`<p class="note">No vector table to calibrate.</p>`;
  const rows = tables.map((t) => {
    const c = calibrationsOf(ctx.app.db, t.name, [project])[0];
    return html`<tr data-table="${t.name}"><td>${t.name}${t.name === current ? html` <span class="badge">current</span>` : ""}</td>${c ? html`<td class="num">${c.weight.toFixed(2)}</td><td>${c.queries} pseudo-queries over ${n(c.chunks)} chunks, ${age(new Date(c.at).toISOString(), now)}<div class="note">${c.reason}</div></td>` : html`<td class="num">–</td><td class="note">never calibrated in this project: the prior is used (<code>mem index</code> calibrates)</td>`}</tr>`;
  });
  return html`<table class="calibration"><thead><tr><th>table</th><th class="num">weight</th><th>from</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function indexRun(ctx: UiContext, project: string, now: number): Html {
  const r = ctx.app.db.prepare("SELECT started_at, finished_at, status FROM runs WHERE project = ? ORDER BY id DESC LIMIT 1").get(project) as { started_at: number; finished_at: number | null; status: string } | undefined;
  if (!r) return card("index", "Last index run", html`<div class="big">never</div><div class="note">nothing was indexed in this project: <code>mem index PATH</code></div>`, "warn");
  const status = r.finished_at === null ? "running or interrupted" : r.status;
  // BM25 only by the user's choice: a run with no vector step is what was asked for.
  const fine = status === "ok" || (status === "vector-skipped" && ctx.app.config.embedding.order.length === 0);
  return card("index", "Last index run", html`<div class="big">${status}</div><div class="note">${age(new Date(r.started_at).toISOString(), now)}${status === "vector-skipped" ? "; no vectors were made" : ""}</div>`, fine ? "ok" : "warn");
}

function maintenance(ctx: UiContext, now: number): Html {
  const j = lastJob(ctx.app.db, "reindex");
  if (!j) return card("maintenance", "Last maintenance run", html`<div class="big">never run</div><div class="note">the weekly <code>mem reindex</code> (snapshot, re-index, vectors, calibration) has not run here: <code>mem reindex</code>, or <code>mem schedule install</code> to run it weekly</div>`, "warn");
  const status = j.finished_at === null ? "running or interrupted" : j.status;
  const problems = parseJson<string[]>(j.problems, []);
  const summary = parseJson<Record<string, unknown>>(j.summary, {});
  const facts = Object.entries(summary).filter(([, v]) => typeof v === "number" || typeof v === "string" || typeof v === "boolean");
  return card("maintenance", "Last maintenance run", html`<div class="big">${status}</div><div class="note">${j.job}, ${age(new Date(j.started_at).toISOString(), now)}${j.finished_at !== null ? `, took ${Math.round((j.finished_at - j.started_at) / 1000)} s` : ""}</div>
${problems.length > 0 ? html`<ul class="problems">${problems.slice(0, 10).map((p) => html`<li class="warn">${String(p)}</li>`)}</ul>` : ""}
${facts.length > 0 ? html`<table class="summary"><tbody>${facts.slice(0, 12).map(([k, v]) => html`<tr><th>${k}</th><td>${String(v)}</td></tr>`)}</tbody></table>` : ""}`, status === "ok" ? "ok" : status === "failed" ? "bad" : "warn");
}

async function daemon(ctx: UiContext, now: number): Promise<Html> {
  const { result: r, figures } = await seeDaemon(ctx.app.paths.home, DAEMON_BUDGET_MS);
  if (r.kind === "reply" && r.reply.ok) {
    const s = r.reply as { pid?: unknown; startedAt?: unknown; requests?: unknown; provider?: unknown };
    const warnMB = ctx.app.config.daemon.rssWarnMB;
    const over = figures !== undefined && overRss(figures, warnMB);
    // Its memory: the resident set (what the system counts), the V8 heap and the vector copies' bytes.
    const memory = figures
      ? html`<div class="note" data-figure="rss">${memoryLine(figures)}${over ? html`<div class="warn">over daemon.rssWarnMB (${n(warnMB)} MB); fix: ${codeSpans(RSS_FIX)}</div>` : ""}</div>`
      : html`<div class="note">it says nothing of its memory (a daemon of an older mem?)</div>`;
    return card("daemon", "Daemon", html`<div class="big ok">running</div><div class="note">pid ${String(s.pid)}${typeof s.startedAt === "string" ? html`, started ${age(s.startedAt, now)}` : ""}${typeof s.requests === "number" ? `, ${n(s.requests)} requests` : ""}; ${typeof s.provider === "string" ? `embeds with ${s.provider}` : "BM25 only"}</div>${memory}`, over ? "warn" : "ok");
  }
  const why =
    r.kind === "absent"
      ? html`not running: the hooks start it on the next prompt (or <code>mem serve</code>)`
      : r.kind === "timeout"
        ? `did not answer within ${DAEMON_BUDGET_MS} ms (busy?)`
        : r.kind === "refused"
          ? `its socket was not trusted: ${r.reason}`
          : r.kind === "error"
            ? r.error
            : `answered with an error: ${r.reply.ok ? "" : r.reply.error}`;
  return card("daemon", "Daemon", html`<div class="big">${r.kind === "absent" ? "not running" : "no answer"}</div><div class="note">${why}</div>`, r.kind === "absent" ? "" : "warn");
}

function warnings(checks: readonly Check[]): Html {
  const bad = checks.filter((c) => c.status !== "ok");
  const ok = checks.filter((c) => c.status === "ok");
  return html`<div class="big">${bad.length === 0 ? "none" : `${bad.length}`}</div>
${bad.length > 0 ? html`<ul class="checks">${bad.map((c) => html`<li data-status="${c.status}"><span class="${c.status === "error" ? "bad" : "warn"}">${c.status === "error" ? "FAIL" : "warn"}</span> <strong>${c.name}</strong>: ${codeSpans(c.detail)}${c.fix ? html`<div class="note">fix: ${codeSpans(c.fix)}</div>` : ""}</li>`)}</ul>` : ""}
<details><summary>${ok.length} check${ok.length === 1 ? "" : "s"} ok</summary><ul class="checks">${ok.map((c) => html`<li data-status="ok"><strong>${c.name}</strong>: ${codeSpans(c.detail)}</li>`)}</ul></details>
<p class="note">Not run here (slow on a large store): ${LEFT_TO_DOCTOR}. <code>mem doctor</code> runs them all.</p>`;
}

function parseJson<T>(s: string, fallback: T): T {
  try {
    const v = JSON.parse(s) as unknown;
    return v !== null && typeof v === "object" ? (v as T) : fallback;
  } catch {
    return fallback;
  }
}

export const healthRoute: Route = { get: view };
