import { appWith, loadAppConfig, type App, type AppConfig } from "../app.js";
import { createProviders } from "../embed/chain.js";
import type { EmbeddingProvider } from "../embed/provider.js";
import { checkSqlite, scanVectorTables } from "../maintenance/health.js";
import { openDb } from "../store/db.js";
import { drift } from "../store/derived.js";
import { StoreDamagedError } from "../store/damage.js";
import { VecState } from "../store/vec-state.js";
import { VectorStore } from "../store/vectors.js";
import { hookChecks, promptViaMcp } from "../health/hooks.js";
import { assistantChecks, assistantWiring, lastEvents } from "../health/assistants.js";
import { mcpChecks } from "./doctor-mcp.js";
import { socketDirCheck } from "../health/socket.js";
import { daemonCheck, seeDaemon } from "../health/daemon.js";
import { lostCheck, redactionCheck, storeIdentityChecks } from "../health/store.js";
import { configWarningChecks, homeCheck } from "../health/home.js";
import { providerChecks, type ProviderHealth } from "../health/providers.js";
import { spoolChecks } from "../health/spool.js";
import type { Check } from "../health/check.js";
import { EXIT, parse, UsageError } from "./args.js";
import { isQuiet } from "./quiet.js";
import { recordChoice, type SearchChoice } from "../config/choice.js";
import type { Command } from "./command.js";
import { field, safeJson, visible } from "../render/line.js";

const usage = `Usage: mem doctor [--repair] [--json] [-q]
       mem doctor --bm25-only | --use-vectors

Checks the data home, SQLite + FTS5, every row of every LanceDB table, each embedding provider,
mem's hooks in the Claude Code settings files (user, project and local scope, seen from here)
and mem's MCP server (registered in a scope, and answering initialize and tools/list when
started), the other assistants wired with \`mem install --for\` (Codex CLI, Gemini CLI, Copilot
CLI: hooks and MCP server per scope, and when a hook of each last fired), and says how to fix
what is wrong. The running daemon's memory (RSS, V8 heap, the vector copies it holds) is shown,
with a warning over daemon.rssWarnMB (1536 MB). Exit 1 when something needs fixing (an unreachable
provider is a warning: search still works from BM25).

A store its identity (mem.identity.json) says was lost (missing, truncated, replaced, emptied) is
reported with the newest snapshot to restore (\`mem restore\`); the snapshots kept are listed.

Options:
  --repair     repair a damaged store: keep a copy of the damaged files in <home>/backup-<time>/,
               salvage what SQLite can still read (captured events, sessions, indexed roots),
               re-index the markdown from disk, rebuild the vectors; says what was recovered and
               what was lost. Stops the daemon first. A healthy store is left as it is; a lost
               one too (nothing is left to salvage): it points at \`mem restore\`.
  --bm25-only  record in config.json that you want BM25 (word matching) only, no embedding
               model (embedding.order: []): doctor, index, query and reindex stop asking for one
  --use-vectors  undo --bm25-only: the default providers (Ollama, then transformers.js) again
  --json       {"ok", "checks": [{"name", "status": "ok"|"warn"|"error", "detail", "fix"?}],
               "assistants": [{"assistant", "scope", "hooks", "events", "expected", "mcp", "lastEvent"}],
               "daemon": {"pid", "rss", "heapUsed", "vectorBytes", "vectorFileBytes"?} (bytes) | null}
               (with --repair: the repair report; --bm25-only, --use-vectors: {"config", "changed", "choice"})
  -q, --quiet  only the checks that are not ok
  -h, --help   this help`;

/** How long doctor waits for the daemon's status. */
const DAEMON_BUDGET_MS = 1_000;

export const REPAIR_FIX = "`mem doctor --repair` (keeps a copy of the damaged files, salvages what is readable, rebuilds the rest)";

