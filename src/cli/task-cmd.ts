import { openApp, type App } from "../app.js";
import { blockedNote } from "../brief/sections/tasks.js";
import { blockTask, unblockTask } from "../store/task-block.js";
import { MAX_BLOCK_REASON } from "../tasks/state.js";
import { ABSOLUTE_HELP, ABSOLUTE_OPTION } from "./times.js";
import { note, QUIET_FLAGS } from "./quiet.js";
import { projectFromArg, projectToStoreIn } from "../project/scope.js";
import { cleanText } from "../redact/clean.cjs";
import { field, prose, safeJson } from "../render/line.js";
import { resolveTask, taskOneId } from "../store/task-ids.js";
import { TaskStore, type CloseStatus, type TaskRow } from "../store/tasks.js";
import { MemoryError } from "../util/memory-error.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { failure, idProblem, unknownProjectNote } from "./memory-io.js";
import { taskJson, taskLines } from "./task-shape.js";

const usage = `Usage: mem task list [--all] [--absolute] [--json] [--project P]
       mem task add "TEXT" [--project P [--new-project]] [--json]
       mem task done ID [--json]
       mem task drop ID [--json]
       mem task block ID --reason "WHY" [--json]
       mem task unblock ID [--json]

The project's tasks across sessions. A task is open from the moment any session creates it
(TodoWrite, TaskCreate, a [MEMORY: task] tag, mem task add) until some session completes or
deletes it, or until mem task done/drop; a later session's list that leaves it out does not close it.

Subcommands:
  list          open tasks, newest first: id, status, age, the session that created it, text
                (stale: untouched for brief.staleTaskDays days)
  add TEXT      a new open task in the project
  done ID       mark task ID completed (ID: the id list shows, or a start of it of 6
                characters or more; the older #N works too)
  drop ID       mark task ID deleted (no longer to do)
  block ID      mark task ID blocked, saying why (--reason, required): it stays open and
                blocked, whatever session lists carry it on as, until unblocked or closed
  unblock ID    back to pending

Options:
  --project P   the project (a path, a stored project id, or a project's directory name);
                default: the working directory's. add: a name nothing is stored under is
                refused (a typo), unless --new-project
  --all         list: closed tasks too
${ABSOLUTE_HELP.replace("--absolute   ", "--absolute   list: ")}
  --reason WHY  block: what the task waits for (at most ${MAX_BLOCK_REASON} characters)
  --json        list: {"project", "tasks": [TASK, ...]}; add, done, drop, block, unblock:
                {"task": TASK, "changed"}
                TASK: {"id", "number" (the older #N), "status", "content", "source", "project",
                "createdSession", "updatedSession", "createdAt", "updatedAt", "closedAt",
                "blockedReason", "stale"} (status: pending, in_progress, blocked, completed or
                deleted; blockedReason: null unless blocked)
  -h, --help    this help`;

function list(argv: string[], now: number): Promise<number> {
  const { values, positionals } = parse(argv, { all: { type: "boolean" }, json: { type: "boolean" }, project: { type: "string" }, ...ABSOLUTE_OPTION });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  return withApp((app) => {
    const project = projectFromArg(app.db, values.project, process.cwd(), app.config.project.enclosing).id;
    const tasks = new TaskStore(app.db).list({ project, all: values.all === true });
    const days = app.config.brief.staleTaskDays;
    if (values.json) {
      process.stdout.write(`${safeJson({ project, tasks: tasks.map((t) => taskJson(t, now, days)) })}\n`);
      return EXIT.ok;
    }
    if (tasks.length === 0) {
      process.stdout.write(`no ${values.all ? "" : "open "}tasks in ${field(project)}\n`);
      note(unknownProjectNote(app.db, project) ?? "");
    } else process.stdout.write(`${taskLines(tasks, now, days, values.absolute === true).join("\n")}\n`);
    return EXIT.ok;
  });
}

function add(argv: string[], now: number): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: "boolean" }, project: { type: "string" }, "new-project": { type: "boolean" } });
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'the task\'s text is required: mem task add "TEXT"' : 'one text, in quotes: mem task add "TEXT"');
  const text = positionals[0]!.trim();
  if (text === "") throw new UsageError("the task's text is empty");
  return withApp((app) => {
    const project = projectToStoreIn(app.db, values.project, process.cwd(), { enclosing: app.config.project.enclosing, create: values["new-project"] === true, how: "add --new-project" }).id;
    const t = new TaskStore(app.db).add(project, cleanText(text), now);
    if (values.json) process.stdout.write(`${safeJson({ task: taskJson(t, now, app.config.brief.staleTaskDays), changed: true })}\n`);
    else process.stdout.write(`added task ${taskOneId(t.id)}: ${prose(t.content, 300)}\n`);
    return EXIT.ok;
  });
}

