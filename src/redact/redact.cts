/**
 * Secret redaction, run before anything is stored and before anything is injected. Pure.
 * `<private>…</private>` spans (case-insensitive, multi-line, nestable; an unclosed tag runs to the end) are
 * removed entirely. Each rule (src/redact/rules.cts, rules-context.cts) replaces a secret with `[REDACTED:<kind>]`
 * and keeps its context (a URL keeps user and host, an assignment its key and quotes); redacted text is never
 * matched again, so redacting twice equals redacting once. Then each URL-encoded token is decoded and checked too
 * (src/redact/encoded.cts), and what is found is replaced in the encoded original. Linear time: every pattern
 * starts at a literal or behind a boundary look-behind, repetitions are bounded or end at a disjoint character, a
 * rejected match is rescanned from its value only within a budget of the text's length, and an unterminated
 * private key runs to the end in one scan.
 *
 * Decisions: assume the worst. A value under a key that names a secret (password, passwd, pwd, pass, secret,
 * token, key, credential, auth, in any case or separator style) is a secret whatever its punctuation when it is a
 * literal (quoted, an env-file line `DB_PASSWORD=…`, a config value, a CLI argument); a bare value in code must
 * not be a code path of words (`settings.DB_PASSWORD`) and must look random. Every assignment on a line is
 * judged, whatever label precedes it. Kept as public: Stripe publishable keys (`pk_…`), Twilio account SIDs
 * (`AC…`), integrity hashes, commit SHAs, UUIDs outside secret-named keys, paths, versions. Kept as placeholders:
 * empty values, `null`/`true`/…, `${VAR}`, `$VAR`, `%VAR%`, `{{…}}`, `<…>`, `****`/`xxxx`, `your-…`/`…-here`,
 * `process.env.X`-style references, dummy words (`changeme`, `password`, `example`, …). A plain word counts only
 * as a literal password; words with spaces only as a passphrase. An unterminated `-----BEGIN … PRIVATE KEY-----`
 * is redacted to the end (truncated `head id_rsa` output).
 */
import { blockSpans } from "./blocks.cjs";
import { type Found, type Inner, redactEncoded } from "./encoded.cjs";
import { isPassphraseKey, isPublicKey, keyKind, looksSecret } from "./judge.cjs";
import { type Groups, MARK, RULES, type Rule } from "./rules.cjs";

export { isPlaceholder, keyKind, looksSecret, shannonEntropy } from "./judge.cjs";

/**
 * The rule set's version. Bump it whenever a rule is added or widened: stores scrubbed with an
 * older version are redacted again (src/store/scrub.ts) by the daemon, `mem index` and
 * `mem doctor --repair`. 1: the rules before the store boundary; 2: mysql/sshpass -p, Docker
 * auth, Mailgun, GCP private_key_id, provider tokens after a dash; 3: passwords on the command
 * lines of docker/podman login, mongo, redis-cli, az login, ldap*, sqlcmd, smbclient, htpasswd,
 * openssl, keytool, piped to --password-stdin, `set`/`config` of secret-named keys, vault login,
 * a token as a URL's user, `#` in URL passwords; 4: any punctuation in a value under a secret-named key
 * (`Xk9q2.Lm4Np`), every assignment on a line, credential/auth/`*_KEY`/`SSHPASS` keys, `.pgpass` lines,
 * `define('DB_PASSWORD', …)`, name/value pairs, `az … keys list` output, passphrases with spaces, secrets named
 * in prose, an AWS secret after its key id, psql connection strings, URL-encoded text; 5: 31 more provider formats,
 * OpenVPN and SSH2 keys, password hashes, cookies, PAT/pw/psk keys, values with spaces or non-ASCII letters, lists,
 * YAML block scalars and wrapped quoted values under secret-named keys, PHP/Perl variables, Dockerfile ENV, markdown
 * tables, XML properties, positional passwords of Windows, Oracle, RabbitMQ, MinIO and remote-admin tools, values
 * given to secret stores, and more prose ("the password for … is", "changed … to", "use passphrase …"); 6: passphrase-
 * like values under lowercase keys, `sudo -S`, `openssl enc -k`, `(pass …)` after ssh, Oracle thin strings, prose in
 * ten more languages and more words, quoted passphrases, values split over two lines, a table's secret column, seed
 * phrases, recovery codes, labelled `0x` keys, presigned URL signatures; public keys are never redacted.
 */
