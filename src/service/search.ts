import { staleChunks } from "../anchor/annotate.js";
import type { App } from "../app.js";
import { firstHealthy } from "../embed/chain.js";
import { salienceConfig } from "../memory/salience.js";
import type { FilesInPlay } from "../project/in-play.js";
import { searchScope } from "../project/scope.js";
import { search, type Mode, type SearchContext, type SearchOptions, type SearchResponse, type SearchResult } from "../retrieve/search.js";
import type { TierScope } from "../retrieve/filters.js";
import { coldSearch, type ColdAnswer } from "./cold.js";
import { eventsOfChunks } from "../store/anchors.js";
import type { Project } from "../project/identity.js";
import { othersProfiles } from "../tiers/profiles.js";
import { MemoryError } from "../util/memory-error.js";
import { resultSources } from "../team/view.js";

/**
 * Search for every adapter: the hybrid search (BM25 + vectors fused as query.fusion says, salience, the outdated
 * penalty) over a project and the user-global memory, results with ids, provenance and age; what
 * is shown is not reinforced (showing is not using). Forgotten memories are never found (their chunks are gone).
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
  /** A glob on the source path (as `mem query --path`). */
  path?: string;
  /** Which tiers (default warm: all but the cold tier). */
  tier?: TierScope;
  /** Every project, not `project` and the global one: the user's explicit choice (`--all-projects`, the explorer's "all"), never the model's. */
  allProjects?: boolean;
  /**
   * Also search what the warm search leaves out (src/service/cold.ts): the cold tier and the
   * project's git history. Their results come in `cold`, ranked after every warm result.
   */
  cold?: boolean;
  /** The files being worked on (src/project/in-play.ts): memories about them rank a little higher. */
  inPlay?: FilesInPlay;
  /**
   * For a model's search: leave out the profiles (`users/<id>/profile.md`) of anyone but this
   * user (every profile when the user is unknown), as the briefing and the prompt's memories do.
   */
  profilesOf?: { user: string | undefined };
  /** The BM25 leg's column weights and query rules (default: what ships); the benches' ablations change them. */
  bm25?: SearchOptions["bm25"];
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

export interface SearchAnswer {
  results: Found[];
  legs: string[];
  warnings: string[];
  /** How fusion weighed the legs, when both ran (`--explain`). */
  fusion?: SearchResponse["fusion"];
  /** With `cold`: the cold tier's results (after the warm ones), the commits, and the cold search's own warnings (also in `warnings`). */
  cold?: Omit<ColdAnswer, "results"> & { results: Found[] };
}

export async function searchMemories(app: Pick<App, "db" | "config" | "vectors" | "providers" | "projectRoot">, req: SearchRequest, helpers: SearchHelpers = {}): Promise<SearchAnswer> {
  if (typeof req.text !== "string" || req.text.trim() === "") throw new MemoryError("bad_argument", "query text must be a non-empty string");
  const k = req.k ?? app.config.query.k;
  if (!Number.isInteger(k) || k < 1 || k > 100) throw new MemoryError("bad_argument", "k must be an integer from 1 to 100");
  const q = app.config.query;
  const now = Date.now();
  const flags = new Map<string, { text: string; penalty: boolean }>();
  const ctx: SearchContext = { db: app.db, vectors: app.vectors, projectRoot: app.projectRoot, pickProvider: helpers.pickProvider ?? (async () => firstHealthy(await app.providers())), ...(helpers.vectorSearch ? { vectorSearch: helpers.vectorSearch } : {}) };
  const opts: SearchOptions = {
    text: req.text.slice(0, 2_000),
    k,
    mode: req.mode ?? "hybrid",
    filters: { ...(req.allProjects ? {} : { projects: searchScope(req.project, q.includeGlobal) }), ...(req.path ? { path: req.path } : {}), ...(req.tier ? { tier: req.tier } : {}), ...(req.kinds ? { kinds: req.kinds } : {}), ...(req.tags ? { tags: req.tags } : {}), ...(req.since ? { since: req.since } : {}), ...(req.until ? { until: req.until } : {}) },
    candidates: Math.max(q.candidates, k),
    rrfK: q.rrfK,
    fusion: q.fusion,
    weights: q.weights,
    dedupeThreshold: q.dedupeThreshold,
    ...(req.bm25 ? { bm25: req.bm25 } : {}),
    salience: {
      now,
      config: salienceConfig(app.config.salience),
      ...(req.inPlay ? { inPlay: req.inPlay } : {}),
      stale: (ids) => {
        const found = staleChunks(app.db, ids, app.projectRoot, now);
        for (const [id, f] of found) flags.set(id, f); // the warm search's and the cold tier's
        return new Set([...found].filter(([, f]) => f.penalty).map(([id]) => id));
      },
    },
  };
  // git starts first and runs while the searches do.
  const coldPending = req.cold ? coldSearch(ctx, opts, { root: req.project.root ?? app.projectRoot(req.project.id), config: app.config.cold }) : undefined;
  coldPending?.catch(() => undefined); // awaited below; never "unhandled" if the warm search throws first
  const res = await search(ctx, opts);
  if (req.profilesOf) {
    const others = othersProfiles(app.db, res.results.filter((r) => r.tier === "hot").map((r) => r.id), req.profilesOf.user);
    if (others.size > 0) res.results = res.results.filter((r) => !others.has(r.id));
  }
  const cold = await coldPending;
  // A local memory whose team record is among the results is shown once, as the record (src/team/view.ts).
  const sources = resultSources(app.db, [...res.results, ...(cold?.results ?? [])]);
  const once = (rs: SearchResult[]) => rs.filter((r) => !sources.get(r.id)?.hidden);
  res.results = once(res.results);
  if (cold) cold.results = once(cold.results);
  const shown = [...res.results, ...(cold?.results ?? [])].map((r) => r.id);
  const events = eventsOfChunks(app.db, shown);
  const found = (r: SearchResult): Found => ({ ...r, stale: flags.get(r.id)?.text ?? null, memoryId: events.get(r.id)?.event ?? r.id });
  const coldWarnings = cold?.warnings.filter((w) => !res.warnings.includes(w)) ?? [];
  return { results: res.results.map(found), legs: res.legs, ...(res.fusion ? { fusion: res.fusion } : {}), warnings: [...res.warnings, ...coldWarnings], ...(cold ? { cold: { results: cold.results.map(found), git: cold.git, warnings: coldWarnings } } : {}) };
}
