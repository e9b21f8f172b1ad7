/**
 * The relevance floor: whether a prompt is about anything stored, so that a prompt about nothing
 * stored injects nothing. Words are compared by their Porter stems, as the search's index compares
 * them, and weighed by how rare they are in the store (`Rarity`): a memory that holds the prompt's
 * rare words is about it; one that shares only its common words may not be. Pure.
 */
import { memoized } from "../util/memo.js";
import { EVEN, type Rarity } from "../retrieve/rarity.js";
import { phraseEntries, stemSafeEntries } from "../retrieve/vocabulary.js";
import { identifierWords } from "../util/identifiers.js";
import { compoundStems } from "./compounds.js";
import { stem } from "./stem.js";
import { isFiller } from "./terms.js";
import { DEFAULT_FLOOR_RULES, type Candidate, type FloorRules, type InjectOptions } from "./types.js";

export { stem } from "./stem.js";

const WORD = /[\p{L}\p{N}]+/gu;

export { EVEN, idf, type Rarity } from "../retrieve/rarity.js";

/**
 * Each table form's other forms (src/retrieve/vocabulary.ts), by the form's stems: a stem sequence
 * per alternative ("sg" → [["secur", "group"]]). Built on first use.
 */
let stemAlts: Map<string, string[][]> | undefined;
function alternativesOfStem(s: string): readonly string[][] {
  if (!stemAlts) {
    stemAlts = new Map();
    for (const [form, alts] of stemSafeEntries()) {
      const key = form.split(" ").map(stem).join(" ");
      const list = stemAlts.get(key) ?? [];
      for (const a of alts) list.push(a.split(" ").map(stem));
      stemAlts.set(key, list);
    }
  }
  return stemAlts.get(s) ?? [];
}

/**
 * The longest short form of a phrase that a text must write in capitals to stand for it ("PR",
 * "CD", "TTL", "PRs"): written small, two or three letters are most often another word ("cd web",
 * "500 ml", "Mr", "40 lb", "import os", "spa"), and one token of the text would hold two of the
 * prompt's words.
 */
const ACRONYM_MAX = 3;

/**
 * The tables' phrases ("release notes"), each as its content words' stems, with its other forms
 * as stem sequences ("changelog" → [["changelog"]]; `acronym`: a short form the text must write
 * in capitals). Built on first use.
 */
let phraseAlts: { stems: string[]; alts: { stems: string[]; acronym: boolean }[] }[] | undefined;
function phrasesOfStems(): readonly { stems: string[]; alts: { stems: string[]; acronym: boolean }[] }[] {
  phraseAlts ??= phraseEntries().map(([form, alts]) => ({
    stems: [...new Set(form.split(" ").filter((w) => !isFiller(w)).map(stem))],
    alts: alts.map((a) => ({ stems: a.split(" ").map(stem), acronym: !a.includes(" ") && a.length <= ACRONYM_MAX })),
  }));
  return phraseAlts;
}

/** Whether the text writes a word of stem `s` in capitals (an "s" of the plural aside: "PRs"). */
function inCapitals(text: string, s: string): boolean {
  return (text.match(WORD) ?? []).some((w) => /^[\p{Lu}\p{N}]{2,}s?$/u.test(w) && /\p{Lu}/u.test(w) && stem(w.toLowerCase()) === s);
}

/**
 * Which of `wanted` (stems) the text's words have: the stem itself, one of its other forms in
 * the vocabulary of the trade ("postgres" in a text that says "PostgreSQL", "sg" in one that says
 * "security group": every word of a phrase present; every word of a phrase the prompt holds,
 * "release notes", in a text that says "changelog", or "pull request" in one that says "PR", a
 * short form of three letters or fewer in capitals only), or a compound holding it ("master" in
 * "Puppetmaster", "autoscaling" in "Auto Scaling": ./compounds.ts).
 */
