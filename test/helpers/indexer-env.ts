import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { indexPaths, type IndexSummary } from "../../indexer/pipeline.js";
import { defaultConfig, type Config } from "../../src/config/config.js";
import type { EmbeddingProvider } from "../../src/embed/provider.js";
import type { Project } from "../../src/project/identity.js";
import type { ChunkRow, SourceRow } from "../../src/store/chunks.js";
import { openDb, type Db } from "../../src/store/db.js";
import { VecState } from "../../src/store/vec-state.js";
import { vectorTableName, VectorStore } from "../../src/store/vectors.js";
import { cleanText } from "../../src/redact/clean.cjs";

/**
 * A throw-away indexing environment for pipeline tests: a real temp directory, a real SQLite file
 * and a real LanceDB directory. Nothing of the stores is mocked.
 */
export interface IndexerEnv {
  /** Real path of the temp directory (symlink-free, so it matches the stored source paths). */
  readonly dir: string;
  readonly dbPath: string;
  readonly lanceDir: string;
  readonly db: Db;
  readonly config: Config;
  readonly state: VecState;
  /** The shared VectorStore (opened on first use, like the app does). */
  vectors(): Promise<VectorStore>;
  /** Closes the VectorStore so the next use opens a fresh connection (what a new `mem` process sees). */
  reopenVectors(): void;
  /** Writes a file under `dir` (creating folders), returns its absolute path. */
  write(rel: string, content: string | Buffer): string;
  /** Runs `indexPaths`; roots are relative to `dir` unless absolute. */
  run(opts: RunOptions): Promise<IndexSummary>;
  close(): Promise<void>;
}

export interface RunOptions {
  roots: string[];
  project?: string;
  full?: boolean;
  providers: EmbeddingProvider[];
  /** Replaces env.vectors for this run (e.g. to prove LanceDB is never opened). */
  vectors?: () => Promise<VectorStore>;
}

export function project(id: string): Project {
  return { id: cleanText(id), name: id, root: undefined };
}

