/**
 * A prompt's memories with what became of every candidate, and the prompt log's row for it: what
 * the daemon and the hook's in-process fallback answer, and afterwards record (src/store/
 * prompt-log.ts) so the explorer can say why the model saw what it saw. One search, one trace:
 * the injection is `traceInjection`'s, which is `formatInjection`'s. Building the row (redaction
 * of the prompt and the fates) is left to `recordRun`, which the callers run after answering.
 */
import { clean, cleanClip, cleanText, type Clean } from "../redact/clean.cjs";
import { MAX_PROMPT_CHARS, recordPromptRun, type CandidateFate, type PromptHook } from "../store/prompt-log.js";
import type { Db } from "../store/db.js";
import type { Mode } from "../retrieve/search.js";
import { fatesOf, type Fate } from "./fates.js";
import { traceInjection } from "./format.js";
import { candidatesOf, excludedBy, promptDescribe, promptProject, promptSearch, recordDelivered, redactText, type Injection, type PromptContext, type PromptRequest } from "./for-prompt.js";
import { skipReason } from "./prompt-filter.cjs";

/** A prompt's answer: what goes before it (if anything) and each candidate's fate. */
export interface PromptAnswer {
  injection: Injection | undefined;
  fates: Fate[];
  /** The project searched (its stored id). */
  project: string;
}

/** The memories for a prompt, as `memoriesForPrompt` chooses them, with their fates; undefined for a prompt that needs none. */
export async function answerPrompt(ctx: PromptContext, req: PromptRequest, mode: Mode): Promise<PromptAnswer | undefined> {
  if (skipReason(req.prompt)) return undefined;
  const s = await promptSearch(ctx, req, mode);
  const found = candidatesOf(s);
  const trace = traceInjection(found.results, found.terms, ctx.config.inject, redactText, promptDescribe(ctx.db, found));
  return { injection: trace.injection, fates: fatesOf(s.response.results, (id) => excludedBy(s, id), found.results, trace), project: promptProject(req, ctx).id };
}

/** One run as the callers know it, before redaction. */
export interface RunFacts {
  at: number;
  session: Clean<string>;
  project: string;
  hook: PromptHook;
  ms: number | null;
  mode: string | null;
  /** The prompt (a briefing: how the session started). */
  prompt: string;
  injected: string | undefined;
  ids: readonly string[];
  fates: readonly Fate[];
}

/**
 * Writes one run to the prompt log, through the redaction boundary (the prompt cut after it).
 * Never throws: the log must not break a hook or a daemon's answer; a failure goes to `log`.
 */
export function recordRun(db: Db, r: RunFacts, log: (line: string) => void): number | undefined {
  try {
    return recordPromptRun(db, {
      at: r.at,
      session: r.session,
      project: cleanText(r.project),
      hook: r.hook,
      ms: r.ms === null ? null : Math.round(r.ms * 100) / 100,
      mode: r.mode,
      prompt: cleanClip(r.prompt, MAX_PROMPT_CHARS),
      injected: r.injected === undefined ? null : cleanText(r.injected),
      ids: r.ids.map((id) => cleanText(id)),
      candidates: clean(r.fates.map((f): CandidateFate => ({ id: f.id, rank: f.rank, fate: f.fate, why: f.why }))),
    });
  } catch (err) {
    log(`the prompt log could not record a ${r.hook} run: ${(err as Error).message}`);
    return undefined;
  }
}

/**
 * What the daemon and the in-process hook do once a prompt's answer reached the hook (never before:
 * an answer the hook gave up on showed the model nothing): its chunks count as shown in the
 * session (`recordDelivered`), and the run goes to the prompt log.
 */
export function delivered(db: Db, a: PromptAnswer, run: { session: Clean<string>; prompt: string; ms: number; mode: Mode; at: number }, log: (line: string) => void): void {
  const found = a.injection;
  if (found) recordDelivered(db, run.session, found.ids, run.at, found.lines);
  recordRun(db, { ...run, project: a.project, hook: "prompt", injected: found?.text, ids: found?.ids ?? [], fates: a.fates }, log);
}
