/**
 * "Why did the model see this" end to end: real hook processes (`bin/mem.cjs hook ...`, no daemon:
 * the in-process path) brief a session, answer its prompts and capture a tool call; the explorer
 * then shows each run with the very text the hook printed, its latency and its candidates' fates,
 * the session's timeline in time order, hostile prompt text escaped, and another project's runs
 * and sessions only when the address names that project.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { openApp, type App } from "../../src/app.js";
import { recordRun } from "../../src/inject/prompt-run.js";
import { resolveProject } from "../../src/project/identity.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { oneId } from "../../src/store/one-id.js";
import { promptOneId, promptRuns, type PromptRun } from "../../src/store/prompt-log.js";
import { uiContext } from "../../src/web/context.js";
import { escapeHtml } from "../../src/web/html.js";
import { startUi, type UiServer } from "../../src/web/server.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-ui-prompts-")));
const A = join(tmp, "alpha");
const B = join(tmp, "beta");
for (const p of [A, B]) mkdirSync(join(p, ".git"), { recursive: true });
const env = { MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none", MEM_WATCH: "0", MEM_NO_DAEMON: "1" };
const TOKEN = "P".repeat(43);
const PROMPT = "why did we choose advisory locks for the job queue";
const HOSTILE_PROMPT = `advisory locks </pre></td><script>alert("owned")</script> "quoted" ] for the job queue?`;

let app: App;
let ui: UiServer;
let base: string;
let idB: string;
/** What the prompt hook printed for PROMPT: the context put before it. */
let printed = "";
let runs: PromptRun[] = [];

