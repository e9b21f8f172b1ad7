/**
 * `mem remember` of a decision a session already captured, end to end: the Stop hook (spawned as
 * Claude Code spawns it) captures a `[MEMORY: decision]` tag; `mem remember`, run as Claude Code's
 * Bash tool runs it, confirms that memory instead of storing a second one, and `mem list` shows
 * one memory with both sources. Another project's same words stay its own.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { envOf, makeRepo, say, type Session } from "../anchor/scenario.js";
import { cleanEnv, jsonOf, runMem } from "../helpers/mem-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-remember-confirms-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

type Listed = { total: number; memories: { id: string; source: string; confidence?: number; session: string | null; sources?: { source: string; session: string | null }[] }[] };

test("remembering what the session captured confirms it: one memory, both sources", async () => {
  const repo = makeRepo(join(tmp, "repo"), { "README.md": "# r\n" });
  const other = makeRepo(join(tmp, "other"), { "README.md": "# o\n" });
  const s: Session = { home: tmp, repo, id: "sess-1", transcript: join(tmp, "t.jsonl") };
  await say(s, [{ text: "[MEMORY: decision] Use SQLite WAL mode for the job queue", time: Date.now() - 60_000 }]);
  const env = { ...cleanEnv(join(tmp, ".claude")), ...envOf(s) };
  const inClaude = { ...env, CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: "sess-2" };
  const r = await runMem(["remember", "--kind", "decision", "--json", "We decided to use SQLite WAL mode for the job queue."], { env: inClaude, cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  const put = jsonOf<{ created: boolean; confirmed: boolean; memory: { id: string; confidence: number } }>(r);
  assert.deepEqual([put.created, put.confirmed, put.memory.confidence], [false, true, 1]);
  const text = await runMem(["remember", "--kind", "decision", "use sqlite wal mode for the job queue"], { env: inClaude, cwd: repo });
  assert.equal(text.code, 0, text.stderr);
  assert.equal(text.stdout.trim(), put.memory.id);
  assert.match(text.stderr, /confirms/);
  const list = jsonOf<Listed>(await runMem(["list", "--kind", "decision", "--json"], { env, cwd: repo }));
  assert.equal(list.total, 1);
  const m = list.memories[0]!;
  assert.equal(m.source, "explicit");
  assert.deepEqual(m.sources?.map((x) => [x.source, x.session]), [["tag", "sess-1"], ["explicit", "sess-2"], ["explicit", "sess-2"]]);
  const shown = await runMem(["get", m.id], { env, cwd: repo });
  assert.match(shown.stdout, /stated 3 times \(confidence 1\): tag in session sess-1/);
  // The same words in another project: its own memory.
  const o = await runMem(["remember", "--kind", "decision", "--json", "Use SQLite WAL mode for the job queue"], { env, cwd: other });
  assert.equal(jsonOf<{ created: boolean }>(o).created, true);
  assert.equal(jsonOf<Listed>(await runMem(["list", "--kind", "decision", "--json"], { env, cwd: repo })).total, 1);
});
