import { capturedStatus, listTasks, type TaskChange, type TaskListState } from "../tasks/state.js";
import type { CapturedEvent } from "./event-types.js";
import type { TaskStatus } from "../tasks/state.js";
import { asStoredRow, cleanText, type Clean, type CleanFields } from "../redact/clean.cjs";
import { matchTask } from "../tasks/match.js";
import type { Db } from "./db.js";
import { getMeta, setMeta } from "./meta.js";
import { prepared } from "./statements.js";

/**
 * The project's task registry (tables `tasks` and `task_refs`, migration 5). A task is open from
 * the moment any session creates it until some session completes or deletes it (or `mem task
 * done/drop`), whatever later sessions write: an item that merely disappears from a later
 * TodoWrite list stays open. `task_refs` says which session-local task (a TaskCreate id, a
 * TodoWrite item's hash, a tag's event id) each task is; a local id seen for the first time is
 * matched to an open task by the rule of src/tasks/match.ts (a reworded task is the same task).
 * Everything written comes from Clean values (a capture's task changes, the CLI's cleaned text).
 */
export interface TaskRow {
  id: number;
  project: string;
  content: string;
  /** pending | in_progress | blocked | completed | deleted */
  status: string;
  /** Why the task is blocked (`mem task block --reason`); null when never blocked or since unblocked. */
  blockedReason: string | null;
  /** TodoWrite | TaskTool | tag | cli */
  source: string;
  createdSession: string | null;
  createdAt: number;
  updatedSession: string | null;
  updatedAt: number;
  closedAt: number | null;
}

/** What a capture hands the registry (src/capture/after.ts `Captured` is one). */
export interface TaskCapture {
  project: Clean<string>;
  session: Clean<string>;
  now: number;
  taskChanges: Clean<TaskChange[]>;
  /** `[MEMORY: task]` tags among them (type "task", metadata.source "tag") create tasks too. */
  events: Clean<CapturedEvent[]>;
}

/** One session-local task as a session last wrote it. */
interface Seen {
  localId: string;
  content: string;
  /** Claude Code's status, or what capturedStatus keeps of a blocked task's. */
  status: string;
  source: string;
}

export type CloseStatus = "completed" | "deleted";

const BACKFILLED = "tasks-backfilled";
/** How many open tasks (the most recently updated) a new wording is matched against. */
export const MATCH_CANDIDATES = 500;
/** A task row's columns as TaskRow names them (for the other readers of `tasks`, ./task-pages.ts). */
export const COLUMNS = `id, project, content, status, source, created_session AS createdSession, created_at AS createdAt,
  updated_session AS updatedSession, updated_at AS updatedAt, closed_at AS closedAt, blocked_reason AS blockedReason`;
const closing = (s: string): s is CloseStatus => s === "completed" || s === "deleted";
/** The channel a session-local id comes from: two ids of one channel in one session are two tasks. */
const kind = (localId: string) => (localId.startsWith("todo:") ? "todo" : localId.startsWith("tag:") ? "tag" : "task");
/** A session still holds its task under `localId`: a TodoWrite item while listed; a TaskCreate id or a tag while the task lives. */
const holds = (localId: string, live: ReadonlySet<string>) => !localId.startsWith("todo:") || live.has(localId);

function parseState(json: string | null): TaskListState | undefined {
  if (!json) return undefined;
  try {
    return JSON.parse(json) as TaskListState;
  } catch {
    return undefined;
  }
}

export class TaskStore {
  private ready = false;

  constructor(readonly db: Db) {}

  /**
   * Applies a capture's task changes and task tags (inside the capture's transaction). When the
   * capture holds a TodoWrite call, a task the session created itself, that no other session took
   * up, and that it no longer lists is dropped (closed as deleted): a session rewriting its own
   * plan. Another session's list never closes a task by leaving it out.
   */
  sync(c: TaskCapture): void {
    const seen: Seen[] = c.taskChanges.map((ch) => ({ localId: ch.task.id, content: ch.task.content, status: ch.task.status, source: ch.task.source }));
    for (const e of c.events) {
      if (e.type === "task" && (e.metadata.source === "tag" || e.metadata.source === "explicit")) seen.push({ localId: e.id, content: e.text, status: "pending", source: "tag" });
    }
    const wroteList = c.events.some((e) => e.metadata.tool === "TodoWrite");
    if (seen.length === 0 && !wroteList) return;
    this.transaction(() => {
      this.backfill();
      const row = prepared(this.db, "SELECT task_state FROM sessions WHERE session = ?").get(c.session) as { task_state: string | null } | undefined;
      const state = parseState(row?.task_state ?? null);
      const live = this.liveIds(state);
      for (const s of seen) this.apply(c.project, c.session, s, c.now, live);
      if (wroteList && state) this.dropUnlisted(c.project, c.session, live, c.now);
    });
  }

