/**
 * The ranking rules taken away one at a time (`npm run bench:ablate`): each variant is what ships
 * but for one rule of the BM25 leg's query (src/retrieve/query-rules.ts), one weight of its index
 * columns (src/retrieve/bm25.ts), or one rule of the prompt hook's floor (src/inject/types.ts
 * FloorRules, the store's rarity). Pure data.
 */
import { DEFAULT_BM25_WEIGHTS, type Bm25Weights } from "../../src/retrieve/bm25.js";
import { DEFAULT_QUERY_RULES, type QueryRules } from "../../src/retrieve/query-rules.js";
import { DEFAULT_FLOOR_RULES, type FloorRules } from "../../src/inject/types.js";

export interface Variant {
  name: string;
  /** What the variant changes, in words. */
  what: string;
  rules: QueryRules;
  weights: Bm25Weights;
  floor: FloorRules;
  /** The floor weighs every word alike instead of by its rarity in the store. */
  evenRarity: boolean;
  /** `salience.weight`, how much the priors (salience, kind, recency) move a result (undefined: the config's). */
  priorWeight?: number;
}

const base: Omit<Variant, "name" | "what"> = { rules: { ...DEFAULT_QUERY_RULES }, weights: { ...DEFAULT_BM25_WEIGHTS }, floor: { ...DEFAULT_FLOOR_RULES }, evenRarity: false };
const v = (name: string, what: string, change: Partial<Omit<Variant, "name" | "what">>): Variant => ({ name, what, ...base, ...change });

export const VARIANTS: readonly Variant[] = [
  v("shipped", "every rule as shipped", {}),
  v("-split", "query: no identifier splitting (a camelCase word of the question is not also searched as its words)", { rules: { ...base.rules, identifierSplit: false } }),
  v("-aliases", "query: no vocabulary aliases (postgres/PostgreSQL, sg/security group)", { rules: { ...base.rules, aliases: false } }),
  v("-forms", "query: no English word forms (chose/choose, decide/decision)", { rules: { ...base.rules, wordForms: false } }),
  v("-vocab", "query: neither aliases nor word forms", { rules: { ...base.rules, aliases: false, wordForms: false } }),
  v("-countOnce", "query: a word's forms add up (no count-once)", { rules: { ...base.rules, countOnce: false } }),
  v("-allQuery", "query: none of the above (the question's own words only)", { rules: { ...base.rules, identifierSplit: false, aliases: false, wordForms: false, countOnce: false } }),
  v("others 0.75", "query: a word's other forms (aliases, word forms, identifier words) count 0.75 of the word as written", { rules: { ...base.rules, otherForms: 0.75 } }),
  v("others 0.5", "query: they count half", { rules: { ...base.rules, otherForms: 0.5 } }),
  v("-pairs", "query: the question's adjacent words are not looked for side by side (pairs weigh 0; 0.3 shipped)", { rules: { ...base.rules, pairs: 0 } }),
  v("pairs 0.15", "query: adjacent words side by side weigh 0.15", { rules: { ...base.rules, pairs: 0.15 } }),
  v("pairs 0.5", "query: adjacent words side by side weigh 0.5", { rules: { ...base.rules, pairs: 0.5 } }),
  v("idents 0", "index: identifier words not scored (column weight 0)", { weights: { ...base.weights, idents: 0 } }),
  v("idents 0.25", "index: identifier words weigh 0.25", { weights: { ...base.weights, idents: 0.25 } }),
  v("idents 1", "index: identifier words weigh as the text", { weights: { ...base.weights, idents: 1 } }),
  v("heading 1", "index: the heading weighs as the text (2 shipped)", { weights: { ...base.weights, heading: 1 } }),
  v("-priors", "ranking: no priors (salience.weight 0: kind, recency and salience do not reorder close results)", { priorWeight: 0 }),
  v("heading 3", "index: the heading weighs 3", { weights: { ...base.weights, heading: 3 } }),
  v("-floorAlts", "floor: the vocabulary's other forms do not count", { floor: { ...base.floor, alternatives: false } }),
  v("-compounds", "floor: no compound reading", { floor: { ...base.floor, compounds: false } }),
  v("-floorIdents", "floor: identifier words do not count", { floor: { ...base.floor, identifierWords: false } }),
  v("-recordFloor", "floor: no record floor", { floor: { ...base.floor, record: false } }),
  v("-rankedFloor", "floor: a result ranked above one that passed is judged alone (no ranked floor)", { floor: { ...base.floor, ranked: false } }),
  v("-rarity", "floor: every word weighs alike", { evenRarity: true }),
];