export function stemsFound(text: string, wanted: ReadonlySet<string>, into = new Set<string>(), rules: Readonly<FloorRules> = DEFAULT_FLOOR_RULES): Set<string> {
  if (wanted.size === 0) return into;
  const have = rules.identifierWords ? stemsOf(text) : plainStemsOf(text);
  let missing: Set<string> | undefined;
  for (const w of wanted) {
    if (have.has(w) || (rules.alternatives && alternativesOfStem(w).some((alt) => alt.every((s) => have.has(s))))) into.add(w);
    else if (!into.has(w)) (missing ??= new Set()).add(w);
  }
  // a phrase of the tables among the prompt's words ("release notes") found by its other form ("changelog")
  if (missing && rules.alternatives) {
    for (const p of phrasesOfStems()) {
      if (p.stems.length === 0 || !p.stems.some((s) => missing!.has(s)) || !p.stems.every((s) => wanted.has(s))) continue;
      if (!p.alts.some((alt) => alt.stems.every((s) => have.has(s)) && (!alt.acronym || inCapitals(text, alt.stems[0]!)))) continue;
      for (const s of p.stems) {
        into.add(s);
        missing.delete(s);
      }
    }
  }
  return missing && rules.compounds ? compoundStems(wordsOf(text), missing, stem, into) : into;
}

/**
 * The rarity of a prompt's word counted with its other forms: a word the store never uses but
 * whose long form it uses often ("sg" in a store that says "security group" everywhere) is as
 * common as that form. A phrase is as rare as its rarest word.
 */
export function conceptRarity(rarity: Rarity): Rarity {
  if (rarity === EVEN) return EVEN;
  return (s) => Math.min(rarity(s), ...alternativesOfStem(s).map((alt) => Math.max(...alt.map(rarity))));
}

/** A text's words in order, lower case, remembered per text (the daemon meets the same chunks prompt after prompt). */
const wordsOf = memoized((text: string): readonly string[] => text.toLowerCase().match(WORD) ?? [], 8_000);
/** A text's distinct stems, its identifiers' words among them ("user" in getUserName), remembered per text. */
const stemsOf = memoized((text: string): ReadonlySet<string> => new Set([...wordsOf(text), ...identifierWords(text)].map(stem)), 8_000);
/** The same without its identifiers' words (`FloorRules.identifierWords` off). */
const plainStemsOf = (text: string): ReadonlySet<string> => new Set(wordsOf(text).map(stem));

/** Share of the prompt's content stems present in the text, each weighed by its rarity (0 to 1). */
export function termCoverage(stems: readonly string[], text: string, rarity: Rarity = EVEN): number {
  const wanted = new Set(stems);
  const total = [...wanted].reduce((s, t) => s + rarity(t), 0);
  if (total <= 0) return 0;
  return [...stemsFound(text, wanted)].reduce((s, t) => s + rarity(t), 0) / total;
}

/** Why a result passed or failed the floor (what `mem why` shows). */
export interface FloorVerdict {
  pass: boolean;
  /** What let it pass: its vector similarity, the prompt's words it holds, both legs' first, the words its file's parts hold together (./record-floor.ts), or its rank above a result that passed (./ranked-floor.ts). */
  by?: "vector" | "words" | "agreement" | "record" | "ranked";
  /** The prompt's content stems its heading and text hold. */
  matched: string[];
  /** How many stems the prompt has. */
  of: number;
  /**
   * How many of them a lexical match must hold: at least two, and `minTermCoverage` of them
   * (counted with every word alike; with another rarity the share is weighed, see `coverage`).
   */
  needed: number;
  /** The share of the prompt's stems it holds, each weighed by its rarity (0 to 1). */
  coverage: number;
  /** Its vector similarity to the prompt, when the vector leg found it. */
  similarity?: number;
  /** The verdict in words. */
  reason: string;
}

/** The fewest of `n` words that reach the share `min` (the comparison the floor makes), and at least two. */
function wordsNeeded(n: number, min: number): number {
  let k = 0;
  while (k < n && !(k / n >= min)) k++;
  return Math.max(2, k);
}

