/**
 * The pieces the redaction rules are written with: what a rule is, how a value after `=`/`:` is read, which keys
 * name a secret, and the check an assignment passes.
 */
import { isPassphraseKey, isPlaceholder, keyKind, looksSecret } from "./judge.cjs";

export type Groups = Record<string, string | undefined>;

export interface Rule {
  kind: string | ((g: Groups) => string);
  /** Global. The secret is named group `s` (or `dq`/`eq`/`sq`/`uq`), else the whole match; it ends the match. */
  re: RegExp;
  /** False leaves the match alone (placeholder, low entropy, key that names no secret). */
  check?: (secret: string, g: Groups) => boolean;
  /** A cheap test a text must pass for the rule to run at all (a literal the rule needs). */
  gate?: RegExp;
  /**
   * A test shared by several rules (not global), run once per text however many rules share it: a text with none
   * of a group's literals (the commands it knows, the words it needs) skips the whole group in one scan.
   */
  group?: RegExp;
}

/** How every replacement begins: `[REDACTED:<kind>]`. */
export const MARK = "[REDACTED:";

/**
 * A value after `=`/`:`: double-quoted, JSON-escaped `\"…\"`, single-quoted, or a bare run. The bare run is captured
 * atomically (inside a look-ahead, then matched by reference) so that `getToken()` is rejected as a call without
 * retrying every shorter prefix. A rejected match is scanned again from its value's start (redact.cts), so that
 * `the key: DB_PASSWORD=…` is judged by its inner assignment.
 */
export const VALUE = String.raw`(?:"(?<dq>(?:[^"\\\r\n]|\\.){1,4096})(?=")|\\"(?<eq>(?:[^"\\\r\n]|\\[^"\r\n]){1,4096})(?=\\")|'(?<sq>[^'\r\n]{1,4096})(?=')|(?=(?<uq>[^\s"'${"`"},;(){}\[\]<>&]{1,4096}))\k<uq>(?!\())`;
/** VALUE for a command-line flag: a bare value is not the next flag (`-v`, `--region`); a long random run may start with `-`. */
export const FLAG_VALUE = VALUE.replace("(?=(?<uq>[^", "(?=(?<uq>(?!--?[A-Za-z][A-Za-z-]{0,40}(?:[\\s=]|$)|-(?![\\w-]{15}))[^");
export const KEY = String.raw`[\w.-]{0,48}?(?:pass|pwd|pw(?![a-z])|psk|secret|token|key|auth|cred|pat(?![a-z])|bearer)[\w.-]{0,32}`;
/**
 * A passphrase in a sentence: up to 12 words, ended by punctuation, the end of the line or a word that goes back to
 * prose ("use passphrase copper falcon wander orbit for the backup": the words before "for").
 */
const STOP = String.raw`(?:for|to|and|then|so|but|because|until|when|if|on|in|at|the|is|was|or|from|with|by|as)(?![\w-])`;
const PHRASE_WORD = String.raw`(?!${STOP})[^\s"'\u201d.,;:]{1,40}`;
export const PHRASE = String.raw`["'\u201c]?(?<s>${PHRASE_WORD}(?:[ \t]+${PHRASE_WORD}){1,11})(?=[ \t]+${STOP}|["'\u201d.,;:]|[ \t]*\r?\n|[ \t]*$)`;
/** A quoted value: `"…"`, `'…'`. */
export const QUOTED = String.raw`(?:"(?<dq>[^"\\\r\n]{1,1024})(?=")|'(?<sq>[^'\r\n]{1,1024})(?='))`;
/** The key an assignment is judged by: `PASS=…` is a password (`--- PASS: TestX` of go test, with a colon, is not). */
const keyOf = (g: Groups) => (g.key === "PASS" && g.sep === "=" ? "PASSWORD" : (g.key ?? ""));
export const assignment = (g: Groups) => keyKind(keyOf(g)) ?? "secret";
export const assignmentCheck = (literal: (g: Groups) => boolean) => (s: string, g: Groups) => {
  const kind = keyKind(keyOf(g));
  return kind !== null && looksSecret(s, literal(g), kind, g.uq === undefined && isPassphraseKey(g.key ?? ""));
};
/** A quoted value or an env-file line (`DB_PASSWORD=x`, `PASSWORD: x`; not `DB_PASSWORD = settings.X`): not code. */
export const literalAssignment = (g: Groups) => g.uq === undefined || (/^[A-Z][A-Z\d_]*$/.test(g.key ?? "") && !/\s=/.test(g.sep ?? ""));
export const notPlaceholder = (s: string) => !isPlaceholder(s);


/** `cmd … FLAG<sep>password`: the password a command takes on a short flag (`sep` "": glued to it). */
export function cliPassword(cmds: string, flag: string, sep = "[ \\t]+", gate = new RegExp(cmds)): Rule {
  const value = String.raw`(?:'(?<sq>[^'\r\n]{1,256})(?=')|"(?<dq>[^"\r\n]{1,256})(?=")|(?<s>[^\s'"-][^\s'"]{0,255}))`;
  return { kind: "password", check: notPlaceholder, gate, re: new RegExp(String.raw`(?<![\w-])(?:${cmds})\b(?:[^\n|;&]|\\\r?\n){0,512}?[ \t]${flag}${sep}${value}`, "g") };
}
