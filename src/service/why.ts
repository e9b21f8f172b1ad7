/**
 * `mem why` over an opened app: the prompt hook's own search, floor, selection and budget in this
 * process, for a prompt typed in a directory, with nothing recorded. The CLI (`mem why`) and the
 * explorer (its legs page) both ask it so.
 */
import type { App } from "../app.js";
import type { PromptContext } from "../inject/for-prompt.js";
import { explainPrompt, type WhyReport } from "../inject/why.js";
import { gitChangedFiles } from "../project/in-play.js";
import { resolveProject } from "../project/identity.js";
import { currentUserId } from "../tiers/user.js";
import { NO_MODEL_LINE } from "../retrieve/warnings.js";

export interface WhyAsk {
  prompt: string;
  /** The directory the prompt is typed in. */
  cwd: string;
  /** The project to search by its stored id (wins over `cwd`'s). */
  project?: string;
  /** The session asked about; undefined: a fresh one (nothing shown yet). */
  session?: string;
}

/**
 * The hook's context: the app's stores, the provider the caller picks with, this user, and the
 * files git sees changed in the project (bounded; none outside a repository), as the daemon keeps them.
 */
export async function whyContext(app: App, pickProvider: PromptContext["pickProvider"], dir: string | undefined, vectorSearch?: PromptContext["vectorSearch"]): Promise<PromptContext> {
  const root = dir === undefined ? undefined : resolveProject(dir).root;
  const changed = root ? await gitChangedFiles(root) : [];
  return { db: app.db, config: app.config, vectors: app.vectors, pickProvider, projectRoot: app.projectRoot, user: currentUserId(process.env, app.config.tiers.user), gitChanges: () => changed, ...(vectorSearch ? { vectorSearch } : {}) };
}

/** What the hook would inject for a prompt and why; nothing is recorded (no injection, no use). */
export async function whyPrompt(app: App, pickProvider: PromptContext["pickProvider"], a: WhyAsk, session: string, vectorSearch?: PromptContext["vectorSearch"]): Promise<WhyReport> {
  const dir = a.project !== undefined ? (app.projectRoot(a.project) ?? a.cwd) : a.cwd;
  const ctx = await whyContext(app, pickProvider, dir, vectorSearch);
  return explainPrompt(ctx, { prompt: a.prompt, cwd: a.cwd, session, ...(a.project !== undefined ? { project: a.project } : {}) }, { vectorBudgetMs: null, fresh: a.session === undefined });
}

/** Where the vectors came from (`inMemory`: a copy of the table held in memory, as `mem ui` and the daemon hold it), or why there were none. */
export async function vectorNote(r: WhyReport, configured: boolean, pick: PromptContext["pickProvider"], inMemory = false): Promise<string> {
  if (r.legs.includes("vector")) return inMemory ? "vectors from this process's in-memory copy of the vector table, as the daemon searches it" : "vectors from LanceDB in this process; the daemon searches its copy of the same table in memory";
  if (!configured) return "no embedding model configured: BM25 only, as the daemon";
  if (r.mode === "bm25") return (await pick()).unhealthy.length > 0 ? NO_MODEL_LINE : "BM25 only, as the daemon";
  return "the vector leg did not run: see the warning";
}