const words = (n: number) => `${n} content word${n === 1 ? "" : "s"}`;

/** The floor's decision and what it rests on. */
interface FloorFacts {
  pass: boolean;
  by?: "vector" | "words" | "agreement";
  wanted: ReadonlySet<string>;
  found: ReadonlySet<string>;
  total: number;
  coverage: number;
  similarity: number | undefined;
  /** The similarity as spreads above the leg's other answers, when the leg's spread is known. */
  z: number | undefined;
}

/**
 * What the floor knows of the vector leg for this prompt: how far fusion trusted it (its weight:
 * calibrated for this store and model × this query's share) and its scores' spread. A result's
 * similarity counts when the leg is trusted and the result stands out of the leg's other answers
 * by `VECTOR_STANDOUT` spreads (a calibrated similarity, the same for every model) and holds at
 * least one of the prompt's words.
 */
export interface VectorFloor {
  weight: number;
  /** The leg's other answers' mean and spread, and how many answers they are made of (`n`, when known). */
  spread: { mean: number; sd: number; n?: number };
}

/**
 * The fewest of the leg's other answers a spread is taken from: two or three similarities (a
 * store of a few chunks) give a spread of nothing, and any first answer stands out of it.
 */
export const SPREAD_ANSWERS = 5;

/** The least weight of a vector leg whose similarities can pass the floor. */
export const VECTOR_TRUST = 0.4;
/** How many spreads a result's similarity must stand above the leg's other answers. */
export const VECTOR_STANDOUT = 4;
/** How many of the prompt's content words a vector match must hold besides (a random vector's best answer may stand out by chance). */
export const VECTOR_WORDS = 1;

/** A similarity as spreads above the leg's other answers (undefined without the leg's spread). */
function calibratedSimilarity(similarity: number, v: VectorFloor | undefined): number | undefined {
  if (!v || !(v.spread.sd > 1e-9) || (v.spread.n !== undefined && v.spread.n < SPREAD_ANSWERS)) return undefined;
  return (similarity - v.spread.mean) / v.spread.sd;
}

/** Whether a vector similarity clears the floor, and how it was judged. */
function vectorPasses(similarity: number | undefined, o: InjectOptions, v: VectorFloor | undefined, words: number): { pass: boolean; z?: number } {
  if (similarity === undefined) return { pass: false };
  if (!v) return { pass: similarity >= o.minSimilarity };
  const z = calibratedSimilarity(similarity, v);
  return z === undefined ? { pass: false } : { pass: v.weight >= VECTOR_TRUST && words >= VECTOR_WORDS && z >= VECTOR_STANDOUT, z };
}

/**
 * Both legs put the result first, the vector leg trusted, and it holds one of the prompt's words:
 * two independent signals agree (a random vector's first answer is BM25's first by chance only).
 */
function legsAgree(c: Candidate, v: VectorFloor | undefined, words: number): boolean {
  const enough = v?.spread.n === undefined || v.spread.n >= SPREAD_ANSWERS; // among a few answers, two legs' firsts agree by chance
  return v !== undefined && v.weight >= VECTOR_TRUST && enough && words >= VECTOR_WORDS && c.legs.bm25?.rank === 1 && c.legs.vector?.rank === 1;
}

/**
 * The floor for one result: both legs' first answer (`legsAgree`), a vector match that stands out (`VectorFloor`; without the leg's
 * calibration, a raw similarity of `minSimilarity`), or a lexical match that holds at least two
 * of the prompt's content words (one word alone cannot tell its sense) and at least
 * `minTermCoverage` of their weight.
 */
