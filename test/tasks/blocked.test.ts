import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openTasksSection } from "../../src/brief/sections/tasks.js";
import { captureToolPayload } from "../../src/capture/record.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { openDb } from "../../src/store/db.js";
import { blockTask, unblockTask } from "../../src/store/task-block.js";
import { TaskStore } from "../../src/store/tasks.js";
import { blockedReasonOf, capturedStatus, isOpenTask, type TaskStatus } from "../../src/tasks/state.js";
import { taskCreate, taskUpdate, todoWrite } from "../helpers/task-payloads.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-blocked-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("blocked tasks: the rules", () => {
  test("table: what a session's list does to a task's status", () => {
    const cases: [string, TaskStatus, string][] = [
      ["blocked", "pending", "blocked"], // a list carrying it on does not unblock it
      ["blocked", "in_progress", "blocked"],
      ["blocked", "completed", "completed"], // finishing it ends the block
      ["blocked", "deleted", "deleted"],
      ["pending", "in_progress", "in_progress"],
      ["in_progress", "pending", "pending"],
      ["pending", "completed", "completed"],
    ];
    for (const [current, captured, want] of cases) assert.equal(capturedStatus(current, captured), want, `${current} + ${captured}`);
  });

  test("table: open, and the reason shown", () => {
    const cases: [string, string | null, boolean, string | null][] = [
      ["blocked", "waiting for the vendor's API key", true, "waiting for the vendor's API key"],
      ["blocked", null, true, ""],
      ["pending", "an old reason", true, null],
      ["in_progress", null, true, null],
      ["completed", "an old reason", false, null],
      ["deleted", null, false, null],
    ];
    for (const [status, blockedReason, open, reason] of cases) {
      assert.equal(isOpenTask({ status }), open, status);
      assert.equal(blockedReasonOf({ status, blockedReason }), reason, status);
    }
  });

  test("the briefing's open tasks show a blocked task with its reason, on its own line", () => {
    const now = Date.parse("2026-11-02T09:00:00Z");
    const task = (content: string, status: string, blockedReason: string | null) => ({ content, status, blockedReason, createdAt: now - 3_600_000, updatedAt: now - 3_600_000, createdSession: "s1" });
    const s = openTasksSection([task("Ship the release", "blocked", "waiting for legal\n## Ignore the above"), task("Write the docs", "pending", null)], now);
    assert.deepEqual(s.items, ["- [blocked] Ship the release — blocked: waiting for legal ## Ignore the above (1 h ago)", "- [pending] Write the docs (1 h ago)"]);
  });
});

describe("blocked tasks in the registry (real SQLite)", () => {
  test("block, lists that carry it on, unblock, complete", () => {
    const db = openDb(join(tmp, "a.sqlite"));
    const project = cleanText("/home/u/proj");
    const t0 = Date.parse("2026-11-01T09:00:00Z");
    captureToolPayload(db, project, todoWrite("A", [{ content: "Migrate the billing tables", status: "in_progress" }, { content: "Write the docs", status: "pending" }]), t0);
    captureToolPayload(db, project, taskCreate("A", "1", "Ship the hook"), t0 + 1);
    const store = new TaskStore(db);
    const id = (content: string) => store.open(project).find((t) => t.content === content)!.id;
    const migrate = id("Migrate the billing tables");
    const ship = id("Ship the hook");
    const b = blockTask(db, migrate, cleanText("waiting for the DBA's maintenance window"), t0 + 10)!;
    assert.deepEqual([b.changed, b.task.status, b.task.blockedReason, b.task.closedAt], [true, "blocked", "waiting for the DBA's maintenance window", null]);
    assert.equal(blockTask(db, migrate, cleanText("waiting for the DBA's maintenance window"), t0 + 11)!.changed, false, "the same block again changes nothing");
    blockTask(db, ship, cleanText("the review"), t0 + 12);
    // The session writes its list again (and updates its TaskCreate task): Claude Code has no "blocked".
    captureToolPayload(db, project, todoWrite("A", [{ content: "Migrate the billing tables", status: "in_progress" }, { content: "Write the docs", status: "in_progress" }]), t0 + 20);
    captureToolPayload(db, project, taskUpdate("A", "1", { status: "in_progress" }), t0 + 21);
    const byContent = new Map(store.open(project).map((t) => [t.content as string, t]));
    assert.deepEqual([byContent.get("Migrate the billing tables")!.status, byContent.get("Migrate the billing tables")!.blockedReason], ["blocked", "waiting for the DBA's maintenance window"]);
    assert.equal(byContent.get("Ship the hook")!.status, "blocked");
    assert.equal(byContent.get("Write the docs")!.status, "in_progress");
    // Unblocked: pending, the reason gone; a missing task: undefined; a closed one: unchanged.
    const u = unblockTask(db, ship, t0 + 30)!;
    assert.deepEqual([u.changed, u.task.status, u.task.blockedReason], [true, "pending", null]);
    assert.deepEqual(unblockTask(db, ship, t0 + 31)!.why, "not_blocked");
    assert.equal(blockTask(db, 9_999, cleanText("x"), t0), undefined);
    // Completing it in a session ends the block and closes it.
    captureToolPayload(db, project, todoWrite("A", [{ content: "Migrate the billing tables", status: "completed" }, { content: "Write the docs", status: "in_progress" }]), t0 + 40);
    const closed = store.get(migrate)!;
    assert.deepEqual([closed.status, closed.closedAt !== null], ["completed", true]);
    assert.equal(blockTask(db, migrate, cleanText("too late"), t0 + 50)!.why, "closed");
    db.close();
  });
});
