import { loadConfig, type Config } from "./config/config.js";
import { dataHome, homePaths, type HomePaths } from "./config/paths.js";
import { createProviders } from "./embed/chain.js";
import type { EmbeddingProvider } from "./embed/provider.js";
import { openDb, type Db } from "./store/db.js";
import type { VectorStore } from "./store/vectors.js";

/**
 * What every adapter (CLI, hooks, daemon) opens: data home, config, SQLite; LanceDB and the
 * embedding providers only when first asked for, since they are slow to load.
 */
export interface App {
  paths: HomePaths;
  config: Config;
  configWarnings: string[];
  db: Db;
  providers(): Promise<EmbeddingProvider[]>;
  vectors(): Promise<VectorStore>;
  /** Project id → root directory, when the project is path-based. */
  projectRoot(project: string): string | undefined;
  close(): Promise<void>;
}

export function openApp(env: NodeJS.ProcessEnv = process.env): App {
  const paths = homePaths(dataHome(env));
  const { config, warnings } = loadConfig(paths.config, env);
  const db = openDb(paths.sqlite);
  let providers: Promise<EmbeddingProvider[]> | undefined;
  let vectors: Promise<VectorStore> | undefined;
  return {
    paths,
    config,
    configWarnings: warnings,
    db,
    providers: () => (providers ??= createProviders(config)),
    vectors: () => (vectors ??= import("./store/vectors.js").then((m) => m.VectorStore.open(paths.lance))),
    projectRoot: (project) => (project.startsWith("/") || /^[A-Za-z]:[\\/]/.test(project) ? project : undefined),
    async close() {
      if (providers) for (const p of await providers.catch(() => [])) await p.close?.().catch(() => undefined);
      if (vectors) (await vectors.catch(() => undefined))?.close();
      db.close();
    },
  };
}