function floorFacts(c: Candidate, stems: readonly string[], o: InjectOptions, rarity: Rarity, v: VectorFloor | undefined, rules: Readonly<FloorRules>): FloorFacts {
  const wanted = new Set(stems);
  const found = stemsFound(`${c.headingPath.join(" ")} ${c.text}`, wanted, new Set(), rules);
  const similarity = c.legs.vector?.score;
  const vec = vectorPasses(similarity, o, v, found.size);
  const total = [...wanted].reduce((s, t) => s + rarity(t), 0);
  const coverage = total > 0 ? [...found].reduce((s, t) => s + rarity(t), 0) / total : 0;
  const facts = { wanted, found, similarity, z: vec.z, total, coverage };
  if (vec.pass) return { ...facts, pass: true, by: "vector" };
  if (found.size >= 2 && total > 0 && coverage >= o.minTermCoverage) return { ...facts, pass: true, by: "words" };
  if (legsAgree(c, v, found.size)) return { ...facts, pass: true, by: "agreement" };
  return { ...facts, pass: false };
}

/** Whether a result clears the floor (the hook's question; `floorVerdict` says why). */
export function passesFloor(c: Candidate, stems: readonly string[], o: InjectOptions, rarity: Rarity = EVEN, v?: VectorFloor, rules: Readonly<FloorRules> = DEFAULT_FLOOR_RULES): boolean {
  return floorFacts(c, stems, o, rarity, v, rules).pass;
}

/** The floor's verdict on one result, with its reasons (`mem why`): `passesFloor`'s decision, told. */
export function floorVerdict(c: Candidate, stems: readonly string[], o: InjectOptions, rarity: Rarity = EVEN, v?: VectorFloor, rules: Readonly<FloorRules> = DEFAULT_FLOOR_RULES): FloorVerdict {
  const f = floorFacts(c, stems, o, rarity, v, rules);
  const { wanted, found, similarity, coverage } = f;
  const base = { pass: f.pass, ...(f.by ? { by: f.by } : {}), matched: [...found], of: wanted.size, needed: wordsNeeded(wanted.size, o.minTermCoverage), coverage, ...(similarity !== undefined ? { similarity } : {}) };
  const sim = similarity === undefined ? "" : `vector similarity ${similarity.toFixed(2)}`;
  const judged =
    f.z !== undefined && v
      ? `${sim}, ${f.z.toFixed(1)} spreads above the leg's other answers (needs ${VECTOR_STANDOUT}, the leg trusted ${v.weight.toFixed(2)}${v.weight < VECTOR_TRUST ? ` < ${VECTOR_TRUST}` : ""})`
      : undefined;
  if (f.by === "vector") return { ...base, reason: judged ?? `${sim} ≥ ${o.minSimilarity}` };
  if (f.by === "agreement") return { ...base, reason: `both legs put it first (the vector leg trusted ${v!.weight.toFixed(2)}) and it holds ${[...found].join(", ")}` };
  const which = (share: boolean) => (found.size === 0 ? "" : ` (${[...found].join(", ")}${share ? `: ${pct(coverage)}` : ""})`);
  const holds = (share: boolean) => `holds ${found.size} of the prompt's ${words(wanted.size)}${which(share)}`;
  const below = sim ? `; ${judged ?? (v ? `${sim}: the vector leg gave no spread${v.spread.n !== undefined && v.spread.n < SPREAD_ANSWERS ? ` (${v.spread.n} other answers; needs ${SPREAD_ANSWERS})` : ""}` : `${sim} < ${o.minSimilarity}`)}` : "";
  const need = rarity === EVEN ? `needs ${base.needed} (at least 2 and ${pct(o.minTermCoverage)})` : `needs at least 2 and ${pct(o.minTermCoverage)} of their weight`;
  if (wanted.size === 0) return { ...base, reason: `the prompt has no content words${below}` };
  if (found.size < 2) return { ...base, reason: `${holds(false)}; ${need}${wanted.size === 1 ? ": one word alone cannot tell its sense" : ""}${below}` };
  return { ...base, reason: `${holds(true)}; ${need}${f.pass ? "" : below}` };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
