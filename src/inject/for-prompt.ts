import type { Selected, Unhealthy } from "../embed/chain.js";
import type { Config } from "../config/config.js";
import { redactLines } from "../redact/redact.cjs";
import { cleanText, type Clean } from "../redact/clean.cjs";
import { salienceConfig } from "../memory/salience.js";
import { recordInjected, shownIn, type Shown } from "../store/injections.js";
import { sessionDay } from "../store/sessions.js";
import type { Project } from "../project/identity.js";
import { projectAt, searchScope } from "../project/scope.js";
import { mergeInPlay, sessionFiles, type FilesInPlay } from "../project/in-play.js";
import { queryTerms } from "../retrieve/fts-query.js";
import { storeRarity } from "../retrieve/rarity.js";
import { search, type Mode, type SearchContext, type SearchOptions, type SearchResponse, type SearchResult } from "../retrieve/search.js";
import type { Db } from "../store/db.js";
import type { VectorStore } from "../store/vectors.js";
import { staleChunks } from "../anchor/annotate.js";
import type { StaleFlag } from "../anchor/staleness.js";
import { othersProfiles } from "../tiers/profiles.js";
import { currentUserId } from "../tiers/user.js";
import { formatInjection, type Describe } from "./format.js";
import { resultSources, type ResultSources } from "../team/view.js";

import { skipReason } from "./prompt-filter.cjs";
import { memoized } from "../util/memo.js";
import { linePrint } from "../store/line-print.js";
import { DEFAULT_SELECT } from "./select.js";
import { piecesOf } from "./units.js";

/** The ids whose flag carries the ranking penalty (deleted or changed, not merely another branch). */
const penalized = (flags: ReadonlyMap<string, { penalty: boolean }>) => new Set([...flags].filter(([, f]) => f.penalty).map(([id]) => id));

/**
 * Redaction of what is put before a prompt, remembered per text: the daemon redacts the same
 * chunks again prompt after prompt (the rules are fixed for the life of the process). It keeps a
 * text's lines where they were (a private key over four lines leaves three empty ones after its
 * mark), so the line numbers items show and the session records are the file's.
 */
export const redactText = memoized(redactLines, 2_000);

export interface PromptContext {
  db: Db;
  config: Config;
  vectors: () => Promise<VectorStore>;
  pickProvider: () => Promise<{ selected?: Selected; unhealthy: Unhealthy[] }>;
  projectRoot: (project: string) => string | undefined;
  vectorSearch?: SearchContext["vectorSearch"];
  /** The current user's id (src/tiers/user.ts); default: from this process's environment and the config. */
  user?: string | undefined;
  /**
   * The files git sees changed in the repository at a directory, without waiting (the daemon's
   * GitChangesCache). Without it, the files in play are the session's own.
   */
  gitChanges?: (dir: string) => readonly string[];
}

export interface PromptRequest {
  prompt: string;
  /** The session's directory (absolute): its project is searched, unless `project` says which. */
  cwd: string;
  session: string;
  /** The project to search, by its stored id (an MCP server bound to one): wins over `cwd`'s. */
  project?: string;
}

/** The project a prompt's memories come from: `req.project` when given, else `req.cwd`'s. */
export function promptProject(req: PromptRequest, ctx: Pick<PromptContext, "db" | "config" | "projectRoot">): Project {
  if (req.project === undefined) return projectAt(ctx.db, req.cwd, ctx.config.project.enclosing);
  const id = cleanText(req.project);
  return { id, name: req.project, root: ctx.projectRoot(id) };
}

/** What to put before a prompt, and the chunks it shows. */
export interface Injection {
  text: string;
  ids: string[];
  /** Per chunk, the fingerprints of the lines it shows whole, recorded so a later prompt gets the rest. */
  lines: Map<string, string[]>;
}

/** What a prompt's search found, before the floor and the evidence selection choose among it. */
export interface PromptCandidates {
  /** Ranked results not injected into this session yet. */
  results: SearchResult[];
  /** The prompt's search terms (the floor and the evidence selection keep its content words). */
  terms: string[];
  /** A result's "possibly outdated" flag, by chunk id. */
  note: (id: string) => string | undefined;
  /** The vector leg as fusion weighed it (the floor's calibrated similarity), when it ran. */
  vector?: Describe["vector"];
  /** What each result says of its sources (a record's status, date, authors). */
  sources?: ReadonlyMap<string, ResultSources>;
}

