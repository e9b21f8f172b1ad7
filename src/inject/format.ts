/**
 * What goes into the model's context for a prompt: the evidence of the results that clear the
 * relevance floor (./floor.ts), chosen line by line within a character budget (./select.ts),
 * as compact markdown items with provenance (./items.ts) inside the recall frame. Pure.
 */
import { RECALL, frameOverhead, framed } from "../render/frame.js";
import { conceptRarity, EVEN, floorVerdict, type FloorVerdict, type Rarity } from "./floor.js";
import { rankedFloor } from "./ranked-floor.js";
import { recordFloor } from "./record-floor.js";
import { chooseEvidence, DEFAULT_SELECT, pieceCount, type Choice } from "./select.js";
import { contentStems } from "./terms.js";
import { linePrint } from "../store/line-print.js";
import { DEFAULT_FLOOR_RULES, type Candidate, type Describe, type InjectOptions } from "./types.js";

export { DEFAULT_INJECT, type Candidate, type Describe, type InjectOptions } from "./types.js";
export { floorVerdict, passesFloor, stem, termCoverage, type FloorVerdict } from "./floor.js";
export { SHORT_ID_CHARS, shortId } from "./items.js";

/** The floor, the selection and the budget, as `formatInjection` and `traceInjection` both run them. */
interface Composed {
  stems: string[];
  /** How each stem is weighed (the store's rarity, with the vocabulary's other forms). */
  rarity: Rarity;
  /** Each candidate's floor verdict, in the candidates' order (the one decision: `passesFloor`'s, told). */
  floor: FloorVerdict[];
  /** The candidates past the floor (the selection's indices are into this). */
  kept: Candidate[];
  choice: Choice | undefined;
  /** Whether each chosen item still fits the budget once redacted as rendered. */
  fits: boolean[];
}

function compose(cands: readonly Candidate[], queryTerms: readonly string[], o: InjectOptions, redact: (s: string) => string, d: Describe): Composed {
  const stems = contentStems(queryTerms);
  const rarity = conceptRarity(d.rarity ?? EVEN);
  const rules = d.floorRules ?? DEFAULT_FLOOR_RULES;
  const verdicts = cands.map((c) => floorVerdict(c, stems, o, rarity, d.vector, rules));
  const byRecord = rules.record ? recordFloor(cands, verdicts, stems, o, rarity) : verdicts;
  const floor = rules.ranked ? rankedFloor(byRecord) : byRecord;
  const kept = cands.filter((_, i) => floor[i]!.pass);
  if (kept.length === 0) return { stems, rarity, floor, kept, choice: undefined, fits: [] };
  const choice = chooseEvidence(kept, stems, { ...DEFAULT_SELECT, roomChars: o.budgetChars - frameOverhead(RECALL), maxItems: o.maxItems }, { redact, describe: d });
  // Redaction of the rendered items may have changed their length: the budget holds all the same.
  let used = frameOverhead(RECALL);
  const fits = choice.items.map((item) => (used += item.line.length + 1) <= o.budgetChars);
  return { stems, rarity, floor, kept, choice, fits };
}

/** What is put before a prompt, the chunks it shows, and which of their lines (file line numbers). */
export interface Injected {
  text: string;
  ids: string[];
  /** Per chunk, the fingerprints (./line-print.ts) of the lines shown whole: a line of which only some sentences were shown is not among them (its other sentences may come later). */
  lines: Map<string, string[]>;
}

function injection(c: Composed): Injected | undefined {
  const fit = c.choice?.items.filter((_, i) => c.fits[i]) ?? [];
  if (fit.length === 0) return undefined;
  // Parts shown of each line, by result and line.
  const parts = new Map<string, { cand: number; line: number; of: number; shown: number }>();
  c.choice!.placed.forEach((item, i) => {
    if (!c.fits[i]) return;
    for (const e of item) {
      const key = `${e.cand}:${e.line}`;
      const p = parts.get(key) ?? { cand: e.cand, line: e.line, of: e.parts, shown: 0 };
      p.shown++;
      parts.set(key, p);
    }
  });
  const lines = new Map<string, string[]>();
  for (const p of parts.values()) {
    if (p.shown < p.of) continue;
    const cand = c.kept[p.cand]!;
    const raw = cand.text.split("\n")[p.line - cand.startLine];
    if (raw === undefined || raw.trim() === "") continue;
    lines.set(cand.id, [...(lines.get(cand.id) ?? []), linePrint(raw)]);
  }
  return { text: framed(RECALL, fit.map((i) => i.line)), ids: [...new Set(fit.flatMap((i) => i.ids))], lines };
}

