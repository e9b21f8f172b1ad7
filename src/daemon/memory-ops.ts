import { sessionIn } from "../service/session-id.js";
import type { App } from "../app.js";
import type { Selected, Unhealthy } from "../embed/chain.js";
import { describeUnhealthy } from "../embed/chain.js";
import type { Project } from "../project/identity.js";
import { projectFromArg, projectToStoreIn } from "../project/scope.js";
import { cleanText, type Clean } from "../redact/clean.cjs";
import type { Mode, SearchContext } from "../retrieve/search.js";
import { isAbsolutePath } from "../util/absolute.cjs";
import { purgeEverywhere } from "../maintenance/purge.js";
import { forgetMemory, forgetProject, forgetSession } from "../service/forget.js";
import { MemoryService } from "../service/memory.js";
import { commitJson } from "../cold/render.js";
import { searchMemories, type Found } from "../service/search.js";
import { syncReport } from "../service/sync.js";
import { MemoryError } from "../util/memory-error.js";
import type { MemorySource } from "../service/types.js";
import { shown } from "../service/convert.js";
import { oneId } from "../store/one-id.js";
import { projectTexts } from "../store/purge-copy.js";
import { vectorTableName } from "../store/vector-table-name.js";

/**
 * The daemon's memory operations over the socket: put, get, list, search, patch, forget, sync.
 * Each calls the memory service and replies `{ok: true, ...}` or `{ok: false, error, code}` (the
 * MemoryError's code); a search result carries `memoryId`, what get, patch and forget take. A put is acknowledged once it is committed to SQLite (the service commits
 * before it returns); its vector follows in the background indexing, which takes the projects
 * written here (and every chunk the active table lacks, src/daemon/vector-backlog.ts). `sync` waits until a project's chunks all have their vectors, or says why not.
 */
export const MEMORY_OPS = new Set(["put", "get", "list", "search", "patch", "forget", "sync"]);

export interface OpsContext {
  app: App;
  pickProvider: () => Promise<{ selected?: Selected; unhealthy: Unhealthy[] }>;
  /** Starts the background indexing now (it takes `takeDirty()`). */
  kick: () => void;
  /** The daemon's in-memory vector search (LanceDB answers when it resolves to undefined). */
  vectorSearch?: SearchContext["vectorSearch"];
}

const SOURCES: readonly MemorySource[] = ["explicit", "tag", "keyword", "captured", "markdown"];
const MODES: readonly Mode[] = ["hybrid", "bm25", "vector"];
const DEFAULT_SYNC_MS = 10_000;
const MAX_SYNC_MS = 120_000;

const bad = (message: string) => new MemoryError("bad_argument", message);

