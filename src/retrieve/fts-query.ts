/**
 * Turns free text into an FTS5 MATCH expression: every word quoted (so FTS5 syntax in the input is
 * inert), stop words dropped, OR-joined so partial matches rank by BM25. Pure.
 */
import { identifierParts } from "../util/identifiers.js";
import { alternativesOf } from "./vocabulary.js";

const STOP = new Set(
  ("a an and are as at be but by for from has have how i if in into is it its of on or that the their then there these they this to was " +
    "we were what when where which who why will with you your do does did can could should would about after before our us not no so than too very")
    .split(" "),
);

export const MAX_QUERY_TERMS = 64;

export function queryTerms(text: string): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => w.length < 64);
  const content = words.filter((w) => !STOP.has(w));
  return [...new Set(content.length > 0 ? content : words)].slice(0, MAX_QUERY_TERMS);
}

/**
 * What the search looks for: the text's terms, each with its other forms in the vocabulary of the
 * trade (./vocabulary.ts: "postgres" also finds "PostgreSQL", "sg" "security group", "chose"
 * "choose"), and an identifier's words ("getUserName" also finds "get user name", "get_user_name").
 */
export function searchForms(text: string): string[] {
  const terms = queryTerms(text);
  const forms = new Set(terms);
  for (const t of terms) for (const a of alternativesOf(t)) forms.add(a);
  for (const raw of new Set(text.match(/[\p{L}\p{N}]+/gu) ?? [])) {
    const parts = identifierParts(raw);
    if (parts.length > 0 && parts.length <= 8) forms.add(parts.join(" "));
  }
  return [...forms];
}

/** `undefined` when the text has no searchable word. */
export function toMatchExpression(text: string): string | undefined {
  const forms = searchForms(text);
  return forms.length === 0 ? undefined : forms.map((t) => `"${t}"`).join(" OR ");
}
