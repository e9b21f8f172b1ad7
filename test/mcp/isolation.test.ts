/**
 * A session's memory is its project's: `mem mcp` started for project A (the official SDK client
 * over stdio, a real child, a real store shared with a server for project B and the CLI) reads,
 * stores, forgets and closes tasks only in A, plus the user's global memories read-only. B's
 * memories, ids, id prefixes and tasks answer exactly as missing ones do; a `project` or `cwd`
 * argument is refused; the prompt hook's tool injects nothing for B's directory.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { BIN, cleanEnv, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-mcp-iso-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const projA = join(tmp, "alpha");
const projB = join(tmp, "beta");
for (const p of [projA, projB]) mkdirSync(join(p, ".git"), { recursive: true });

type Result = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> & { error?: { code: string } }; isError?: boolean };
const text = (r: Result) => r.content.map((c) => c.text).join("\n");

/** An SDK client of a `mem mcp` child serving `project` on the data home `home`. */
async function serve(home: string, project: string, args: string[] = []) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", ...args], env: serverEnv(tmp, home, project), cwd: tmp, stderr: "pipe" });
  const client = new Client({ name: "mem-iso-test", version: "1" });
  await client.connect(transport);
  const call = async (name: string, a: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: a })) as Result;
  return { client, call };
}