function str(req: Record<string, unknown>, k: string): string | undefined {
  const v = req[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw bad(`${k} must be a string`);
  return v;
}

function strs(req: Record<string, unknown>, k: string): string[] | undefined {
  const v = req[k];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw bad(`${k} must be a list of strings`);
  return v as string[];
}

function num(req: Record<string, unknown>, k: string, min: number, max: number): number | undefined {
  const v = req[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) throw bad(`${k} must be an integer from ${min} to ${max}`);
  return v;
}

export class MemoryOps {
  private readonly svc: MemoryService;
  private readonly dirty = new Set<Clean<string>>();
  /** Why the vector step last skipped a project (cleared when it runs). */
  private readonly skipped = new Map<string, string>();

  constructor(private readonly ctx: OpsContext) {
    this.svc = new MemoryService({ db: ctx.app.db, config: ctx.app.config, projectRoot: ctx.app.projectRoot });
  }

  /** Projects written through the socket since the last call: their new chunks need vectors. */
  takeDirty(): Clean<string>[] {
    const out = [...this.dirty];
    this.dirty.clear();
    return out;
  }

  /** Projects taken whose vectors were put off (an index run held the tables): taken again next time. */
  keepDirty(projects: readonly Clean<string>[]): void {
    for (const p of projects) this.dirty.add(p);
  }

  /** What the background vector step did for a project (a skip's reason is what `sync` reports). */
  vectorStep(project: string, r: { status: "ok" | "skipped"; reason?: string }): void {
    if (r.status === "skipped") this.skipped.set(project, r.reason ?? "the vector step was skipped");
    else this.skipped.delete(project);
  }

  async answer(req: Record<string, unknown>): Promise<Record<string, unknown>> {
    try {
      return { ok: true, ...(await this.run(req)) };
    } catch (err) {
      if (err instanceof MemoryError) return { ok: false, error: err.message, code: err.code };
      throw err;
    }
  }

  /** The request's project: `project` (a path, a stored id or a directory name), else `cwd`'s. */
  private project(req: Record<string, unknown>, storing = false): Project {
    const project = str(req, "project");
    const cwd = str(req, "cwd");
    if (project === undefined && cwd === undefined) throw bad("project or cwd is required");
    if (cwd !== undefined && !isAbsolutePath(cwd)) throw bad("cwd must be an absolute path");
    if (project !== undefined && cwd === undefined && (project === "." || project === ".." || /^\.\.?[\\/]/.test(project))) throw bad("a relative project path needs cwd");
    return storing ? projectToStoreIn(this.ctx.app.db, project, cwd ?? "/", { enclosing: this.ctx.app.config.project.enclosing, create: req.newProject === true, how: 'send "newProject": true' }) : projectFromArg(this.ctx.app.db, project, cwd ?? "/", this.ctx.app.config.project.enclosing);
  }

  private touched(project: string): void {
    this.dirty.add(cleanText(project));
  }

  private async run(req: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { app } = this.ctx;
    switch (req.op) {
      case "put": {
        const session = str(req, "session");
        const key = str(req, "key");
        const r = this.svc.put({ text: req.text as string, project: this.project(req, true).id, ...(req.kind !== undefined ? { kind: req.kind as string } : {}), ...(req.tags !== undefined ? { tags: req.tags as string[] } : {}), ...(req.files !== undefined ? { files: req.files as string[] } : {}), ...(session ? { session } : {}), ...(key !== undefined ? { clientKey: key } : {}) });
        if (r.created || r.confirmed) this.touched(r.memory.project);
        return { memory: shown(r.memory), created: r.created, ...(r.confirmed ? { confirmed: true } : {}) };
      }
      case "get":
        return { memory: shown(this.svc.get(str(req, "id") ?? "", { history: req.history === true })) };
      case "list": {
        const project = this.project(req).id;
        const sources = strs(req, "sources");
        const bad_ = sources?.find((s) => !(SOURCES as readonly string[]).includes(s));
        if (bad_ !== undefined) throw bad(`sources must be among ${SOURCES.join(", ")}, got ${JSON.stringify(bad_)}`);
        const [kinds, tags, session, since, until, text] = [strs(req, "kinds"), strs(req, "tags"), str(req, "session"), str(req, "since"), str(req, "until"), str(req, "text")];
        const limit = num(req, "limit", 1, 1000);
        const offset = num(req, "offset", 0, Number.MAX_SAFE_INTEGER);
        const r = this.svc.list({ project, ...(kinds ? { kinds } : {}), ...(tags ? { tags } : {}), ...(sources ? { sources: sources as MemorySource[] } : {}), ...(session ? { session } : {}), ...(since ? { since } : {}), ...(until ? { until } : {}), ...(text ? { text } : {}), ...(limit !== undefined ? { limit } : {}), ...(offset !== undefined ? { offset } : {}) });
        return { project, total: r.total, memories: r.memories.map(shown) };
      }
      case "search": {
        const mode = str(req, "mode");
        if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) throw bad(`mode must be one of ${MODES.join(", ")}`);
        const [kinds, tags, since, until] = [strs(req, "kinds"), strs(req, "tags"), str(req, "since"), str(req, "until")];
        const k = num(req, "k", 1, 100);
        const r = await searchMemories(app, { text: req.text as string, project: this.project(req), ...(k ? { k } : {}), ...(mode ? { mode: mode as Mode } : {}), ...(kinds ? { kinds } : {}), ...(tags ? { tags } : {}), ...(since ? { since } : {}), ...(until ? { until } : {}), ...(req.cold === true ? { cold: true } : {}) }, { pickProvider: this.ctx.pickProvider, ...(this.ctx.vectorSearch ? { vectorSearch: this.ctx.vectorSearch } : {}) });
        // Each result by its one id (src/store/one-id.ts), the id get, patch and forget take; `memoryId`, the same, for earlier readers.
        const withIds = (xs: Found[]) => xs.map((x) => ({ ...x, id: oneId(x.id), duplicates: x.duplicates.map(oneId), memoryId: oneId(x.id) }));
        // With cold: the cold tier's results, then the commits (rendered as `mem query --json` prints them), after the warm ones.
        const cold = r.cold ? { cold: { results: [...withIds(r.cold.results).map((x) => ({ cold: "tier", ...x })), ...r.cold.git.commits.map(commitJson)], git: { status: r.cold.git.status, terms: r.cold.git.terms, shallow: r.cold.git.shallow } } } : {};
        return { results: withIds(r.results), legs: r.legs, warnings: r.warnings, ...cold };
      }
      case "patch": {
        const m = this.svc.patch(str(req, "id") ?? "", { ...(req.text !== undefined ? { text: req.text as string } : {}), ...(req.kind !== undefined ? { kind: req.kind as string } : {}), ...(req.tags !== undefined ? { tags: req.tags as string[] } : {}) });
        this.touched(m.project);
        return { memory: shown(m) };
      }
      case "forget":
        return this.forget(req);
      case "sync":
        return { ...(await this.sync(this.project(req), num(req, "timeoutMs", 0, MAX_SYNC_MS) ?? DEFAULT_SYNC_MS)) };
      default:
        throw bad(`unknown op ${JSON.stringify(req.op)}`);
    }
  }

  private async forget(req: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { app } = this.ctx;
    const now = Date.now();
    const id = str(req, "id");
    const session = str(req, "session");
    const whole = req.wholeProject === true;
    let purging = req.purge === true;
    const scope: { projects: string[]; sessions: { project: string; session: string }[]; texts: string[] } = { projects: [], sessions: [], texts: [] };
    if ([id !== undefined, session !== undefined, whole].filter(Boolean).length > 1) throw bad("give one of id, session or wholeProject");
    if (id === undefined && session === undefined && !whole && !purging) throw bad("forget needs an id, a session, wholeProject: true or purge: true");
    const out: Record<string, unknown> = {};
    if (id !== undefined) out.forgotten = forgetMemory(app.db, this.svc, id, now);
    else if (session !== undefined) {
      const project = this.project(req).id;
      const stored = sessionIn(app.db, project, session); // the whole id, the short form shown, or a unique start
      out.forgotten = { project, session: stored, memories: forgetSession(app.db, project, stored, now) };
      scope.sessions.push({ project, session: stored });
    } else if (whole) {
      const project = this.project(req).id;
      scope.texts.push(...projectTexts(app.db, project));
      out.forgotten = { project, ...forgetProject(app.db, project, now) };
      scope.projects.push(project);
      purging = true; // a project forgotten whole is purged at once, as `mem forget --project` does
    }
    if (purging) {
      const { ms: _ms, ...r } = await purgeEverywhere(app, scope, now);
      out.purged = r;
    }
    return out;
  }

  /** Waits (at most `timeoutMs`) until every chunk of the project has its vector in the active table. */
  private async sync(project: Project, timeoutMs: number): Promise<Record<string, unknown>> {
    const p = await this.ctx.pickProvider();
    if (!p.selected) return { ...syncReport(this.ctx.app, project.id, undefined, undefined, describeUnhealthy(p.unhealthy)) };
    const { provider, dims } = p.selected;
    const table = vectorTableName(provider, dims);
    const name = `${provider.name} ${provider.model}`;
    const deadline = Date.now() + timeoutMs;
    let report = syncReport(this.ctx.app, project.id, table, name);
    if (report.done) return { ...report };
    this.touched(project.id);
    this.ctx.kick();
    for (;;) {
      await new Promise((r) => setTimeout(r, Math.max(0, Math.min(100, deadline - Date.now()))));
      report = syncReport(this.ctx.app, project.id, table, name, this.skipped.get(project.id));
      if (report.done || Date.now() >= deadline) return { ...report };
    }
  }
}