/** The mode the daemon searches a prompt in: hybrid when an embedding provider answers, else BM25. */
export async function promptMode(pick: PromptContext["pickProvider"]): Promise<Mode> {
  return (await pick()).selected ? "hybrid" : "bm25";
}

/** A prompt's search as the hook runs it, before anything is left out (`mem why` shows it all). */
export interface PromptSearch {
  /** The search's answer: every ranked result, the legs that ran, warnings. */
  response: SearchResponse;
  /** Chunks already injected into this session (in its current context window): whole, or every line of them. */
  seen: ReadonlySet<string>;
  /** Results some of whose lines this session was shown: how many lines each leaves out (its text has them blanked). */
  partly: ReadonlyMap<string, number>;
  /** Hot-tier chunks that are another user's profile. */
  others: ReadonlySet<string>;
  terms: string[];
  note: (id: string) => string | undefined;
  /** The files in play the ranking lifted memories about. */
  inPlay: FilesInPlay;
  /** What each result says of its sources (a record's status, date, authors; a local memory its team record shown beside it stands for). */
  sources: ReadonlyMap<string, ResultSources>;
}

/** Options of a prompt's search that `mem why` may change: how long the vector leg may take (default: `daemon.vectorBudgetMs`; null: no limit); the BM25 leg's rules (the benches' ablations). */
export interface PromptSearchOptions {
  vectorBudgetMs?: number | null;
  bm25?: SearchOptions["bm25"];
}

/**
 * The search behind a prompt's memories: the hook's project (and the global one), ranked by
 * relevance and salience; with what this session already got and other users' profiles, which
 * `promptCandidates` leaves out. Skips no prompt (the caller asks `skipReason`).
 */
export async function promptSearch(ctx: PromptContext, req: PromptRequest, mode: Mode, o: PromptSearchOptions = {}): Promise<PromptSearch> {
  const project = promptProject(req, ctx);
  const q = ctx.config.query;
  const session = cleanText(req.session);
  const inPlay = mergeInPlay(sessionFiles(ctx.db, project.id, session, project.root), project.root ? (ctx.gitChanges?.(project.root) ?? []) : []);
  const budget = o.vectorBudgetMs === undefined ? ctx.config.daemon.vectorBudgetMs : o.vectorBudgetMs;
  // Staleness from what the anchor cache knows (a stat a file, no hashing on the prompt's path:
  // the daemon hashes what was missing after it answers, `processCache.warm()`).
  let flags: ReadonlyMap<string, StaleFlag> = new Map();
  const res = await search(
    { db: ctx.db, vectors: ctx.vectors, projectRoot: ctx.projectRoot, pickProvider: ctx.pickProvider, ...(ctx.vectorSearch ? { vectorSearch: ctx.vectorSearch } : {}) },
    { text: req.prompt.slice(0, 2_000), k: 10, mode, filters: { projects: searchScope(project, q.includeGlobal) }, candidates: 30, rrfK: q.rrfK, fusion: q.fusion, weights: q.weights, dedupeThreshold: q.dedupeThreshold, checkCoverage: false, ...(budget !== null ? { vectorBudgetMs: budget } : {}), ...(o.bm25 ? { bm25: o.bm25 } : {}), salience: { now: Date.now(), config: salienceConfig(ctx.config.salience), stale: (ids) => penalized((flags = staleChunks(ctx.db, ids, ctx.projectRoot, Date.now(), { hash: false }))), inPlay, session } },
  );
  const { response, seen, partly } = unseen(res, shownIn(ctx.db, session));
  // Another user's profile is not put before this user's prompt as if it were theirs.
  const others = othersProfiles(ctx.db, response.results.filter((r) => r.tier === "hot").map((r) => r.id), "user" in ctx ? ctx.user : currentUserId(process.env, ctx.config.tiers.user));
  return { response, seen, others, partly, terms: queryTerms(req.prompt), note: (id) => flags.get(id)?.text, inPlay, sources: resultSources(ctx.db, response.results) };
}

/**
 * The results as this session has not seen them: a chunk shown whole, or every line of which was
 * shown, is `seen`; the lines shown of the others (known by their fingerprints: an edit that moved
 * them does not matter) are blanked, line numbers kept, so a follow-up prompt gets the rest of a
 * note, not the same lines again. Pure.
 */
