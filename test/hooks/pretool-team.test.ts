/**
 * The pre-tool check and the team's decision records: an option a record in docs/adr turned down
 * ("Chosen option: ES256", HS256 among the considered ones) and a rejected record are warned
 * about as any rejected approach is, once a session, framed, never a permission decision, with
 * the record's id. And the daemon keeps what the check reads while the store is unchanged: a
 * memory remembered or forgotten by another process counts from the next call. Real `mem index`,
 * `mem remember`, `mem forget`, `mem serve` and hook processes.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cachedChecks } from "../../src/daemon/pretool-op.js";
import { loadChecks } from "../../src/inject/pretool-load.js";
import { openDb } from "../../src/store/db.js";
import { chunkCapturedEvents } from "../../indexer/captured.js";
import { recordAnchors } from "../../src/store/anchors.js";
import { ChunkStore } from "../../src/store/chunks.js";
import { EventStore } from "../../src/store/events.js";
import { tombstone } from "../../src/store/memories.js";
import { clean, cleanText } from "../../src/redact/clean.cjs";
import { daemonSandbox, startDaemon, type DaemonSandbox } from "../helpers/daemon.js";
import { jsonOf, runMem } from "../helpers/mem-cli.js";
import { spawnHook } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-pretool-team-"));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

const SIGNING = `---
status: accepted
date: 2026-03-02
decision-makers: Ann, Bo
---
# Sign the session tokens with ES256

## Context and Problem Statement

Every service verifies the session tokens; which algorithm signs them?

## Considered Options

* ES256
* [HS256](https://datatracker.ietf.org/doc/html/rfc7518#section-3.2) – an HMAC with one shared secret
* RS512

## Decision Outcome

Chosen option: "ES256", because a verifier holds only the public key.
`;
const MONGO = `---
status: rejected
date: 2026-02-10
---
# Use MongoDB for the event store

## Context and Problem Statement

The events need a store.
`;

async function sandbox(name: string): Promise<{ s: DaemonSandbox; env: NodeJS.ProcessEnv; ids: Record<string, string> }> {
  const s = daemonSandbox(join(tmp, name), { embedding: { order: [] }, index: { watch: false }, daemon: { idleMs: 60_000, indexEveryMs: 60_000 }, pretool: { budgetMs: 1_400 } });
  mkdirSync(join(s.proj, "docs", "adr"), { recursive: true });
  mkdirSync(join(s.proj, "src"), { recursive: true });
  writeFileSync(join(s.proj, "docs", "adr", "0002-token-signing.md"), SIGNING);
  writeFileSync(join(s.proj, "docs", "adr", "0003-event-store.md"), MONGO);
  writeFileSync(join(s.proj, "src", "auth.ts"), "export const alg = 'ES256';\n");
  const env = { ...s.env, MEM_NO_DAEMON: "1", MEM_WATCH: "0", MEM_EMBED_ORDER: "none" };
  const ix = await runMem(["index", join(s.proj, "docs", "adr"), "-q"], { env, cwd: s.proj });
  assert.equal(ix.code, 0, ix.stderr);
  const team = jsonOf<{ memories: { id: string; path: string }[] }>(await runMem(["list", "--team", "--json"], { env, cwd: s.proj }));
  const ids = Object.fromEntries(team.memories.map((m) => [m.path.endsWith("0002-token-signing.md") ? "signing" : "mongo", m.id]));
  assert.equal(Object.keys(ids).length, 2, JSON.stringify(team));
  return { s, env, ids };
}

const edit = (s: DaemonSandbox, session: string, newS: string) =>
  JSON.stringify({ session_id: session, transcript_path: "/nonexistent", cwd: s.proj, hook_event_name: "PreToolUse", tool_name: "Edit", tool_input: { file_path: join(s.proj, "src", "auth.ts"), old_string: "export const alg = 'ES256';", new_string: newS }, tool_use_id: `toolu_${session}_${newS.length}` });
const bash = (s: DaemonSandbox, session: string, command: string) =>
  JSON.stringify({ session_id: session, transcript_path: "/nonexistent", cwd: s.proj, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: `toolu_${session}_bash_${command.length}` });

/** The context the hook put before the call ("" for none); never a permission decision. */
function context(stdout: string): string {
  if (stdout.trim() === "") return "";
  const o = JSON.parse(stdout) as { hookSpecificOutput: Record<string, unknown> };
  assert.deepEqual(Object.keys(o.hookSpecificOutput).sort(), ["additionalContext", "hookEventName"], "context only: no permissionDecision");
  return String(o.hookSpecificOutput.additionalContext);
}