/** Where the derived stores disagree with the truth (events and memories): a rebuild puts them right. */
function driftCheck(db: App["db"]): Check {
  const d = drift(db);
  const parts = [
    d.lostChunks ? `${d.lostChunks} memories with no chunk` : "",
    d.strayChunks ? `${d.strayChunks} chunks of memories gone or forgotten` : "",
    d.strayVectors ? `${d.strayVectors} vector rows of chunks gone` : "",
  ].filter(Boolean);
  if (parts.length > 0) return { name: "drift", status: "warn", detail: `the stores disagree: ${parts.join(", ")}`, fix: "run `mem rebuild` (or `mem index`, which catches up on vectors)" };
  return { name: "drift", status: "ok", detail: `chunks and vectors follow the memories${d.unchunked ? ` (${d.unchunked} captured just now wait for the daemon or the next \`mem index\`)` : ""}` };
}

function sqliteChecks(app: App): Check[] {
  const h = checkSqlite(app.db);
  if (h.status === "damaged") return [{ name: "sqlite", status: "error", detail: `${app.paths.sqlite} is damaged: ${h.reason}`, fix: REPAIR_FIX }];
  const mode = app.db.pragma("journal_mode", { simple: true });
  const events = app.db.prepare("SELECT count(*) FROM events").pluck().get() as number;
  return [
    { name: "sqlite", status: "ok", detail: `${app.paths.sqlite} (journal ${mode})` },
    h.ftsProblem
      ? { name: "fts5", status: "error", detail: h.ftsProblem, fix: `${REPAIR_FIX}, or \`mem index --full\` to rebuild the text index` }
      : { name: "fts5", status: "ok", detail: `BM25 index consistent (${h.chunks} chunks)` },
    driftCheck(app.db),
    redactionCheck(app.db),
    ...storeIdentityChecks(app.paths.sqlite, events),
  ];
}

/** Every row of every vector table is read; `app` is undefined when SQLite is damaged (nothing recorded to compare with). */
async function lanceChecks(paths: AppConfig["paths"], app: App | undefined): Promise<Check[]> {
  const state = app ? new VecState(app.db) : undefined;
  let store: VectorStore;
  try {
    store = app ? await app.vectors() : await VectorStore.open(paths.lance);
  } catch (err) {
    return [{ name: "lancedb", status: "error", detail: `cannot open ${paths.lance}: ${(err as Error).message}`, fix: "check the directory's permissions; `mem doctor --repair` rebuilds it" }];
  }
  try {
    const tables = await scanVectorTables(store, state?.tables(), (t) => state?.count(t) ?? 0);
    if (tables.length === 0) return [{ name: "lancedb", status: "ok", detail: `${paths.lance} (no vector tables yet)` }];
    return tables.map((t): Check => {
      const name = `lancedb ${t.name}`;
      const rec = state?.tables().find((r) => r.name === t.name);
      if (t.status === "missing") return { name, status: (t.recorded ?? 0) > 0 ? "error" : "warn", detail: `table is missing (${t.recorded ?? 0} vectors recorded)`, fix: "run `mem index` in any indexed project: it rebuilds the table with every project's vectors" };
      if (t.status === "damaged") return { name, status: "error", detail: `table is damaged: ${t.reason} (every row read in ${Math.round(t.ms)} ms)`, fix: `${REPAIR_FIX}; it moves the table into the backup and rebuilds it` };
      if (state && !rec) return { name, status: "warn", detail: `${t.rows} vectors SQLite does not record (a repaired or replaced store?)`, fix: "run `mem index`: rows of existing chunks are adopted, the others deleted" };
      if (t.recorded !== undefined && t.recorded !== t.rows) return { name, status: "warn", detail: `${t.rows} rows, ${t.recorded} recorded: out of sync (an interrupted run?)`, fix: "run `mem index` to reconcile" };
      return { name, status: "ok", detail: `${t.rows} vectors${rec ? `, ${rec.provider} ${rec.model}` : ""}${t.dims ? `, ${t.dims} dims` : ""}, every row read in ${Math.round(t.ms)} ms` };
    });
  } finally {
    if (!app) store.close();
  }
}

async function providerHealth(providers: EmbeddingProvider[], env: NodeJS.ProcessEnv, config: AppConfig["config"]): Promise<Check[]> {
  const asked: ProviderHealth[] = [];
  for (const p of providers) asked.push({ provider: p, health: await p.health() });
  return providerChecks(asked, providers.length, env, config);
}