const hookOut = (stdout: string): string => (stdout.trim() ? ((JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? "") : "");
const payload = (cwd: string, session: string, extra: Record<string, unknown>) => JSON.stringify({ session_id: session, transcript_path: join(tmp, "none.jsonl"), cwd, ...extra });

before(async () => {
  app = openApp({ ...process.env, ...env });
  const ctx = uiContext(app, resolveProject(A), A);
  ctx.svc.put({ text: "We chose advisory locks for the job queue: SKIP LOCKED starved the workers", kind: "decision", project: A });
  ctx.svc.put({ text: "The queue dashboard is painted blue", kind: "learned", project: A });
  ctx.svc.put({ text: "Beta keeps its ledger in wombat shards, by advisory choice", kind: "decision", project: B });
  const start = await spawnHook("session-start", payload(A, "sess-1", { hook_event_name: "SessionStart", source: "startup" }), env);
  assert.equal(start.code, 0, start.stderr);
  const first = await spawnHook("user-prompt-submit", payload(A, "sess-1", { hook_event_name: "UserPromptSubmit", prompt: PROMPT }), env);
  assert.equal(first.code, 0, first.stderr);
  printed = hookOut(first.stdout);
  const tool = await spawnHook("post-tool-use", payload(A, "sess-1", { hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "toolu_ui_1", tool_input: { command: "npm test -- --grep queue" }, tool_response: { stdout: "ok", stderr: "", interrupted: false } }), env);
  assert.equal(tool.code, 0, tool.stderr);
  await spawnHook("user-prompt-submit", payload(A, "sess-1", { hook_event_name: "UserPromptSubmit", prompt: HOSTILE_PROMPT }), env);
  await spawnHook("user-prompt-submit", payload(B, "sess-b", { hook_event_name: "UserPromptSubmit", prompt: "where does beta keep its ledger shards" }), env);
  idB = resolveProject(B).id;
  runs = promptRuns(app.db, { project: resolveProject(A).id, limit: 50, offset: 0 }).runs;
  ui = await startUi({ ctx, token: TOKEN, port: 0, log: () => undefined });
  base = `http://127.0.0.1:${ui.port}/${TOKEN}`;
});
after(async () => {
  await ui?.close();
  await app?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const get = async (path: string) => {
  const r = await fetch(`${base}${path}`, { redirect: "manual" });
  return { status: r.status, body: await r.text() };
};
const runOf = (prompt: string) => runs.find((r) => r.hook === "prompt" && r.prompt === prompt)!;
const attr = (body: string, name: string) => [...body.matchAll(new RegExp(`${name}="([^"]*)"`, "g"))].map((m) => m[1]!);

describe("the hooks' runs are logged", () => {
  test("a briefing and two prompts of the session, each once, in the store", () => {
    assert.ok(printed.includes("advisory locks"), `the hook injected the decision: ${printed}`);
    assert.deepEqual(runs.map((r) => r.hook).sort(), ["briefing", "prompt", "prompt"]);
    const r = runOf(PROMPT);
    assert.equal(r.session, "sess-1");
    assert.equal(r.mode, "bm25");
    assert.ok(r.ms !== null && r.ms > 0);
    assert.equal(r.injected, printed, "the log holds exactly what the hook printed");
    assert.deepEqual(r.candidates.filter((c) => c.fate === "injected").map((c) => c.id), r.ids);
  });
});

describe("/prompts", () => {
  test("lists the project's runs with their latency, items and a link to each; another project's are not there", async () => {
    const { status, body } = await get("/prompts");
    assert.equal(status, 200);
    assert.match(body, /<table class="prompts">/);
    assert.deepEqual(attr(body, "data-run").sort(), runs.map((r) => promptOneId(r.id)).sort(), "each run by its one id");
    assert.ok(attr(body, "data-run").every((id) => /^[0-9a-f]{12}$/.test(id)));
    const r = runOf(PROMPT);
    assert.ok(body.includes(`/prompt?id=${promptOneId(r.id)}`));
    assert.match(body, /\d+(\.\d)? ms/);
    assert.ok(!body.includes("wombat") && !body.includes("beta keep its ledger"));
    const other = await get(`/prompts?project=${encodeURIComponent(idB)}`);
    assert.equal(attr(other.body, "data-run").length, 1);
    assert.ok(other.body.includes("beta keep its ledger"));
  });
  test("escapes a hostile prompt", async () => {
    const { body } = await get("/prompts");
    assert.ok(!body.includes("<script>alert"), "no script from a prompt");
    assert.ok(body.includes(escapeHtml(`</pre></td><script>alert("owned")</script> "quoted" ]`)));
  });
  test("pages by 50, and refuses a bad offset", async () => {
    const project = cleanText(resolveProject(A).id);
    for (let i = 0; i < 60; i++) recordRun(app.db, { at: 1_000 + i, session: cleanText("old"), project, hook: "prompt", ms: 1, mode: "bm25", prompt: `old prompt ${i}`, injected: undefined, ids: [], fates: [] }, () => undefined);
    const first = await get("/prompts");
    assert.equal(attr(first.body, "data-run").length, 50);
    assert.match(first.body, /rel="next" href="[^"]*offset=50/);
    const second = await get("/prompts?offset=50");
    assert.equal(attr(second.body, "data-run").length, runs.length + 10);
    assert.equal((await get("/prompts?offset=-1")).status, 400);
    assert.equal((await get("/prompts?offset=x")).status, 400);
  });
});

describe("/prompt?id=ID", () => {
  test("a run by its one id, a start of it, or its older number: the same page, titled by its one id; a start too short is refused", async () => {
    const r = runOf(PROMPT);
    const id = promptOneId(r.id);
    for (const form of [id, id.slice(0, 6), id.toUpperCase(), String(r.id)]) {
      const { status, body } = await get(`/prompt?id=${form}`);
      assert.equal(status, 200, form);
      assert.match(body, new RegExp(`<h1>Prompt run <span class="id">${id}</span></h1>`), form);
      assert.match(body, new RegExp(`<title>Prompt run ${id} · mem</title>`), `the tab says the public id, not the row's number: ${form}`);
    }
    const short = await get(`/prompt?id=${id.slice(0, 6 - 1).replace(/^\d+$/, "a$&").slice(0, 5)}`);
    assert.equal(short.status, 400);
    assert.match(short.body, /give at least 6 characters of the id/);
  });
  test("shows verbatim what the hook injected, its latency and mode, and every candidate's fate linked to its memory", async () => {
    const r = runOf(PROMPT);
    const { status, body } = await get(`/prompt?id=${r.id}`);
    assert.equal(status, 200);
    const section = body.slice(body.indexOf('<section class="injected">'), body.indexOf("</section>"));
    assert.ok(section.includes(`<pre>${escapeHtml(printed)}</pre>`), section);
    assert.match(section, /class="latency">\d+(\.\d)? ms/);
    assert.match(body, /<span>bm25<\/span>/);
    assert.match(body, /<table class="candidates">/);
    const fates = attr(body, "data-fate");
    assert.ok(fates.includes("injected"), fates.join());
    assert.ok(fates.includes("floor"), `the blue dashboard missed the floor: ${fates.join()}`);
    assert.match(body, /missed the floor: holds 1 of the prompt/);
    for (const c of r.candidates) assert.ok(body.includes(`/memory?id=${oneId(c.id)}`));
  });
  test("a prompt with nothing injected says so, and why", async () => {
    const r = runOf(HOSTILE_PROMPT);
    const { body } = await get(`/prompt?id=${r.id}`);
    assert.ok(!body.includes("<script>alert"));
    if (r.injected === null) assert.match(body, /class="note">Nothing was injected: /);
    else assert.ok(body.includes(`<pre>${escapeHtml(r.injected)}</pre>`));
  });
  test("another project's run is not found unless the address names that project; a bad id is refused", async () => {
    const runB = promptRuns(app.db, { project: idB, limit: 5, offset: 0 }).runs[0]!;
    assert.equal((await get(`/prompt?id=${runB.id}`)).status, 404);
    const named = await get(`/prompt?id=${runB.id}&project=${encodeURIComponent(idB)}`);
    assert.equal(named.status, 200);
    assert.ok(named.body.includes("beta keep its ledger"));
    assert.equal((await get("/prompt?id=abc")).status, 400);
    assert.equal((await get("/prompt?id=999999")).status, 404);
  });
});

describe("/sessions and /session?id=S", () => {
  test("the project's sessions, each linked to its timeline, with its counts", async () => {
    const { status, body } = await get("/sessions");
    assert.equal(status, 200);
    assert.ok(attr(body, "data-session").includes("sess-1"));
    assert.ok(!attr(body, "data-session").includes("sess-b"));
    assert.ok(body.includes("/session?id=sess-1"));
    assert.match(body, /2 prompts/);
  });
  test("a timeline in time order: the briefing, the prompt, the tool call, the next prompt; hostile text escaped", async () => {
    const { status, body } = await get("/session?id=sess-1");
    assert.equal(status, 200);
    const list = body.slice(body.indexOf('<ol class="timeline">'), body.indexOf("</ol>"));
    assert.deepEqual(attr(list, "data-type"), ["briefing", "prompt", "command_run", "prompt"]);
    assert.ok(list.includes(`/prompt?id=${promptOneId(runOf(PROMPT).id)}`));
    assert.ok(list.includes("npm test"));
    assert.ok(!body.includes("<script>alert"));
  });
  test("another project's session is not found unless the address names it", async () => {
    assert.equal((await get("/session?id=sess-b")).status, 404);
    assert.equal((await get(`/session?id=sess-b&project=${encodeURIComponent(idB)}`)).status, 200);
    assert.equal((await get("/session?id=no-such")).status, 404);
  });
});

describe("/session?id= takes a session id as every page shows it", () => {
  const LONG = "8bbcceab-0b3e-4e24-98c9-ec146b1ca8c6";
  const TWIN = "8bbcceab-1111-4e24-98c9-ec146b1c0000";
  test("the whole id, the short form (8…4), a unique start; an ambiguous or unknown one refused", async () => {
    for (const [session, n] of [[LONG, 1], [TWIN, 2]] as const) {
      const tool = await spawnHook("post-tool-use", payload(A, session, { hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: `toolu_ui_long_${n}`, tool_input: { command: `make migrate-${n}` }, tool_response: { stdout: "ok", stderr: "" } }), env);
      assert.equal(tool.code, 0, tool.stderr);
    }
    for (const typed of [LONG, "8bbcceab…a8c6", "8bbcceab-0b3e"]) {
      const { status, body } = await get(`/session?id=${encodeURIComponent(typed)}`);
      assert.equal(status, 200, typed);
      assert.ok(body.includes(`<span class="id">${LONG}</span>`), `${typed}: the session's whole id heads the page`);
      assert.ok(body.includes("make migrate-1") && !body.includes("make migrate-2"), typed);
    }
    const amb = await get(`/session?id=${encodeURIComponent("8bbcceab")}`);
    assert.equal(amb.status, 400);
    assert.match(amb.body, /ambiguous: it matches 2 sessions/);
    assert.equal((await get(`/session?id=${encodeURIComponent("8bbcceab…ffff")}`)).status, 404);
  });
});
