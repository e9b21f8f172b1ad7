/**
 * Every id `mem list` prints is taken back at once, through the built CLI on a temporary store with
 * no daemon: a captured event's one id before any index pass chunked it (get, edit, forget; a
 * forgotten one stays forgotten after `mem sync`), a notification's (never chunked); reading it
 * writes nothing. A session id is taken as stored, as shown (`8bbcceab…a8c6`) or by a unique
 * start, by list and forget; an ambiguous, too short or unknown one says so, and forget of an
 * unknown session fails. `mem get` of a task's id says it is a task's.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-ids-at-once-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const A = "8bbcceab-0b3e-4e24-98c9-ec146b1ca8c6";
const B = "8bbcceab-1111-4e24-98c9-ec146b1c0000";

interface Listed {
  id: string;
  kind: string;
  session: string;
  text: string;
}

describe("every id mem list prints works at once", () => {
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const home = join(tmp, "home");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp };
  const mem = (args: string[], input?: string) => runMem(args, { env, cwd: proj, ...(input !== undefined ? { input } : {}) });
  const capture = async (session: string, command: string, toolUse: string) => {
    const payload = { session_id: session, cwd: proj, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command }, tool_response: { stdout: "ok", stderr: "" }, tool_use_id: toolUse };
    const r = await mem(["hook", "post-tool-use"], JSON.stringify(payload));
    assert.equal(r.code, 0, show(r));
  };
  const listed = async (...args: string[]) => jsonOf<{ memories: Listed[] }>(await mem(["list", "--json", ...args])).memories;
  /** What the store holds that a read must not change: chunks, pending events, and their order. */
  const stored = () => {
    const db = openDb(join(home, "mem.sqlite"), { readonly: true });
    try {
      return JSON.stringify([db.prepare("SELECT id FROM chunks ORDER BY rowid").pluck().all(), db.prepare("SELECT id, chunked, deleted_at FROM events ORDER BY rowid").all()]);
    } finally {
      db.close();
    }
  };

  /** `mem sync`: the index pass the daemon would run (exit 1 only for the vectors no model makes here); nothing left pending after it. */
  const indexPass = async () => {
    const synced = await mem(["sync"]);
    assert.match(synced.stdout, /chunks/, show(synced));
    assert.doesNotMatch(stored(), /"chunked":0,"deleted_at":null/, "every live event chunked");
  };

  test("a captured event's id: get, edit and forget before any index pass; get writes nothing; forgotten stays forgotten", async () => {
    await capture(A, "make migrate DB=prod", "toolu_2");
    await capture(A, "make seed DB=prod", "toolu_3");
    const [seed, migrate] = await listed();
    assert.equal(migrate!.text, "$ make migrate DB=prod");
    const human = await mem(["list"]);
    assert.match(human.stdout, new RegExp(`^${seed!.id} {2}command_run .* session 8bbcceab…a8c6 `, "m"));

    const before = stored();
    assert.match(before, /"chunked":0/, "the events are pending: no index pass ran");
    for (const form of [migrate!.id, migrate!.id.slice(0, 6), migrate!.id.toUpperCase()]) {
      const got = await mem(["get", form, "--json"]);
      assert.equal(got.code, 0, `${form}\n${show(got)}`);
      assert.equal(jsonOf<{ memory: { id: string; text: string } }>(got).memory.text, "$ make migrate DB=prod");
    }
    assert.equal(stored(), before, "reading chunked nothing and changed nothing");

    const edited = await mem(["edit", seed!.id, "--tags", "seed"]);
    assert.equal(edited.code, 0, show(edited));

    const forgot = await mem(["forget", migrate!.id, "--yes"]);
    assert.equal(forgot.code, 0, show(forgot));
    assert.match(forgot.stdout, new RegExp(`^forgot ${migrate!.id}\\n`));
    await indexPass();
    assert.deepEqual((await listed()).map((m) => m.id), [seed!.id], "the index pass did not bring it back");
    const gone = await mem(["get", migrate!.id]);
    assert.equal(gone.code, 1, show(gone));
    assert.match(gone.stderr, new RegExp(`memory ${migrate!.id} was forgotten`));
    assert.equal(jsonOf<{ memory: { tags: string[] } }>(await mem(["get", seed!.id, "--json"])).memory.tags.join(), "seed", "the edit kept through the index pass");
  });

  test("a notification's id (kept as an event, never chunked) resolves, after an index pass too", async () => {
    const r = await mem(["hook", "notification"], JSON.stringify({ session_id: A, cwd: proj, hook_event_name: "Notification", message: "Claude needs your permission to use Bash" }));
    assert.equal(r.code, 0, show(r));
    await indexPass();
    const [note] = await listed("--kind", "notification");
    assert.ok(note, "listed");
    const got = await mem(["get", note.id, "--json"]);
    assert.equal(got.code, 0, show(got));
    assert.equal(jsonOf<{ memory: { kind: string } }>(got).memory.kind, "notification");
  });

  test("a session by its whole id, its short form as shown, or a unique start; else a clear error", async () => {
    await capture(B, "npm run lint", "toolu_b1");
    const inA = (await listed("--session", A)).map((m) => m.id);
    assert.ok(inA.length >= 2, JSON.stringify(inA));
    for (const form of ["8bbcceab…a8c6", "8bbcceab...a8c6", "8bbcceab-0b", ` ${A} `]) assert.deepEqual((await listed("--session", form)).map((m) => m.id), inA, form);
    assert.deepEqual((await listed("--session", "8bbcceab…0000")).map((m) => m.text), ["$ npm run lint"]);

    const amb = await mem(["list", "--session", "8bbcceab"]);
    assert.equal(amb.code, 2, show(amb));
    assert.equal(amb.stderr, "mem list: session 8bbcceab is ambiguous: it matches 2 sessions: 8bbcceab…a8c6, 8bbcceab…0000; give more of the id\n", "one line, the candidates as shown, no usage");
    const short = await mem(["list", "--session", "8bbc"]);
    assert.equal(short.code, 2, show(short));
    assert.match(short.stderr, /^mem list: session 8bbc is too short: give at least 6 characters/);
    const unknown = await mem(["list", "--session", "feedfacecafe", "--json"]);
    assert.equal(unknown.code, 1, show(unknown));
    assert.deepEqual(jsonOf(unknown), { error: { code: "not_found", message: "no session feedfacecafe in this project" } });

    const none = await mem(["forget", "--session", "feedfacecafe", "--yes"]);
    assert.equal(none.code, 1, show(none));
    assert.equal(none.stderr, "mem forget: no session feedfacecafe in this project\n");
    assert.equal((await mem(["forget", "--session", "8bbcceab", "--yes"])).code, 2, "an ambiguous start forgets nothing");
    assert.equal((await listed()).length, inA.length + 1, "nothing forgotten");

    const done = await mem(["forget", "--session", "8bbcceab…0000", "--yes", "--json"]);
    assert.equal(done.code, 0, show(done));
    assert.deepEqual(jsonOf<{ forgotten: unknown }>(done).forgotten, { project: proj, session: B, memories: 1 });
    assert.deepEqual((await listed()).map((m) => m.session), inA.map(() => A));
  });

  test("mem get of a task's id says it is a task's", async () => {
    const added = await mem(["task", "add", "write the migration guide", "--json"]);
    assert.equal(added.code, 0, show(added));
    const id = JSON.stringify(jsonOf(added)).match(/"id":"([0-9a-f]{12})"/)![1]!;
    const got = await mem(["get", id]);
    assert.equal(got.code, 1, show(got));
    assert.match(got.stderr, new RegExp(`^mem get: no memory ${id}: that is a task's id: see it with \`mem task list --all\``));
    assert.match((await mem(["forget", id.slice(0, 8), "--yes"])).stderr, /that is a task's id/);
    assert.equal((await mem(["get", "abcdef012345"])).stderr, "mem get: no memory abcdef012345\n", "any other id: as before");
  });
});