/**
 * Formats the memories for a prompt whose search terms are `queryTerms` inside the recall frame;
 * undefined when nothing passes the floor or fits. Every field is redacted and rendered on one
 * line with markup defused, so a stored path, heading or body can neither add a line that looks
 * like another memory nor close the frame.
 */
export function formatInjection(cands: readonly Candidate[], queryTerms: readonly string[], o: InjectOptions, redact: (s: string) => string, d: Describe = {}): Injected | undefined {
  return injection(compose(cands, queryTerms, o, redact, d));
}

/**
 * What happened to a result's pieces (a piece: a line, or a sentence of a long line): shown, held
 * by a better ranked result (chunks overlap), holding none of the prompt's content words (nor a
 * neighbour that does), or left out for the budget or the item cap.
 */
export interface EvidenceTrace {
  pieces: number;
  shown: number;
  /** Distinct lines of the file (or memory) shown. */
  linesShown: number;
  elsewhere: number;
  unscored: number;
  budget: number;
  maxItems: number;
}

/** `formatInjection`'s answer with how it came about, candidate by candidate (`mem why`). */
export interface InjectionTrace {
  /** The stems of the prompt's content words: what the floor and the selection look for. */
  stems: string[];
  /** Each candidate's floor verdict, in the candidates' order. */
  floor: FloorVerdict[];
  /** Each candidate's pieces; undefined for one that failed the floor. */
  evidence: (EvidenceTrace | undefined)[];
  /** Exactly what `formatInjection` returns. */
  injection: Injected | undefined;
  /** How many items it holds. */
  items: number;
  /** Why nothing is injected, when nothing is. */
  nothing?: string;
}

/** `formatInjection`, traced: the same floor, selection and budget, and what each did. */
export function traceInjection(cands: readonly Candidate[], queryTerms: readonly string[], o: InjectOptions, redact: (s: string) => string, d: Describe = {}): InjectionTrace {
  const c = compose(cands, queryTerms, o, redact, d);
  const out = injection(c);
  const shown = new Set(c.choice?.placed.filter((_, i) => c.fits[i]).flat() ?? []);
  const late = new Set(c.choice?.placed.filter((_, i) => !c.fits[i]).flat() ?? []);
  const index = new Map(c.kept.map((k, i) => [k, i]));
  const evidence = cands.map((cand): EvidenceTrace | undefined => {
    const k = index.get(cand);
    if (k === undefined || !c.choice) return undefined;
    const own = c.choice.pieces.filter((e) => e.cand === k);
    const count = (f: (e: (typeof own)[number]) => boolean) => own.filter(f).length;
    const budget = count((e) => late.has(e) || c.choice!.dropped.get(e) === "budget");
    const all = pieceCount(cand, DEFAULT_SELECT.maxPieceChars, redact);
    return {
      pieces: all,
      shown: count((e) => shown.has(e)),
      linesShown: new Set(own.filter((e) => shown.has(e)).map((e) => e.line)).size,
      elsewhere: all - own.length,
      unscored: count((e) => e.score <= 0),
      budget,
      maxItems: count((e) => c.choice!.dropped.get(e) === "maxItems"),
    };
  });
  const nothing = out
    ? undefined
    : cands.length === 0
      ? "no result to choose from"
      : c.kept.length === 0
        ? "no result passed the floor"
        : !c.choice?.pieces.some((e) => e.score > 0)
          ? "no line of the results past the floor holds a content word of the prompt"
          : c.choice.items.length === 0
            ? "no line fits the budget"
            : "nothing fits the budget once redacted";
  // The verdicts told are the decisions compose made (one function makes both).
  return { stems: c.stems, floor: c.floor, evidence, injection: out, items: out ? c.fits.filter(Boolean).length : 0, ...(nothing ? { nothing } : {}) };
}
