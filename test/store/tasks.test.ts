import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { replayTasks } from "../../src/capture/extract/tasks.js";
import { captureToolPayload, captureTranscript, toolPayloadLines } from "../../src/capture/record.js";
import { clean, cleanText } from "../../src/redact/clean.cjs";
import { openDb, type Db } from "../../src/store/db.js";
import { getMeta } from "../../src/store/meta.js";
import { SessionStore } from "../../src/store/sessions.js";
import { TaskStore } from "../../src/store/tasks.js";
import { rand } from "../helpers/secrets.js";
import { taskCreate, taskUpdate, todoWrite, type Todo, type ToolPayload } from "../helpers/task-payloads.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-tasks-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
function fresh(): { db: Db; path: string } {
  const path = join(tmp, `s${n++}.sqlite`);
  return { db: openDb(path), path };
}

const PROJECT = cleanText("/home/u/proj");
const T0 = Date.parse("2026-11-01T09:00:00Z");
const MIN = 60_000;
const open = (db: Db) => new TaskStore(db).open(PROJECT).map((t) => `${t.status} ${t.content}`);
const all = (db: Db) => new TaskStore(db).list({ project: PROJECT, all: true }).map((t) => `${t.status} ${t.content}`);
function feed(db: Db, at: number, ...ps: ToolPayload[]): void {
  ps.forEach((p, i) => captureToolPayload(db, PROJECT, p, at + i));
}

