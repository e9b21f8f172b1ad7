/**
 * The words an identifier is made of. The text index's tokenizer splits snake_case, kebab-case
 * and dotted names itself (`_`, `-` and `.` end a token), but a camelCase or PascalCase name is
 * one token to it: "getUserName" is "getusername", and a search for "user name" cannot find it.
 * These split such a name into its words, the same way for what is indexed (a chunk's identifier
 * words, src/store/chunk-idents.ts), what is searched for (src/retrieve/fts-query.ts) and what
 * the relevance floor counts (src/inject/floor.ts). Pure.
 *
 * Splits: a lower-case letter or a digit before a capital ("getUser", "utf8Decode" → utf8 decode,
 * "s3Bucket"), and the last capital of a run before lower case ("HTTPServer" → http server).
 * Not split: a letter before a digit ("utf8", "IPv6", "x86"; the tokenizer keeps them whole too),
 * a plural acronym ("APIs", "getURLsFor" → get urls for), words of one case ("JSON", "The",
 * "Capitalised"), and the names written in mixed case that are one word (`UNITS`).
 */

/**
 * Names written in mixed case that are one word, not an identifier: splitting them would make
 * them match a word they do not mean ("JavaScript" is not about java, "TypeScript" not about
 * types, "MySQL" not about "my"). Inside a longer identifier they stay one word
 * ("OAuth2Client" → oauth2 client). Names whose parts do mean what they say are split:
 * "PostgreSQL" → postgre sql (the stem of "postgre" is the stem of "postgres"; it is an SQL
 * database), "macOS" → mac os, "MongoDB" → mongo db, "WebSocket" → web socket.
 */
const UNITS = [
  "JavaScript", "TypeScript", "CoffeeScript", "ActionScript", "GitHub", "GitLab", "YouTube", "LinkedIn", "MySQL",
  "NoSQL", "GraphQL", "PowerShell", "WordPress", "PayPal", "OAuth", "IPv4", "IPv6", "iOS", "iPadOS", "iPhone",
  "iPad", "iPod", "iCloud", "iTunes", "eBPF", "eBay",
];
const UNIT = new RegExp(UNITS.join("|"), "g");
const UNIT_WORDS = new Set(UNITS.map((u) => u.toLowerCase()));
/** Whether a word (lower case) is one of the names that are one word ("javascript", "mysql"): not a compound of its parts either. */
export const isUnitWord = (word: string): boolean => UNIT_WORDS.has(word);
/** A unit as one capitalised word, which the splitter leaves whole. */
const asWord = (u: string) => u[0]!.toUpperCase() + u.slice(1).toLowerCase();

/** Where a name's words meet: lower case or a digit before a capital, or an acronym before a word. */
const CASE_CHANGE = /[a-z\d][A-Z]|[A-Z]{2}[a-z]/;

/** Longer words are not identifiers (a hash, a blob of base64); nor are names of more parts. */
const MAX_LENGTH = 64;
const MAX_PARTS = 8;

/**
 * The words of a camelCase or PascalCase identifier, lower case, at least two letters each
 * ("getUserName" → get, user, name; "HTTPServerConfig" → http, server, config). Empty for a
 * plain word, a unit (`UNITS`), and for what looks like random text rather than a name (more
 * than one one-letter piece: "aGVsbG8gV29y").
 */
export function identifierParts(word: string): string[] {
  if (word.length > MAX_LENGTH || !CASE_CHANGE.test(word)) return [];
  const pieces = word
    .replace(UNIT, asWord)
    .replace(/([A-Z]{2,})s(?![a-z])/g, (_, run: string) => `${run}S`) // "APIs": a plural, not "AP" + "Is"
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (pieces.filter((p) => p.length < 2).length > 1) return [];
  const parts = pieces.filter((p) => p.length >= 2);
  return parts.length >= 2 && parts.length <= MAX_PARTS ? parts : [];
}

/**
 * A token (letters and digits, as the tokenizer takes them: anything else separates) with a case
 * change inside: the only ones worth splitting. Anchored at a token's start, so a text is read once.
 */
const CANDIDATE = /(?<![\p{L}\p{N}])[\p{L}\p{N}]*(?:[a-z\d][A-Z]|[A-Z]{2}[a-z])[\p{L}\p{N}]*/gu;

/**
 * The words of every distinct identifier in a text, in order of first appearance, each
 * identifier once ("call getUserName, then getUserName again" → get, user, name). Every word is
 * a piece of the text, lower-cased: nothing that is not in the text.
 */
export function identifierWords(text: string): string[] {
  if (!CASE_CHANGE.test(text)) return []; // prose, most often: read once, quickly
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of text.matchAll(CANDIDATE)) {
    const token = m[0];
    if (seen.has(token)) continue;
    seen.add(token);
    for (const p of identifierParts(token)) out.push(p);
  }
  return out;
}
