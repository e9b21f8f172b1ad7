/**
 * `tasks` (the project's task registry: list, add, done, drop; src/store/tasks.ts) and
 * `prompt_context` (what the UserPromptSubmit hook would inject, for an `mcp_tool` hook that calls
 * it instead of spawning a process: HOOKS.md §1.5).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { resolve } from "node:path";
import { z } from "zod";
import { contextOutput } from "../contract/hook.cjs";
import type { PromptRequest } from "../inject/for-prompt.js";
import { promptViaDaemon } from "../hooks/via-daemon.cjs";
import { skipReason } from "../inject/prompt-filter.cjs";
import { projectAt } from "../project/scope.js";
import { cleanText } from "../redact/clean.cjs";
import { field } from "../render/line.js";
import { MemoryError } from "../util/memory-error.js";
import { resolveTask, taskOneId } from "../store/task-ids.js";
import { TaskStore } from "../store/tasks.js";
import { blockTask, unblockTask } from "../store/task-block.js";
import { MAX_BLOCK_REASON } from "../tasks/state.js";
import { answer, args, guarded, projectOf, type McpContext } from "./context.js";
import { NOTICE, taskJson, tasksText } from "./render.js";

export function registerTaskTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    "tasks",
    {
      title: "Project tasks",
      description:
        "The project's tasks across sessions (mem's task registry: TodoWrite and TaskCreate items of every session stay open until some session completes or deletes them). action list (default): the open tasks, newest first, with id, status, age and creating session (all: closed ones too); add: a new open task (text); done / drop: close task id as completed / no longer to do; block: mark task id blocked, with the reason (it stays open and blocked until unblocked or closed); unblock: back to pending.",
      inputSchema: args({
        action: z.enum(["list", "add", "done", "drop", "block", "unblock"]).default("list").describe("list (default), add, done, drop, block or unblock."),
        text: z.string().min(1).max(2_000).optional().describe("add: the task."),
        id: z.union([z.string().min(1).max(200), z.number().int().min(1)]).optional().describe("done, drop, block, unblock: the task's id as list shows it (12 characters, e.g. 3f0c9a1b7d2e), or an unambiguous start of it (6 characters or more); its older number (#12) works too."),
        reason: z.string().min(1).max(MAX_BLOCK_REASON).optional().describe("block: what the task waits for."),
        all: z.boolean().optional().describe("list: closed tasks too."),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (a) =>
      guarded(ctx, "tasks", () => {
        const project = a.action === "list" ? ctx.project() : projectOf(ctx, {}, true); // bound to global: read-only unless mcp.globalWrites
        const store = new TaskStore(ctx.app.db);
        const now = ctx.now();
        const days = ctx.app.config.brief.staleTaskDays;
        if (a.action === "list") {
          const tasks = store.list({ project: project.id, all: a.all === true });
          const heading = tasks.length === 0 ? `No ${a.all ? "" : "open "}tasks in ${field(project.id)}.` : `${tasks.length} ${a.all ? "" : "open "}task${tasks.length === 1 ? "" : "s"} in ${field(project.id)}, newest first:`;
          return answer(tasksText(heading, tasks, now, days), { ...NOTICE, project: field(project.id, 1_024), tasks: tasks.map((t) => taskJson(t, now, days)) });
        }
        if (a.action === "add") {
          if (a.text === undefined || a.text.trim() === "") throw new MemoryError("bad_argument", "add needs the task's text");
          const t = store.add(project.id, cleanText(a.text.trim()), now);
          return answer(tasksText(`Added task ${taskOneId(t.id)}:`, [t], now, days), { ...NOTICE, task: taskJson(t, now, days), changed: true });
        }
        if (a.id === undefined) throw new MemoryError("bad_argument", `${a.action} needs the task's id`);
        const known = resolveTask(ctx.app.db, typeof a.id === "number" ? `#${a.id}` : a.id, project.id); // another project's: as if absent
        const shown = taskOneId(known.id);
        if (a.action === "block" || a.action === "unblock") {
          if (a.action === "block" && (a.reason === undefined || a.reason.trim() === "")) throw new MemoryError("bad_argument", "block needs the reason");
          const b = a.action === "block" ? blockTask(ctx.app.db, known.id, cleanText(a.reason!.trim()), now)! : unblockTask(ctx.app.db, known.id, now)!;
          const said = b.changed ? (a.action === "block" ? "Blocked:" : "Unblocked:") : b.why === "closed" ? `Task ${shown} is closed (${field(b.task.status, 20)}):` : b.why === "not_blocked" ? `Task ${shown} was not blocked:` : `Task ${shown} was already blocked for that reason:`;
          return answer(tasksText(said, [b.task], now, days), { ...NOTICE, task: taskJson(b.task, now, days), changed: b.changed });
        }
        const r = store.close(known.id, a.action === "done" ? "completed" : "deleted", now)!;
        const verb = r.changed ? (a.action === "done" ? "Done:" : "Dropped:") : `Task ${shown} was already closed (${field(r.task.status, 20)}):`;
        return answer(tasksText(verb, [r.task], now, days), { ...NOTICE, task: taskJson(r.task, now, days), changed: r.changed });
      }),
  );

  server.registerTool(
    "prompt_context",
    {
      title: "Memories for a prompt (hook)",
      description:
        "For mem's UserPromptSubmit mcp_tool hook (mem install --prompt-transport mcp), not for the model: the memories the prompt hook would inject, as the hook's JSON output ({hookSpecificOutput: {hookEventName, additionalContext}}), or nothing. Records them as delivered to the session.",
      inputSchema: args({
        prompt: z.string().max(1_000_000).describe("The user's prompt (${prompt})."),
        cwd: z.string().max(4096).optional().describe("The session's working directory (${cwd}); one in another project than the session's gets nothing. Never what is searched: that is the project this server is bound to."),
        session_id: z.string().max(400).optional().describe("The session's id (${session_id})."),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (a) => {
      const t0 = performance.now();
      let text: string | undefined;
      let via = "skipped";
      try {
        // What is searched is the bound project, never the argument: a cwd (relative to the session's
        // directory, never to a daemon's) only says whether the call comes from this session's project.
        const at = (dir: string) => projectAt(ctx.app.db, dir, ctx.app.config.project.enclosing).id;
        if (a.cwd && at(resolve(ctx.sessionDir, a.cwd)) !== at(ctx.sessionDir)) via = "other-project";
        else if (!skipReason(a.prompt)) {
          const project = ctx.project();
          ({ text, via } = await promptMemories(ctx, { prompt: a.prompt, cwd: project.root ?? ctx.sessionDir, session: a.session_id ?? "", project: project.id }));
        }
      } catch (err) {
        // As the command hook: a failure injects nothing and never reaches the user.
        ctx.log(`prompt_context failed: ${(err as Error).message}`);
        via = "failed";
      }
      const out = contextOutput("UserPromptSubmit", text) ?? "";
      return { content: [{ type: "text" as const, text: out }], structuredContent: { via, injected: text !== undefined, ms: Math.round((performance.now() - t0) * 100) / 100 } };
    },
  );
}

/**
 * The warm daemon's answer when it runs (it records the delivery once its reply is read, as for
 * the command hook); otherwise this server's own BM25 search over the store it holds open, a
 * daemon started for next time.
 */
async function promptMemories(ctx: McpContext, req: PromptRequest): Promise<{ text: string | undefined; via: string }> {
  if (ctx.env.MEM_NO_DAEMON !== "1") {
    const r = await promptViaDaemon(req, ctx.env);
    if (r.answered) return { text: r.text, via: "daemon" };
    const { startDaemon } = await import("../hooks/user-prompt.js");
    await startDaemon(ctx.env);
  }
  const { app } = ctx;
  const { answerPrompt, delivered } = await import("../inject/prompt-run.js"); // not at start-up (LanceDB's bindings)
  const { hookLog } = await import("../hooks/log.cjs");
  const t0 = performance.now();
  const a = await answerPrompt({ db: app.db, config: app.config, vectors: app.vectors, pickProvider: async () => ({ unhealthy: [] }), projectRoot: app.projectRoot }, req, "bm25");
  // Shown to the session and in the prompt log, as the hook's own in-process answer is.
  if (a) delivered(app.db, a, { session: cleanText(req.session), prompt: req.prompt, ms: performance.now() - t0, mode: "bm25", at: ctx.now() }, (l) => hookLog(ctx.env, `mcp prompt tool: ${l}`));
  return { text: a?.injection?.text, via: "in-process" };
}