describe("the task registry follows captures", () => {
  test("TaskCreate creates, TaskUpdate rewords in place, completes, and deletes", () => {
    const { db } = fresh();
    feed(db, T0, taskCreate("A", "1", "Ship the hook"), taskCreate("A", "2", "Write the docs"), taskCreate("A", "3", "Try a spike"));
    assert.deepEqual(open(db), ["pending Try a spike", "pending Write the docs", "pending Ship the hook"], "newest first");
    const [first] = new TaskStore(db).list({ project: PROJECT, all: true }).slice(-1);
    assert.equal(first!.createdSession, "A");
    assert.equal(first!.source, "TaskTool");
    feed(db, T0 + MIN, taskUpdate("A", "1", { status: "in_progress", subject: "Ship the SessionStart hook" }), taskUpdate("A", "2", { status: "completed" }), taskUpdate("A", "3", { status: "deleted" }));
    assert.deepEqual(open(db), ["in_progress Ship the SessionStart hook"]);
    assert.deepEqual(all(db), ["deleted Try a spike", "completed Write the docs", "in_progress Ship the SessionStart hook"]);
    const done = new TaskStore(db).list({ project: PROJECT, all: true }).find((t) => t.status === "completed")!;
    assert.equal(done.closedAt, T0 + MIN + 1);
    db.close();
  });

  test("an item that disappears from a later session's list stays open; a later item joins it", () => {
    const { db } = fresh();
    feed(db, T0, todoWrite("A", [{ content: "Add the migration", status: "in_progress" }, { content: "Write the release notes", status: "pending" }]));
    feed(db, T0 + 60 * MIN, todoWrite("B", [{ content: "Rename the CLI flag", status: "pending" }]));
    assert.deepEqual(open(db), ["pending Rename the CLI flag", "in_progress Add the migration", "pending Write the release notes"], "newest first, one list in its order");
    db.close();
  });

  test("a task created in session A and completed in session B is closed, by B", () => {
    const { db } = fresh();
    feed(db, T0, todoWrite("A", [{ content: "Ship the hook", status: "pending" }, { content: "Fix the login bug", status: "pending" }]));
    feed(db, T0 + MIN, todoWrite("B", [{ content: "Ship the hook", status: "completed" }]));
    assert.deepEqual(open(db), ["pending Fix the login bug"]);
    const shipped = new TaskStore(db).list({ project: PROJECT, all: true }).find((t) => t.content === "Ship the hook")!;
    assert.deepEqual([shipped.status, shipped.createdSession, shipped.updatedSession], ["completed", "A", "B"]);
    db.close();
  });

  test("a reworded item, in the same session or a later one, is one task with the newer wording", () => {
    const { db } = fresh();
    feed(db, T0, todoWrite("A", [{ content: "Write the README", status: "pending" }, { content: "Fix the login bug", status: "pending" }]));
    feed(db, T0 + MIN, todoWrite("B", [{ content: "Write README for install", status: "in_progress" }, { content: "Fix the logout bug", status: "pending" }]));
    assert.deepEqual(open(db).sort(), ["in_progress Write README for install", "pending Fix the login bug", "pending Fix the logout bug"]);
    feed(db, T0 + 2 * MIN, todoWrite("B", [{ content: "Write the README for installing", status: "in_progress" }, { content: "Fix the logout bug", status: "pending" }]));
    assert.deepEqual(open(db).sort(), ["in_progress Write the README for installing", "pending Fix the login bug", "pending Fix the logout bug"]);
    db.close();
  });

  test("a session that rewrites its own list drops what it created and no longer lists; never what another session created or took up", () => {
    const { db } = fresh();
    feed(db, T0, todoWrite("A", [{ content: "Ship the hook", status: "pending" }, { content: "Fix the login bug", status: "pending" }]));
    feed(db, T0 + MIN, todoWrite("B", [{ content: "Ship the hook", status: "in_progress" }, { content: "Spike a cache", status: "pending" }, { content: "Rename the flag", status: "pending" }]));
    feed(db, T0 + 2 * MIN, todoWrite("B", [{ content: "Rename the flag", status: "pending" }]));
    assert.deepEqual(open(db), ["pending Rename the flag", "in_progress Ship the hook", "pending Fix the login bug"], "B's own spike is dropped, A's task stays");
    const spike = new TaskStore(db).list({ project: PROJECT, all: true }).find((t) => t.content === "Spike a cache")!;
    assert.deepEqual([spike.status, spike.closedAt], ["deleted", T0 + 2 * MIN]);
    feed(db, T0 + 3 * MIN, todoWrite("A", []));
    assert.deepEqual(open(db), ["pending Rename the flag", "in_progress Ship the hook"], "A clears its own list: B took up the hook, so it stays");
    db.close();
  });

  test("two alike items of one list stay two tasks", () => {
    const { db } = fresh();
    feed(db, T0, todoWrite("A", [{ content: "Update README section on install", status: "pending" }, { content: "Update README section on usage", status: "pending" }]));
    feed(db, T0 + MIN, taskCreate("A", "1", "Benchmark the parser on install logs"), taskCreate("A", "2", "Benchmark the parser on usage logs"));
    assert.equal(open(db).length, 4, open(db).join("\n"));
    db.close();
  });

  test("task refs are per session: task #1 of A and task #1 of B are two tasks; B's update closes B's", () => {
    const { db } = fresh();
    feed(db, T0, taskCreate("A", "1", "Profile the indexer"));
    feed(db, T0 + MIN, taskCreate("B", "1", "Bump the schema version"));
    feed(db, T0 + 2 * MIN, taskUpdate("B", "1", { status: "completed" }));
    assert.deepEqual(open(db), ["pending Profile the indexer"]);
    const refs = db.prepare("SELECT session, local_id, task_id FROM task_refs ORDER BY session").all() as { session: string; local_id: string; task_id: number }[];
    assert.deepEqual(refs.map((r) => `${r.session}:${r.local_id}`), ["A:1", "B:1"]);
    assert.notEqual(refs[0]!.task_id, refs[1]!.task_id);
    db.close();
  });

  test("another session's later list cannot reopen a closed task; the session that closed it can", () => {
    const { db } = fresh();
    feed(db, T0, todoWrite("A", [{ content: "Ship the hook", status: "pending" }]));
    feed(db, T0 + MIN, todoWrite("B", [{ content: "Ship the hook", status: "completed" }]));
    feed(db, T0 + 2 * MIN, todoWrite("A", [{ content: "Ship the hook", status: "in_progress" }]));
    assert.deepEqual(open(db), []);
    feed(db, T0 + 3 * MIN, todoWrite("B", [{ content: "Ship the hook", status: "in_progress" }]));
    assert.deepEqual(open(db), ["in_progress Ship the hook"]);
    db.close();
  });

  test("a [MEMORY: task] tag creates a task once, however often it is read; the session's list can close it", () => {
    const { db } = fresh();
    for (let i = 0; i < 2; i++) captureTranscript(db, PROJECT, "A", undefined, "Done for now. [MEMORY: task] Document the hook deadlines", T0 + i);
    const tasks = new TaskStore(db).open(PROJECT);
    assert.deepEqual(tasks.map((t) => [t.content, t.source, t.createdSession]), [["Document the hook deadlines", "tag", "A"]]);
    feed(db, T0 + MIN, todoWrite("A", [{ content: "Document the hook deadlines", status: "completed" }]));
    assert.deepEqual(all(db), ["completed Document the hook deadlines"], "the session's own list item is the tag's task");
    captureTranscript(db, PROJECT, "A", undefined, "Done for now. [MEMORY: task] Document the hook deadlines", T0 + 2 * MIN);
    assert.deepEqual(open(db), [], "the tag read again reopens nothing");
    db.close();
  });

  test("a secret in a task subject never reaches the store", () => {
    const { db, path } = fresh();
    const token = `ghp_${rand(36)}`;
    feed(db, T0, taskCreate("A", "1", `Rotate the token ${token}`), todoWrite("A", [{ content: `Revoke ${token}`, status: "pending" }]));
    const contents = new TaskStore(db).open(PROJECT).map((t) => t.content);
    assert.equal(contents.length, 2);
    for (const c of contents) assert.match(c, /\[REDACTED:[\w-]+\]/);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    assert.ok(!readFileSync(path).includes(token), "not in the SQLite file");
  });
});

