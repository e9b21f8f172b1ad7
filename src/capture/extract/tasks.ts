/**
 * The session's task list, replayed from tool calls in file order. Pure.
 *
 * - TodoWrite (≤ 2.1.1x): each call replaces the whole list. Only main-chain calls count: a
 *   subagent's TodoWrite keeps its own list. A call whose result is an error is undone.
 * - TaskCreate / TaskUpdate (2.1.x): incremental. The id is assigned by Claude Code and read from
 *   the result (`toolUseResult.task.id`, or "Task #N created successfully"). Subagent calls count
 *   too (shared list), including those mirrored inside `progress` lines. `deleted` removes a task.
 *   A TaskList result is authoritative: it adds tasks we missed and corrects statuses.
 * Each tool_use id is applied once, so main and subagent files may both be passed. The state is
 * plain JSON, so a replay can be saved (e.g. at a compaction) and resumed with later lines.
 */
import { createHash } from "node:crypto";
import type { CapturedEvent, TranscriptLine } from "../../store/event-types.js";
import { emptyTaskState, listTasks, type TaskChange, type TaskListState, type TaskState, type TaskStatus } from "../../tasks/state.js";
import { isObj, messages, resultText, str, type MessageView } from "./messages.js";

export const TASK_TOOLS: ReadonlySet<string> = new Set(["TodoWrite", "TaskCreate", "TaskUpdate", "TaskList"]);
const STATUSES: ReadonlySet<string> = new Set(["pending", "in_progress", "completed", "deleted"]);


const status = (v: unknown, fallback: TaskStatus): TaskStatus =>
  typeof v === "string" && STATUSES.has(v) ? (v as TaskStatus) : fallback;
const idOf = (v: unknown): string | undefined =>
  typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
const ids = (v: unknown): string[] => (Array.isArray(v) ? v.map(idOf).filter((x): x is string => !!x) : []);

function todoList(input: Record<string, unknown>, time: string): TaskState[] {
  const seen = new Map<string, number>();
  const out: TaskState[] = [];
  for (const t of Array.isArray(input.todos) ? input.todos : []) {
    if (!isObj(t)) continue;
    const content = str(t.content) ?? str(t.subject) ?? "";
    const h = `todo:${createHash("sha1").update(content).digest("hex").slice(0, 12)}`;
    const n = (seen.get(h) ?? 0) + 1; // identical items in one list stay distinct
    seen.set(h, n);
    const item: TaskState = { id: n > 1 ? `${h}#${n}` : h, content, status: status(t.status, "pending"), source: "TodoWrite", updatedAt: time };
    const af = str(t.activeForm);
    if (af) item.activeForm = af;
    out.push(item);
  }
  return out;
}

/** Id assigned by a TaskCreate result. */
function createdId(m: MessageView, text: string): string | undefined {
  const r = m.toolUseResult;
  const fromStruct = isObj(r) && isObj(r.task) ? idOf(r.task.id) : undefined;
  return fromStruct ?? /Task #(\S+?) created/.exec(text)?.[1];
}

