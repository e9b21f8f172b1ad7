/**
 * The prompt's words that can tell a memory apart: what the floor and the evidence selection
 * count. The search's own query (src/retrieve/fts-query.ts) keeps more words, for ranking; here
 * function words, the pieces of contractions ("let's" → "let", "s"; "don't" → "don", "t"),
 * conversational filler ("yeah", "okay", "please") and generic verbs and adverbs ("think",
 * "got", "really") are left out: a memory that shares only those with a prompt is not about it.
 * Single characters are left out too. Pure.
 */
import { stem } from "./stem.js";

const FILLER = new Set(
  (
    // pronouns, determiners, auxiliaries, prepositions, conjunctions
    "a about above after again against all also am an and any are aren as at be because been before being below between both but by " +
    "can cannot could couldn did didn do does doesn doing don down during each either else etc even ever every few for from further " +
    "had hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself just " +
    "least less let lets may me might mine more most much must mustn my myself neither no nor not of off on once one only or other " +
    "others our ours ourselves out over own per same shall shan she should shouldn so some such than that the their theirs them " +
    "themselves then there these they this those though through thus to too under until up upon us very via was wasn we were weren " +
    "what whatever when whenever where whether which while who whom whose why will with within without won would wouldn yet you " +
    "your yours yourself yourselves " +
    // pieces of contractions
    "ll m re s t ve d " +
    // conversational filler, acknowledgements, greetings
    "ok okay yes yeah yep yup nah nope sure fine alright right great good nice cool perfect awesome thanks thank thx ty please pls " +
    "continue proceed ahead done " +
    "hi hello hey hmm oh ah well anyway actually basically really maybe perhaps probably still already now soon later today " +
    // generic verbs and adverbs
    "get gets getting got gotten go goes going gone went come comes coming came make makes making made take takes taking took " +
    "give gives giving gave put puts say says said tell tells told think thinks thought know knows knew want wants wanted need " +
    "needs needed like likes liked look looks looking see sees seen saw try tries trying tried keep keeps kept seem seems " +
    "something anything everything nothing someone anyone thing things stuff way lot lots bit kind sort also again back"
  ).split(" "),
);

/** True for a word that tells nothing apart (`FILLER`), or a single character. */
export const isFiller = (word: string) => {
  const w = word.toLowerCase();
  return w.length < 2 || FILLER.has(w) || FILLER.has(stem(w));
};

/**
 * The prompt's content words, from the search's terms (lower-case, distinct), cut where the
 * index's tokenizer cuts them ("steps_count" → "steps", "count").
 */
export function contentTerms(queryTerms: readonly string[]): string[] {
  return [...new Set(queryTerms.flatMap((t) => t.match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !isFiller(t)))];
}

/** The distinct stems of the prompt's content words. */
export function contentStems(queryTerms: readonly string[]): string[] {
  return [...new Set(contentTerms(queryTerms).map(stem))];
}
