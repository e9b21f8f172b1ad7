import { describeUnhealthy, type Selected, type Unhealthy } from "../embed/chain.js";
import { VECTOR_LEG_SKIPPED } from "./warnings.js";
import { ChunkStore, type ChunkRow } from "../store/chunks.js";
import { prepared } from "../store/statements.js";
import { withDeadline } from "../util/deadline.js";
import type { Db } from "../store/db.js";
import { VecState } from "../store/vec-state.js";
import { vectorTableName } from "../store/vector-table-name.js";
import type { VectorHit, VectorStore } from "../store/vectors.js";
import { bm25Leg, type Bm25Weights } from "./bm25.js";
import type { QueryRules } from "./query-rules.js";
import { foldConvergent } from "./convergent.js";
import { collapseNearDuplicates } from "./dedupe.js";
import { needsPostFilter, pathFilter, sqlWhere, vectorFetch, type Filters } from "./filters.js";
import { rootsOf } from "../store/roots.js";
import { leadShare, type Fused, type Leg, type LegHit, type LegRank } from "./rrf.js";
import { centred, fuse, fuseBy, queryTrust, spread, standout, type FusionMethod, type FusionReport } from "./fusion.js";
import { calibrationsOf, hubsOf } from "../store/fusion-calibration.js";
import { rankBySalience, type Ranked, type SalienceInputs } from "./salience-rank.js";
import { subjectOfChunk } from "../memory/subject.js";
import type { SalienceConfig } from "../memory/salience.js";
import { usesOf } from "../store/salience.js";
import type { FilesInPlay } from "../project/in-play.js";
import { aboutFilesInPlay } from "./in-play.js";
import { weakLast } from "./weak-hits.js";

export type Mode = "hybrid" | "bm25" | "vector";

export interface SearchOptions {
  text: string;
  k: number;
  mode: Mode;
  filters: Filters;
  candidates: number;
  rrfK: number;
  /** How the legs are combined when both ran (`query.fusion`; default "calibrated"). */
  fusion?: FusionMethod;
  weights: { bm25: number; vector: number };
  dedupeThreshold: number;
  /**
   * Count how many chunks in scope have vectors and warn when some lack them. Default true; the
   * prompt hook has no use for the warning and skips the counting.
   */
  checkCoverage?: boolean;
  /**
   * Ranks fused results by effective salience too (src/retrieve/salience-rank.ts): the clock and the
   * model's configuration; `stale` says which of the candidates (chunk ids) are about files that
   * changed since; `inPlay` the files being worked on (src/project/in-play.ts). Without it, the
   * fused order stands.
   */
  salience?: { now: number; config: SalienceConfig; stale?: (candidates: readonly string[]) => ReadonlySet<string>; inPlay?: FilesInPlay; session?: string };
  /**
   * How long the vector leg may take, from the start of the search; past it the answer comes from
   * BM25 alone, with a warning (the prompt hook's daemon: a slow or busy embedder must not cost
   * the prompt its memories). Default: no limit.
   */
  vectorBudgetMs?: number;
  /** The BM25 leg's column weights and query rules (default: what ships, ./bm25.ts and ./query-rules.ts); the benches' ablations change them. */
  bm25?: { weights?: Bm25Weights; rules?: QueryRules };
}

export interface SearchContext {
  db: Db;
  /** The embedding provider to query with (first healthy in the chain); callers memoise it. */
  pickProvider: () => Promise<{ selected?: Selected; unhealthy: Unhealthy[] }>;
  vectors: () => Promise<VectorStore>;
  /** Project id → root directory, for relative paths and path globs. */
  projectRoot: (project: string) => string | undefined;
  /**
   * Replaces the LanceDB vector search (the daemon searches an in-memory copy). Resolving to
   * undefined lets LanceDB answer.
   */
  vectorSearch?: (table: string, dims: number, vector: Float32Array, projects: string[] | undefined, limit: number) => Promise<VectorHit[] | undefined>;
}

export interface SearchResult {
  id: string;
  text: string;
  path: string;
  startLine: number;
  endLine: number;
  headingPath: string[];
  project: string;
  kind: string;
  tier: string | null;
  tags: string[];
  date: string | null;
  score: number;
  legs: { bm25?: LegRank; vector?: LegRank };
  /** Ids of near-duplicate chunks collapsed into this one. */
  duplicates: string[];
  /** BM25 alone found it, under a thousandth of the best BM25 score: ranked after the others (src/retrieve/weak-hits.ts). */
  weak?: true;
  /** How the priors moved the fused score (when the search ranked by them): `score` = fused (`rrf`) + a shift within ± 0.1 (src/retrieve/salience-rank.ts). */
  salience?: Ranked["salience"] & { rrf: number };
}