describe("the pre-tool check and the team's decision records", () => {
  for (const daemon of [false, true]) {
    test(daemon ? "through the warm daemon" : "in-process (MEM_NO_DAEMON=1)", { timeout: 120_000 }, async () => {
      const { s, env: base, ids } = await sandbox(daemon ? "daemon" : "local");
      if (daemon) await startDaemon({ ...s, env: base }, children);
      const env = { ...base, MEM_NO_DAEMON: daemon ? "0" : "1" };
      const hs = context((await spawnHook("pre-tool-use", edit(s, "s1", "export const alg = 'HS256';"), env)).stdout);
      assert.match(hs, /<mem-pretool>\n- mem: the team rejected "HS256" on 2026-03-02 in favour of "ES256", because a verifier holds only the public key \(id ([0-9a-f]{12})\)\n<\/mem-pretool>$/);
      assert.equal(/\(id ([0-9a-f]{12})\)/.exec(hs)?.[1], ids.signing, "the record's own id");
      // The record warned in this session: another option it turned down is not said again.
      assert.equal(context((await spawnHook("pre-tool-use", edit(s, "s1", "export const alg = 'RS512';"), env)).stdout), "");
      assert.match(context((await spawnHook("pre-tool-use", edit(s, "s2", "export const alg = 'RS512';"), env)).stdout), /the team rejected "RS512" on 2026-03-02 in favour of "ES256", because a verifier holds only the public key/);
      // What the record chose is no regression; the rejected record's approach is.
      assert.equal(context((await spawnHook("pre-tool-use", edit(s, "s3", "export const alg = 'ES256'; // checked"), env)).stdout), "");
      const mongo = context((await spawnHook("pre-tool-use", bash(s, "s3", "npm install mongodb"), env)).stdout);
      assert.match(mongo, new RegExp(`the team rejected MongoDB on 2026-02-10: "Use MongoDB for the event store" \\(id ${ids.mongo}\\)`));
    });
  }

  test("the daemon reads a memory remembered or forgotten by another process from the next call", { timeout: 120_000 }, async () => {
    const { s, env: base } = await sandbox("fresh");
    await startDaemon({ ...s, env: base }, children);
    const env = { ...base, MEM_NO_DAEMON: "0" };
    const call = (session: string) => spawnHook("pre-tool-use", bash(s, session, "npm install left-pad-x9"), env);
    assert.equal(context((await call("f1")).stdout), "", "nothing rules it out yet");
    const put = await runMem(["remember", "--kind", "rejected", "--json", "We rejected left-pad-x9 because it was unpublished once."], { env: base, cwd: s.proj });
    assert.equal(put.code, 0, put.stderr);
    assert.match(context((await call("f2")).stdout), /the team rejected left-pad-x9 on/);
    const id = jsonOf<{ memory: { id: string } }>(put).memory.id;
    const gone = await runMem(["forget", id, "--yes"], { env: base, cwd: s.proj });
    assert.equal(gone.code, 0, gone.stderr);
    assert.equal(context((await call("f3")).stdout), "", "a forgotten memory warns no more");
  });
});

test("cachedChecks: read once while what it reads is unchanged; again after a change to it, by this connection or any by another", () => {
  const dir = join(tmp, "cache");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "mem.sqlite");
  const db = openDb(file);
  const other = openDb(file);
  try {
    let reads = 0;
    const checks = cachedChecks(db, (...a) => {
      reads++;
      return loadChecks(...a);
    });
    const read = () => checks(db, ["p"], "p", undefined);
    const put = (store: typeof db, id: string, type: "rejected" | "command_run", text: string) => new EventStore(store).insert(cleanText("p"), clean([{ id, type, time: "2026-05-02T10:00:00.000Z", session: "", files: [], text, metadata: {} }]));
    put(db, "e1", "rejected", "We rejected moment.js because it is mutable.");
    assert.equal(read().memories.length, 1);
    assert.equal(read().memories.length, 1);
    assert.equal(reads, 1, "the second call read nothing");
    checks(db, ["q"], "q", undefined);
    assert.equal(reads, 2, "another project is read on its own");
    // What the daemon writes all the time (captures of other events) leaves the set in place.
    put(db, "c1", "command_run", "npm test");
    chunkCapturedEvents(db, new ChunkStore(db), cleanText("p"), Date.now()); // the daemon's background step: chunks the events, marks them chunked
    read();
    assert.equal(reads, 2, "a captured command, and the events chunked, are not what the check reads");
    // Another connection's commit, whatever it is, has the set read again.
    put(other, "e2", "rejected", "We rejected lodash because the bundle grew.");
    assert.equal(read().memories.length, 2, "another connection's change is seen");
    assert.equal(reads, 3);
    put(db, "e3", "rejected", "We rejected axios because fetch is enough.");
    assert.equal(read().memories.length, 3, "this connection's rejected approach is seen");
    assert.equal(reads, 4);
    recordAnchors(db, clean([{ memory: "e3", path: "/repo/src/http.ts", blob: null, branch: null, at: Date.now() }]));
    assert.deepEqual(read().memories.find((m) => m.id === "e3")?.files, ["/repo/src/http.ts"], "an anchor of one is seen");
    assert.equal(reads, 5);
    tombstone(db, ["e1"], Date.now());
    assert.deepEqual(read().memories.map((m) => m.id).sort(), ["e2", "e3"], "a forgotten one goes");
    assert.equal(reads, 6);
  } finally {
    other.close();
    db.close();
  }
});
