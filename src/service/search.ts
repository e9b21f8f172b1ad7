import { staleChunks } from "../anchor/annotate.js";
import type { App } from "../app.js";
import { firstHealthy } from "../embed/chain.js";
import { salienceConfig } from "../memory/salience.js";
import { searchScope } from "../project/scope.js";
import { search, type Mode, type SearchContext, type SearchResult } from "../retrieve/search.js";
import { eventsOfChunks } from "../store/anchors.js";
import { reinforceChunks } from "../store/salience.js";
import type { Project } from "../project/identity.js";
import { MemoryError } from "./types.js";

/**
 * Search for every adapter: the hybrid search (BM25 + vectors, RRF, salience, the outdated
 * penalty) over a project and the user-global memory, results with ids, provenance and age; what
 * is shown is reinforced. Forgotten memories are never found (their chunks are gone).
 */
export interface SearchRequest {
  text: string;
  project: Project;
  k?: number;
  mode?: Mode;
  kinds?: string[];
  tags?: string[];
  since?: string;
  until?: string;
  /** Reinforce what is returned (default true: it is being shown). */
  reinforce?: boolean;
}

export interface Found extends SearchResult {
  /** "possibly outdated: …", or null. */
  stale: string | null;
  /** The memory's id for get, patch and forget: the captured event behind an event's chunk, else the chunk (a markdown memory). */
  memoryId: string;
}

/** What a long-running adapter (the daemon) lends the search: its chosen provider, its in-memory vector copy. */
export interface SearchHelpers {
  pickProvider?: SearchContext["pickProvider"];
  vectorSearch?: SearchContext["vectorSearch"];
}

export async function searchMemories(app: Pick<App, "db" | "config" | "vectors" | "providers" | "projectRoot">, req: SearchRequest, helpers: SearchHelpers = {}): Promise<{ results: Found[]; legs: string[]; warnings: string[] }> {
  if (typeof req.text !== "string" || req.text.trim() === "") throw new MemoryError("bad_argument", "query text must be a non-empty string");
  const k = req.k ?? app.config.query.k;
  if (!Number.isInteger(k) || k < 1 || k > 100) throw new MemoryError("bad_argument", "k must be an integer from 1 to 100");
  const q = app.config.query;
  const now = Date.now();
  let flags = new Map<string, { text: string; penalty: boolean }>();
  const ctx: SearchContext = { db: app.db, vectors: app.vectors, projectRoot: app.projectRoot, pickProvider: helpers.pickProvider ?? (async () => firstHealthy(await app.providers())), ...(helpers.vectorSearch ? { vectorSearch: helpers.vectorSearch } : {}) };
  const res = await search(ctx, {
    text: req.text.slice(0, 2_000),
    k,
    mode: req.mode ?? "hybrid",
    filters: { projects: searchScope(req.project, q.includeGlobal), ...(req.kinds ? { kinds: req.kinds } : {}), ...(req.tags ? { tags: req.tags } : {}), ...(req.since ? { since: req.since } : {}), ...(req.until ? { until: req.until } : {}) },
    candidates: Math.max(q.candidates, k),
    rrfK: q.rrfK,
    weights: q.weights,
    dedupeThreshold: q.dedupeThreshold,
    salience: { now, config: salienceConfig(app.config.salience), stale: (ids) => new Set([...(flags = staleChunks(app.db, ids, app.projectRoot, now))].filter(([, f]) => f.penalty).map(([id]) => id)) },
  });
  if (req.reinforce !== false) reinforceChunks(app.db, res.results.map((r) => r.id), now, salienceConfig(app.config.salience));
  const events = eventsOfChunks(app.db, res.results.map((r) => r.id));
  return { results: res.results.map((r) => ({ ...r, stale: flags.get(r.id)?.text ?? null, memoryId: events.get(r.id)?.event ?? r.id })), legs: res.legs, warnings: res.warnings };
}
