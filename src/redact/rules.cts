/**
 * The redaction rules: what counts as a secret and how each is found (src/redact/redact.cts applies them).
 * The decisions (what is kept as public or as a placeholder, when an assignment counts) are listed there.
 * Adding or widening a rule bumps REDACTION_VERSION in redact.cts.
 */
export type Groups = Record<string, string | undefined>;

export interface Rule {
  kind: string | ((g: Groups) => string);
  /** Global. The secret is named group `s` (or `dq`/`eq`/`sq`/`uq`), else the whole match; it ends the match. */
  re: RegExp;
  /** False leaves the match alone (placeholder, low entropy, key that names no secret). */
  check?: (secret: string, g: Groups) => boolean;
}

/** How every replacement begins: `[REDACTED:<kind>]`. */
export const MARK = "[REDACTED:";

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

export const RULES: Rule[] = [
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
