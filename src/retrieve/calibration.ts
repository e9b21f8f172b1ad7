/**
 * Label-free calibration of the vector leg for one store and one model. Pure.
 *
 * Pseudo-queries are made from the store's own chunks: from each sampled chunk, the run of words
 * (within one sentence) that holds the most of its rare content; the chunk it came from is the
 * answer. Each leg is asked every pseudo-query; how often it ranks the source chunk in its top five,
 * against what chance would give, says how far to trust it:
 *
 *   weight = (vector top-5 share − chance) / (best leg's top-5 share − chance), clamped to 0..1
 *
 * A broken model (random vectors) finds the source no more often than chance: weight ≈ 0.
 */
import type { LegHit } from "./rrf.js";

export interface PseudoQuery {
  /** The chunk it was made from (the answer). */
  source: string;
  text: string;
}

const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * The pseudo-query for a chunk's text: within each sentence, the window of `span` words with the
 * largest summed rarity; the best window of the text. Undefined when no sentence has `minWords`.
 */
export function pseudoQueryText(text: string, rarity: (word: string) => number, span = 10, minWords = 5): string | undefined {
  let best: { words: string[]; score: number } | undefined;
  for (const sentence of text.split(/[.!?\n]+/)) {
    const words = sentence.match(WORD) ?? [];
    if (words.length < minWords) continue;
    const r = words.map((w) => rarity(w.toLowerCase()));
    const n = Math.min(span, words.length);
    let sum = r.slice(0, n).reduce((s, x) => s + x, 0);
    let at = 0;
    let top = sum;
    for (let i = n; i < words.length; i++) {
      sum += r[i]! - r[i - n]!;
      if (sum > top) {
        top = sum;
        at = i - n + 1;
      }
    }
    if (!best || top > best.score) best = { words: words.slice(at, at + n), score: top };
  }
  return best ? best.words.join(" ") : undefined;
}

/** What one leg did on the pseudo-queries. */
export interface LegScore {
  /** Share of pseudo-queries whose source it ranked first. */
  top1: number;
  /** Share it ranked in its top five. */
  top5: number;
}

export function scoreLeg(queries: readonly PseudoQuery[], answers: readonly (readonly LegHit[])[]): LegScore {
  if (queries.length === 0) return { top1: 0, top5: 0 };
  let t1 = 0;
  let t5 = 0;
  queries.forEach((q, i) => {
    const at = (answers[i] ?? []).findIndex((h) => h.id === q.source);
    if (at === 0) t1++;
    if (at >= 0 && at < 5) t5++;
  });
  return { top1: t1 / queries.length, top5: t5 / queries.length };
}

export interface Calibration {
  /** How far to trust the vector leg (0 to 1). */
  weight: number;
  bm25: LegScore;
  vector: LegScore;
  /** Pseudo-queries asked. */
  queries: number;
  /** Chunks in the project when calibrated. */
  chunks: number;
  /** The top-5 share chance would give. */
  chance: number;
  /** The weight in words. */
  reason: string;
}

/** The fewest pseudo-queries a calibration rests on; with fewer, the leg keeps the prior. */
export const MIN_QUERIES = 8;

export function calibrate(bm25: LegScore, vector: LegScore, queries: number, chunks: number): Calibration {
  const chance = chunks > 0 ? Math.min(1, 5 / chunks) : 1;
  const best = Math.max(bm25.top5, vector.top5);
  const weight = best - chance > 1e-9 ? Math.min(1, Math.max(0, (vector.top5 - chance) / (best - chance))) : 0;
  const pc = (x: number) => `${Math.round(x * 100)}%`;
  const reason = `on ${queries} pseudo-queries from ${chunks} chunks the vector leg put the source in its top 5 for ${pc(vector.top5)} (BM25 ${pc(bm25.top5)}, chance ${pc(chance)})`;
  return { weight, bm25, vector, queries, chunks, chance, reason };
}

/**
 * Which chunks to sample: every n-th of them in id order (ids are hashes: a spread), at most
 * `max`; `offset` (0 to 1, a share of the step) starts the walk further on: another sample.
 */
export function sampleIds(ids: readonly string[], max: number, offset = 0): string[] {
  const sorted = [...ids].sort();
  if (sorted.length <= max) return sorted;
  const step = sorted.length / max;
  const from = Math.min(Math.max(offset, 0), 1 - 1e-9) * step;
  return Array.from({ length: max }, (_, i) => sorted[Math.floor(from + i * step)]!);
}
