/**
 * What every view of the explorer reads through: the app (stores, config, providers), the explicit
 * memory service (the CLI's and MCP's: same validation, redaction and durability), and the project
 * `mem ui` was started for. A view shows another project only when the address names it (the
 * user's own choice, as `--project` is at the CLI).
 */
import { join } from "node:path";
import { VECTOR_ROWS_DIR } from "../config/paths.cjs";
import type { App } from "../app.js";
import { pickEvery, type Selected, type Unhealthy } from "../embed/chain.js";
import type { Project } from "../project/identity.js";
import { projectFromArg } from "../project/scope.js";
import { MemoryService } from "../service/memory.js";
import type { SearchContext } from "../retrieve/search.js";
import { VectorCopies } from "../retrieve/vector-copies.js";
import { VecState } from "../store/vec-state.js";

export interface UiContext {
  app: App;
  svc: MemoryService;
  /** The project `mem ui` was started for (its directory's, or `--project`). */
  home: Project;
  /** The directory project arguments are resolved against. */
  cwd: string;
  now: () => number;
  /** The first healthy embedding provider, asked once a minute at most (as the daemon does). */
  pickProvider: () => Promise<{ selected?: Selected; unhealthy: Unhealthy[] }>;
  /** The vector leg from copies of the tables held in memory, as the daemon holds them (LanceDB answers until a copy is loaded). */
  vectorSearch: NonNullable<SearchContext["vectorSearch"]>;
  /** The copies held now (the health page; a benchmark waits for them). */
  heldVectors: () => ReturnType<VectorCopies["status"]>;
  /** Lets go of the copies. */
  close(): Promise<void>;
}

export function uiContext(app: App, home: Project, cwd: string, now: () => number = Date.now, log: (line: string) => void = () => undefined): UiContext {
  const pickProvider = pickEvery(() => app.providers(), now);
  const copies = new VectorCopies({ state: new VecState(app.db), vectors: app.vectors, config: app.config.daemon, log, rowsDir: join(app.paths.home, VECTOR_ROWS_DIR) });
  return { app, svc: new MemoryService({ db: app.db, config: app.config, projectRoot: app.projectRoot }), home, cwd, now, pickProvider, vectorSearch: copies.search, heldVectors: () => copies.status(), close: () => copies.close() };
}

/** The project an address names (`?project=`), else the one `mem ui` was started for. */
export function projectOf(ctx: UiContext, q: URLSearchParams): Project {
  const p = q.get("project");
  return p === null || p.trim() === "" ? ctx.home : projectFromArg(ctx.app.db, p, ctx.cwd, ctx.app.config.project.enclosing);
}