  /** Open tasks of a project, newest first (tasks created by one capture in their order). */
  open(project: string): CleanFields<TaskRow>[] {
    return this.list({ project });
  }

  /** The newest-created `limit` open tasks of a project, through the open tasks' own index. */
  openNewest(project: string, limit: number): CleanFields<TaskRow>[] {
    this.ensureBackfilled();
    const sql = `SELECT ${COLUMNS} FROM tasks INDEXED BY tasks_open WHERE project = ? AND closed_at IS NULL ORDER BY created_at DESC, id LIMIT ?`;
    return (prepared(this.db, sql).all(project, limit) as TaskRow[]).map((r) => asStoredRow(r));
  }

  /** How many open tasks of a project were last updated before `staleBefore` (ms) and since. */
  openCounts(project: string, staleBefore: number): { fresh: number; stale: number } {
    this.ensureBackfilled();
    const r = prepared(this.db, "SELECT count(*) AS n, coalesce(sum(updated_at <= ?), 0) AS stale FROM tasks INDEXED BY tasks_open WHERE project = ? AND closed_at IS NULL").get(staleBefore, project) as { n: number; stale: number };
    return { fresh: r.n - r.stale, stale: r.stale };
  }

  /** Tasks of a project (or every project), newest first; closed ones too with `all`. */
  list(f: { project?: string; all?: boolean; limit?: number } = {}): CleanFields<TaskRow>[] {
    this.ensureBackfilled();
    return this.rows(f);
  }

  get(id: number): CleanFields<TaskRow> | undefined {
    this.ensureBackfilled();
    return this.row(id);
  }

  /** A new open task written by hand (never matched to an existing one: the user asked for it). */
  add(project: Clean<string>, content: Clean<string>, now: number): CleanFields<TaskRow> {
    this.ensureBackfilled();
    return this.row(this.insert(project, null, { localId: "", content, status: "pending", source: "cli" }, now))!;
  }

  /** Closes a task (completed or deleted); undefined when there is no such task. A closed task keeps its first closing. */
  close(id: number, status: CloseStatus, now: number): { task: CleanFields<TaskRow>; changed: boolean } | undefined {
    const t = this.get(id);
    if (!t) return undefined;
    if (t.closedAt !== null) return { task: t, changed: false };
    prepared(this.db, "UPDATE tasks SET status = ?, updated_session = NULL, updated_at = ?, closed_at = ? WHERE id = ?").run(status, now, now, id);
    return { task: this.row(id)!, changed: true };
  }

  /** Builds the registry from every session's saved list once (stores made before it existed); a meta flag records it. */
  ensureBackfilled(): void {
    if (this.ready || getMeta(this.db, BACKFILLED) !== undefined) {
      this.ready = true;
      return;
    }
    this.transaction(() => this.backfill());
  }

  private rows(f: { project?: string; all?: boolean; limit?: number }): CleanFields<TaskRow>[] {
    const where = [...(f.project !== undefined ? ["project = @project"] : []), ...(f.all ? [] : ["closed_at IS NULL"])];
    const sql = `SELECT ${COLUMNS} FROM tasks ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, id LIMIT @limit`;
    return (prepared(this.db, sql).all({ project: f.project ?? null, limit: f.limit ?? -1 }) as TaskRow[]).map((r) => asStoredRow(r));
  }

  private row(id: number): CleanFields<TaskRow> | undefined {
    const r = prepared(this.db, `SELECT ${COLUMNS} FROM tasks WHERE id = ?`).get(id) as TaskRow | undefined;
    return r ? asStoredRow(r) : undefined;
  }

  /** Session-local ids of a session's current list: TodoWrite items still listed, TaskCreate tasks not deleted. */
  private liveIds(state: TaskListState | undefined): Set<string> {
    return new Set(state ? listTasks(state).map((t) => t.id) : []);
  }

  private backfill(): void {
    if (this.ready || getMeta(this.db, BACKFILLED) !== undefined) {
      this.ready = true;
      return;
    }
    const rows = this.db.prepare("SELECT session, project, task_state, updated_at FROM sessions WHERE task_state IS NOT NULL ORDER BY updated_at, rowid").all() as {
      session: string;
      project: string;
      task_state: string | null;
      updated_at: number;
    }[];
    for (const r of rows) {
      const state = parseState(r.task_state);
      if (!state) continue;
      const list = listTasks(state);
      const live = new Set(list.map((t) => t.id));
      for (const t of list) this.apply(r.project, r.session, { localId: t.id, content: t.content, status: t.status, source: t.source }, r.updated_at, live);
    }
    setMeta(this.db, cleanText(BACKFILLED), cleanText(String(rows.length)));
    this.ready = true;
  }

