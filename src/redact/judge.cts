/**
 * Judging a candidate: is a key secret-named, is a value a placeholder, a code reference, a path, or a
 * secret? Pure; used by the rules (src/redact/rules.cts) and by redactDeep.
 */

export function shannonEntropy(s: string): number {
  const freq = new Map<string, number>();
  for (const ch of s) freq.set(ch, (freq.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of freq.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

const PLACEHOLDER_WORDS = new Set(
  ("changeme change_me change-me password passwd secret token apikey api_key example placeholder dummy redacted " +
    "hidden none null nil undefined true false empty required optional string todo tbd fixme replaceme replace_me " +
    "default sample mypassword mysecret foobar notasecret xxxxxx").split(" "),
);
const PLACEHOLDER =
  /^(?:\$\{[^}]*\}|\$\(.*\)|\$[A-Za-z_]\w*|%\w+%|\{\{.*\}\}|<.*>|\[[\w\s-]*\]|(.)\1*|(?:your|my)[_-].*|.*[_-]here|x{3,}(?:[\W_].*)?|\.\.\.|(?:process\.env|os\.environ|env)\b.*)$/i;

export function isPlaceholder(v: string): boolean {
  const t = v.trim();
  return t === "" || t.includes("\u2026") || PLACEHOLDER_WORDS.has(t.toLowerCase()) || PLACEHOLDER.test(t); // `…`: elided in prose
}

/** `DB_PASSWORD` → ["db", "password"], `apiKey` → ["api", "key"], `APIKeyProvider` → ["api", "key", "provider"]. */
export const splitWords = (s: string) =>
  s.replace(/([a-z\d])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2").toLowerCase().split(/[^a-z\d]+/).filter(Boolean);

/** Words or an identifier (`survival`, `TOperator`, `FOO_BAR`, `db-credentials`), unlike random letters (`aBcDeF`). */
const isWordy = (v: string) => /^[A-Za-z]+(?:[_.-][A-Za-z]+)*$/.test(v) && splitWords(v).every((w, i) => i === 0 || w.length >= 2);

/**
 * `config.apiKey`, `req.body.password`, `z.string`, `settings.DB_PASSWORD`: a reference in code, not a value. Every
 * segment is an identifier made of words (`Xk9q2.Lm4Np` is not: its segments are random).
 */
const isCodePath = (v: string) => {
  if (!/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+[!?]?$/.test(v)) return false;
  // `Harbor.Falcon94`, `Lantern.orchid47!`: capitalised words ending in digits (and a sign), a password.
  if (/^(?=[A-Z])(?:[A-Za-z][a-z]+\.)+[A-Za-z][a-z]+\d{1,4}[!?$]?$/.test(v)) return false;
  return v.split(/\??\./).every((seg) => isCodeWord(seg.replace(/[$!?]/g, "").replace(/\d{1,2}$/, "")) || /^\$?[a-z]$/i.test(seg));
};
/** Abbreviations without a vowel that code paths are made of. */
const ABBREVIATIONS = new Set(
  "cfg ctx pwd db src dst req res msg env str std hdr hdrs tmp mgr svc cnt fn cb ptr buf len url sql jwt xml html css http https smtp ssh ssl tls sdk gcp rds kms dns ts js rb py vm k8s crm cms db2 sys pkg lb ws rpc grpc nls".split(" "),
);
/** A segment of a code path: words that read as words (`settings`, `DB_PASSWORD`, `cfg`), not `ZkPykuQr` or `CRQ`. */
const isCodeWord = (seg: string) => {
  if (!isWordy(seg)) return false;
  const words = splitWords(seg);
  return words.every((w) => w.length === 1 || ABBREVIATIONS.has(w) || (/[aeiouy]/.test(w) && w.length >= 2)) && words.filter((w) => w.length === 2 && !ABBREVIATIONS.has(w)).length <= 1;
};

/** A file path or a URL without credentials (`/etc/app/key.pem`, `~/.aws/credentials`, `C:\keys\a.pfx`, `https://x.io/a`). */
const isPathLike = (v: string) => !hasRandomSegment(v) && PATH_LIKE.test(v);
/** Base64 that starts with or holds a `/` (`/Kn6Ns6A65L8…`) has a segment of mixed case and digits, unlike a path. */
const hasRandomSegment = (v: string) => v.split(/[\/\\]/).some((seg) => seg.length >= 12 && /[A-Z]/.test(seg) && /[a-z]/.test(seg) && /\d/.test(seg) && !/\./.test(seg) && shannonEntropy(seg) >= 3.3);
const PATH_LIKE =
  /^(?:~|\.{1,2})?\/[\w.@+-]+(?:\/[\w.@+-]*)*$|^[A-Za-z]:\\[\w .\\-]+$|^[\w-]+(?:\/[\w.-]+)+\.[a-z]{1,5}$|^[a-z][a-z\d+.-]*:\/\/[^@\s]*$/i;

/** Random-looking: letters and digits mixed, high entropy (for prefixes that also occur in words, like `sk-`). */
export const looksRandom = (s: string) => /\d/.test(s) && /[A-Za-z]/.test(s) && shannonEntropy(s) >= 3.5;

/**
 * Does a value under a secret-named key look like a real secret? `literal`: a quoted string, a CLI argument, an
 * env-file line (`DB_PASSWORD=x`) or a config-file value: not a reference in code, so any punctuation counts
 * (`Xk9q2.Lm4Np`). A bare value (`password: x` in code or YAML) must not be a code path (`settings.DB_PASSWORD`) and
 * must look random. Plain words count only as a literal password (`"correcthorse"`); a value with spaces only
 * under a passphrase key (`spaces`). Placeholders, paths, numbers and short values never count.
 */
export function looksSecret(v: string, literal: boolean, kind = "secret", spaces = false): boolean {
  if (spaces && /\s/.test(v)) return isPassphrase(v);
  if (literal && /\s/.test(v)) return isSpacedSecret(v);
  // Non-ASCII letters count (`Pässwört.2024`, a value in smart quotes) when some ASCII letter or digit is there too.
  if (v.length < (kind === "password" ? 6 : 8) || /[\s\x00-\x1f\x7f]/.test(v) || (/[^\x21-\x7e]/.test(v) && !/[A-Za-z0-9]/.test(v))) return false;
  if (isPlaceholder(v) || isPathLike(v)) return false;
  if (/^0x[\da-f]{64}$/i.test(v)) return true; // a 32-byte key (an Ethereum private key) under a secret-named key
  if (/^(?:0x[\da-f]+|[\d.,:_+-]+)$/i.test(v)) return false;
  if (isWordy(v)) return literal && kind === "password" && shannonEntropy(v) >= 2.5;
  if (literal) return true;
  if (isCodePath(v)) return false;
  return shannonEntropy(v) >= Math.min(3, Math.log2(v.length) - 0.5);
}

/**
 * A quoted value with spaces under a secret-named key (`password: "Tr0ub4dor & 3 horse"`): a few words, one of them
 * letters and digits mixed, and no prose (`"Password must have 1 digit"`, `"Enter your password"` are kept).
 */
function isSpacedSecret(v: string): boolean {
  const words = v.trim().split(/\s+/);
  if (words.length < 2 || words.length > 8 || v.length > 128 || /[(){};=<>`]/.test(v) || isPlaceholder(v)) return false;
  return words.some((w) => w.length >= 6 && /[A-Za-z]/.test(w) && /\d/.test(w)) && !words.some((w) => PROSE_WORDS.has(w.toLowerCase()));
}

/** Several words (`correct horse battery staple`), not prose with code or a sentence (`see the vault`). */
export function isPassphrase(v: string): boolean {
  const words = v.trim().split(/\s+/);
  if (words.length < 2 || words.length > 12 || v.length > 200 || /[(){};=<>`]/.test(v) || isPlaceholder(v)) return false;
  return !words.some((w) => PROSE_WORDS.has(w.toLowerCase()));
}
const PROSE_WORDS = new Set(
  "the a an is are was in on at of for to from with by stored kept see set via use uses used not no must should be your enter has have".split(" "),
);

const NOT_SECRET_LAST = new Set(
  ("file path dir url uri name id type types length len count size expiry expires expiration exp ttl timeout " +
    "endpoint header field prefix env var min max policy enabled required regex pattern label hint prompt " +
    "placeholder limit in at ref arn stdin str version provider mode method format algorithm alg usage index " +
    "helper scheme backend strategy store manager").split(" "),
);
const KEY_QUALIFIERS = new Set("api access private secret account signing encryption master app client session license auth storage".split(" "));
/** `X_KEY` that names no secret: database and cache keys, keyboard keys, public keys. */
const PUBLIC_KEYS = new Set(
  ("public publishable primary foreign sort partition cache routing hash idempotency dedupe dedup lookup map group row " +
    "column composite unique shortcut hot modifier esc escape enter tab object bucket cursor next page react list dict " +
    "i18n translation locale message redis s3 ssh host pub verify verification registry idempotent range shard " +
    "config setting settings state query index join").split(" "),
);
const PASS_WORD = /^(?:pass|pwd|pw|psk)$|pass(?:word|wd|phrase|wort)s?$|^kennwort$|^(?:store|key|src|dest|new|old|db|admin|root|master|ssl|trust|login|ssh|pg|smb|ftp|mail|smtp|user|my|sql|ldap|bind|vnc|rdp|wifi|app|api|vault|proxy|sudo|redis|keystore|truststore)pass$/;

const keyKinds = new Map<string, string | null>();

/** The kind for a secret-named key (`DB_PASSWORD`, `apiKey`, `"client_secret"`, `SSHPASS`), or null for other keys. */
export function keyKind(key: string): string | null {
  let kind = keyKinds.get(key);
  if (kind === undefined) {
    if (keyKinds.size >= 4096) keyKinds.clear();
    keyKinds.set(key, (kind = computeKeyKind(key)));
  }
  return kind;
}

/** Does the key name a passphrase (a value of several words)? */
export const isPassphraseKey = (key: string) => /pass[\W_]?phrase|(?:^|[\W_])psk$|mnemonic|seed[\W_]?phrase/i.test(key);

/** SSH key types whose keys are public (`ssh-ed25519 AAAA… user@host`, `ecdsa-sha2-nistp256`, FIDO `sk-…@openssh.com`). */
const PUBLIC_KEY_TYPE = /^(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)(?:-cert-v01@openssh\.com)?(?:\s|$)/;

/**
 * A public key, never redacted: an OpenSSH public key line (its type first), or the base64 body of one (its wire
 * format starts with the length-prefixed key type, so `AAAAC3NzaC1lZDI1NTE5…` decodes to `\0\0\0\x0bssh-ed25519`).
 */
export function isPublicKey(v: string): boolean {
  if (PUBLIC_KEY_TYPE.test(v)) return true;
  if (!/^AAAA[A-Za-z0-9+\/]{16,}={0,2}$/.test(v)) return false;
  return /^(?:ssh-|ecdsa-|sk-)/.test(Buffer.from(v.slice(0, 40), "base64").toString("latin1").slice(4));
}

function computeKeyKind(key: string): string | null {
  if (/^(?:old)?pwd$/i.test(key) || key === "PASS") return null; // the shell's working directory; `--- PASS: TestX` of go test
  const words = splitWords(key).map((w) => (/^(?:keys|secrets|apikeys)$/.test(w) ? w.slice(0, -1) : w)); // `api_keys`
  if (words.join(" ") === "private key id") return "gcp-private-key-id"; // a service account's key id
  const last = words.at(-1) ?? "";
  if (words.length === 0 || NOT_SECRET_LAST.has(last)) return null;
  const has = (re: RegExp) => words.some((w) => re.test(w));
  const qualifiedKey = (q: (w: string) => boolean) => words.some((w, i) => w === "key" && q(words[i - 1] ?? ""));
  if (has(/^secret$/) && has(/^access$/) && has(/^key$/)) return "aws-secret-access-key";
  if (has(PASS_WORD)) return "password";
  if (has(/token$/) || last === "pat" || last === "bearer") return "token"; // `AZURE_DEVOPS_EXT_PAT`, `--oauth2-bearer`
  if (has(/secret$/)) return "secret";
  if (has(/^api-?key$|^apikey$/) || qualifiedKey((w) => w === "api")) return "api-key";
  if (has(/^(?:access|private|account|signing|encryption|master|app|client|session|license|auth|storage)key$/)) return "secret";
  if (/^(?:credentials?|creds|auth)$/.test(last)) return "secret";
  if (qualifiedKey((w) => KEY_QUALIFIERS.has(w))) return "secret";
  // `STRIPE_KEY`, `sentryKey`: a service's key, unless it is a kind of key that holds no secret.
  if (last === "key" && words.length >= 2 && !PUBLIC_KEYS.has(words.at(-2) ?? "") && !words.some((w) => PUBLIC_KEYS.has(w))) return "secret";
  return null;
}

/** Base64 that decodes to `user:password` (printable, one colon, something after it): a Basic credential. */
export function isBase64Credential(v: string): boolean {
  if (v.length % 4 === 1) return false;
  const decoded = Buffer.from(v, "base64").toString("latin1");
  return /^[\x21-\x7e]{1,256}:[\x20-\x7e]{1,512}$/.test(decoded) && !isPlaceholder(decoded.slice(decoded.indexOf(":") + 1));
}