describe("mem mcp is bound to its session's project", () => {
  const home = join(tmp, "home");
  const cli = (args: string[], cwd: string, input?: string) => runMem(args, { env: { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: home }, cwd, ...(input !== undefined ? { input } : {}) });
  let a: Awaited<ReturnType<typeof serve>>;
  let b: Awaited<ReturnType<typeof serve>>;
  let idB = "";
  let taskB = "";
  let globalId = "";

  before(async () => {
    a = await serve(home, projA);
    b = await serve(home, projB);
    const put = await b.call("remember", { text: "Beta decided to shard the zebra table by tenant.", kind: "decision" });
    idB = (put.structuredContent!.memory as { id: string }).id;
    taskB = ((await b.call("tasks", { action: "add", text: "Beta: migrate the zebra shards" })).structuredContent!.task as { id: string }).id;
    await a.call("remember", { text: "Alpha keeps one zebra table.", kind: "decision" });
    const g = await cli(["remember", "The user prefers tabs over spaces everywhere.", "--project", "global", "--kind", "preference"], projA);
    assert.equal(g.code, 0, show(g));
    globalId = g.stdout.trim();
  });
  after(async () => {
    await a.client.close();
    await b.client.close();
  });

  const refusedArg = (r: Result, key: string) => {
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), new RegExp(`Input validation error: .*Unrecognized key.*"${key}"`));
  };

  test("list and search: another project's memories are not reachable, a project or cwd argument is refused", async () => {
    refusedArg(await a.call("list", { project: projB }), "project");
    refusedArg(await a.call("list", { project: "beta" }), "project");
    refusedArg(await a.call("search", { query: "zebra table", project: projB }), "project");
    refusedArg(await a.call("search", { query: "zebra table", cwd: projB }), "cwd");
    const listed = await a.call("list", {});
    assert.deepEqual((listed.structuredContent!.memories as { text: string }[]).map((m) => m.text), ["Alpha keeps one zebra table."]);
    const found = await a.call("search", { query: "zebra table shard tenant" });
    const texts = (found.structuredContent!.results as { id: string }[]).map((r) => r.id);
    assert.ok(!texts.includes(idB), text(found));
    assert.doesNotMatch(text(found), /Beta decided/);
  });

  test("remember anchors only the project's own files: a path outside it, in another project or behind a link out is never hashed", async () => {
    const secret = join(tmp, "shadow");
    writeFileSync(secret, "root:$6$outside$hash:19000:0:99999:7:::\n");
    writeFileSync(join(projB, "b.ts"), "export const b = 1;\n");
    writeFileSync(join(projA, "a.ts"), "export const a = 1;\n");
    symlinkSync(secret, join(projA, "shadow-link"));
    const files = [secret, join(projB, "b.ts"), "../beta/b.ts", "shadow-link", join(projA, "a.ts")];
    const r = await a.call("remember", { text: "Alpha pins the auth settings.", kind: "decision", files });
    assert.equal(r.isError, undefined, text(r));
    const db = new Database(join(home, "mem.sqlite"), { readonly: true, fileMustExist: true });
    try {
      const paths = (db.prepare("SELECT path FROM anchors").all() as { path: string }[]).map((x) => x.path);
      assert.deepEqual(paths, [join(projA, "a.ts")], "only alpha/a.ts is anchored");
    } finally {
      db.close();
    }
  });

  test("get and forget of another project's id, whole or a prefix, answer as a missing id; the memory stays", async () => {
    for (const id of [idB, idB.slice(0, 12)]) {
      const got = await a.call("get", { id });
      assert.deepEqual([got.isError, text(got), got.structuredContent!.error!.code], [true, `mem get: not_found: no memory ${id}`, "not_found"]);
      const gone = await a.call("forget", { id });
      assert.deepEqual([gone.isError, text(gone)], [true, `mem forget: not_found: no memory ${id}`]);
    }
    const missing = await a.call("get", { id: "mem:0123456789abcdef01234567" });
    assert.equal(text(missing), "mem get: not_found: no memory mem:0123456789abcdef01234567", "the same answer as for an id nobody has");
    const still = await b.call("get", { id: idB });
    assert.equal(still.isError, undefined, text(still));
    assert.match(text(still), /Beta decided to shard/);
  });

  test("an id prefix shared with another project's memory is not ambiguous: it is this project's", async () => {
    const line = (id: string, t: string) => `${JSON.stringify({ id, text: t, kind: "learned" })}\n`;
    assert.equal((await cli(["import", "-"], projB, line("mem:feed0001beta", "Beta learned the feed format."))).code, 0);
    assert.equal((await cli(["import", "-"], projA, line("mem:feed0002alpha", "Alpha learned the feed format."))).code, 0);
    const got = await a.call("get", { id: "mem:feed" });
    assert.equal(got.isError, undefined, text(got));
    assert.equal((got.structuredContent!.memory as { text: string }).text, "Alpha learned the feed format.");
    assert.match((got.structuredContent!.memory as { id: string }).id, /^[0-9a-f]{12}$/, "shown by its one id");
    assert.doesNotMatch(text(got), /feed0001beta/);
  });

  test("remember stores only here: a project argument is refused and nothing reaches the other project", async () => {
    refusedArg(await a.call("remember", { text: "Planted into beta.", kind: "decision", project: projB }), "project");
    refusedArg(await a.call("remember", { text: "Planted into beta.", kind: "decision", project: "beta", newProject: true }), "project");
    refusedArg(await a.call("remember", { text: "Planted into beta.", kind: "decision", cwd: projB }), "cwd");
    const inB = await b.call("list", { text: "Planted" });
    assert.equal(inB.structuredContent!.total, 0);
    const brief = await cli(["list", "--json"], projB);
    assert.doesNotMatch(brief.stdout, /Planted/);
  });

  test("tasks: another project's task is not found for done, drop, block or unblock, and stays open; no project argument", async () => {
    for (const action of ["done", "drop", "block", "unblock"]) {
      const r = await a.call("tasks", { action, id: taskB, ...(action === "block" ? { reason: "planted" } : {}) });
      assert.equal(r.isError, true);
      assert.match(text(r), new RegExp(`^mem tasks: not_found: no task ${taskB} in this project`));
    }
    refusedArg(await a.call("tasks", { action: "list", project: projB }), "project");
    refusedArg(await a.call("tasks", { action: "add", text: "x", cwd: projB }), "cwd");
    assert.deepEqual(((await a.call("tasks", { all: true })).structuredContent!.tasks as unknown[]).length, 0);
    const open = (await b.call("tasks", {})).structuredContent!.tasks as { id: number }[];
    assert.deepEqual(open.map((t) => t.id), [taskB]);
  });

  test("global memories: searched, read and listed; not stored, edited or forgotten (read-only by default)", async () => {
    const got = await a.call("get", { id: globalId });
    assert.equal(got.isError, undefined, text(got));
    const listed = await a.call("list", { global: true });
    assert.deepEqual((listed.structuredContent!.memories as { id: string }[]).map((m) => m.id), [globalId]);
    const found = await a.call("search", { query: "tabs over spaces" });
    assert.ok((found.structuredContent!.results as { id: string }[]).some((r) => r.id === globalId), text(found));
    const forget = await a.call("forget", { id: globalId });
    assert.deepEqual([forget.isError, forget.structuredContent!.error!.code], [true, "read_only"]);
    const put = await a.call("remember", { text: "Planted into every project.", kind: "decision", global: true });
    assert.deepEqual([put.isError, put.structuredContent!.error!.code], [true, "read_only"]);
    assert.match(text(put), /mcp.*globalWrites/);
    assert.equal((await a.call("get", { id: globalId })).isError, undefined, "still there");
  });

  test("prompt_context: a cwd in another project injects nothing", async () => {
    const r = await a.call("prompt_context", { prompt: "how do we shard the zebra table by tenant?", cwd: projB, session_id: "sess-x" });
    assert.equal(text(r), "");
    assert.deepEqual([r.structuredContent!.via, r.structuredContent!.injected], ["other-project", false]);
  });
});

