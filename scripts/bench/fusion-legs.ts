/**
 * The legs bench:fusion serves, built from the data (./vector-legs.ts holds the rules):
 *  - `use`: the Universal Sentence Encoder vectors of conv-30 (../shared/data/locomo-dev/vectors),
 *    answered by the stand-in rule, anything else random;
 *  - `noise`: a random unit vector for every text;
 *  - `good`: a random code per unit (a LoCoMo turn, a decision record), a question the sum of its
 *    answers' codes plus gaussian noise, other texts by the stand-in rule, else random.
 * Pure but for reading files.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LocomoQuestion } from "./locomo-data.js";
import { goodCodes, noiseLeg, standIn, type Embed } from "./vector-legs.js";

export type LegName = "none" | "use" | "noise" | "good";

export interface LegParams {
  seed: number;
  /** Dimensions of the noise and good legs (USE has 512). */
  dims: number;
  /** The good leg's question noise: the noise vector's length against the signal's (1). */
  goodNoise: number;
}

/** The USE vectors file's shape. */
interface UseFile {
  turns: Record<string, number[]>;
  questions: Record<string, number[]>;
}

export function useVectorsFile(locomoDir: string): string {
  return join(locomoDir, "vectors", "use-conv-30.json");
}

/** The USE leg over conv-30 (`turns` from its markdown, keyed `conv-30 Ds:t`). */
export function useLeg(file: string, turns: ReadonlyMap<string, string>, p: LegParams): Embed {
  const raw = JSON.parse(readFileSync(file, "utf8")) as UseFile;
  const units = new Map<string, { vector: Float32Array; text: string }>();
  for (const [id, v] of Object.entries(raw.turns)) units.set(`conv-30 ${id}`, { vector: Float32Array.from(v), text: turns.get(`conv-30 ${id}`) ?? "" });
  const questions = new Map(Object.entries(raw.questions).map(([q, v]) => [q, Float32Array.from(v)] as const));
  const dims = units.values().next().value?.vector.length ?? 512;
  return standIn({ units, questions, fallback: noiseLeg(p.seed, dims) }).embed;
}

/** The good leg over units (key → text) and questions whose answers are unit keys. */
export function goodLeg(units: ReadonlyMap<string, string>, questions: readonly { text: string; answers: readonly string[] }[], p: LegParams): Embed {
  const g = goodCodes(p.seed, p.dims, units.keys(), questions, p.goodNoise);
  const u = new Map([...units].map(([k, text]) => [k, { vector: g.codes.get(k)!, text }] as const));
  return standIn({ units: u, questions: g.questions, fallback: noiseLeg(p.seed, p.dims) }).embed;
}

/** LoCoMo questions as the good leg takes them: evidence turns keyed `conv-XX Ds:t`. */
export const locomoAnswers = (qs: readonly LocomoQuestion[]) => qs.map((q) => ({ text: q.question, answers: q.evidence.map((e) => `${q.conv} ${e}`) }));
