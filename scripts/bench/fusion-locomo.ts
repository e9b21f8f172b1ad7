/**
 * bench:fusion on LoCoMo: the dev conversations indexed with one vector leg (or none), then the
 * prompt hook and `mem query` asked every question, ranked hybrid and by the vector leg alone
 * (BM25 alone without a leg). Returns per-question figures; ./fusion-metrics.ts makes the rows.
 */
import { join } from "node:path";
import type { Mode } from "../../src/retrieve/search.js";
import { evidenceRecall, turnTags, type LocomoQuestion } from "./locomo-data.js";
import { copyHome, copyMarkdown, hookContexts, indexInto, memEnv, queryBatch, type Indexed } from "./fusion-run.js";
import { reciprocalRank, type HookOutcome, type Ranks } from "./fusion-metrics.js";
import { startLegServer } from "./ollama-legs.js";
import type { Embed } from "./vector-legs.js";

export interface LegRun {
  indexed: Indexed;
  /** Ranking mode → question id → ranks. */
  ranks: Map<Mode, Map<string, Ranks>>;
  hook: Map<string, HookOutcome>;
  /** Off-topic prompts: whether each got something injected. */
  offTopic: boolean[];
  /** Prompts the daemon answered past the hook's budget (injected nothing). */
  late: number;
  /** Texts the leg's server embedded. */
  embedded: number;
  seconds: number;
  /** ADR: question id → the first records the hybrid (or BM25) ranking shows. */
  tops?: Map<string, string[]>;
}

export interface LegSetup {
  /** Where this run works (created). */
  work: string;
  /** Unset: BM25 alone. */
  embed?: Embed;
  model: string;
  /** The data home's config.json, if any. */
  config?: object;
}

/** Serves the leg (if any) while `body` runs, with the served leg's address. */
export async function withLeg<T>(setup: LegSetup, body: (leg: { url: string; model: string } | undefined) => Promise<T>): Promise<{ value: T; embedded: number }> {
  const server = setup.embed ? await startLegServer({ model: setup.model, embed: setup.embed }) : undefined;
  try {
    const value = await body(server ? { url: server.url, model: setup.model } : undefined);
    return { value, embedded: server?.texts ?? 0 };
  } finally {
    await server?.close();
  }
}

export async function locomoLeg(dir: string, convs: readonly string[], questions: readonly LocomoQuestion[], setup: LegSetup): Promise<LegRun> {
  const t0 = performance.now();
  const roots = new Map(convs.map((c) => [c, join(setup.work, "convs", c)] as const));
  for (const [c, root] of roots) copyMarkdown(join(dir, c), root);
  const { value, embedded } = await withLeg(setup, async (leg) => {
    const template = join(setup.work, "home-template");
    const indexed = await indexInto(template, [...roots.values()], leg, setup.config);
    const hookEnv = memEnv(setup.work, copyHome(template, join(setup.work, "home-hook")), leg);
    const { contexts, late } = await hookContexts(hookEnv, questions.map((q) => ({ id: q.qid, prompt: q.question, cwd: roots.get(q.conv)! })), roots.get(convs[0]!)!);
    const hook = new Map<string, HookOutcome>();
    for (const q of questions) {
      const ctx = contexts.get(q.qid) ?? "";
      hook.set(q.qid, { recall: evidenceRecall(q, ctx), nothing: ctx === "" });
    }
    const ranks = new Map<Mode, Map<string, Ranks>>();
    const modes: Mode[] = leg ? ["hybrid", "vector"] : ["bm25"];
    for (const mode of modes) {
      const env = memEnv(setup.work, copyHome(template, join(setup.work, `home-${mode}`)), leg);
      const m = new Map<string, Ranks>();
      for (const c of convs) {
        const qs = questions.filter((q) => q.conv === c);
        const hits = await queryBatch(env, roots.get(c)!, qs.map((q) => ({ id: q.qid, text: q.question })), mode);
        for (const q of qs) {
          const h = hits.get(q.qid);
          if (!h) continue;
          const some = (t: string) => turnTags(t).some((x) => x.conv === q.conv && q.evidence.includes(x.turn));
          m.set(q.qid, { r1: evidenceRecall(q, h.slice(0, 1).map((x) => x.text).join("\n")), r5: evidenceRecall(q, h.slice(0, 5).map((x) => x.text).join("\n")), rr: reciprocalRank(h, (x) => some(x.text)) });
        }
      }
      ranks.set(mode, m);
    }
    return { indexed, hook, ranks, late };
  });
  return { ...value, offTopic: [], embedded, seconds: (performance.now() - t0) / 1000 };
}
