/**
 * What every tool of `mem mcp` shares: the store opened once, the memory service over it, the
 * one project the server is bound to, a cached provider pick, and the one way a tool answers
 * (text for the model plus structured content) or fails (`isError` with the service's message).
 *
 * Isolation: the server serves its session's project and nothing else. It is fixed when the
 * server starts (`mem mcp --project`, a stored project or a path unless `--new-project`, else
 * CLAUDE_PROJECT_DIR, else its cwd), never by a tool's argument: the tools take no project, and
 * the service they call is scoped to it (reads: it and the user's global memory; writes: it, and
 * global only with config `mcp.globalWrites`, also when the server is bound to global). A memory
 * of another project is answered as a missing id is.
 */
import { resolve } from "node:path";
import { z } from "zod";
import type { App } from "../app.js";
import { GLOBAL_PROJECT } from "../config/config.js";
import { firstHealthy, type Selected, type Unhealthy } from "../embed/chain.js";
import { resolveProject, type Project } from "../project/identity.js";
import { projectToStoreIn } from "../project/scope.js";
import { prose } from "../render/line.js";
import { MemoryService } from "../service/memory.js";
import { MemoryError } from "../util/memory-error.js";
import { SessionStore } from "../store/sessions.js";
import { pickSession, sessionFromEnv, type SessionSeen } from "./session.js";

/**
 * `mem mcp --project P [--new-project]`: the project to serve instead of the session directory's.
 * A name under which nothing is stored is refused (a typo would bind the server to an empty
 * project) unless `newProject`; a path always names its project.
 */
export interface McpBinding {
  project?: string;
  newProject?: boolean;
}

export interface McpContext {
  app: App;
  /** Scoped to `project` (and global, read-only unless mcp.globalWrites). */
  service: MemoryService;
  /** The project this server is bound to. */
  project: () => Project;
  /** The Claude Code session of this call, when there is one to tell (./session.ts). */
  session: () => string | undefined;
  /** The session's directory (CLAUDE_PROJECT_DIR, else the server's cwd). */
  sessionDir: string;
  /** Whether the model may store, edit and forget the user's global memories here. */
  globalWrites: () => boolean;
  env: NodeJS.ProcessEnv;
  /** stderr: stdout is the protocol. */
  log: (line: string) => void;
  now: () => number;
  /** The embedding provider to search with, picked once a minute (a health check costs a round trip). */
  pickProvider: () => Promise<{ selected?: Selected; unhealthy: Unhealthy[] }>;
}

/**
 * The context over a store opened by `open`: at once when it can be, else again at the next call
 * (a damaged store answers every call with the damage, until `mem doctor --repair` fixed it).
 */
export function mcpContext(open: () => App, env: NodeJS.ProcessEnv, log: (line: string) => void, now: () => number = Date.now, bind: McpBinding = {}): McpContext & { opened(): App | undefined } {
  let app: App | undefined;
  let service: MemoryService | undefined;
  let project: Project | undefined;
  const base = resolve(env.CLAUDE_PROJECT_DIR || process.cwd());
  let picked: Promise<{ selected?: Selected; unhealthy: Unhealthy[] }> | undefined;
  let pickedAt = 0;
  const ctx = {
    get app() {
      return (app ??= open());
    },
    get service() {
      const a = ctx.app;
      const own = ctx.project().id;
      const read = own === GLOBAL_PROJECT ? [own] : [own, GLOBAL_PROJECT];
      const write = ctx.globalWrites() ? read : read.filter((p) => p !== GLOBAL_PROJECT); // bound to global: read-only too
      return (service ??= new MemoryService({ db: a.db, config: a.config, projectRoot: a.projectRoot, now, scope: { read, write } }));
    },
    project: () => (project ??= projectToStoreIn(ctx.app.db, bind.project, base, { enclosing: ctx.app.config.project.enclosing, create: bind.newProject === true, how: "start mem mcp with --new-project" })),
    session: () => {
      const own = sessionFromEnv(env);
      const sessions = new SessionStore(ctx.app.db);
      const seen: SessionSeen[] = sessions.recent(ctx.project().id, 50);
      const row = own === undefined || seen.some((s) => s.session === own) ? undefined : sessions.get(own);
      return pickSession(own, row ? [...seen, row] : seen, now(), ctx.app.config.memory.convergeWindowMs);
    },
    sessionDir: base,
    globalWrites: () => ctx.app.config.mcp.globalWrites,
    opened: () => app,
    env,
    log,
    now,
    pickProvider: () => {
      if (!picked || now() - pickedAt > 60_000) {
        pickedAt = now();
        picked = ctx.app.providers().then((ps) => firstHealthy(ps));
      }
      return picked;
    },
  };
  return ctx;
}

/**
 * A tool's arguments: exactly these, an unknown one refused (so a `project` or `cwd` the model
 * adds is an error, never silently a search of the wrong project).
 */
export const args = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);

/** For the tools that may reach the user's global memory instead of the project's. */
export const globalArg = (what: string) => ({ global: z.boolean().optional().describe(`${what} the user's global memories (shared by all projects) instead of this project's.`) });

/** `--since`-style dates: 2026-11-01 or a full ISO time. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, "a date like 2026-11-01 or an ISO time")
  .refine((s) => !Number.isNaN(Date.parse(s)), "not a valid date");

/**
 * The project a call is about: the server's own, or with `global` the user's global memory (to
 * store there, only when mcp.globalWrites allows it).
 */
export function projectOf(ctx: McpContext, a: { global?: boolean | undefined }, storing = false): Project {
  const project = a.global === true ? resolveProject("/", GLOBAL_PROJECT) : ctx.project();
  // A server bound to `global` (mem mcp --project global) stores there only as `global: true` does.
  if (storing && project.id === GLOBAL_PROJECT && !ctx.globalWrites()) throw new MemoryError("read_only", 'the user\'s global memories are read-only to mem mcp (the user may allow writes with config "mcp": {"globalWrites": true})');
  return project;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export const answer = (text: string, structured: Record<string, unknown>): ToolResult => ({ content: [{ type: "text", text }], structuredContent: structured });

/**
 * Runs a tool's body: a MemoryError (a bad argument, an unknown id, a text too large) is the
 * tool's answer with `isError`; anything else is logged on stderr and reported the same way, and
 * the server keeps serving.
 */
export async function guarded(ctx: McpContext, tool: string, body: () => ToolResult | Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (err) {
    const e = err as Error;
    if (!(err instanceof MemoryError)) ctx.log(`${tool} failed: ${e.stack ?? e.message}`);
    const text = err instanceof MemoryError ? `mem ${tool}: ${err.code}: ${prose(e.message, 2_000)}` : `mem ${tool} failed: ${prose(e.message, 2_000)}`;
    return { content: [{ type: "text", text }], structuredContent: { error: { code: err instanceof MemoryError ? err.code : "internal", message: prose(e.message, 2_000) } }, isError: true };
  }
}
