
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { realOr } from "../src/util/walls.cjs";
import type { Config } from "../src/config/config.js";
import type { EmbeddingProvider } from "../src/embed/provider.js";
import type { Project } from "../src/project/identity.js";
import { ChunkStore, } from "../src/store/chunks.js";
import type { Db } from "../src/store/db.js";
import { setMeta } from "../src/store/meta.js";
import { recordRoots } from "../src/store/roots.js";
import { VecState } from "../src/store/vec-state.js";
import type { VectorStore } from "../src/store/vectors.js";
import { clean, cleanText, } from "../src/redact/clean.cjs";
import { finishRun, startRun } from "../src/store/runs.js";
import { chunkCapturedEvents } from "./captured.js";
import { chunkedWith, chunkingKey, chunkingMetaKey } from "./chunking-key.js";
import type { VectorReport } from "./embed-step.js";
import { vectorPass } from "./vector-pass.js";
import { ownGitAt } from "../src/project/git-marker.js";
import { markDirsSeen, markRootIndexed, settledDirs, under } from "./root-state.js";
import { readSource } from "./read-source.js";
import { walkSources, } from "./sources.js";
import { chunksOf, sha } from "./file-chunks.js";

export interface IndexRequest {
  roots: string[];
  project: Project;
  /** Re-read and re-chunk every file, and rebuild this project's vectors. */
  full: boolean;
  /**
   * A root that is missing or holds no source file, and had none indexed from it before, is not
   * indexed nor recorded, and is named in the summary's `unmatched` (a typo must not pass for a
   * success). When no root is left, NoSourcesError is thrown before anything is stored.
   */
  requireFiles?: boolean;
}

export interface Unmatched {
  /** The root as given. */
  path: string;
  reason: string;
}

/** Every root given names nothing to index: a typo, or a directory with no markdown or event log in it. */
export class NoSourcesError extends Error {
  constructor(readonly roots: Unmatched[]) {
    super(roots.map((r) => `${r.path}: ${r.reason}`).join("; "));
  }
}

export interface IndexContext {
  db: Db;
  config: Config;
  providers: EmbeddingProvider[];
  vectors: () => Promise<VectorStore>;
  now?: () => number;
  warn?: (msg: string) => void;
  onProgress?: (phase: "scan" | "embed", done: number, total: number) => void;
}

export interface IndexSummary {
  project: string;
  files: { seen: number; indexed: number; unchanged: number; skipped: number; deleted: number };
  chunks: { added: number; removed: number; kept: number; total: number };
  /** Captured session events turned into chunks in this run. */
  events: number;
  vector: VectorReport;
  warnings: string[];
  /** Roots given that no longer exist (whatever was indexed from them has left the index). */
  missingRoots: string[];
  /** Roots given that name nothing to index (with `requireFiles`): not indexed, not recorded. */
  unmatched: Unmatched[];
  durationMs: number;
}

/** How long after a file's mtime another write may still carry the same mtime (coarse clocks: FAT 2 s, HFS+ 1 s, Linux a few ms). */
export const RACY_MS = 2_000;

/**
 * Whether a file's size and mtime alone prove it is what was indexed, without reading it. Only
 * when that mtime was already older than the read by `racyMs`: a file written within that
 * window of being read (a save right after an index run, on a coarse clock) may have changed
 * again under the same size and mtime, and is read and hashed once more. Pure.
 */
export function provablyUnchanged(recorded: { size: number; mtime_ms: number; indexed_at: number }, file: { size: number; mtimeMs: number }, racyMs = RACY_MS): boolean {
  return recorded.size === file.size && recorded.mtime_ms === file.mtimeMs && recorded.mtime_ms <= recorded.indexed_at - racyMs;
}


/**
 * Indexes `roots` into the project: text and BM25 first (one SQLite transaction per file, so an
 * interrupted run leaves both stores consistent), then the vector step for whatever chunks the
 * active model's table still lacks.
 */
