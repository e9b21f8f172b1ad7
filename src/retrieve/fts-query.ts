/**
 * Turns free text into an FTS5 MATCH expression: every word quoted (so FTS5 syntax in the input is
 * inert), stop words dropped, OR-joined so partial matches rank by BM25. Pure.
 */
import { identifierParts } from "../util/identifiers.js";
import { DEFAULT_QUERY_RULES, type QueryRules } from "./query-rules.js";
import { alternativesOf, phrasesIn } from "./vocabulary.js";

const STOP = new Set(
  ("a an and are as at be but by for from has have how i if in into is it its of on or that the their then there these they this to was " +
    "we were what when where which who why will with you your do does did can could should would about after before our us not no so than too very")
    .split(" "),
);

export const MAX_QUERY_TERMS = 64;

/** The text's words, lower case, in order (a word of 64 characters or more is no word). */
const wordsOf = (text: string): string[] => (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => w.length < 64);

export function queryTerms(text: string): string[] {
  return termsOf(wordsOf(text));
}

/** The search's terms of the text's words: stop words out (unless nothing else is left), each once. */
function termsOf(words: readonly string[]): string[] {
  const content = words.filter((w) => !STOP.has(w));
  return [...new Set(content.length > 0 ? content : words)].slice(0, MAX_QUERY_TERMS);
}

/**
 * What the search looks for, word by word: each of the text's terms with the other forms it
 * stands for, the term first. Its other forms are its alternatives in the vocabulary of the trade
 * (./vocabulary.ts: "postgres" also finds "PostgreSQL", "sg" "security group", "chose" "choose")
 * and, for an identifier, its words ("getUserName" also finds "get user name", "get_user_name");
 * a phrase of that vocabulary the text spells out finds its other forms ("pull request" finds "PR").
 * Every form belongs to one word only: a form that is itself a term of the text, or another
 * term's form already, is not repeated. The words of an identifier that is no term (inside a
 * snake_case name: "get_getUserName") are a word of their own. `rules` switches each kind of
 * other form off (./query-rules.ts). Pure.
 */
export function searchConcepts(text: string, rules: Readonly<QueryRules> = DEFAULT_QUERY_RULES): string[][] {
  const words = wordsOf(text);
  const terms = termsOf(words);
  const splits = new Map<string, string>();
  for (const raw of rules.identifierSplit ? new Set(text.match(/[\p{L}\p{N}]+/gu) ?? []) : []) {
    const parts = identifierParts(raw);
    if (parts.length > 0 && parts.length <= 8) splits.set(raw.toLowerCase(), parts.join(" "));
  }
  const claimed = new Set(terms);
  const claim = (form: string): boolean => {
    if (claimed.has(form)) return false;
    claimed.add(form);
    return true;
  };
  const concepts = terms.map((t) => {
    const forms = [t];
    for (const f of alternativesOf(t, rules)) if (claim(f)) forms.push(f);
    const split = splits.get(t);
    if (split !== undefined && claim(split)) forms.push(split);
    return forms;
  });
  for (const split of splits.values()) if (claim(split)) concepts.push([split]);
  // A phrase of the vocabulary the text spells out ("pull request") is a word of its own: its
  // other forms ("pr"); the phrase's own words stay the words they are.
  for (const { alternatives } of rules.aliases || rules.wordForms ? phrasesIn(words.slice(0, 4 * MAX_QUERY_TERMS), rules) : []) {
    const forms = alternatives.filter(claim);
    if (forms.length > 0) concepts.push(forms);
  }
  return concepts;
}

/** Every form the search looks for (`searchConcepts`, flattened): each once. */
export function searchForms(text: string, rules: Readonly<QueryRules> = DEFAULT_QUERY_RULES): string[] {
  return searchConcepts(text, rules).flat();
}

/** The forms quoted and OR-joined; `undefined` for none. */
export function matchOf(forms: readonly string[]): string | undefined {
  return forms.length === 0 ? undefined : forms.map((t) => `"${t}"`).join(" OR ");
}

/** `undefined` when the text has no searchable word. */
export function toMatchExpression(text: string): string | undefined {
  return matchOf(searchForms(text));
}
