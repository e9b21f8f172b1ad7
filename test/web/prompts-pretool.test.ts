/**
 * The explorer's Prompts pages list the pre-tool warnings: a real hook process (`mem hook
 * pre-tool-use`, no daemon: MEM_NO_DAEMON=1) warns about an edit that brings back a rejected
 * approach; /prompts lists it as a pre-tool warning with its call, /prompt?id=N shows the call,
 * the warning as the model saw it and why (the term found), and the session's timeline has it.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { openApp, type App } from "../../src/app.js";
import { resolveProject } from "../../src/project/identity.js";
import { promptRuns } from "../../src/store/prompt-log.js";
import { uiContext } from "../../src/web/context.js";
import { startUi, type UiServer } from "../../src/web/server.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-ui-pretool-")));
const A = join(tmp, "alpha");
mkdirSync(join(A, ".git"), { recursive: true });
const env = { MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none", MEM_WATCH: "0", MEM_NO_DAEMON: "1" };
const TOKEN = "T".repeat(43);

let app: App;
let ui: UiServer;
let base: string;
let printed = "";

before(async () => {
  app = openApp({ ...process.env, ...env });
  const ctx = uiContext(app, resolveProject(A), A);
  ctx.svc.put({ text: "We rejected HS256 for tokens because it shares the secret with every verifier", kind: "rejected", project: A });
  const r = await spawnHook("pre-tool-use", JSON.stringify({ session_id: "sess-pt", transcript_path: join(tmp, "none.jsonl"), cwd: A, hook_event_name: "PreToolUse", tool_name: "Edit", tool_use_id: "toolu_pt_1", tool_input: { file_path: join(A, "src", "auth.ts"), old_string: "alg: 'ES256'", new_string: "alg: 'HS256'" } }), env);
  assert.equal(r.code, 0, r.stderr);
  printed = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
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

describe("pre-tool warnings in the explorer", () => {
  test("/prompts lists the warning with its call; /prompt shows the call, the warning and why; the session has it", async () => {
    const runs = promptRuns(app.db, { project: resolveProject(A).id, limit: 10, offset: 0 }).runs;
    assert.deepEqual(runs.map((r) => r.hook), ["pretool"]);
    const run = runs[0]!;
    assert.equal(run.injected, printed, "the log holds exactly what the hook printed");
    const list = await get("/prompts");
    assert.equal(list.status, 200);
    assert.match(list.body, /<span class="badge">pre-tool warning<\/span> Edit: \S+auth\.ts/);
    const one = await get(`/prompt?id=${run.id}`);
    assert.equal(one.status, 200);
    assert.match(one.body, /<h1>Pre-tool check run <span class="id">[0-9a-f]{12}<\/span><\/h1>/);
    assert.match(one.body, /PreToolUse hook/);
    assert.match(one.body, /<h2>The tool call<\/h2>\s*<pre class="prompt">Edit: \S+auth\.ts<\/pre>/);
    assert.match(one.body, /the team rejected HS256 on \d{4}-\d{2}-\d{2} because it shares the secret with every verifier/);
    assert.match(one.body, /the call adds &quot;hs256&quot;, which this rejected approach rules out/);
    const session = await get("/session?id=sess-pt");
    assert.equal(session.status, 200);
    assert.match(session.body, /data-type="pretool"/);
    assert.match(session.body, /the pre-tool warning/);
  });
});