export const doctorCommand: Command = {
  summary: "check the installation",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { json: { type: "boolean" }, repair: { type: "boolean" }, "bm25-only": { type: "boolean" }, "use-vectors": { type: "boolean" } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const picked = [values.repair && "--repair", values["bm25-only"] && "--bm25-only", values["use-vectors"] && "--use-vectors"].filter(Boolean);
    if (picked.length > 1) throw new UsageError(`${picked.join(" and ")} do not go together`);
    if (values["bm25-only"] || values["use-vectors"]) return choose(values["bm25-only"] ? "bm25-only" : "vectors", values.json === true);
    if (values.repair) return (await import("./doctor-repair.js")).runRepair(values.json === true);
    const base = loadAppConfig(process.env, { tolerateConfigErrors: true });
    // A damaged store is reported as a failed check; every other check still runs.
    let app: App | undefined;
    let damage: StoreDamagedError | undefined;
    let unopened: Error | undefined;
    try {
      app = appWith(base, openDb(base.paths.sqlite));
    } catch (err) {
      if (err instanceof StoreDamagedError) damage = err;
      else unopened = err as Error; // permissions, a file of another user's: reported, never a crash
    }
    const providers = app ? undefined : createProviders(base.config);
    try {
      const where = { env: process.env, cwd: process.cwd() };
      const checks: Check[] = [homeCheck(base, where.env)];
      if (base.configError) checks.push({ name: "config", status: "error", detail: `${base.configError} (the checks below use the defaults)`, fix: `fix or remove ${base.paths.config}` });
      checks.push(...configWarningChecks(base));
      if (damage?.kind === "lost") checks.push(lostCheck(base.paths.sqlite, damage));
      else if (damage) checks.push({ name: "sqlite", status: "error", detail: `${base.paths.sqlite} is damaged: ${damage.reason}; captures are not being saved`, fix: REPAIR_FIX });
      else if (unopened) checks.push({ name: "sqlite", status: "error", detail: `${base.paths.sqlite} cannot be opened: ${unopened.message}; captures are not being saved`, fix: `check the owner and mode of the data home and of mem.sqlite, mem.sqlite-wal and mem.sqlite-shm in it (they must be yours: \`ls -la ${base.paths.home}\`)` });
      else checks.push(...sqliteChecks(app!));
      checks.push(...(await lanceChecks(base.paths, app)), ...(await providerHealth(await (app ? app.providers() : providers!), where.env, base.config)), ...hookChecks(where), ...[socketDirCheck(where.env)].filter((c): c is Check => c !== undefined), ...spoolChecks(base.paths.home), ...(await mcpChecks(where, { promptHook: promptViaMcp(where) })));
      // Which coding assistants are wired here, and when each one's hooks last brought an event.
      const wiring = assistantWiring(where);
      const last = app ? lastEvents(app.db) : {};
      checks.push(...assistantChecks(wiring, last));
      const daemon = await seeDaemon(base.paths.home, DAEMON_BUDGET_MS);
      checks.push(daemonCheck(daemon, base.config.daemon.rssWarnMB, DAEMON_BUDGET_MS));
      const ok = !checks.some((c) => c.status === "error");
      const assistants = wiring.map((w) => ({ ...w, lastEvent: last[w.assistant] ?? null }));
      if (values.json) process.stdout.write(`${safeJson({ ok, checks, assistants, daemon: daemon.figures ?? null })}\n`);
      else {
        const mark = { ok: "ok  ", warn: "warn", error: "FAIL" } as const;
        // One line each, nothing a terminal takes for an escape (a detail can hold a path from MEM_HOME or a settings file).
        const line = (s: string) => visible(s.replace(/\r?\n/g, "\\n"));
        for (const c of checks) if (!isQuiet() || c.status !== "ok") process.stdout.write(`[${mark[c.status]}] ${line(c.name)}: ${line(c.detail)}${c.fix ? `\n       fix: ${line(c.fix)}` : ""}\n`);
      }
      return ok ? EXIT.ok : EXIT.failure;
    } finally {
      if (app) await app.close();
      else for (const p of await providers!.catch(() => [])) await p.close?.().catch(() => undefined);
    }
  },
};

/** `mem doctor --bm25-only` / `--use-vectors`: the choice recorded in config.json, said in one line. */
function choose(choice: SearchChoice, json: boolean): number {
  const base = loadAppConfig(process.env, { tolerateConfigErrors: true });
  const r = recordChoice(base.paths.config, choice);
  const env = process.env.MEM_EMBED_ORDER?.trim();
  // MEM_EMBED_ORDER wins over config.json: say so when it contradicts what was just recorded.
  const overridden = env ? (choice === "bm25-only" ? env !== "none" : env === "none") : false;
  if (json) {
    process.stdout.write(`${safeJson({ config: r.path, changed: r.changed, choice })}\n`);
    return EXIT.ok;
  }
  const said =
    choice === "bm25-only"
      ? `BM25 only, by your choice: recorded in ${r.path} (embedding.order: [])${r.changed ? "" : ", as it was already"}. Undo: \`mem doctor --use-vectors\``
      : `embedding models again (Ollama, then transformers.js): ${r.changed ? "embedding.order removed from" : "nothing to change in"} ${r.path}. \`mem doctor\` checks them; \`mem index\` adds the vectors`;
  process.stdout.write(`${said}\n`);
  if (overridden) process.stderr.write(`warning: MEM_EMBED_ORDER=${field(env!, 40)} is set and wins over config.json\n`);
  return EXIT.ok;
}