  /** One session-local task as the session now has it: to its task (by ref, else by the matching rule), or a new task. */
  private apply(project: string, session: string, s: Seen, now: number, live: ReadonlySet<string>): void {
    const mineId = prepared(this.db, "SELECT r.task_id FROM task_refs r JOIN tasks t ON t.id = r.task_id WHERE r.session = ? AND r.local_id = ? AND t.project = ?").pluck().get(session, s.localId, project) as number | undefined;
    const known = mineId === undefined ? undefined : this.row(mineId);
    if (known) {
      if (s.source !== "tag") this.update(known, s, session, now); // a tag only ever creates: read again, it reopens nothing
      return;
    }
    if (s.content.trim() === "") return; // nothing to show or to match
    // Matched against the most recently updated open tasks only, so a capture costs the same with
    // ten open tasks or ten thousand; the refs read are this session's to those tasks alone.
    const open = prepared(this.db, `SELECT ${COLUMNS} FROM tasks WHERE project = ? AND closed_at IS NULL ORDER BY updated_at DESC, id DESC LIMIT ${MATCH_CANDIDATES}`).all(project) as TaskRow[];
    const refOf = prepared(this.db, "SELECT local_id FROM task_refs WHERE session = ? AND task_id = ?").pluck();
    const heldElsewhere = (taskId: number) => (refOf.all(session, taskId) as string[]).some((l) => l !== s.localId && kind(l) === kind(s.localId) && holds(l, live));
    const candidates = open.map((t) => ({ id: t.id, content: t.content, updatedAt: t.updatedAt, heldElsewhere: heldElsewhere(t.id) }));
    const hit = matchTask(s.content, candidates);
    if (hit) {
      this.ref(session, s.localId, hit.id);
      this.update(this.row(hit.id)!, s, session, now, true);
      return;
    }
    if (s.status === "deleted") return; // deleted before the registry ever knew it
    this.ref(session, s.localId, this.insert(project, session, s, now));
  }

  /**
   * Closes (as deleted) the open tasks `session` created, that no other session has taken up, and
   * whose every TodoWrite item it has taken off its list.
   */
  private dropUnlisted(project: string, session: string, live: ReadonlySet<string>, now: number): void {
    const refs = prepared(
      this.db,
      `SELECT r.local_id AS localId, r.task_id AS taskId FROM task_refs r JOIN tasks t ON t.id = r.task_id
       WHERE r.session = ? AND t.project = ? AND t.closed_at IS NULL AND t.created_session = r.session
         AND NOT EXISTS (SELECT 1 FROM task_refs o WHERE o.task_id = r.task_id AND o.session <> r.session)`,
    ).all(session, project) as { localId: string; taskId: number }[];
    const kept = new Set(refs.filter((r) => holds(r.localId, live)).map((r) => r.taskId));
    for (const id of new Set(refs.map((r) => r.taskId))) {
      if (!kept.has(id)) prepared(this.db, "UPDATE tasks SET status = 'deleted', updated_session = ?, updated_at = ?, closed_at = ? WHERE id = ?").run(session, now, now, id);
    }
  }

  /**
   * A known task as a session now writes it: newer wording, new status. A closed task reopens only
   * when the session that closed it opens it again; another session's later list cannot undo a close.
   * A blocked task stays blocked while lists carry it on as pending or in progress (capturedStatus).
   */
  private update(t: CleanFields<TaskRow>, seen: Seen, session: string, now: number, touched = false): void {
    const s: Seen = { ...seen, status: capturedStatus(t.status, seen.status as TaskStatus) };
    const content = s.content.trim() !== "" ? s.content : t.content;
    if (t.closedAt !== null) {
      if (closing(s.status) || t.updatedSession !== session) return;
      prepared(this.db, "UPDATE tasks SET content = ?, status = ?, updated_session = ?, updated_at = ?, closed_at = NULL WHERE id = ?").run(content, s.status, session, now, t.id);
      return;
    }
    if (!touched && content === t.content && s.status === t.status) return;
    prepared(this.db, "UPDATE tasks SET content = ?, status = ?, updated_session = ?, updated_at = ?, closed_at = ? WHERE id = ?").run(
      content,
      s.status,
      session,
      now,
      closing(s.status) ? now : null,
      t.id,
    );
  }

  private insert(project: string, session: string | null, s: Seen, now: number): number {
    const r = prepared(
      this.db,
      `INSERT INTO tasks (project, content, status, source, created_session, created_at, updated_session, updated_at, closed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(project, s.content, s.status, s.source, session, now, session, now, closing(s.status) ? now : null);
    return Number(r.lastInsertRowid);
  }

  private ref(session: string, localId: string, taskId: number): void {
    prepared(this.db, "INSERT INTO task_refs (session, local_id, task_id) VALUES (?, ?, ?) ON CONFLICT (session, local_id) DO UPDATE SET task_id = excluded.task_id").run(session, localId, taskId);
  }

  /** Runs `fn` in an IMMEDIATE transaction, or inside the caller's (a capture's) as a savepoint. */
  private transaction(fn: () => void): void {
    this.db.transaction(fn).immediate(); // nested: better-sqlite3 makes it a savepoint
  }
}
