/**
 * Secret redaction, run before anything is stored and before anything is injected. Pure.
 * `<private>…</private>` spans (case-insensitive, multi-line, nestable; an unclosed tag runs to the end) are
 * removed entirely. Each rule below replaces a secret with `[REDACTED:<kind>]` and keeps its context (a URL
 * keeps user and host, an assignment its key and quotes); redacted text is never matched again, so redacting
 * twice equals redacting once. Linear time: every pattern starts at a literal or behind a boundary
 * look-behind (a long run of one character class is scanned once, not once per position), repetitions are
 * bounded or end at a disjoint character, and an unterminated private key runs to the end in one scan.
 *
 * Decisions. Kept as public: Stripe publishable keys (`pk_…`), Twilio account SIDs (`AC…`), integrity
 * hashes, commit SHAs, UUIDs. Kept as placeholders: empty values, `null`/`true`/…, `${VAR}`, `$VAR`, `%VAR%`,
 * `{{…}}`, `<…>`, `****`/`xxxx`, `your-…`/`…-here`, `process.env.X`-style references, dummy words
 * (`changeme`, `password`, `example`, …). An unterminated `-----BEGIN … PRIVATE KEY-----` is redacted to the
 * end (truncated `head id_rsa` output). A `key = value` is redacted only when the key names a secret
 * (password, token, secret, api key, …) and the value looks like one: Shannon entropy above a
 * length-dependent bar; a bare unquoted word is an identifier (TypeScript `password: string`).
 */
/**
 * The rule set's version. Bump it whenever a rule is added or widened: stores scrubbed with an
 * older version are redacted again (src/store/scrub.ts) by the daemon, `mem index` and
 * `mem doctor --repair`. 1: the rules before the store boundary; 2: mysql/sshpass -p, Docker
 * auth, Mailgun, GCP private_key_id, provider tokens after a dash; 3: passwords on the command
 * lines of docker/podman login, mongo, redis-cli, az login, ldap*, sqlcmd, smbclient, htpasswd,
 * openssl, keytool, piped to --password-stdin, `set`/`config` of secret-named keys, vault login,
 * a token as a URL's user, `#` in URL passwords.
 */
export const REDACTION_VERSION = 3;

export interface Redaction {
  text: string;
  /** Replacements made, `<private>` spans included. */ count: number;
  /** Distinct kinds replaced, sorted. */ kinds: string[];
}

type Groups = Record<string, string | undefined>;

interface Rule {
  kind: string | ((g: Groups) => string);
  /** Global. The secret is named group `s` (or `dq`/`eq`/`sq`/`uq`), else the whole match; it ends the match. */
  re: RegExp;
  /** False leaves the match alone (placeholder, low entropy, key that names no secret). */
  check?: (secret: string, g: Groups) => boolean;
}

const MARK = "[REDACTED:";

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
  /^(?:\$\{[^}]*\}|\$\(.*\)|\$[A-Za-z_]\w*|%\w+%|\{\{.*\}\}|<.*>|\[[\w\s-]*\]|(.)\1*|(?:your|my)[_-].*|.*[_-]here|x{3,}.*|\.\.\.|(?:process\.env|os\.environ|env)\b.*)$/i;
/** `config.apiKey`, `req.body.password`, `z.string` — a reference in code, not a value. */
const CODE_PATH = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+[!?]?$/;

export function isPlaceholder(v: string): boolean {
  const t = v.trim();
  return t === "" || PLACEHOLDER_WORDS.has(t.toLowerCase()) || PLACEHOLDER.test(t);
}