export async function indexPaths(ctx: IndexContext, req: IndexRequest): Promise<IndexSummary> {
  const started = Date.now();
  const now = ctx.now ?? Date.now;
  const warnings: string[] = [];
  const warn = (m: string) => {
    warnings.push(m);
    ctx.warn?.(m);
  };
  const store = new ChunkStore(ctx.db);
  const project = req.project.id;
  const startedAt = now();
  const known = store.sourcesOf(project); // before this run: only these can be gone now
  const walked = walkSources(req.roots, ctx.config.index.ignore, { followExternalLinks: ctx.config.index.followExternalLinks });
  let roots = req.roots.map((r) => ({ given: r, exists: existsSync(r), path: cleanText(walkedRoot(r)) }));
  const found = new Set(walked.files.map((f) => cleanText(f.path) as string));
  const unmatched: Unmatched[] = [];
  if (req.requireFiles) {
    const empty = roots.filter((r) => ![...found].some((f) => under(f, r.path)) && !known.some((k) => under(k.path, r.path)));
    for (const r of empty) unmatched.push({ path: r.given, reason: unmatchedReason(r, walked.warnings) });
    if (empty.length === roots.length) throw new NoSourcesError(unmatched);
    roots = roots.filter((r) => !empty.includes(r));
  }
  const run = startRun(ctx.db, project, startedAt);
  recordRoots(ctx.db, project, roots.filter((r) => r.exists).map((r) => r.path), startedAt);
  // What the walk said about a root that matched nothing is in the summary; the caller reports that root as an error.
  const told = unmatched.flatMap((u) => [`${resolve(u.path)}: `, `${walkedRoot(u.path)}: `]);
  for (const w of walked.warnings) {
    if (told.some((t) => w.startsWith(t))) warnings.push(w);
    else warn(w);
  }
  const chunking = chunkingKey(ctx.config.index);
  // The repository whose record folders hold the team's records (none for a folder that is no repository).
  // A project named with --project (the background index, the watcher) is its git top level's path.
  const top = req.project.root ?? (isAbsolute(project) ? project : undefined);
  const repo = top !== undefined && ownGitAt(top) ? top : undefined;
  const before = chunkedWith(ctx.db, project);
  // Captured sessions (`session:<id>`) are chunked one event a chunk, whatever the settings: only files count.
  const rechunk = !req.full && before !== chunking && known.some((k) => !k.path.startsWith("session:"));
  if (rechunk) warn(`chunking changed since this project was last indexed (${before ?? "chunker 1"} → ${chunking}): every file is chunked again; chunks that come out the same keep their vectors`);
  const reread = req.full || rechunk;
  const files = { seen: walked.files.length, indexed: 0, unchanged: 0, skipped: 0, deleted: 0 };
  const chunks = { added: 0, removed: 0, kept: 0, total: 0 };

  walked.files.forEach((file, i) => {
    ctx.onProgress?.("scan", i, walked.files.length);
    const path = cleanText(file.path); // as stored: a secret in a file's name is not
    const existing = store.getSource(project, path);
    if (!reread && existing && provablyUnchanged(existing, file)) {
      files.unchanged++;
      return;
    }
    const read = readSource(file.path, ctx.config.index.maxFileBytes, file.wall); // still inside its wall when read
    if (!read.ok) {
      files.skipped++;
      warn(`${file.path}: ${read.reason}; skipped${existing ? " (its previously indexed chunks are kept)" : ""}`);
      return;
    }
    const hash = sha(read.text);
    if (!reread && existing && existing.content_hash === hash) {
      store.touchSource(existing.id, file.size, file.mtimeMs, now());
      files.unchanged++;
      return;
    }
    const parsed = chunksOf(file, read.text, project, ctx.config, warn, repo);
    const r = store.replaceSource(
      clean({ project, path, kind: file.kind, tier: parsed.tier, size: file.size, mtimeMs: file.mtimeMs, hash, metadata: parsed.metadata }),
      parsed.chunks,
      now(),
    );
    files.indexed++;
    chunks.added += r.added;
    chunks.removed += r.removed;
    chunks.kept += r.kept;
  });
  ctx.onProgress?.("scan", walked.files.length, walked.files.length);
  setMeta(ctx.db, chunkingMetaKey(project), cleanText(chunking));

  // Files that were indexed under these roots and are gone now (or newly ignored) leave both stores.
  for (const src of known) {
    if (!found.has(src.path) && roots.some((r) => under(src.path, r.path))) {
      chunks.removed += store.deleteSource(src.id);
      files.deleted++;
    }
  }
  for (const r of roots) {
    if (!r.exists) continue;
    markRootIndexed(ctx.db, project, r.path, startedAt);
    markDirsSeen(ctx.db, project, r.path, settledDirs(walked.dirs, r.path, startedAt));
  }
  // Events the capture hooks stored become chunks too (the daemon does this between runs).
  const captured = chunkCapturedEvents(ctx.db, store, project, now());
  chunks.total = store.countChunks(project);

  // The vectors, then how far fusion may trust this model's leg here (indexer/vector-pass.ts).
  const vector = await vectorPass({
    db: ctx.db,
    project,
    providers: ctx.providers,
    state: new VecState(ctx.db),
    vectors: ctx.vectors,
    batchSize: ctx.config.embedding.batchSize,
    concurrency: ctx.config.embedding.concurrency,
    full: req.full,
    now,
    warn,
    ...(ctx.onProgress ? { onProgress: (d: number, t: number) => ctx.onProgress!("embed", d, t) } : {}),
  });
  const missingRoots = roots.filter((r) => !r.exists).map((r) => r.given);
  const summary: IndexSummary = { project, files, chunks, events: captured, vector, warnings, missingRoots, unmatched, durationMs: Date.now() - started };
  finishRun(ctx.db, run, vector.status === "ok" ? "ok" : "vector-skipped", clean({ files, chunks, vector: { ...vector } }), now());
  return summary;
}

/** Why a root matched no file: it is missing, the walk said why (a FIFO, another kind of file), or it holds none. */
function unmatchedReason(r: { given: string; exists: boolean; path: string }, warnings: string[]): string {
  if (!r.exists) return "no such file or directory";
  const said = warnings.find((w) => w.startsWith(`${resolve(r.given)}: `) || w.startsWith(`${r.path}: `));
  if (said) return said.slice(said.indexOf(": ") + 2).replace(/; skipped$/, "");
  return "no markdown (.md, .mdx) or event log (.jsonl) file there";
}

function walkedRoot(r: string): string {
  return realOr(resolve(r));
}
