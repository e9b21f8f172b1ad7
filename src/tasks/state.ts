/**
 * A session's task list as mem keeps it: the task shapes Claude Code's task tools give
 * (TodoWrite, TaskCreate/TaskUpdate), the replayed list's state (saved and resumed as plain
 * JSON), its changes, and the list it reads as. Capture fills it (src/capture/extract/tasks.ts),
 * the store keeps it (src/store/tasks.ts). Pure.
 */

/** Claude Code's statuses; `deleted` only appears in task events, never in a final list. */
export type TaskStatus = "pending" | "in_progress" | "completed" | "deleted";

export interface TaskState {
  /**
   * TaskCreate tasks: the id Claude Code assigned ("1", "2", …). TodoWrite items have no id of
   * their own: `todo:<hash of content>`.
   */
  id: string;
  /** TodoWrite `content` / TaskCreate `subject`. */
  content: string;
  status: TaskStatus;
  activeForm?: string;
  description?: string;
  owner?: string;
  blockedBy?: string[];
  source: "TodoWrite" | "TaskTool";
  /** Time of the line that last changed the task. */
  updatedAt: string;
}

export interface TaskListState {
  /** TaskCreate tasks by id. */
  tasks: Record<string, TaskState>;
  /** The last main-chain TodoWrite list (null before any). */
  todos: TaskState[] | null;
  /** Calls waiting for their result: TaskCreate (needs the id) and undo data for the others. */
  pending: Record<string, { name: string; input: Record<string, unknown>; time: string; undo?: unknown }>;
  /** tool_use ids already applied. */
  applied: Record<string, true>;
}

export interface TaskChange {
  toolUseId: string;
  tool: string;
  task: TaskState;
  previousStatus?: TaskStatus;
  by: "main" | "subagent";
  time: string;
}

export const emptyTaskState = (): TaskListState => ({ tasks: {}, todos: null, pending: {}, applied: {} });

const byId = (a: TaskState, b: TaskState): number => {
  const x = Number(a.id);
  const y = Number(b.id);
  if (Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

/** The current list: TaskCreate tasks by id, then the last TodoWrite list in its order. */
export function listTasks(s: TaskListState): TaskState[] {
  return [...Object.values(s.tasks).sort(byId), ...(s.todos ?? [])];
}

/** Open = still to do: pending, in progress, or blocked (a registry task only: `mem task block`, the MCP tool). */
export const isOpenTask = (t: { status: string }): boolean => t.status === "pending" || t.status === "in_progress" || t.status === "blocked";

/**
 * A registry task's status: Claude Code's, or `blocked`, which only a person or the model sets
 * deliberately (`mem task block`, the MCP `tasks` tool's block) with a reason.
 */
export type RegistryStatus = TaskStatus | "blocked";

/** Why a task is blocked, when it is ("" for a block without a reason); null when it is not blocked. */
export const blockedReasonOf = (t: { status: string; blockedReason?: string | null }): string | null => (t.status === "blocked" ? (t.blockedReason ?? "") : null);

/** Longest reason kept for a blocked task (characters). */
export const MAX_BLOCK_REASON = 500;

/**
 * The status a registry task takes when a session's task list writes it again. Claude Code has no
 * "blocked": its lists carry a blocked task on as pending or in progress (each TodoWrite repeats the
 * whole list), which must not undo the block; only a completion or a deletion ends it. Pure.
 */
export function capturedStatus(current: string, captured: TaskStatus): string {
  if (current === "blocked" && (captured === "pending" || captured === "in_progress")) return "blocked";
  return captured;
}
