/**
 * Replay: SQLite (events, explicit memories) and the markdown files are the truth. `mem rebuild`
 * drops the chunks, the text index and every vector table and makes them again from the truth
 * alone; the same queries then give the same results, ids and order. `mem doctor` reports drift.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { openApp } from "../../src/app.js";
import { resolveProject } from "../../src/project/identity.js";
import { MemoryService } from "../../src/service/memory.js";
import { openDb } from "../../src/store/db.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { cleanEnv, jsonOf, runMem } from "../helpers/mem-cli.js";
import { hook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-replay-")));
let ollama: FakeOllama;
before(async () => (ollama = await startFakeOllama({ models: ["nomic-embed-text:latest"], dims: 64 })));
after(async () => {
  await ollama.close();
  rmSync(tmp, { recursive: true, force: true });
});

const QUERIES = ["why SQLite for the metadata store", "busy timeout hooks", "deploy rollback script", "payroll importer rust", "npm test failed"];

describe("replay: rebuild the derived stores from the truth", () => {
  test("after a rebuild from scratch, the same queries give the same results (ids and order); doctor reports drift before it", async () => {
    const proj = join(tmp, "proj");
    mkdirSync(join(proj, ".git"), { recursive: true });
    mkdirSync(join(proj, "memory", "archive"), { recursive: true });
    writeFileSync(join(proj, "memory", "state.md"), "# State\n\nThe payroll importer is being rewritten in Rust.\n\n## Deploys\n\nEvery deploy runs the rollback script first.\n");
    writeFileSync(join(proj, "memory", "archive", "2023.md"), "# 2023\n\nWe used a cron box for nightly payroll jobs; the busy timeout was 1 s then.\n");
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: ollama.url };
    assert.equal((await runMem(["index", join(proj, "memory"), "-q"], { env })).code, 0);
    const transcript = join(tmp, "t.jsonl");
    const say = (i: number, text: string) => JSON.stringify({ type: "assistant", sessionId: "s1", timestamp: `2026-11-2${i}T10:00:00Z`, message: { role: "assistant", content: [{ type: "text", text }] } });
    writeFileSync(transcript, `${[say(0, "[MEMORY: decision] Chose SQLite over Postgres for the metadata store: no server to run."), say(1, "[MEMORY: learned] The busy timeout must stay at five seconds or the hooks time out.")].join("\n")}\n`);
    await hook("stop", { session_id: "s1", cwd: proj, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false }, env);
    await hook("post-tool-use-failure", { session_id: "s1", cwd: proj, hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_use_id: "toolu_r1", tool_input: { command: "npm test" }, error: "Exit code 1\n3 failing" }, env);
    const app = openApp(env);
    new MemoryService({ db: app.db, config: app.config, projectRoot: app.projectRoot }).put({ project: resolveProject(proj).id, text: "The deploy always runs the rollback script before migrating.", kind: "decision", tags: ["deploy"] });
    await app.close();
    assert.equal((await runMem(["index", join(proj, "memory"), "-q"], { env })).code, 0, "vectors for the captured and explicit memories");

    const ask = async () => {
      const r = await runMem(["query", "--batch", "-", "--k", "8"], { env, cwd: proj, input: QUERIES.map((text, i) => JSON.stringify({ id: `q${i}`, text })).join("\n") });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { results: { id: string }[] }).results.map((x) => x.id));
    };
    const firstAnswers = await ask();
    assert.ok(firstAnswers.every((ids) => ids.length > 0), "every query finds something");
    const doctor = async () => (jsonOf<{ checks: { name: string; status: string; detail: string }[] }>(await runMem(["doctor", "--json"], { env, cwd: proj })).checks.find((c) => c.name === "drift")!);
    assert.equal((await doctor()).status, "ok");

    // Drift: a memory's chunk lost (as a crash between two writes, or a hand edit, could leave it).
    const db = openDb(join(tmp, "home", "mem.sqlite"));
    db.prepare("DELETE FROM chunks WHERE path LIKE 'session:%' AND text LIKE '%busy timeout%'").run();
    db.close();
    const d = await doctor();
    assert.equal(d.status, "warn");
    assert.match(d.detail, /1 memories with no chunk/);

    const rebuilt = await runMem(["rebuild", "--json"], { env, cwd: proj });
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    const r = jsonOf<{ before: { chunks: number; tables: string[] }; after: { chunks: number; sources: number }; vectors: { status: string; embedded: number }[] }>(rebuilt);
    assert.deepEqual(r.before.tables, ["v_ollama_nomic_embed_text_64_p03aa22a9"]);
    assert.equal(r.after.chunks, r.before.chunks + 1, "the lost chunk is back");
    assert.ok(r.vectors.every((v) => v.status === "ok") && r.vectors.reduce((n, v) => n + v.embedded, 0) === r.after.chunks, "every chunk embedded again");
    assert.equal((await doctor()).status, "ok");
    assert.deepEqual(await ask(), firstAnswers, "the same results, ids and order");
  });

  test("with no embedding provider the rebuild still makes chunks and the text index, and says the vectors wait", async () => {
    const proj = join(tmp, "proj2");
    mkdirSync(join(proj, ".git"), { recursive: true });
    writeFileSync(join(proj, "notes.md"), "# Notes\n\nThe nightly export runs at two.\n");
    const env = { ...cleanEnv(join(tmp, "claude2")), MEM_HOME: join(tmp, "home2"), HOME: tmp };
    assert.equal((await runMem(["index", proj, "-q"], { env })).code, 0);
    const r = await runMem(["rebuild"], { env, cwd: proj });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^rebuilt 1 chunks from 1 sources .*vector step skipped/);
    const q = await runMem(["query", "nightly export", "--json"], { env, cwd: proj });
    assert.match(q.stdout, /The nightly export runs at two/);
  });
});
