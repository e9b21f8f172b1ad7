/**
 * What every tool of `mem mcp` shares: the store opened once, the memory service over it, the
 * project a call is about, a cached provider pick, and the one way a tool answers (text for the
 * model plus structured content) or fails (`isError` with the service's message).
 */
import { resolve } from "node:path";
import { z } from "zod";
import type { App } from "../app.js";
import { firstHealthy, type Selected, type Unhealthy } from "../embed/chain.js";
import type { Project } from "../project/identity.js";
import { projectFromArg, projectToStoreIn } from "../project/scope.js";
import { prose } from "../render/line.js";
import { MemoryService } from "../service/memory.js";
import { MemoryError } from "../service/types.js";

export interface McpContext {
  app: App;
  service: MemoryService;
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
export function mcpContext(open: () => App, env: NodeJS.ProcessEnv, log: (line: string) => void, now: () => number = Date.now): McpContext & { opened(): App | undefined } {
  let app: App | undefined;
  let service: MemoryService | undefined;
  let picked: Promise<{ selected?: Selected; unhealthy: Unhealthy[] }> | undefined;
  let pickedAt = 0;
  const ctx = {
    get app() {
      return (app ??= open());
    },
    get service() {
      const a = ctx.app;
      return (service ??= new MemoryService({ db: a.db, config: a.config, projectRoot: a.projectRoot, now }));
    },
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

/** The arguments every project-scoped tool takes. */
export const projectArgs = {
  project: z.string().min(1).max(4096).optional().describe("The project: a path, a stored project id, or a project's directory name. Default: the project Claude Code runs in."),
  cwd: z.string().min(1).max(4096).optional().describe("A directory whose project (its git top level) is meant; default: the session's project directory."),
};

/** For the tools that store: `project` may name a project nothing is stored under only with this. */
export const newProjectArg = {
  newProject: z.boolean().optional().describe("Start the project `project` names when nothing is stored under that name yet (without it such a name is refused as a likely typo)."),
};

/** `--since`-style dates: 2026-11-01 or a full ISO time. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, "a date like 2026-11-01 or an ISO time")
  .refine((s) => !Number.isNaN(Date.parse(s)), "not a valid date");

/**
 * The project a call is about: `project` (a path, stored id or name) or `cwd`'s, else that of the
 * directory Claude Code started the server for (`CLAUDE_PROJECT_DIR`), else the server's cwd.
 * `storing`: for a call that stores, a bare name nothing is stored under is refused (projectToStoreIn).
 */
export function projectOf(ctx: McpContext, args: { project?: string | undefined; cwd?: string | undefined; newProject?: boolean | undefined }, storing = false): Project {
  const base = args.cwd !== undefined ? resolve(args.cwd) : ctx.env.CLAUDE_PROJECT_DIR || process.cwd();
  return storing ? projectToStoreIn(ctx.app.db, args.project, base, { create: args.newProject === true, how: "pass newProject: true" }) : projectFromArg(ctx.app.db, args.project, base);
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
