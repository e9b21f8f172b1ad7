import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { finalTasks, replayTasks, taskEvents } from "../../src/capture/extract/tasks.js";
import type { TranscriptLine } from "../../src/store/event-types.js";

let clock = 0;
const at = (): string => new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString();
const call = (id: string, name: string, input: unknown, extra: object = {}): TranscriptLine => ({
  type: "assistant", timestamp: at(), sessionId: "s", ...extra,
  message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
});
const result = (id: string, content: string, extra: object = {}, isError = false): TranscriptLine => ({
  type: "user", timestamp: at(), sessionId: "s", ...extra,
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }] },
});
/** A subagent message mirrored into the main file (Claude Code 2.1.x). */
const progress = (line: TranscriptLine): TranscriptLine => ({
  type: "progress", sessionId: "s", isSidechain: false, data: { type: "agent_progress", agentId: "a1", message: line },
});
const todos = (...items: [string, string][]) => ({ todos: items.map(([content, status]) => ({ content, status, activeForm: `${content}ing` })) });
const create = (id: string, subject: string, taskId: string): TranscriptLine[] => [
  call(id, "TaskCreate", { subject, description: "d", activeForm: `Doing ${subject}` }),
  result(id, `Task #${taskId} created successfully: ${subject}`, { toolUseResult: { task: { id: taskId, subject } } }),
];
const brief = (lines: TranscriptLine[]) => finalTasks(lines).map((t) => `${t.id.startsWith("todo:") ? "" : `${t.id} `}${t.content}:${t.status}`);

describe("task list rules", () => {
  test("TodoWrite replaces the whole list; a failed call is undone; subagent lists are their own", () => {
    const lines = [
      call("w1", "TodoWrite", todos(["a", "pending"], ["b", "pending"])), result("w1", "ok"),
      call("w2", "TodoWrite", todos(["a", "completed"], ["c", "in_progress"])), result("w2", "ok"),
      call("w3", "TodoWrite", todos(["zzz", "pending"])), result("w3", "InputValidationError", {}, true),
      call("w4", "TodoWrite", todos(["sub", "pending"]), { isSidechain: true }),
      progress(call("w5", "TodoWrite", todos(["sub2", "pending"]))),
    ];
    assert.deepEqual(brief(lines), ["a:completed", "c:in_progress"]);
    // Ids are content hashes: the same item keeps its id across calls.
    const ev = taskEvents(lines, { session: "s" });
    assert.equal(new Set(ev.filter((e) => e.text.endsWith(": a")).map((e) => e.metadata.taskId)).size, 1);
  });

  test("TaskCreate takes the id from the result: structured, text, or next number", () => {
    const lines = [
      ...create("c1", "one", "1"),
      call("c2", "TaskCreate", { subject: "two" }), result("c2", "Task #7 created successfully: two"),
      call("c3", "TaskCreate", { subject: "three" }), result("c3", "created"),
      call("c4", "TaskCreate", { subject: "failed" }), result("c4", "boom", {}, true),
      call("c5", "TaskCreate", { subject: "no result yet" }),
    ];
    assert.deepEqual(brief(lines), ["1 one:pending", "7 two:pending", "8 three:pending"]);
    // The pending call resolves when its result arrives in a later read.
    const first = replayTasks(lines).state;
    assert.deepEqual(finalTasks([result("c5", "Task #9 created successfully: no result yet")], first).map((t) => t.id), ["1", "7", "8", "9"]);
  });

  test("TaskUpdate sets fields, blockers, deletes; unknown ids and failed updates change nothing", () => {
    const lines = [
      ...create("c1", "one", "1"), ...create("c2", "two", "2"), ...create("c3", "three", "3"),
      call("u1", "TaskUpdate", { taskId: "1", status: "in_progress", subject: "one!", owner: "me" }), result("u1", "Updated task #1"),
      call("u2", "TaskUpdate", { taskId: 2, addBlockedBy: ["1"] }), result("u2", "ok"),
      call("u3", "TaskUpdate", { taskId: "1", addBlocks: ["3"] }), result("u3", "ok"),
      call("u4", "TaskUpdate", { taskId: "3", status: "deleted" }), result("u4", "ok"),
      call("u5", "TaskUpdate", { taskId: "99", status: "completed" }), result("u5", "Task not found", {}, true),
      call("u6", "TaskUpdate", { taskId: "2", status: "completed" }), result("u6", "error", {}, true),
    ];
    const t = finalTasks(lines);
    assert.deepEqual(t.map((x) => [x.id, x.content, x.status, x.owner, x.blockedBy]), [
      ["1", "one!", "in_progress", "me", undefined],
      ["2", "two", "pending", undefined, ["1"]],
    ]);
    const deleted = taskEvents(lines, { session: "s" }).find((e) => e.id === "u4#task:3")!;
    assert.deepEqual([deleted.metadata.status, deleted.metadata.previousStatus], ["deleted", "pending"]);
  });

  test("subagent Task* calls count (shared list) and are applied once even if seen twice", () => {
    const sub = call("u1", "TaskUpdate", { taskId: "1", status: "completed" });
    const lines = [...create("c1", "one", "1"), progress(sub), progress(result("u1", "Updated task #1 status"))];
    const subagentFile = [{ ...sub, isSidechain: true, agentId: "a1" }, { ...result("u1", "ok"), isSidechain: true }];
    assert.deepEqual(brief([...lines, ...subagentFile, ...lines]), ["1 one:completed"]);
    const ev = taskEvents([...lines, ...subagentFile], { session: "s" });
    assert.deepEqual(ev.map((e) => [e.id, e.metadata.by]), [["c1#task:1", "main"], ["u1#task:1", "subagent"]]);
  });

  test("a TaskList result fills in tasks created before the transcript starts", () => {
    const lines = [
      call("l1", "TaskList", {}),
      result("l1", "#4 [pending] four\n#5 [completed] five", {}),
      call("l2", "TaskList", {}),
      result("l2", "", { toolUseResult: { tasks: [{ id: "4", subject: "four", status: "in_progress", blockedBy: [] }] } }),
    ];
    assert.deepEqual(brief(lines), ["4 four:in_progress", "5 five:completed"]);
  });

  test("the Task (subagent launch) tool is not a task-list tool", () => {
    assert.deepEqual(brief([call("t1", "Task", { description: "explore", prompt: "p", subagent_type: "Explore" }), result("t1", "done")]), []);
  });
});