describe("mem mcp: the user's own choices", () => {
  test('config "mcp": {"globalWrites": true} lets the model store and forget global memories', async () => {
    const home = join(tmp, "home-gw");
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(join(home, "config.json"), JSON.stringify({ mcp: { globalWrites: true } }));
    const s = await serve(home, projA);
    try {
      const put = await s.call("remember", { text: "The user signs commits.", kind: "preference", global: true });
      assert.equal(put.isError, undefined, text(put));
      const memory = put.structuredContent!.memory as { id: string; project: string };
      assert.equal(memory.project, "global");
      assert.equal((await s.call("forget", { id: memory.id })).isError, undefined);
    } finally {
      await s.client.close();
    }
  });

  test("mem mcp --project NAME: a name nothing is stored under (a typo) is refused with the names it resembles; --new-project starts it", async () => {
    const home = join(tmp, "home-typo");
    const env = { ...serverEnv(tmp, home, projA) };
    const put = await runMem(["remember", "Alpha's first memory."], { env, cwd: projA });
    assert.equal(put.code, 0, show(put));
    for (const quiet of [[], ["-q"]]) {
      const r = await runMem(["mcp", ...quiet, "--project", "alpah"], { env, cwd: projA, input: "" });
      assert.equal(r.code, 2, show(r));
      assert.equal(r.stdout, "", "nothing on the protocol's stdout");
      assert.match(r.stderr, /unknown_project: no project "alpah" is stored \(did you mean "alpha"\?\).*--new-project/);
    }
    assert.equal((await runMem(["mcp", "--new-project"], { env, cwd: projA, input: "" })).code, 2, "--new-project goes with --project");
    const byName = await serve(home, projB, ["--project", "alpha"]); // a stored project's folder name
    const fresh = await serve(home, projA, ["--project", "alpah", "--new-project"]);
    try {
      const found = await byName.call("list", {});
      assert.deepEqual((found.structuredContent!.memories as { text: string }[]).map((m) => m.text), ["Alpha's first memory."]);
      const r = await fresh.call("remember", { text: "A project of its own." });
      assert.equal((r.structuredContent!.memory as { project: string }).project, "alpah");
    } finally {
      await byName.client.close();
      await fresh.client.close();
    }
  });

  test("mem mcp --project global: read, but not written (remember, forget, tasks) unless mcp.globalWrites", async () => {
    const home = join(tmp, "home-bound-global");
    const g = await runMem(["remember", "The user prefers short commit subjects.", "--project", "global", "--kind", "preference"], { env: serverEnv(tmp, home, projA), cwd: projA });
    assert.equal(g.code, 0, show(g));
    const s = await serve(home, projA, ["--project", "global"]);
    try {
      const listed = await s.call("list", {});
      assert.equal((listed.structuredContent!.memories as unknown[]).length, 1, text(listed));
      for (const [tool, a] of [
        ["remember", { text: "Planted into every project." }],
        ["forget", { id: g.stdout.trim() }],
        ["forget", { session: "any" }],
        ["tasks", { action: "add", text: "A task for every project." }],
      ] as const) {
        const r = await s.call(tool, a);
        assert.deepEqual([r.isError, r.structuredContent!.error?.code], [true, "read_only"], `${tool} ${JSON.stringify(a)}: ${text(r)}`);
      }
      assert.equal(((await s.call("list", {})).structuredContent!.memories as unknown[]).length, 1, "still there");
    } finally {
      await s.client.close();
    }
    writeFileSync(join(home, "config.json"), JSON.stringify({ mcp: { globalWrites: true } }));
    const w = await serve(home, projA, ["--project", "global"]);
    try {
      const r = await w.call("remember", { text: "The user allowed this one." });
      assert.equal((r.structuredContent!.memory as { project: string }).project, "global", text(r));
    } finally {
      await w.client.close();
    }
  });

  test("mem mcp --project binds the server to the project the user names", async () => {
    const home = join(tmp, "home-flag");
    const s = await serve(home, projA, ["--project", projB]);
    try {
      const put = await s.call("remember", { text: "Filed where the user said." });
      assert.equal((put.structuredContent!.memory as { project: string }).project, projB);
    } finally {
      await s.client.close();
    }
  });
});
