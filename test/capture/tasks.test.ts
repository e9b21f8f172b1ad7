import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { finalTasks, replayTasks, taskEvents } from "../../src/capture/extract/tasks.js";
import { listTasks } from "../../src/tasks/state.js";
import { isCompactBoundary } from "../../src/capture/extract/messages.js";
import type { TaskState } from "../../src/tasks/state.js";
import type { TranscriptLine } from "../../src/store/event-types.js";
import { load, SKIP, taskSessions, type Expected, type ExpectedTodo } from "./shared-data.js";

/** Our tasks in the expected file's shape (TodoWrite items have no id there). */
function shape(tasks: TaskState[], mechanism: Expected["mechanism"]): ExpectedTodo[] {
  return tasks.map((t) => ({
    ...(mechanism === "TodoWrite" ? {} : { id: t.id }),
    content: t.content,
    status: t.status,
    ...(t.activeForm ? { activeForm: t.activeForm } : {}),
  }));
}
const open = (ts: { status: string }[]) => ts.filter((t) => t.status === "pending" || t.status === "in_progress");
const idStatus = (ts: { id?: string; status: string }[]) => ts.map((t) => `${t.id}:${t.status}`).sort();

/** The parts of a transcript line that these independent checks read. */
type LineShape = {
  type?: string;
  isSidechain?: boolean;
  message?: { content?: { type?: string; name?: string; input: { todos: { content: string; status: string }[] } }[] };
  toolUseResult?: { tasks?: unknown };
};

/** Independent truth at line index `end` (exclusive): the last main-chain TodoWrite's todos. */
function lastTodoWrite(lines: TranscriptLine[], end: number): { content: string; status: string }[] {
  let last: { content: string; status: string }[] = [];
  for (const l of lines.slice(0, end) as LineShape[]) {
    if (l.type !== "assistant" || l.isSidechain) continue;
    for (const b of l.message?.content ?? []) if (b.type === "tool_use" && b.name === "TodoWrite") last = b.input.todos;
  }
  return last.map((t) => ({ content: t.content, status: t.status }));
}

/** Independent truth from the expected file's event log (1-based line numbers), before line index `end`. */
function fromEventLog(exp: Expected, end: number): { id: string; status: string }[] {
  const m = new Map<string, string>();
  for (const e of exp.task_event_log ?? []) {
    if (e.line - 1 >= end) break;
    if (e.tool === "TaskCreate") m.set(e.id, "pending");
    else if (e.status === "deleted") m.delete(e.id);
    else if (e.status) m.set(e.id, e.status);
  }
  return [...m].map(([id, status]) => ({ id, status }));
}

describe("task list replay on real sessions", { skip: SKIP }, () => {
  for (const s of taskSessions()) {
    test(`${s.name}: finalTasks equals the expected final list`, () => {
      const got = shape(finalTasks(load(s.path)), s.expected.mechanism);
      assert.deepEqual(open(got), open(s.expected.todos), "open tasks");
      assert.deepEqual(got, s.expected.todos, "whole list, completed included");
    });
  }

  test("at every compaction boundary the list is derivable from the lines before it, and resumable", () => {
    let boundaries = 0;
    for (const s of taskSessions()) {
      const lines = load(s.path);
      lines.forEach((l, i) => {
        if (!isCompactBoundary(l)) return;
        boundaries++;
        const before = replayTasks(lines.slice(0, i));
        const got = listTasks(before.state);
        if (s.expected.mechanism === "TodoWrite") {
          assert.deepEqual(got.map((t) => ({ content: t.content, status: t.status })), lastTodoWrite(lines, i), `${s.name} @${i + 1}`);
        } else {
          assert.deepEqual(idStatus(got), idStatus(fromEventLog(s.expected, i)), `${s.name} @${i + 1}`);
        }
        // A snapshot taken at the boundary (plain JSON, e.g. stored at PreCompact) plus the rest = the whole replay.
        const snapshot = JSON.parse(JSON.stringify(before.state));
        assert.deepEqual(finalTasks(lines.slice(i), snapshot), finalTasks(lines), `${s.name} resumed @${i + 1}`);
      });
    }
    assert.equal(boundaries, 9, "3 + 1 + 1 + 1 + 2 + 1 compact_boundary lines");
  });

  test("the replayed list matches every TaskList result at that point (7 snapshots)", () => {
    let checked = 0;
    for (const s of taskSessions()) {
      const lines = load(s.path);
      lines.forEach((l, i) => {
        const tasks = l.type === "user" ? (l as LineShape).toolUseResult?.tasks : undefined;
        if (!Array.isArray(tasks)) return;
        checked++;
        const got = finalTasks(lines.slice(0, i)); // before the result itself (it is also reconciled from)
        assert.deepEqual(idStatus(got), idStatus(tasks), `${s.name} line ${i + 1}`);
        assert.deepEqual(got.map((t) => t.content).sort(), tasks.map((t: { subject: string }) => t.subject).sort());
      });
    }
    assert.equal(checked, 7);
  });

  test("task events: one per change, stable ids, subagent updates attributed", () => {
    const s = taskSessions().find((x) => x.name.includes("b82405ba"))!;
    const a = taskEvents(load(s.path), { session: "x" });
    assert.deepEqual(taskEvents(load(s.path), { session: "x" }).map((e) => e.id), a.map((e) => e.id));
    assert.equal(a.filter((e) => e.metadata.tool === "TaskCreate").length, 12);
    assert.equal(a.filter((e) => e.metadata.by === "subagent").length, 11);
    assert.ok(a.every((e) => e.type === "task" && /^toolu_\w+#task:\d+$/.test(e.id)));
  });
});