/** `DB_PASSWORD` → ["db", "password"], `apiKey` → ["api", "key"], `APIKeyProvider` → ["api", "key", "provider"]. */
const splitWords = (s: string) =>
  s.replace(/([a-z\d])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2").toLowerCase().split(/[^a-z\d]+/).filter(Boolean);

/** Words or an identifier (`survival`, `TOperator`, `FOO_BAR`), unlike random letters (`aBcDeF`). */
const isWordy = (v: string) => /^[A-Za-z_]+$/.test(v) && splitWords(v).every((w, i) => i === 0 || w.length >= 2);

/**
 * Does a value under a secret-named key look like a real secret? `literal`: a quoted string, a CLI argument or an
 * env-file line (`DB_PASSWORD=x`), not a bare word that may be a reference in code. Values with whitespace or
 * non-ASCII characters are prose.
 * Generated credentials are never plain words, so those count only as a literal password (`"correcthorse"`).
 */
export function looksSecret(v: string, literal: boolean, kind = "secret"): boolean {
  if (v.length < 6 || /[^\x21-\x7e]/.test(v) || isPlaceholder(v) || CODE_PATH.test(v) || /^(?:0x[\da-f]+|[\d.,:_+-]+)$/i.test(v)) return false;
  const h = shannonEntropy(v);
  if (isWordy(v)) return literal && kind === "password" && h >= 2.5;
  return h >= Math.min(3, Math.log2(v.length) - 0.5);
}

/** Random-looking: letters and digits mixed, high entropy (for prefixes that also occur in words, like `sk-`). */
const looksRandom = (s: string) => /\d/.test(s) && /[A-Za-z]/.test(s) && shannonEntropy(s) >= 3.5;

const NOT_SECRET_LAST = new Set(
  ("file path dir url uri name id type types length len count size expiry expires expiration exp ttl timeout " +
    "endpoint header field prefix env var min max policy enabled required regex pattern label hint prompt " +
    "placeholder limit in at ref arn stdin str version provider mode method format algorithm alg usage index").split(" "),
);
const KEY_QUALIFIERS = new Set("api access private secret account signing encryption master app client session license auth".split(" "));

const keyKinds = new Map<string, string | null>();

/** The kind for a secret-named key (`DB_PASSWORD`, `apiKey`, `"client_secret"`), or null for other keys. */
export function keyKind(key: string): string | null {
  let kind = keyKinds.get(key);
  if (kind === undefined) {
    if (keyKinds.size >= 4096) keyKinds.clear();
    keyKinds.set(key, (kind = computeKeyKind(key)));
  }
  return kind;
}

function computeKeyKind(key: string): string | null {
  if (/^(?:old)?pwd$/i.test(key)) return null; // the shell's working directory
  const words = splitWords(key);
  if (words.join(" ") === "private key id") return "gcp-private-key-id"; // a service account's key id
  if (words.length === 0 || NOT_SECRET_LAST.has(words.at(-1) ?? "")) return null;
  const has = (re: RegExp) => words.some((w) => re.test(w));
  const qualifiedKey = (q: (w: string) => boolean) => words.some((w, i) => w === "key" && q(words[i - 1] ?? ""));
  if (has(/^secret$/) && has(/^access$/) && has(/^key$/)) return "aws-secret-access-key";
  if (has(/^(?:pass|pwd)$|pass(?:word|wd|phrase)$|^(?:store|key|src|dest|new|old|db|admin|root|master|ssl|trust|login)pass$/)) return "password";
  if (has(/token$/)) return "token";
  if (has(/secret$/)) return "secret";
  if (has(/^api-?key$|^apikey$/) || qualifiedKey((w) => w === "api")) return "api-key";
  if (has(/^(?:access|private|account|signing|encryption|master|app|client|session|license|auth)key$/)) return "secret";
  return qualifiedKey((w) => KEY_QUALIFIERS.has(w)) ? "secret" : null;
}

/**
 * A value after `=`/`:`: double-quoted, JSON-escaped `\"…\"`, single-quoted, or a bare run. The bare run is captured
 * atomically (inside a look-ahead, then matched by reference) so that `getToken()` is rejected as a call without
 * retrying every shorter prefix, and so a rejected run is never rescanned.
 */
const VALUE = String.raw`(?:"(?<dq>(?:[^"\\\r\n]|\\.){1,4096})(?=")|\\"(?<eq>(?:[^"\\\r\n]|\\[^"\r\n]){1,4096})(?=\\")|'(?<sq>[^'\r\n]{1,4096})(?=')|(?=(?<uq>[^\s"'${"`"},;(){}\[\]<>&]{1,4096}))\k<uq>(?!\())`;
/** VALUE for a command-line flag: a bare value never starts with `-` (that is the next flag). */
const FLAG_VALUE = VALUE.replace("(?=(?<uq>[^", "(?=(?<uq>(?!-)[^");
const KEY = String.raw`[\w.-]{0,48}?(?:pass|pwd|secret|token|key)[\w.-]{0,32}`;
const assignment = (g: Groups) => keyKind(g.key ?? "") ?? "secret";
const assignmentCheck = (literal: (g: Groups) => boolean) => (s: string, g: Groups) => {
  const kind = keyKind(g.key ?? "");
  return kind !== null && looksSecret(s, literal(g), kind);
};
const notPlaceholder = (s: string) => !isPlaceholder(s);

/** `cmd … FLAG<sep>password`: the password a command takes on a short flag (`sep` "": glued to it). */
function cliPassword(cmds: string, flag: string, sep = "[ \\t]+"): Rule {
  const value = String.raw`(?:'(?<sq>[^'\r\n]{1,256})(?=')|"(?<dq>[^"\r\n]{1,256})(?=")|(?<s>[^\s'"-][^\s'"]{0,255}))`;
  return { kind: "password", check: notPlaceholder, re: new RegExp(String.raw`(?<![\w-])(?:${cmds})\b[^\n|;&]{0,512}?[ \t]${flag}${sep}${value}`, "g") };
}

/** Base64 that decodes to `user:password` (printable, one colon, something after it): a Basic credential. */
function isBase64Credential(v: string): boolean {
  if (v.length % 4 === 1) return false;
  const decoded = Buffer.from(v, "base64").toString("latin1");
  return /^[\x21-\x7e]{1,256}:[\x20-\x7e]{1,512}$/.test(decoded) && !isPlaceholder(decoded.slice(decoded.indexOf(":") + 1));
}

const RULES: Rule[] = [
  // Whole blocks first: their base64 bodies would otherwise feed other rules.
  { kind: "private-key", re: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|[\s\S]*)/g },
  { kind: "jwt", re: /(?<![\w-])eyJ[\w-]{8,8192}\.[\w-]{8,8192}\.[\w-]{8,8192}/g },
  // Provider token formats. A distinctive prefix may follow a dash or an underscore (`proj-ghp_…`).
  { kind: "aws-access-key-id", re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: "gcp-api-key", re: /(?<![A-Za-z0-9])AIza[\w-]{35}(?![\w-])/g },
  { kind: "google-oauth-client-secret", re: /(?<![A-Za-z0-9])GOCSPX-[\w-]{24,40}(?![\w-])/g },
  { kind: "google-oauth-token", re: /(?<![A-Za-z0-9])ya29\.[\w-]{20,2048}/g },
  { kind: "github-token", re: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_\w{22,255})(?![\w-])/g },
  { kind: "gitlab-token", re: /(?<![A-Za-z0-9])gl(?:pat|dt|rt|ptt|cbt|ft|soat)-[\w-]{20,255}/g },
  { kind: "anthropic-api-key", re: /(?<![A-Za-z0-9])sk-ant-[\w-]{20,255}/g },
  { kind: "openai-api-key", re: /(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[\w-]{20,255}/g, check: looksRandom },
  { kind: "slack-token", re: /(?<![A-Za-z0-9])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,255}/g },
  { kind: "slack-webhook", re: /hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<s>[\w\/-]{16,256})/g },
  { kind: "stripe-secret-key", re: /(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,247}/g },
  { kind: "stripe-webhook-secret", re: /(?<![A-Za-z0-9])whsec_[A-Za-z0-9+\/=]{20,255}/g },
  { kind: "twilio-api-key", re: /(?<![\w-])SK[0-9a-f]{32}(?![\w-])/g },
  { kind: "sendgrid-api-key", re: /(?<![\w.-])SG\.[\w-]{16,32}\.[\w-]{16,64}(?![\w-])/g },
  { kind: "npm-token", re: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![\w-])/g },
  { kind: "pypi-token", re: /(?<![A-Za-z0-9])pypi-[\w-]{50,1024}/g },
  { kind: "huggingface-token", re: /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,64}(?![\w-])/g },
  { kind: "digitalocean-token", re: /(?<![A-Za-z0-9])do[por]_v1_[a-f0-9]{64}(?![\w-])/g },
  { kind: "shopify-token", re: /(?<![A-Za-z0-9])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![\w-])/g },
  { kind: "vault-token", re: /(?<![A-Za-z0-9])hv[sbr]\.[\w-]{24,255}/g },
  { kind: "discord-bot-token", re: /(?<![\w.-])[MNO][A-Za-z\d]{23,27}\.[\w-]{6}\.[\w-]{27,40}(?![\w.-])/g },
  { kind: "discord-webhook", re: /discord(?:app)?\.com\/api\/webhooks\/\d{5,25}\/(?<s>[\w-]{20,128})/g },
  { kind: "telegram-bot-token", re: /(?<!\d)\d{8,10}:AA[\w-]{33}(?![\w-])/g },
  { kind: "azure-storage-key", re: /(?<![\w-])(?:AccountKey|SharedAccessKey)=(?<s>[A-Za-z0-9+\/]{20,1024}={0,2})/gi },
  { kind: "mailgun-api-key", check: looksRandom, re: /(?<![\w-])key-[0-9a-z]{32}(?![\w-])/g },
  { kind: "mailgun-api-key", re: /(?<![\w-])[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}(?![\w-])/g },
  { kind: "azure-sas-signature", re: /[?&]sig=(?<s>[A-Za-z0-9%+\/]{20,512}(?:=|%3D){0,2})/gi },
  // Credentials in context.
  { kind: "url-password", check: notPlaceholder, re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s:\/?#@'"\[\]]{0,256}:(?<s>[^\s\/?'"]{1,512})(?=@)/g },
  // A token as the whole user part: `https://<token>@github.com/acme/x.git`.
  { kind: "url-token", check: looksRandom, re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/(?<s>[^\s:\/?#@'"\[\]]{16,256})(?=@)/g },
  {
    kind: "authorization-header",
    check: (s) => looksSecret(s, true, "token"),
    re: /(?<![\w-])(?:Proxy-)?Authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:(?:Bearer|Basic|Token|Bot|Digest|Negotiate|ApiKey|Key|SSWS)[ \t]+)?(?<s>[\w.~+\/=-]{8,4096})/gi,
  },
  { kind: "bearer-token", check: (s) => looksRandom(s), re: /(?<![\w-])Bearer[ \t]+(?<s>[\w.~+\/-]{16,4096}=*)/g },
  { kind: "basic-auth", check: (s) => looksSecret(s, true, "password"), re: /(?<![\w-])(?:-u|--user)[ \t]+\\?["']?[^\s:"'\\]{0,256}:(?<s>[^\s"'\\]{1,512})/g },
  { kind: "password", check: notPlaceholder, re: /(?<![\w-])machine\s{1,64}\S{1,256}\s{1,64}login\s{1,64}\S{1,256}\s{1,64}password[ \t]{1,64}(?<s>\S{1,512})/g },
  { kind: "connection-string-password", check: notPlaceholder, re: /(?<=;[ \t]{0,4})(?:password|pwd)[ \t]*=(?<s>[^;\r\n"']{1,256})/gi },
  // A Docker `config.json` (or Kubernetes dockerconfigjson) entry: `"auth": "<base64 of user:password>"`.
  { kind: "docker-auth", check: isBase64Credential, re: /(?<![\w-])\\?["']?auth\\?["']?[ \t]*[:=][ \t]*\\?["']?(?<s>[A-Za-z0-9+\/]{8,4096}={0,2})/g },
  // Passwords given to a command's short flag: `mysql -uroot -pS3cret` (glued), `sshpass -p 'S3cret'`,
  // `docker login -u ci -p S3cret`, `mongosh -p`, `redis-cli -a`, `az login -p`, `ldapsearch -w`, `sqlcmd -P`.
  cliPassword(String.raw`mysql(?:dump|admin|import|show|check)?|mariadb(?:-dump|-admin)?`, "-p", ""),
  cliPassword("sshpass", "-p", "[ \\t]*"),
  cliPassword(String.raw`(?:docker|podman|nerdctl|buildah|skopeo|oras)[ \t]+login|helm[ \t]+registry[ \t]+login|az[ \t]+login`, "-p"),
  cliPassword(String.raw`mongo(?:sh|dump|restore|export|import|stat|top)?`, "-p"),
  cliPassword("redis-cli", "-a"),
  cliPassword(String.raw`ldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn)`, "-w"),
  cliPassword("sqlcmd|bcp", "-P"),
  { kind: "password", check: notPlaceholder, re: /(?<![\w-])smbclient\b[^\n|;&]{0,512}?[ \t](?:-U[ \t]*|--user[= ])[^\s%'"]{1,256}%(?<s>[^\s'"]{1,256})/g },
  { kind: "password", check: notPlaceholder, re: /(?<![\w-])htpasswd(?:[ \t]+-[A-Za-z]+)*?[ \t]+-[A-Za-z]*b[A-Za-z]*(?:[ \t]+-[A-Za-z]+)*[ \t]+\S+[ \t]+\S+[ \t]+(?:'(?<sq>[^'\r\n]{1,256})(?=')|"(?<dq>[^"\r\n]{1,256})(?=")|(?<s>[^\s'"]{1,256}))/g },
  { kind: "password", check: notPlaceholder, re: /(?<![\w-])-pass(?:in|out)?[ \t]+pass:(?<s>[^\s'"]{1,256})/g },
  // A secret piped or fed to a command that reads it from stdin.
  { kind: "password", check: notPlaceholder, re: /(?<![\w-])(?:echo|printf)(?:[ \t]+-[a-zA-Z]+)*[ \t]+(?:'(?<sq>[^'\r\n]{1,256})(?='[ \t]*\|[^\n]{0,256}--password-stdin)|"(?<dq>[^"\r\n]{1,256})(?="[ \t]*\|[^\n]{0,256}--password-stdin)|(?<s>[^\s'"|]{1,256})(?=[ \t]*\|[^\n]{0,256}--password-stdin))/g },
  { kind: "token", check: notPlaceholder, re: /(?<![\w-])--(?:with-token|password-stdin)[ \t]*<<<[ \t]*(?:'(?<sq>[^'\r\n]{1,256})(?=')|"(?<dq>[^"\r\n]{1,256})(?=")|(?<s>[^\s'"]{1,256}))/g },
  { kind: "vault-token", check: looksRandom, re: /(?<![\w-])vault[ \t]+login(?:[ \t]+-\S+)*[ \t]+(?<s>[^\s'"=-][^\s'"=]{7,255})(?=\s|$)/g },
  // A secret-named setting set from the command line: `aws configure set aws_secret_access_key X`,
  // `npm config set //registry.npmjs.org/:_authToken X`, `git config user.password X`.
  { kind: assignment, check: assignmentCheck(() => true), re: new RegExp(String.raw`(?<![\w-])(?:set|config)(?:[ \t]+--?[\w-]{1,40}){0,4}[ \t]+(?:[^\s=]{0,200}?[:/.])?(?<key>${KEY})[ \t]+${VALUE}`, "gi") },
  // `--password xyz`, `--api-key=xyz`, `-Dx.keyStorePassword=xyz`.
  { kind: assignment, check: assignmentCheck(() => true), re: new RegExp(String.raw`(?<![\w-])--?(?=[A-Za-z])(?<key>${KEY})(?:=|[ \t]+)${FLAG_VALUE}`, "gi") },
  // `KEY=value`, `key: value`, `"key": "value"`, `key := "value"`, `'key' => 'value'`.
  { kind: assignment, check: assignmentCheck((g) => g.uq === undefined || /^[A-Z][A-Z\d_]*$/.test(g.key ?? "")), re: new RegExp(String.raw`(?<![\w.$-])(?<kq>\\?["']|)(?=[A-Za-z_])(?<key>${KEY})\k<kq>[ \t]*(?::=|=>|=(?![=>~])|:(?!:))[ \t]*${VALUE}`, "gi") },
];

const bump = (tally: Map<string, number>, kind: string) => tally.set(kind, (tally.get(kind) ?? 0) + 1);

/** The line breaks in `s`, to put back where a multi-line span was replaced (so line numbers stay right). */
const breaks = (s: string, keepLines: boolean) => (keepLines ? "\n".repeat(s.split("\n").length - 1) : "");

function applyRule(text: string, rule: Rule, tally: Map<string, number>, keepLines: boolean): string {
  return text.replace(rule.re, (match: string, ...rest: unknown[]) => {
    const last = rest[rest.length - 1];
    const g = (typeof last === "object" && last !== null ? last : {}) as Groups;
    const secret = g.s ?? g.dq ?? g.eq ?? g.sq ?? g.uq ?? match;
    const pre = match.slice(0, match.length - secret.length);
    const open = pre.lastIndexOf(MARK); // the secret would start inside an earlier replacement
    if (secret === "" || secret.includes(MARK) || (open >= 0 && !pre.includes("]", open))) return match;
    if (rule.check && !rule.check(secret, g)) return match;
    const kind = typeof rule.kind === "string" ? rule.kind : rule.kind(g);
    bump(tally, kind);
    return `${pre}${MARK}${kind}]${breaks(secret, keepLines)}`;
  });
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

function redactInto(text: string, tally: Map<string, number>, keepLines = false): string {
  let out = removePrivate(text, tally, keepLines);
  for (const rule of RULES) out = applyRule(out, rule, tally, keepLines);
  return out;
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
  const maxDepth = opts.maxDepth ?? Infinity;
  const walk = (v: unknown, key: string | undefined, depth: number): unknown => {
    if (typeof v === "string") {
      const before = total(tally);
      const out = redactInto(v, tally);
      if (total(tally) > before) return out;
      const kind = key === undefined ? null : keyKind(key);
      if (kind === null || !looksSecret(v, true, kind)) return v;
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
    for (const [k, item] of Object.entries(v)) out[opts.keys ? redactInto(k, tally) : k] = walk(item, k, depth + 1);
    return out;
  };
  const out = walk(value, undefined, 0) as T;
  return { value: out, ...summary(tally) };
}
