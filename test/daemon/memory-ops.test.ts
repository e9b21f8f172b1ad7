/**
 * The daemon's memory operations over its socket, against a spawned `mem serve`: put, get, list,
 * search, patch, forget and sync round trips; bad arguments, an unknown id, a markdown memory and
 * a 10 MB text are `{ok: false, error, code}` with nothing stored; put and get latency measured.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import type { Memory } from "../../src/service/types.js";
import { daemonSandbox, startDaemon } from "../helpers/daemon.js";
import { BIN } from "../helpers/mem-cli.js";
import { runChild } from "../helpers/run-child.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-ops-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

type Reply = { ok: true; [k: string]: unknown } | { ok: false; error: string; code?: string };


describe("memory operations over the daemon's socket", () => {
  const box = daemonSandbox(tmp, { daemon: { idleMs: 60_000, indexEveryMs: 200 }, embedding: { order: [] } });
  const { home: h, proj, env } = box;
  mkdirSync(join(proj, "notes"));
  writeFileSync(join(proj, "notes", "db.md"), "# Database\n\nWe keep WAL mode so hooks can write while the indexer reads.\n");
  const op = async (req: Record<string, unknown>, budget = 5_000): Promise<Reply> => {
    const r = await ask(h, req, budget);
    assert.equal(r.kind, "reply", JSON.stringify(r));
    return (r as { reply: Reply }).reply;
  };
  const ok = async (req: Record<string, unknown>) => {
    const r = await op(req);
    assert.ok(r.ok, JSON.stringify(r));
    return r as { ok: true; [k: string]: unknown };
  };
  const fails = async (req: Record<string, unknown>, code: string, message: RegExp) => {
    const r = await op(req, 30_000);
    assert.deepEqual([r.ok, !r.ok && r.code], [false, code], JSON.stringify(r).slice(0, 300));
    assert.match((r as { error: string }).error, message);
  };

  test("start the daemon (and index a note for a markdown memory)", async () => {
    assert.equal((await runChild(process.execPath, [BIN, "index", join(proj, "notes"), "-q"], { env })).code, 0);
    await startDaemon(box, children);
  });

  test("put, get, list, search, patch, forget: round trips", async () => {
    const put = await ok({ op: "put", cwd: proj, text: "Chose SQLite over Postgres: no server to run.", kind: "decision", tags: ["db"], files: ["src/db.ts"], session: "sock-1", key: "k1" });
    const m = put.memory as Memory;
    assert.equal(put.created, true);
    assert.deepEqual([m.project, m.kind, m.tags, m.files, m.source, m.session], [proj, "decision", ["db"], ["src/db.ts"], "explicit", "sock-1"]);
    const again = await ok({ op: "put", cwd: proj, text: "other", key: "k1" });
    assert.deepEqual([again.created, (again.memory as Memory).id], [false, m.id], "idempotent under a client key");
    assert.equal(((await ok({ op: "get", id: m.id })).memory as Memory).text, m.text);

    const listed = await ok({ op: "list", project: proj, kinds: ["decision"] });
    assert.deepEqual([listed.project, listed.total, (listed.memories as Memory[]).map((x) => x.id)], [proj, 1, [m.id]]);
    const notes = await ok({ op: "list", cwd: proj, sources: ["markdown"] });
    assert.deepEqual((notes.memories as Memory[]).map((x) => [x.source, x.path]), [["markdown", join(proj, "notes", "db.md")]]);

    const found = await ok({ op: "search", cwd: proj, text: "SQLite Postgres server", k: 5 });
    const hit = (found.results as { memoryId: string; text: string }[]).find((r) => r.text.includes("Chose SQLite"));
    assert.equal(hit?.memoryId, m.id, "a search result names the memory get, patch and forget take");
    assert.deepEqual(found.legs, ["bm25"]);

    const patched = await ok({ op: "patch", id: m.id, text: "Chose SQLite over Postgres: one file.", tags: ["db", "storage"] });
    assert.deepEqual([(patched.memory as Memory).text, (patched.memory as Memory).history?.length], ["Chose SQLite over Postgres: one file.", 1]);
    assert.equal(((await ok({ op: "get", id: m.id, history: true })).memory as Memory).history?.[0]?.text, m.text);

    const other = await ok({ op: "put", cwd: proj, text: "A lesson of session sock-2.", kind: "learned", session: "sock-2" });
    assert.deepEqual((await ok({ op: "forget", id: m.id })).forgotten, { id: m.id });
    await fails({ op: "get", id: m.id }, "not_found", /was forgotten/);
    const afterForget = await ok({ op: "search", cwd: proj, text: "SQLite Postgres one file", k: 5 });
    assert.ok(!(afterForget.results as { text: string }[]).some((r) => r.text.includes("Chose SQLite")), "gone from search at once");
    assert.deepEqual((await ok({ op: "forget", cwd: proj, session: "sock-2" })).forgotten, { project: proj, session: "sock-2", memories: 1 });
    await fails({ op: "get", id: (other.memory as Memory).id }, "not_found", /forgotten/);
    await fails({ op: "put", cwd: proj, text: "again", key: "k1" }, "forgotten", /was forgotten/);
    const purged = await ok({ op: "forget", purge: true });
    assert.ok((purged.purged as { memories: number }).memories >= 2);
  });

  test("sync says why vectors are pending when there is no provider", async () => {
    const r = await ok({ op: "sync", cwd: proj, timeoutMs: 300 });
    assert.equal(r.done, false);
    assert.ok((r.pending as number) >= 1 && r.pending === r.chunks);
    assert.match(r.reason as string, /no embedding provider configured/);
  });

  test("bad arguments, an unknown id, a markdown memory and a 10 MB text: {ok: false, error, code}; nothing stored", async () => {
    const total = async () => (await ok({ op: "list", cwd: proj })).total as number;
    const before = await total();
    await fails({ op: "put", cwd: proj }, "bad_argument", /text must be a non-empty string/);
    await fails({ op: "put", text: "no project" }, "bad_argument", /project or cwd is required/);
    await fails({ op: "put", cwd: "relative/dir", text: "x" }, "bad_argument", /cwd must be an absolute path/);
    await fails({ op: "put", cwd: proj, text: "x", kind: "opinion" }, "bad_argument", /kind must be one of/);
    await fails({ op: "put", project: "prj", text: "walrus-marker in a typo" }, "unknown_project", /no project "prj" is stored \(did you mean "proj"\?\).*send "newProject": true/);
    await fails({ op: "put", cwd: proj, text: "x", tags: "db" }, "bad_argument", /tags must be a list of strings/);
    await fails({ op: "list", cwd: proj, limit: 0 }, "bad_argument", /limit must be an integer from 1 to 1000/);
    await fails({ op: "list", cwd: proj, sources: ["nope"] }, "bad_argument", /sources must be among/);
    await fails({ op: "search", cwd: proj, text: "" }, "bad_argument", /query text must be a non-empty string/);
    await fails({ op: "forget", cwd: proj }, "bad_argument", /forget needs an id/);
    await fails({ op: "get", id: "mem:000000000000000000000000" }, "not_found", /no memory/);
    await fails({ op: "patch", id: "nope", text: "x" }, "not_found", /no memory/);
    const md = (await ok({ op: "list", cwd: proj, sources: ["markdown"] })).memories as Memory[];
    await fails({ op: "patch", id: md[0]!.id, text: "x" }, "markdown", /comes from .*db\.md:1-3: edit the file/);
    await fails({ op: "forget", id: md[0]!.id }, "markdown", /delete it from the file/);
    await fails({ op: "put", cwd: proj, text: `walrus-marker ${"x".repeat(10 * 1024 * 1024)}` }, "too_large", /request over 1 MB/);
    await fails({ op: "put", cwd: proj, text: `walrus-marker ${"x".repeat(6_000)}` }, "too_large", /a memory holds at most 5,000/);
    assert.equal(await total(), before, "nothing stored");
    const started = await ok({ op: "put", project: "prj", text: "filed in a project started on purpose", newProject: true });
    assert.equal((started.memory as Memory).project, "prj");
    assert.equal((await ok({ op: "list", cwd: proj, text: "walrus-marker" })).total, 0);
    assert.equal((await ok({ op: "ping" })).pid !== undefined, true, "the daemon is still up after the oversized request");
  });

  test("latency of put and get through the socket (reported)", async (t) => {
    const times = { put: [] as number[], get: [] as number[] };
    for (let i = 0; i < 100; i++) {
      let t0 = performance.now();
      const m = (await ok({ op: "put", cwd: proj, text: `Latency probe ${i}: the cache is warmed at start.`, kind: "learned" })).memory as Memory;
      times.put.push(performance.now() - t0);
      t0 = performance.now();
      await ok({ op: "get", id: m.id });
      times.get.push(performance.now() - t0);
    }
    const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!.toFixed(2);
    for (const [name, xs] of Object.entries(times)) t.diagnostic(`${name}: p50 ${pct(xs, 0.5)} ms, p95 ${pct(xs, 0.95)} ms over ${xs.length}`);
    assert.equal((await ok({ op: "list", cwd: proj, text: "Latency probe" })).total, 100);
    await ok({ op: "stop" });
  });
});