export function makeEnv(tag: string, configure?: (c: Config) => void): IndexerEnv {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `mem-${tag}-`)));
  const dbPath = join(dir, "state", "mem.sqlite");
  const lanceDir = join(dir, "state", "lance");
  const db = openDb(dbPath);
  const config = defaultConfig();
  config.embedding.batchSize = 8;
  configure?.(config);
  let store: Promise<VectorStore> | undefined;
  let closed = false;
  const env: IndexerEnv = {
    dir,
    dbPath,
    lanceDir,
    db,
    config,
    state: new VecState(db),
    vectors: () => (store ??= VectorStore.open(lanceDir)),
    reopenVectors() {
      const old = store;
      store = undefined;
      void old?.then((s) => s.close()).catch(() => undefined);
    },
    write(rel, content) {
      const path = join(dir, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    run(o) {
      return indexPaths(
        { db, config, providers: o.providers, vectors: o.vectors ?? env.vectors },
        { roots: o.roots.map((r) => (r.startsWith("/") ? r : join(dir, r))), project: project(o.project ?? "p1"), full: o.full ?? false },
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      if (store) (await store.catch(() => undefined))?.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return env;
}

/** Bumps a file's mtime by `seconds` (so the size+mtime fast path cannot hide a change). */
export function bumpMtime(path: string, seconds = 5): void {
  const t = new Date(Date.now() + seconds * 1000);
  utimesSync(path, t, t);
}

export function chunkRows(db: Db, projectId: string): ChunkRow[] {
  return db.prepare("SELECT * FROM chunks WHERE project = ? ORDER BY path, seq").all(projectId) as ChunkRow[];
}

export function chunksOfPath(db: Db, projectId: string, path: string): ChunkRow[] {
  return db.prepare("SELECT * FROM chunks WHERE project = ? AND path = ? ORDER BY seq").all(projectId, path) as ChunkRow[];
}

export function sourceRows(db: Db, projectId: string): SourceRow[] {
  return db.prepare("SELECT * FROM sources WHERE project = ? ORDER BY path").all(projectId) as SourceRow[];
}

/** FTS5's own check that the full-text index matches the chunks table exactly (throws if not). */
export function assertFtsConsistent(db: Db): void {
  db.prepare("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')").run();
  db.prepare("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)").run();
}

/** Every row of a LanceDB table: id, project and vector (as plain numbers). */
export async function lanceRows(store: VectorStore, table: string): Promise<{ id: string; project: string; vector: number[] }[]> {
  const rows = (await (await store.table(table)).query().toArray()) as { id: string; project: string; vector: Iterable<number> }[];
  return rows.map((r) => ({ id: String(r.id), project: String(r.project), vector: Array.from(r.vector) }));
}

export function tableOf(p: { name: string; model: string; prefixes?: { query: string; document: string } }, dims: number): string {
  return vectorTableName(p, dims);
}

/**
 * The core consistency claim between the stores: the LanceDB table holds exactly the chunk ids
 * SQLite records for it (no duplicates, no strays), and (when `complete`) one for every chunk.
 */
export async function assertVectorsMatch(env: IndexerEnv, table: string, opts: { complete: boolean; projects?: string[] }): Promise<string[]> {
  const store = await env.vectors();
  const rows = await lanceRows(store, table);
  const ids = rows.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, `duplicate ids in LanceDB table ${table}`);
  const recorded = env.db.prepare("SELECT chunk_id FROM vec_rows WHERE table_name = ?").pluck().all(table) as string[];
  assert.deepEqual([...ids].sort(), [...recorded].sort(), `LanceDB table ${table} and vec_rows disagree`);
  assert.equal(await store.count(table), env.state.count(table));
  for (const r of rows) {
    const owner = env.db.prepare("SELECT project FROM chunks WHERE id = ?").pluck().get(r.id) as string | undefined;
    assert.equal(owner, r.project, `LanceDB row ${r.id} has no chunk of project ${r.project}`);
  }
  if (opts.complete) {
    const projects = opts.projects ?? [...new Set(rows.map((r) => r.project))];
    const all = projects.flatMap((p) => chunkRows(env.db, p).map((c) => c.id));
    assert.deepEqual([...ids].sort(), [...all].sort(), `LanceDB table ${table} does not hold exactly one vector per chunk`);
  }
  return ids;
}

/** A small tiered memory tree (markdown with frontmatter plus two event logs). */
export function writeMemoryTree(env: IndexerEnv, root = "mem"): void {
  env.write(`${root}/identity.md`, "---\ntitle: Who I am\ntags: [identity, profile]\ndate: 2026-01-05\n---\n# Identity\n\nI am the assistant of the zephyrine project. I prefer terse answers.\n");
  env.write(`${root}/state.md`, "---\nkind: Status\ntags: status, current\nupdated: 2026-02-01\n---\n# Current state\n\nWorking on the quokka migration this week.\n");
  env.write(`${root}/reference/x.md`, "# API reference\n\nThe flibbertigibbet endpoint returns JSON for every record it is asked about, one object a record, with its id, its owner, the time it last changed and the fields the caller named in the query string (all of them when it named none), sorted by id unless the caller asked for another order.\n\n## Errors\n\nIt answers 429 when throttled, with a Retry-After header that says how many seconds to wait, and 503 while the store behind it is being migrated; both are safe to retry after the wait it names. A malformed query string gets 400 with a JSON body naming the parameter at fault.\n");
  env.write(`${root}/sessions/y.md`, "---\ndate: 2026-03-10\ntags: [debugging]\n---\n# Session\n\nWe debugged the marmalade cache eviction.\n");
  env.write(`${root}/archive/z.md`, "# Old notes\n\nThe obsolete wombat service was retired.\n");
  env.write(
    `${root}/events/log.jsonl`,
    [
      JSON.stringify({ type: "decision", text: "Use the pelican queue for jobs", time: "2026-03-01T10:00:00Z", session: "s1", files: ["src/q.ts"], id: "ev-1" }),
      JSON.stringify({ type: "error", message: "Build broke on the narwhal step", ts: "2026-03-02T11:00:00Z" }),
      "",
    ].join("\n"),
  );
  env.write(`${root}/notes.events.jsonl`, `${JSON.stringify({ type: "note", summary: "Remember the okapi flag", time: "2026-03-03" })}\n`);
  // Not a source: a .jsonl outside events/ without the .events suffix, and a non-markdown file.
  env.write(`${root}/scratch.jsonl`, `${JSON.stringify({ type: "note", text: "should not be indexed: axolotl" })}\n`);
  env.write(`${root}/readme.txt`, "plain text axolotl\n");
}