describe("stores made before the registry", () => {
  /** A session's list as an older mem saved it: in sessions.task_state only. */
  function oldSession(db: Db, session: string, at: number, todos: Todo[], creates: [string, string][] = []): void {
    const lines = [todoWrite(session, todos), ...creates.map(([id, s]) => taskCreate(session, id, s))].flatMap((p) => toolPayloadLines(p, new Date(at).toISOString())!);
    const sessions = new SessionStore(db);
    sessions.touch(cleanText(session), PROJECT, at);
    sessions.saveTasks(cleanText(session), clean(replayTasks(lines).state), at);
  }

  test("the first use builds the registry from every session's list, oldest first, once", () => {
    const { db } = fresh();
    oldSession(db, "old-1", T0, [{ content: "Add the migration", status: "completed" }, { content: "Write the release notes", status: "pending" }, { content: "Ship the hook", status: "in_progress" }]);
    oldSession(db, "old-2", T0 + 60 * MIN, [{ content: "Ship the hook", status: "completed" }, { content: "Rename the flag", status: "pending" }], [["1", "Profile the indexer"]]);
    assert.equal(getMeta(db, "tasks-backfilled"), undefined);
    assert.deepEqual(open(db).sort(), ["pending Profile the indexer", "pending Rename the flag", "pending Write the release notes"]);
    assert.deepEqual(all(db).filter((t) => t.startsWith("completed")).sort(), ["completed Add the migration", "completed Ship the hook"]);
    assert.equal(getMeta(db, "tasks-backfilled"), "2");
    const notes = new TaskStore(db).open(PROJECT).find((t) => t.content === "Write the release notes")!;
    assert.deepEqual([notes.createdSession, notes.createdAt], ["old-1", T0]);
    // A later capture of an old session continues from its refs; nothing is built twice.
    feed(db, T0 + 2 * 60 * MIN, todoWrite("old-1", [{ content: "Write the release notes", status: "completed" }]));
    assert.deepEqual(open(db).sort(), ["pending Profile the indexer", "pending Rename the flag"]);
    assert.equal(all(db).length, 5);
    db.close();
  });
});
