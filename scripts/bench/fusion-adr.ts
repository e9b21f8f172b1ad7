/**
 * bench:fusion on decision records (../shared/data/adr): the records indexed as one project, then
 * the developer questions of ./adr-questions.json asked through the prompt hook and `mem query`,
 * and prompts no record answers (the file's own coding prompts, SciFact's claims, the coding
 * tasks of real Claude Code transcripts) asked in the same project: any injection is off-topic.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Mode } from "../../src/retrieve/search.js";
import { copyHome, copyMarkdown, hookContexts, indexInto, memEnv, queryBatch } from "./fusion-run.js";
import { recordsIn, reciprocalRank, type HookOutcome, type Ranks } from "./fusion-metrics.js";
import { withLeg, type LegRun, type LegSetup } from "./fusion-locomo.js";

export interface AdrQuestion {
  id: string;
  question: string;
  answers: string[];
  paraphrase: boolean;
  /** Scored as adr-2's README does: R@k the share of the answers among the first k records (files, each once). Else: whether any answer is among the first k results. */
  share?: boolean;
  kind?: string;
}

/** scripts/bench/adr-questions.json (read from the source tree: it is not compiled). */
export const ADR_QUESTIONS = fileURLToPath(new URL("../../../scripts/bench/adr-questions.json", import.meta.url));

export function adrDir(): string | undefined {
  const dir = process.env.MEM_ADR_DIR ?? join(process.cwd(), "..", "shared", "data", "adr");
  return existsSync(dir) && readdirSync(dir).some((f) => /^\d{4}-.*\.md$/.test(f)) ? dir : undefined;
}

/** The questions (with ids `adr-1`…) and the off-topic prompts; throws on a malformed file or an answer that is no record of `dir`. */
export function loadAdrQuestions(file: string, dir: string): { questions: AdrQuestion[]; offTopic: string[] } {
  const raw = JSON.parse(readFileSync(file, "utf8")) as { questions?: unknown; offTopic?: unknown };
  if (!Array.isArray(raw.questions) || !Array.isArray(raw.offTopic)) throw new Error(`${file}: expected "questions" and "offTopic" arrays`);
  const records = new Set(readdirSync(dir));
  const questions = raw.questions.map((q: { question?: unknown; answers?: unknown; paraphrase?: unknown }, i): AdrQuestion => {
    const ok = typeof q.question === "string" && Array.isArray(q.answers) && q.answers.length > 0 && q.answers.every((a) => typeof a === "string") && typeof q.paraphrase === "boolean";
    if (!ok) throw new Error(`${file}: question ${i + 1} needs a "question" text, "answers" (record files) and a "paraphrase" flag`);
    const missing = (q.answers as string[]).filter((a) => !records.has(a));
    if (missing.length > 0) throw new Error(`${file}: question ${i + 1} names records not in ${dir}: ${missing.join(", ")}`);
    return { id: `adr-${i + 1}`, question: q.question as string, answers: q.answers as string[], paraphrase: q.paraphrase as boolean };
  });
  return { questions, offTopic: raw.offTopic.filter((p): p is string => typeof p === "string") };
}

/** Each record's text by file name: the good leg's units. */
export function adrRecords(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).filter((f) => /^\d{4}-.*\.md$/.test(f)).sort().map((f) => [f, readFileSync(join(dir, f), "utf8")] as const));
}

export async function adrLeg(dir: string, questions: readonly AdrQuestion[], offTopic: readonly string[], setup: LegSetup): Promise<LegRun> {
  const t0 = performance.now();
  const root = join(setup.work, "adr");
  const tops = new Map<string, string[]>();
  copyMarkdown(dir, root);
  const { value, embedded } = await withLeg(setup, async (leg) => {
    const template = join(setup.work, "home-template");
    const indexed = await indexInto(template, [root], leg, setup.config);
    const hookEnv = memEnv(setup.work, copyHome(template, join(setup.work, "home-hook")), leg);
    const prompts = [...questions.map((q) => ({ id: q.id, prompt: q.question, cwd: root })), ...offTopic.map((p, i) => ({ id: `off-${i}`, prompt: p, cwd: root }))];
    const { contexts, late } = await hookContexts(hookEnv, prompts, root);
    const hook = new Map<string, HookOutcome>();
    for (const q of questions) {
      const ctx = contexts.get(q.id) ?? "";
      const shown = recordsIn(ctx);
      hook.set(q.id, { recall: q.answers.some((a) => shown.has(a)) ? 1 : 0, nothing: ctx === "" });
    }
    const off = offTopic.map((_, i) => (contexts.get(`off-${i}`) ?? "") !== "");
    const ranks = new Map<Mode, Map<string, Ranks>>();
    for (const mode of (leg ? ["hybrid", "vector"] : ["bm25"]) as Mode[]) {
      const env = memEnv(setup.work, copyHome(template, join(setup.work, `home-${mode}`)), leg);
      const hits = await queryBatch(env, root, questions.map((q) => ({ id: q.id, text: q.question })), mode);
      const m = new Map<string, Ranks>();
      for (const q of questions) {
        const h = hits.get(q.id);
        if (!h) continue;
        m.set(q.id, q.share ? shareRanks(h, q.answers) : anyRanks(h, q.answers));
      }
      ranks.set(mode, m);
      if (mode !== "vector") for (const q of questions) tops.set(q.id, topRecords(hits.get(q.id) ?? []));
    }
    return { indexed, hook, ranks, off, late };
  });
  return { indexed: value.indexed, ranks: value.ranks, hook: value.hook, offTopic: value.off, late: value.late, embedded, seconds: (performance.now() - t0) / 1000, tops };
}

/** Whether any answer record is among the first 1 / 5 results; the first one's reciprocal rank. */
export function anyRanks(hits: readonly { path: string }[], answers: readonly string[]): Ranks {
  const isAnswer = (x: { path: string }) => answers.includes(basename(x.path));
  return { r1: hits.slice(0, 1).some(isAnswer) ? 1 : 0, r5: hits.slice(0, 5).some(isAnswer) ? 1 : 0, rr: reciprocalRank(hits, isAnswer) };
}

/** adr-2's scoring: the results as records (files, each once, first 10), R@k the share of the answers among the first k, MRR the first answer's. */
export function shareRanks(hits: readonly { path: string }[], answers: readonly string[]): Ranks {
  const files = [...new Set(hits.map((h) => basename(h.path)))].slice(0, 10);
  const share = (k: number) => files.slice(0, k).filter((f) => answers.includes(f)).length / answers.length;
  return { r1: share(1), r5: share(5), rr: reciprocalRank(files, (f) => answers.includes(f)) };
}

/** The first three records a ranking shows (its results' files, each once). */
export function topRecords(hits: readonly { path: string }[]): string[] {
  return [...new Set(hits.map((h) => basename(h.path)))].slice(0, 3);
}
