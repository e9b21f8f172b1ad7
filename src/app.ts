import { ConfigError, loadConfig } from "./config/load.js";
import { defaultConfig, type Config } from "./config/config.js";
import { dataHome, homePaths, type HomePaths } from "./config/paths.cjs";
import { createProviders } from "./embed/chain.js";
import type { EmbeddingProvider } from "./embed/provider.js";
import { openDb, type Db } from "./store/db.js";
import { noteWrites } from "./store/identity.js";
import type { VectorStore } from "./store/vectors.js";

/**
 * What every adapter (CLI, hooks, daemon) opens: data home, config, SQLite; LanceDB and the
 * embedding providers only when first asked for, since they are slow to load.
 */
export interface App {
  paths: HomePaths;
  config: Config;
  configWarnings: string[];
  /** Set (and defaults used) when the config was unusable and the caller asked to tolerate that. */
  configError?: string;
  db: Db;
  providers(): Promise<EmbeddingProvider[]>;
  vectors(): Promise<VectorStore>;
  /** Project id → root directory, when the project is path-based. */
  projectRoot(project: string): string | undefined;
  close(): Promise<void>;
}

/** The data home and the config, without opening any store (what `mem doctor` needs when the store is damaged). */
export interface AppConfig {
  paths: HomePaths;
  config: Config;
  configWarnings: string[];
  configError?: string;
}

export function loadAppConfig(env: NodeJS.ProcessEnv = process.env, opts: { tolerateConfigErrors?: boolean } = {}): AppConfig {
  const paths = homePaths(dataHome(env));
  try {
    const { config, warnings } = loadConfig(paths.config, env, paths.models);
    return { paths, config, configWarnings: warnings };
  } catch (err) {
    if (!(err instanceof ConfigError) || !opts.tolerateConfigErrors) throw err;
    let fallback: Config;
    try {
      fallback = loadConfig(`${paths.config}.absent`, env, paths.models).config; // defaults + environment
    } catch {
      fallback = defaultConfig(paths.models);
    }
    return { paths, config: fallback, configWarnings: [], configError: err.message };
  }
}

export function openApp(env: NodeJS.ProcessEnv = process.env, opts: { tolerateConfigErrors?: boolean; busyTimeoutMs?: number | undefined; deferHeavyMigrations?: boolean } = {}): App {
  const base = loadAppConfig(env, opts);
  return appWith(base, openDb(base.paths.sqlite, { ...(opts.busyTimeoutMs !== undefined ? { busyTimeoutMs: opts.busyTimeoutMs } : {}), ...(opts.deferHeavyMigrations ? { deferHeavyMigrations: true } : {}) }));
}

/** An App over an already opened store. */
export function appWith(base: AppConfig, db: Db): App {
  const { paths, config } = base;
  let providers: Promise<EmbeddingProvider[]> | undefined;
  let vectors: Promise<VectorStore> | undefined;
  return {
    paths,
    config,
    configWarnings: base.configWarnings,
    ...(base.configError !== undefined ? { configError: base.configError } : {}),
    db,
    providers: () => (providers ??= createProviders(config)),
    vectors: () => (vectors ??= import("./store/vectors.js").then((m) => m.VectorStore.open(paths.lance))),
    projectRoot: (project) => (project.startsWith("/") || /^[A-Za-z]:[\\/]/.test(project) ? project : undefined),
    async close() {
      if (providers) for (const p of await providers.catch(() => [])) await p.close?.().catch(() => undefined);
      if (vectors) (await vectors.catch(() => undefined))?.close();
      try {
        noteWrites(db, paths.sqlite); // the counts the next open checks the store against
      } catch {
        // the identity is kept current on a best-effort basis: a close never fails for it
      }
      db.close();
    },
  };
}