export interface SearchResponse {
  results: SearchResult[];
  /** The legs that actually ran. */
  legs: ("bm25" | "vector")[];
  vector?: { provider: string; model: string; table: string };
  /** How the legs were weighed (hybrid with both legs): see src/retrieve/fusion.ts. */
  fusion?: FusionReport;
  warnings: string[];
}

export type { FusionReport } from "./fusion.js";

/** Below this weight the vector leg is left out of fusion. */
export const MIN_VECTOR_WEIGHT = 0.02;

/** The vector leg's weight when its table was never calibrated in the projects searched. */
export const PRIOR_VECTOR_WEIGHT = 0.5;

function calibratedWeight(db: Db, table: string, projects: string[] | undefined): { weight: number; reason: string } {
  const cs = calibrationsOf(db, table, projects);
  if (cs.length === 0) return { weight: PRIOR_VECTOR_WEIGHT, reason: `never calibrated here (run \`mem index\`): the prior ${PRIOR_VECTOR_WEIGHT}` };
  const chunks = cs.reduce((s, c) => s + c.chunks, 0);
  const weight = chunks > 0 ? cs.reduce((s, c) => s + c.weight * c.chunks, 0) / chunks : cs[0]!.weight;
  return { weight, reason: cs.length === 1 ? cs[0]!.reason : `${cs.length} projects calibrated; ${cs.map((c) => `${c.project}: ${c.weight.toFixed(2)}`).join(", ")}` };
}

/** Which candidates have a vector in the table: looked up one by one (CROSS JOIN pins the loop order; a scan of vec_rows at 100k rows cost 0.5 s a search). */
export const EMBEDDED_SQL = "SELECT v.chunk_id FROM json_each(?) j CROSS JOIN vec_rows v ON v.table_name = ? AND v.chunk_id = j.value";

function unembedded(db: Db, table: string, ids: readonly string[]): Set<string> {
  if (ids.length === 0) return new Set();
  const have = new Set(prepared(db, EMBEDDED_SQL).pluck().all(JSON.stringify(ids), table) as string[]);
  return new Set(ids.filter((id) => !have.has(id)));
}

export class SearchError extends Error {
  override name = "SearchError";
}

interface VectorLeg {
  hits: LegHit[];
  info?: SearchResponse["vector"];
  /** Why the leg could not run. */
  reason?: string;
  /** The leg ran, with a caveat. */
  warning?: string;
}

