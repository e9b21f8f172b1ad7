/**
 * Vector legs of known quality for the fusion bench (../shared/data/locomo-dev/vectors/README.md):
 * what a loopback Ollama answers for any text. Pure and deterministic: the same seed and text give
 * the same vector, whatever was asked before.
 *  - the stand-in rule: a text holding turn tags gets the normalised sum of those turns' vectors; a
 *    text containing a known question gets that question's vector; a text quoting five or more
 *    words in a row of some units (turns, records) gets the normalised sum of their vectors;
 *    anything else its fallback (a random unit vector);
 *  - `noise`: a random unit vector for every text (a broken or mismatched model);
 *  - `good`: every unit a random code; a question the normalised sum of its answers' codes plus
 *    gaussian noise (errors independent of BM25's).
 */
import { prng } from "../prng.js";

export type Embed = (text: string) => Float32Array;

/** The vector scaled to unit length (a zero vector stays zero). */
export function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n === 0) return v;
  return v.map((x) => x / n);
}

/** A standard normal draw (Box–Muller) from a uniform source. */
export function gaussian(rand: () => number): number {
  const u = 1 - rand(); // (0, 1]: log is finite
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** A random unit vector: uniform on the sphere (normalised gaussian components). */
export function randomUnit(rand: () => number, dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (let i = 0; i < dims; i++) v[i] = gaussian(rand);
  return unit(v);
}

/** A 32-bit seed from a seed and a text (FNV-1a over the UTF-16 code units). */
export function textSeed(seed: number, text: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The noise leg: every text its own random unit vector, fixed by seed and text. */
export function noiseLeg(seed: number, dims: number): Embed {
  return (text) => randomUnit(prng(textSeed(seed, text)), dims);
}

/** Lower-cased words (letters and digits), the unit of the five-word rule. */
export const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
/** A text as the question rule compares it: its words joined by single spaces. */
export const plain = (text: string): string => words(text).join(" ");

const RUN = 5;
const TAG = /\[(conv-\d+ D\d+:\d+)\]/g;

export interface StandInSource {
  /** Unit key (a turn tag's inside, `conv-30 D1:3`, or a record's name) → its vector and its text. */
  units: ReadonlyMap<string, { vector: Float32Array; text: string }>;
  /** Question text → its vector. */
  questions: ReadonlyMap<string, Float32Array>;
  /** Answers texts that match none of the rules. */
  fallback: Embed;
}

export type Rule = "tags" | "question" | "fragment" | "fallback";

/**
 * The stand-in rule over `src`. A five-word run found in more than one unit identifies none of
 * them (boilerplate shared by records, a phrase every turn uses) and is left out.
 */
export function standIn(src: StandInSource): { embed: Embed; rule: (text: string) => Rule } {
  const runs = new Map<string, string | null>();
  for (const [key, u] of src.units) {
    const w = words(u.text);
    for (let i = 0; i + RUN <= w.length; i++) {
      const r = w.slice(i, i + RUN).join(" ");
      const had = runs.get(r);
      runs.set(r, had === undefined || had === key ? key : null);
    }
  }
  // Longest first, so a text holding a question that contains a shorter one gets the longer.
  const questions = [...src.questions.keys()].map((q) => ({ q, p: plain(q) })).filter((x) => x.p !== "").sort((a, b) => b.p.length - a.p.length);
  const sum = (keys: Iterable<string>, dims: number) => {
    const v = new Float32Array(dims);
    for (const k of keys) {
      const u = src.units.get(k)!.vector;
      for (let i = 0; i < dims; i++) v[i] = v[i]! + u[i]!;
    }
    return unit(v);
  };
  const dims = src.units.values().next().value?.vector.length ?? src.questions.values().next().value?.length ?? 0;
  const match = (text: string): { rule: Rule; keys?: Set<string>; question?: string } => {
    const tagged = new Set([...text.matchAll(TAG)].map((m) => m[1]!).filter((k) => src.units.has(k)));
    if (tagged.size > 0) return { rule: "tags", keys: tagged };
    const p = ` ${plain(text)} `;
    const q = questions.find((x) => p.includes(` ${x.p} `));
    if (q) return { rule: "question", question: q.q };
    const w = words(text);
    const hit = new Set<string>();
    for (let i = 0; i + RUN <= w.length; i++) {
      const k = runs.get(w.slice(i, i + RUN).join(" "));
      if (k) hit.add(k);
    }
    if (hit.size > 0) return { rule: "fragment", keys: hit };
    return { rule: "fallback" };
  };
  return {
    rule: (text) => match(text).rule,
    embed: (text) => {
      const m = match(text);
      if (m.keys) return sum(m.keys, dims);
      if (m.question !== undefined) return src.questions.get(m.question)!;
      return src.fallback(text);
    },
  };
}

/**
 * The good leg's vectors: a random code per unit (fixed by seed and key) and, per question, the
 * normalised sum of its answers' codes plus gaussian noise `level` times as long as that sum (a
 * question with no known answer gets a random vector).
 */
export function goodCodes(seed: number, dims: number, units: Iterable<string>, questions: Iterable<{ text: string; answers: readonly string[] }>, level: number): { codes: Map<string, Float32Array>; questions: Map<string, Float32Array> } {
  const codes = new Map<string, Float32Array>();
  for (const k of units) codes.set(k, randomUnit(prng(textSeed(seed, `unit:${k}`)), dims));
  const qs = new Map<string, Float32Array>();
  for (const q of questions) {
    const rand = prng(textSeed(seed, `question:${q.text}`));
    const s = new Float32Array(dims);
    for (const a of q.answers) {
      const c = codes.get(a);
      if (c) for (let i = 0; i < dims; i++) s[i] = s[i]! + c[i]!;
    }
    const signal = unit(s);
    if (signal.every((x) => x === 0)) {
      qs.set(q.text, randomUnit(rand, dims));
      continue;
    }
    const noise = randomUnit(rand, dims);
    qs.set(q.text, unit(signal.map((x, i) => x + level * noise[i]!)));
  }
  return { codes, questions: qs };
}