export const REDACTION_VERSION = 6;

export interface Redaction {
  text: string;
  /** Replacements made, `<private>` spans included. */ count: number;
  /** Distinct kinds replaced, sorted. */ kinds: string[];
}

const bump = (tally: Map<string, number>, kind: string) => tally.set(kind, (tally.get(kind) ?? 0) + 1);

/** The line breaks in `s`, to put back where a multi-line span was replaced (so line numbers stay right). */
const breaks = (s: string, keepLines: boolean) => (keepLines ? "\n".repeat(s.split("\n").length - 1) : "");

/**
 * Replaces each match of `rule` that passes its check. A rejected match is scanned again from the start of its
 * value (`the key: DB_PASSWORD=…` is judged by the inner assignment too), within a budget of rescanned characters
 * that keeps the whole pass linear in the text's length.
 */
function applyRule(text: string, rule: Rule, tally: Map<string, number>, keepLines: boolean, found?: Found): string {
  if (rule.gate && !rule.gate.test(text)) return text;
  const re = rule.re;
  re.lastIndex = 0;
  let out = "";
  let last = 0;
  let budget = text.length + 65_536;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const match = m[0];
    const g = (m.groups ?? {}) as Groups;
    const secret = g.s ?? g.dq ?? g.eq ?? g.sq ?? g.uq ?? match;
    const pre = match.slice(0, match.length - secret.length);
    const open = pre.lastIndexOf(MARK); // the secret would start inside an earlier replacement
    let ok = !(secret === "" || secret.includes(MARK) || (open >= 0 && !pre.includes("]", open)));
    if (ok && ((rule.check && !rule.check(secret, g)) || isPublicKey(secret))) ok = false;
    if (!ok) {
      if (pre.length > 0 && budget > 0) {
        budget -= secret.length;
        re.lastIndex = m.index + pre.length;
      } else if (match === "") re.lastIndex++;
      continue;
    }
    const kind = typeof rule.kind === "string" ? rule.kind : rule.kind(g);
    bump(tally, kind);
    found?.(secret, kind);
    out += `${text.slice(last, m.index)}${pre}${MARK}${kind}]${breaks(secret, keepLines)}`;
    last = m.index + match.length;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Replaces the spans a block of lines gives away (src/redact/blocks.cts): a table's secret column, recovery codes, a seed phrase. */
function applySpans(text: string, tally: Map<string, number>, keepLines: boolean, found?: Found): string {
  const spans = blockSpans(text);
  if (spans.length === 0) return text;
  let out = "";
  let last = 0;
  for (const { start, end, kind } of spans) {
    const secret = text.slice(start, end);
    bump(tally, kind);
    found?.(secret, kind);
    out += `${text.slice(last, start)}${MARK}${kind}]${breaks(secret, keepLines)}`;
    last = end;
  }
  return out + text.slice(last);
}

const PRIVATE_TAG = /<(\/?)private(?:\s[^<>]{0,200})?>/gi;

function removePrivate(text: string, tally: Map<string, number>, keepLines = false): string {
  // Removing a span can join `<pri` and `vate>` into a new tag; repeat (bounded) until none is left.
  for (let round = 0; round < 8 && /<\/?private[\s>]/i.test(text); round++) {
    let out = "";
    let depth = 0;
    let last = 0;
    let opened = 0;
    for (const m of text.matchAll(PRIVATE_TAG)) {
      const at = m.index ?? 0;
      if (!m[1]) {
        if (depth++ === 0) {
          out += text.slice(last, at);
          opened = at;
          bump(tally, "private");
        }
      } else if (depth > 0) {
        if (--depth === 0) {
          last = at + m[0].length;
          out += breaks(text.slice(opened, last), keepLines);
        }
      } else {
        out += text.slice(last, at) + breaks(m[0], keepLines); // a stray closing tag
        last = at + m[0].length;
      }
    }
    text = depth > 0 ? out + breaks(text.slice(opened), keepLines) : out + text.slice(last);
  }
  return text;
}

/** Removes `<private>…</private>` spans (nested, case-insensitive; unclosed runs to the end) and stray closing tags. */
export function stripPrivate(text: string): string {
  return removePrivate(text, new Map());
}

function redactInto(text: string, tally: Map<string, number>, keepLines = false, found?: Found, depth = 0): string {
  let out = removePrivate(text, tally, keepLines);
  const groups = new Map<RegExp, boolean>();
  for (const rule of RULES) {
    if (rule.group) {
      let pass = groups.get(rule.group);
      if (pass === undefined) groups.set(rule.group, (pass = rule.group.test(out)));
      if (!pass) continue;
    }
    out = applyRule(out, rule, tally, keepLines, found);
  }
  out = applySpans(out, tally, keepLines, found);
  const inner: Inner = (decoded, f, d) => redactInto(decoded, new Map(), false, f, d);
  return redactEncoded(out, inner, (secret, kind) => {
    bump(tally, kind);
    found?.(secret, kind);
  }, depth);
}

function total(tally: Map<string, number>): number {
  let count = 0;
  for (const n of tally.values()) count += n;
  return count;
}
const summary = (tally: Map<string, number>) => ({ count: total(tally), kinds: [...tally.keys()].sort() });

export function redact(text: string): Redaction {
  const tally = new Map<string, number>();
  return { text: redactInto(text, tally), ...summary(tally) };
}

/** `redact`, also listing each replaced substring and its kind (for measuring the rules: scripts/bench-redact.ts). */
export function redactExplained(text: string): Redaction & { found: { kind: string; secret: string }[] } {
  const tally = new Map<string, number>();
  const found: { kind: string; secret: string }[] = [];
  const out = redactInto(text, tally, false, (secret, kind) => found.push({ kind, secret }));
  return { text: out, ...summary(tally), found };
}

/**
 * Redacts a whole document before it is cut into pieces, keeping its lines where they were: a
 * replaced span that covered several lines (a private key, a `<private>` block) is followed by as
 * many line breaks, so the lines after it keep their numbers. Cutting first would leave the middle
 * of a long key, or of a long private block, in pieces no rule recognises.
 */
export function redactLines(text: string): string {
  return redactInto(text, new Map(), true);
}

export interface DeepOptions {
  /** Also redact object keys (a key can hold a secret too: a frontmatter key, a map keyed by token). */
  keys?: boolean;
  /** Values nested deeper than this become a short marker instead of being walked (default: unbounded). */
  maxDepth?: number;
}

const PAIR_VALUE = new Set(["value", "Value", "ParameterValue"]);

/** What stands for a subtree cut at `maxDepth`. */
export const TOO_DEEP = "[truncated: nested too deep]";

/**
 * Redacts every string inside a JSON-like value (plain objects, arrays); other values are returned as they are.
 * A string under a secret-named key (`{ "DB_PASSWORD": "…" }`) is replaced whole when it looks like a secret,
 * since it has no `key=` context of its own. Keys are kept unless `keys` is set. Input is not mutated; cycles
 * are kept.
 */
export function redactDeep<T>(value: T, opts: DeepOptions = {}): { value: T; count: number; kinds: string[] } {
  const tally = new Map<string, number>();
  const seen = new Map<object, unknown>();
  const maxDepth = opts.maxDepth ?? Number.POSITIVE_INFINITY;
  const walk = (v: unknown, key: string | undefined, depth: number): unknown => {
    if (typeof v === "string") {
      const before = total(tally);
      const out = redactInto(v, tally);
      if (total(tally) > before) return out;
      const kind = key === undefined ? null : keyKind(key);
      if (kind === null || isPublicKey(v) || !looksSecret(v, true, kind, isPassphraseKey(key ?? ""))) return v;
      bump(tally, kind);
      return `${MARK}${kind}]`;
    }
    if (typeof v !== "object" || v === null) return v;
    if (seen.has(v)) return seen.get(v);
    if (depth >= maxDepth) return TOO_DEEP;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      seen.set(v, out);
      for (const item of v) out.push(walk(item, key, depth + 1));
      return out;
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v;
    const out: Record<string, unknown> = {};
    seen.set(v, out);
    // A name/value pair (`{ "name": "DB_PASSWORD", "value": "…" }`): the value is judged under the name.
    const rec = v as Record<string, unknown>;
    const named = [rec.name, rec.Name, rec.key, rec.Key, rec.ParameterKey].find((n): n is string => typeof n === "string");
    for (const [k, item] of Object.entries(v)) {
      const under = named !== undefined && PAIR_VALUE.has(k) ? named : k;
      out[opts.keys ? redactInto(k, tally) : k] = walk(item, under, depth + 1);
    }
    return out;
  };
  const out = walk(value, undefined, 0) as T;
  return { value: out, ...summary(tally) };
}