/** Tasks listed by a TaskList result: structured, else parsed from "#3 [pending] Subject" lines. */
function listed(m: MessageView, text: string): { id: string; subject: string; status: TaskStatus }[] {
  const r = m.toolUseResult;
  if (isObj(r) && Array.isArray(r.tasks)) {
    return r.tasks.filter(isObj).flatMap((t) => {
      const id = idOf(t.id);
      return id ? [{ id, subject: str(t.subject) ?? "", status: status(t.status, "pending") }] : [];
    });
  }
  return [...text.matchAll(/^#(\S+) \[(\w+)\] (.*)$/gm)].map((x) => ({ id: x[1]!, subject: x[3]!, status: status(x[2], "pending") }));
}

/** Replays `lines` on top of `from` (not modified). */
export function replayTasks(lines: readonly TranscriptLine[], from?: TaskListState): { state: TaskListState; changes: TaskChange[] } {
  const s: TaskListState = from ? structuredClone(from) : emptyTaskState();
  const changes: TaskChange[] = [];
  const note = (toolUseId: string, tool: string, m: MessageView, task: TaskState, prev?: TaskStatus): void => {
    changes.push({ toolUseId, tool, task: { ...task }, previousStatus: prev, by: m.sidechain ? "subagent" : "main", time: m.time });
  };

  for (const m of messages(lines)) {
    for (const b of m.blocks) {
      if (m.role === "assistant" && b.type === "tool_use") {
        const id = str(b.id);
        const name = str(b.name) ?? "";
        if (!id || !TASK_TOOLS.has(name) || s.applied[id]) continue;
        if (name === "TodoWrite" && m.sidechain) continue; // a subagent's own list
        s.applied[id] = true;
        const input = isObj(b.input) ? b.input : {};
        if (name === "TodoWrite") {
          const next = todoList(input, m.time);
          const before = new Map((s.todos ?? []).map((t) => [t.id, t]));
          for (const t of next) {
            const p = before.get(t.id);
            if (!p || p.status !== t.status) note(id, name, m, t, p?.status);
            else t.updatedAt = p.updatedAt;
          }
          s.pending[id] = { name, input: {}, time: m.time, undo: s.todos };
          s.todos = next;
        } else if (name === "TaskUpdate") {
          const tid = idOf(input.taskId);
          const t = tid !== undefined ? s.tasks[tid] : undefined;
          if (!t || tid === undefined) continue;
          s.pending[id] = { name, input: {}, time: m.time, undo: { ...t } };
          const prev = t.status;
          const st = status(input.status, t.status);
          for (const k of ["subject", "description", "activeForm", "owner"] as const) {
            const v = str(input[k]);
            if (v !== undefined) t[k === "subject" ? "content" : k] = v;
          }
          const blockers = ids(input.addBlockedBy);
          if (blockers.length) t.blockedBy = [...new Set([...(t.blockedBy ?? []), ...blockers])];
          for (const other of ids(input.addBlocks)) {
            const o = s.tasks[other];
            if (o) o.blockedBy = [...new Set([...(o.blockedBy ?? []), tid])];
          }
          t.status = st;
          t.updatedAt = m.time;
          if (st === "deleted") delete s.tasks[tid];
          note(id, name, m, t, prev);
        } else s.pending[id] = { name, input, time: m.time }; // TaskCreate, TaskList: act on the result
      } else if (m.role === "user" && b.type === "tool_result") {
        const id = str(b.tool_use_id);
        const p = id ? s.pending[id] : undefined;
        if (!id || !p) continue;
        delete s.pending[id];
        const text = resultText(b.content);
        if (b.is_error === true) {
          if (p.name === "TodoWrite") s.todos = (p.undo as TaskState[] | null) ?? null;
          if (p.name === "TaskUpdate" && isObj(p.undo)) {
            const u = p.undo as unknown as TaskState;
            s.tasks[u.id] = u;
          }
          continue;
        }
        if (p.name === "TaskCreate") {
          const numeric = Object.keys(s.tasks).map(Number).filter(Number.isFinite);
          const tid = createdId(m, text) ?? String(Math.max(0, ...numeric) + 1);
          const t: TaskState = { id: tid, content: str(p.input.subject) ?? "", status: "pending", source: "TaskTool", updatedAt: p.time };
          const d = str(p.input.description);
          const af = str(p.input.activeForm);
          if (d) t.description = d;
          if (af) t.activeForm = af;
          s.tasks[tid] = t;
          note(id, p.name, m, t);
        } else if (p.name === "TaskList") {
          for (const l of listed(m, text)) {
            const t = s.tasks[l.id];
            if (!t) {
              s.tasks[l.id] = { id: l.id, content: l.subject, status: l.status, source: "TaskTool", updatedAt: m.time };
              note(id, p.name, m, s.tasks[l.id]!);
            } else if (t.status !== l.status) {
              const prev = t.status;
              t.status = l.status;
              t.updatedAt = m.time;
              note(id, p.name, m, t, prev);
            }
          }
        }
      }
    }
  }
  return { state: s, changes };
}

export function finalTasks(lines: readonly TranscriptLine[], from?: TaskListState): TaskState[] {
  return listTasks(replayTasks(lines, from).state);
}

/** One `task` event per task change (id `<tool_use id>#task:<task id>`). */
export function taskEvents(lines: readonly TranscriptLine[], opts: { session: string; from?: TaskListState }): CapturedEvent[] {
  return changeEvents(replayTasks(lines, opts.from).changes, opts.session);
}


/** The `task` events of already-replayed changes. */
export function changeEvents(changes: readonly TaskChange[], session: string): CapturedEvent[] {
  return changes.map((c) => {
    const metadata: Record<string, unknown> = { taskId: c.task.id, status: c.task.status, tool: c.tool, toolUseId: c.toolUseId, by: c.by, source: c.task.source };
    if (c.previousStatus) metadata.previousStatus = c.previousStatus;
    if (c.task.activeForm) metadata.activeForm = c.task.activeForm;
    const label = c.task.source === "TaskTool" ? `Task ${c.task.id}` : "Todo";
    return {
      id: `${c.toolUseId}#task:${c.task.id}`,
      type: "task",
      time: c.time,
      session,
      files: [],
      text: `${label} [${c.task.status}]: ${c.task.content}`,
      metadata,
    };
  });
}