/** The one task ID the command takes. @throws UsageError */
function oneTaskId(positionals: string[]): string {
  if (positionals.length > 1) throw new UsageError(`one task ID, got ${positionals.length}`);
  const typed = positionals[0];
  if (typed === undefined) throw new UsageError("a task ID is required (see mem task list)");
  return typed;
}

/** The task `typed` names, or the exit status once its failure is said. @throws UsageError for a start too short or ambiguous */
function taskOf(app: App, typed: string, asJson: boolean): TaskRow | number {
  try {
    return resolveTask(app.db, typed);
  } catch (err) {
    if (!(err instanceof MemoryError)) throw err;
    if (err.code === "bad_argument") throw new UsageError(err.message, idProblem(err.message) ? "alone" : false);
    return failure("task", asJson, `${err.message} (see mem task list --all)`, "not_found");
  }
}

function close(argv: string[], now: number, status: CloseStatus): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: "boolean" } });
  const typed = oneTaskId(positionals);
  return withApp((app) => {
    const task = taskOf(app, typed, values.json === true);
    if (typeof task === "number") return task;
    const id = taskOneId(task.id);
    const r = new TaskStore(app.db).close(task.id, status, now)!;
    if (values.json) process.stdout.write(`${safeJson({ task: taskJson(r.task, now, app.config.brief.staleTaskDays), changed: r.changed })}\n`);
    else if (r.changed) process.stdout.write(`task ${id} ${status === "completed" ? "done" : "dropped"}: ${prose(r.task.content, 300)}\n`);
    else process.stdout.write(`task ${id} was already closed (${field(r.task.status, 20)}): ${prose(r.task.content, 300)}\n`);
    return EXIT.ok;
  });
}

function block(argv: string[], now: number, blocking: boolean): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: "boolean" }, ...(blocking ? { reason: { type: "string" as const } } : {}) });
  const typed = oneTaskId(positionals);
  const reason = typeof values.reason === "string" ? values.reason.trim() : "";
  if (blocking && reason === "") throw new UsageError('say why the task is blocked: mem task block ID --reason "WHY"');
  if (reason.length > MAX_BLOCK_REASON) throw new UsageError(`the reason is ${reason.length} characters long, at most ${MAX_BLOCK_REASON}`);
  return withApp((app) => {
    const task = taskOf(app, typed, values.json === true);
    if (typeof task === "number") return task;
    const id = taskOneId(task.id);
    const r = blocking ? blockTask(app.db, task.id, cleanText(reason), now) : unblockTask(app.db, task.id, now);
    if (!r) return failure("task", values.json === true, `no task ${id} (see mem task list --all)`, "not_found");
    if (values.json) process.stdout.write(`${safeJson({ task: taskJson(r.task, now, app.config.brief.staleTaskDays), changed: r.changed })}\n`);
    else if (r.why === "closed") process.stdout.write(`task ${id} is closed (${field(r.task.status, 20)}): ${prose(r.task.content, 300)}\n`);
    else if (r.why === "not_blocked") process.stdout.write(`task ${id} was not blocked (${field(r.task.status, 20)}): ${prose(r.task.content, 300)}\n`);
    else process.stdout.write(`task ${id} ${blocking ? (r.changed ? "blocked" : "was already blocked") : "unblocked"}: ${prose(r.task.content, 300)}${blockedNote(r.task, 300)}\n`);
    return EXIT.ok;
  });
}

/** Opens the store only once the arguments are known to be good. */
async function withApp(fn: (app: App) => number): Promise<number> {
  const app = openApp();
  try {
    return fn(app);
  } finally {
    await app.close();
  }
}

export const taskCommand: Command = {
  summary: "the project's open tasks across sessions (list, add, done, drop, block, unblock)",
  usage,
  async run(argv) {
    // `-q` may come before the subcommand (`mem task -q list`): every command takes it anywhere.
    const at = argv.findIndex((a) => !QUIET_FLAGS.has(a));
    const sub = at < 0 ? undefined : argv[at];
    const rest = at < 0 ? argv : argv.filter((_, i) => i !== at);
    const now = Date.now();
    if (sub === "list") return list(rest, now);
    if (sub === "add") return add(rest, now);
    if (sub === "done" || sub === "drop") return close(rest, now, sub === "done" ? "completed" : "deleted");
    if (sub === "block" || sub === "unblock") return block(rest, now, sub === "block");
    throw new UsageError(sub === undefined ? "a subcommand is required: list, add, done, drop, block or unblock" : `unknown subcommand "${sub}" (list, add, done, drop, block, unblock)`);
  },
};
