/**
 * `mem why`: what the prompt hook would put before a prompt, and why, candidate by candidate.
 * The same search (`promptSearch`), exclusions (`excludedBy`), floor, selection and budget
 * (`traceInjection`, which `formatInjection` runs too) and redaction as the hook's daemon; only
 * nothing is recorded: no injection, no reinforcement. The report is raw data: the CLI renders it.
 */
import { sessionOf, shortId } from "./items.js";
import { skipReason } from "./prompt-filter.cjs";
import { contentTerms } from "./terms.js";
import { queryTerms } from "../retrieve/fts-query.js";
import { stem } from "./floor.js";
import { traceInjection, type EvidenceTrace, type FloorVerdict, type InjectOptions } from "./format.js";
import { candidatesOf, excludedBy, promptDescribe, promptMode, promptProject, promptSearch, redactText, type PromptContext, type PromptRequest, type PromptSearchOptions } from "./for-prompt.js";
import { sessionDay } from "../store/sessions.js";
import type { Mode, SearchResponse, SearchResult } from "../retrieve/search.js";

/** One result of the prompt's search, and what became of it. */
export interface WhyCandidate {
  /** 1-based, in the search's order. */
  rank: number;
  /** The one id (src/store/one-id.ts); `shortId`, the same, is kept for earlier readers. */
  id: string;
  shortId: string;
  path: string;
  project: string;
  startLine: number;
  endLine: number;
  /** The capturing session's id and the day it began, for a captured memory. */
  session: string | null;
  sessionDay: string | null;
  kind: string;
  tier: string | null;
  date: string | null;
  score: number;
  legs: SearchResult["legs"];
  /** Ranked after the others (src/retrieve/weak-hits.ts). */
  weak: boolean;
  /** The ranking formula's factors, as the search carries them. */
  salience: SearchResult["salience"] | null;
  /** Its "possibly outdated" flag, as the item would show it. */
  flag: string | null;
  /** Why the hook leaves it out before the floor. */
  excluded: string | null;
  /** How many of its lines this session was already shown (left out of its text), when some were. */
  linesShownBefore: number | null;
  /** The floor's verdict; null for an excluded result (the floor never sees it). */
  floor: FloorVerdict | null;
  /** What became of its pieces; null when it did not reach the selection. */
  evidence: EvidenceTrace | null;
  /** Whether any of its lines are injected. */
  injected: boolean;
}

export interface WhyReport {
  prompt: string;
  project: { id: string; root: string | null };
  /** The session asked about; null for a fresh one. */
  session: string | null;
  /** Why the hook skips the prompt (then nothing is searched). */
  skipped: string | null;
  /** hybrid or bm25, as the daemon would search; null for a skipped prompt. */
  mode: Mode | null;
  legs: SearchResponse["legs"];
  /** How fusion weighed the legs (both ran); null otherwise. */
  fusion: NonNullable<SearchResponse["fusion"]> | null;
  vector: SearchResponse["vector"] | null;
  warnings: string[];
  /** The prompt's content words and their stems: what the floor and the selection look for. */
  words: { word: string; stem: string }[];
  stems: string[];
  /** How many files are in play (the ranking lifts memories about them). */
  filesInPlay: number;
  candidates: WhyCandidate[];
  /** Exactly what the hook would inject, or null. */
  injection: { text: string; ids: string[]; chars: number; items: number } | null;
  /** Why nothing would be injected. */
  nothing: string | null;
  options: InjectOptions;
}

/**
 * Explains a prompt: `req.session` is the session asked about (its injected chunks are excluded
 * as the hook excludes them); `fresh` says it stands for a session that has none.
 */
export async function explainPrompt(ctx: PromptContext, req: PromptRequest, o: PromptSearchOptions & { fresh?: boolean } = {}): Promise<WhyReport> {
  const project = promptProject(req, ctx);
  const words = contentTerms(queryTerms(req.prompt)).map((word) => ({ word, stem: stem(word) }));
  const base = {
    prompt: req.prompt,
    project: { id: project.id, root: project.root ?? null },
    session: o.fresh ? null : req.session,
    options: ctx.config.inject,
  };
  const skipped = skipReason(req.prompt);
  if (skipped) {
    return { ...base, skipped, mode: null, legs: [], fusion: null, vector: null, warnings: [], words, stems: [...new Set(words.map((w) => w.stem))], filesInPlay: 0, candidates: [], injection: null, nothing: `the hook skips this prompt (${skipped})` };
  }
  const mode = await promptMode(ctx.pickProvider);
  const s = await promptSearch(ctx, req, mode, o);
  const found = candidatesOf(s);
  const trace = traceInjection(found.results, found.terms, ctx.config.inject, redactText, promptDescribe(ctx.db, found));
  const at = new Map(found.results.map((r, i) => [r.id, i]));
  const injected = new Set(trace.injection?.ids ?? []);
  const candidates = s.response.results.map((r, i): WhyCandidate => {
    const k = at.get(r.id);
    const session = sessionOf(r) ?? null;
    return {
      rank: i + 1,
      id: shortId(r.id),
      shortId: shortId(r.id),
      path: r.path,
      project: r.project,
      startLine: r.startLine,
      endLine: r.endLine,
      session,
      sessionDay: session ? (sessionDay(ctx.db, session) ?? null) : null,
      kind: r.kind,
      tier: r.tier,
      date: r.date,
      score: r.score,
      legs: r.legs,
      weak: r.weak === true,
      salience: r.salience ?? null,
      flag: s.note(r.id) ?? null,
      excluded: excludedBy(s, r.id) ?? null,
      linesShownBefore: s.partly.get(r.id) ?? null,
      floor: k === undefined ? null : trace.floor[k]!,
      evidence: k === undefined ? null : (trace.evidence[k] ?? null),
      injected: injected.has(r.id),
    };
  });
  const inj = trace.injection;
  const excluded = s.response.results.length - found.results.length;
  return {
    ...base,
    skipped: null,
    mode,
    legs: s.response.legs,
    fusion: s.response.fusion ?? null,
    vector: s.response.vector ?? null,
    warnings: s.response.warnings,
    words,
    stems: trace.stems,
    filesInPlay: s.inPlay.size,
    candidates,
    injection: inj ? { ...inj, ids: inj.ids.map(shortId), chars: inj.text.length, items: trace.items } : null,
    nothing: inj ? null : s.response.results.length === 0 ? "the search found nothing in this project" : found.results.length === 0 ? "every result is excluded (already shown in this session, or another user's profile)" : `${trace.nothing}${excluded > 0 ? ` (${excluded} excluded before the floor)` : ""}`,
  };
}