async function vectorLeg(ctx: SearchContext, opts: SearchOptions, limit: number): Promise<VectorLeg> {
  const { selected, unhealthy } = await ctx.pickProvider();
  if (!selected) return { hits: [], reason: describeUnhealthy(unhealthy) };
  const { provider, dims } = selected;
  const table = vectorTableName(provider, dims);
  const state = new VecState(ctx.db);
  if (!state.has(table)) return { hits: [], reason: `no vectors for ${provider.name} (${provider.model}) yet; run \`mem index\`` };
  let hits: LegHit[];
  try {
    const [vec] = await provider.embed([opts.text], "query");
    const found = (await ctx.vectorSearch?.(table, dims, vec!, opts.filters.projects, limit)) ?? (await (await ctx.vectors()).search(table, vec!, opts.filters.projects, limit));
    // Equal similarities in chunk id order, so a rebuilt table (rows in another order) ranks alike.
    hits = found.map((h) => ({ id: h.id, score: h.similarity })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  } catch (err) {
    return { hits: [], reason: (err as Error).message };
  }
  const info = { provider: provider.name, model: provider.model, table };
  if (opts.checkCoverage === false) return { hits, info };
  const projects = opts.filters.projects;
  const covered = projects ? projects.reduce((s, p) => s + state.count(table, p), 0) : state.count(table);
  const total = projects ? projects.reduce((s, p) => s + new ChunkStore(ctx.db).countChunks(p), 0) : new ChunkStore(ctx.db).countChunks();
  const warning = covered < total ? `vectors cover ${covered} of ${total} chunks; run \`mem index\` to finish them` : undefined;
  return { hits, info, ...(warning ? { warning } : {}) };
}

function toResult(row: ChunkRow, f: Fused | Ranked, duplicates: string[], weak: boolean): SearchResult {
  const score = f.score;
  const legs = f.legs;
  return {
    ...("salience" in f ? { salience: { ...f.salience, rrf: f.rrf } } : {}),
    id: row.id,
    text: row.text,
    path: row.path,
    startLine: row.start_line,
    endLine: row.end_line,
    headingPath: row.heading === "" ? [] : row.heading.split(" > "),
    project: row.project,
    kind: row.kind,
    tier: row.tier,
    tags: JSON.parse(row.tags) as string[],
    date: row.date,
    score,
    legs,
    duplicates,
    ...(weak ? { weak: true as const } : {}),
  };
}

function salienceInputs(db: Db, rows: Map<string, ChunkRow>, s: NonNullable<SearchOptions["salience"]>, projectRoot: (project: string) => string | undefined): SalienceInputs {
  const uses = usesOf(db, [...rows.keys()]);
  const stale = s.stale?.([...rows.keys()]);
  const inPlay = s.inPlay && s.inPlay.size > 0 ? aboutFilesInPlay(db, [...rows.keys()], s.inPlay, projectRoot, s.session) : undefined;
  return {
    now: s.now,
    config: s.config,
    subject: (id) => subjectOfChunk(rows.get(id)!),
    use: (id) => uses.get(id),
    ...(stale ? { stale: (id: string) => stale.has(id) } : {}),
    ...(inPlay && inPlay.size > 0 ? { inPlay: (id: string) => inPlay.get(id) } : {}),
  };
}

/** Hybrid search: BM25 leg + vector leg, filtered, fused (weighted RRF or the calibrated combination: `opts.fusion`; then salience, when asked), near-duplicates collapsed. */
export async function search(ctx: SearchContext, opts: SearchOptions): Promise<SearchResponse> {
  const started = performance.now();
  const warnings: string[] = [];
  const ran: SearchResponse["legs"] = [];
  const post = needsPostFilter(opts.filters);
  const limit = post ? opts.candidates * 4 : opts.candidates;
  const legs: Leg[] = [];
  let vectorInfo: SearchResponse["vector"];

  // The vector leg is dispatched first (embedding and LanceDB work off the main thread); the
  // synchronous BM25 leg runs on the next turn of the event loop, while they are under way. An
  // embedding at hand in this turn (an in-process embedder) reaches the daemon's scan before the
  // BM25 leg starts, and its worker thread scans meanwhile (src/retrieve/scan-pool.ts); one that
  // comes over HTTP lands after the BM25 leg, and the scan is then shared by both threads.
  const vectorPending = opts.mode !== "bm25" ? vectorLeg(ctx, opts, vectorFetch(opts.filters, opts.candidates)) : undefined;
  vectorPending?.catch(() => undefined); // handled below, after the BM25 leg; never "unhandled" meanwhile
  const bm25Hits =
    opts.mode !== "vector" ? await new Promise<LegHit[]>((resolve, reject) => setImmediate(() => {
      try {
        resolve(bm25Leg(ctx.db, opts.text, opts.filters, limit, opts.bm25?.weights, opts.bm25?.rules));
      } catch (err) {
        reject(err);
      }
    })) : undefined;
  if (bm25Hits) {
    ran.push("bm25");
    legs.push({ name: "bm25", weight: opts.weights.bm25, hits: bm25Hits });
  }
  if (vectorPending) {
    const budget = opts.vectorBudgetMs;
    const v = (budget === undefined ? await vectorPending : await withDeadline(vectorPending, budget - (performance.now() - started))) ?? { hits: [], reason: `no embedding within ${budget} ms` };
    if (v.warning) warnings.push(v.warning);
    if (v.reason && opts.mode === "vector") throw new SearchError(`vector search unavailable: ${v.reason}`);
    if (v.reason) warnings.push(`${VECTOR_LEG_SKIPPED}${v.reason}`);
    if (v.info) {
      ran.push("vector");
      vectorInfo = v.info;
      legs.push({ name: "vector", weight: opts.weights.vector, hits: v.hits });
    }
  }

  // Load every candidate once, with whether the filters keep it (one query, its statement reused);
  // drop the excluded before ranks are fused.
  const ids = [...new Set(legs.flatMap((l) => l.hits.map((h) => h.id)))];
  const where = sqlWhere(opts.filters);
  const allowed = new Set<string>();
  const rows = new Map<string, ChunkRow>();
  const bases = new Map<string, (string | undefined)[]>();
  const pathOk = pathFilter(opts.filters.path, (project) => {
    let b = bases.get(project);
    if (!b) bases.set(project, (b = [ctx.projectRoot(project), ...rootsOf(ctx.db, project)]));
    return b;
  });
  if (ids.length > 0) {
    // CROSS JOIN pins the loop order: look candidates up by id instead of scanning the project.
    const found = prepared(ctx.db, `SELECT c.*, (${where.sql}) AS keep FROM json_each(?) AS j CROSS JOIN chunks c ON c.id = j.value`)
      .all(...where.params, JSON.stringify(ids)) as (ChunkRow & { keep: number })[];
    for (const { keep, ...row } of found) {
      rows.set(row.id, row);
      if (keep && pathOk(row)) allowed.add(row.id);
    }
  }
  const filtered = legs.map((l) => ({ ...l, hits: l.hits.filter((h) => allowed.has(h.id)).slice(0, opts.candidates) }));
  // Salience (uses, staleness) is looked up for the candidates the filters kept, not for every row loaded.
  const kept = new Map([...rows].filter(([id]) => allowed.has(id)));
  let fusion: FusionReport | undefined;
  let fusedRaw: Fused[];
  const bmLeg = filtered.find((l) => l.name === "bm25");
  const vecLeg = filtered.find((l) => l.name === "vector");
  if (bmLeg && vecLeg && vectorInfo) {
    const cal = calibratedWeight(ctx.db, vectorInfo.table, opts.filters.projects);
    const vHits = centred(vecLeg.hits, hubsOf(ctx.db, vectorInfo.table, vecLeg.hits.map((h) => h.id)));
    const scores = vHits.map((h) => h.score);
    const q = queryTrust(scores);
    const z = standout(scores);
    const inVec = new Set(vecLeg.hits.map((h) => h.id));
    const missing = unembedded(ctx.db, vectorInfo.table, bmLeg.hits.map((h) => h.id).filter((id) => !inVec.has(id)));
    const wv = opts.weights.vector * cal.weight * q;
    const wb = opts.weights.bm25;
    const method = opts.fusion ?? "calibrated";
    // RRF sees ranks only: a clear BM25 lead scales the vector leg's RRF weight (./rrf.ts leadShare).
    const lead = method === "rrf" ? leadShare(bmLeg.hits.map((h) => h.score), opts.rrfK) : 1;
    fusion = { method, ...(method === "rrf" ? { k: opts.rrfK, lead } : {}), weights: { bm25: wb, vector: wv }, calibrated: cal.weight, query: q, standout: z, reason: `${cal.reason}; its best hit stands ${z.toFixed(1)} spreads out of the rest: ${Math.round(q * 100)}% of that weight`, unembedded: missing.size, spread: spread(scores.slice(1)) };
    // A leg not trusted at all (a broken model) is left out: its hits neither rank nor pass the hook's floor.
    fusedRaw = fuseBy(method, [{ name: "bm25", hits: bmLeg.hits, weight: wb, scale: "ratio" }, ...(wv >= MIN_VECTOR_WEIGHT ? [{ name: "vector", hits: vHits, weight: wv * lead, covers: (id: string) => !missing.has(id) }] : [])], opts.rrfK);
  } else fusedRaw = fuse(filtered.map((l) => ({ name: l.name, hits: l.hits, weight: l.weight > 0 ? 1 : 0, scale: l.name === "bm25" ? ("ratio" as const) : ("range" as const) })));
  const scored: (Fused | Ranked)[] = opts.salience ? rankBySalience(fusedRaw, salienceInputs(ctx.db, kept, opts.salience, ctx.projectRoot)) : fusedRaw;
  const { ranked: fused, weak } = weakLast(scored);
  const groups = foldConvergent(ctx.db, collapseNearDuplicates(fused, (f) => rows.get(f.id)!.text, opts.dedupeThreshold, opts.k));
  const results = groups.slice(0, opts.k).map((g) => toResult(rows.get(g.item.id)!, g.item, g.duplicates, weak.has(g.item.id)));
  return { results, legs: ran, ...(vectorInfo ? { vector: vectorInfo } : {}), ...(fusion ? { fusion } : {}), warnings };
}