export function unseen(res: SearchResponse, shown: Shown): { response: SearchResponse; seen: Set<string>; partly: Map<string, number> } {
  const seen = new Set<string>();
  const partly = new Map<string, number>();
  const results = res.results.map((r) => {
    if (shown.whole.has(r.id)) {
      seen.add(r.id);
      return r;
    }
    const prints = shown.lines.get(r.path);
    if (!prints || r.path.startsWith("session:")) return r;
    let hidden = 0;
    const text = r.text
      .split("\n")
      .map((l) => {
        if (l.trim() === "" || !prints.has(linePrint(l))) return l;
        hidden++;
        return "";
      })
      .join("\n");
    if (hidden === 0) return r;
    // Nothing left to show (headings, fences and blank lines are no evidence): seen.
    if (!piecesOf(text, r.startLine, DEFAULT_SELECT.maxPieceChars).some((p) => p.text.trim() !== "")) {
      seen.add(r.id);
      return r;
    }
    partly.set(r.id, hidden);
    return { ...r, text };
  });
  return { response: { ...res, results }, seen, partly };
}

/**
 * The candidates of a prompt's memories: its search less what this session already got and
 * other users' profiles. Undefined for a prompt that needs no memory. `memoriesForPrompt` chooses
 * among these; benchmarks read them to see where evidence is lost.
 */
export async function promptCandidates(ctx: PromptContext, req: PromptRequest, mode: Mode, o: PromptSearchOptions = {}): Promise<PromptCandidates | undefined> {
  if (skipReason(req.prompt)) return undefined;
  return candidatesOf(await promptSearch(ctx, req, mode, o));
}

/** Why the hook leaves a result of the prompt's search out before the floor, if it does. */
export function excludedBy(s: Pick<PromptSearch, "seen" | "others" | "sources">, id: string): "already shown in this session" | "another user's profile" | "its team record is shown" | undefined {
  return s.seen.has(id) ? "already shown in this session" : s.others.has(id) ? "another user's profile" : s.sources.get(id)?.hidden ? "its team record is shown" : undefined;
}

/** The search's results the floor and the selection choose among. */
export function candidatesOf(s: PromptSearch): PromptCandidates {
  const f = s.response.fusion;
  return { results: s.response.results.filter((r) => excludedBy(s, r.id) === undefined), terms: s.terms, note: s.note, sources: s.sources, ...(f ? { vector: { weight: f.weights.vector, spread: f.spread } } : {}) };
}

/** What the injection knows beside the candidates (their flags, the day a session began), as the hook gives it. */
export const promptDescribe = (db: Db, found: Pick<PromptCandidates, "note" | "vector" | "sources">): Describe => ({ note: found.note, sessionDay: (s) => sessionDay(db, s), rarity: storeRarity(db), ...(found.vector ? { vector: found.vector } : {}), ...(found.sources ? { sources: (id: string) => found.sources!.get(id)?.parts } : {}) });

/**
 * The memories to put before a prompt (the daemon's answer, and the hook's in-process fallback):
 * skip prompts that need none, search the hook's project, drop what this session already got,
 * apply the floor and budget, and redact. The caller records the injection once it is delivered
 * (`recordInjected`): a chunk whose answer came too late for the hook is still new to the session.
 */
export async function memoriesForPrompt(ctx: PromptContext, req: PromptRequest, mode: Mode): Promise<Injection | undefined> {
  const found = await promptCandidates(ctx, req, mode);
  return found ? chooseMemories(ctx, found) : undefined;
}

/** What goes before the prompt from its candidates: the floor, the evidence line by line, the budget, redacted. */
export function chooseMemories(ctx: Pick<PromptContext, "db" | "config">, found: PromptCandidates): Injection | undefined {
  return formatInjection(found.results, found.terms, ctx.config.inject, redactText, promptDescribe(ctx.db, found));
}

/**
 * What the caller does once the injection reached the hook: the chunks count as injected into the
 * session (not again before its context is reset). They are not reinforced: being put before a
 * prompt is not being used, and what was shown must not change what the next prompt finds.
 */
export function recordDelivered(db: Db, session: Clean<string>, ids: readonly string[], now: number, lines?: ReadonlyMap<string, readonly string[]>): void {
  recordInjected(db, session, ids, now, lines);
}
