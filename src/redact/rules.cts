/**
 * The redaction rules: what counts as a secret and how each is found (src/redact/redact.cts applies them).
 * The decisions (what is kept as public or as a placeholder, when an assignment counts) are listed there.
 * Adding or widening a rule bumps REDACTION_VERSION in redact.cts.
 */
import { CONTEXT_RULES } from "./rules-context.cjs";
import { isBase64Credential, looksRandom, looksSecret } from "./judge.cjs";
import { COMMAND_RULES } from "./rules-commands.cjs";
import { LANG_RULES } from "./rules-lang.cjs";
import { MORE_RULES } from "./rules-more.cjs";
import { PROSE_RULES } from "./rules-prose.cjs";
import { VENDOR_RULES } from "./rules-vendors.cjs";
import { assignment, assignmentCheck, cliPassword, FLAG_VALUE, KEY, literalAssignment, notPlaceholder, type Rule, VALUE } from "./syntax.cjs";

export { type Groups, MARK, type Rule } from "./syntax.cjs";

/** A command that reads a secret from its stdin (`n` names the group that says it is not a password). */
const stdin = (n: number) => String.raw`(?:--password-stdin|chpasswd|sudo\b[^\n|;&]{0,64}?[ \t](?:-[A-Za-z]*S\b|--stdin)|(?<sec${n}>secrets?[ \t]+(?:create|set|put|versions[ \t]+add)))`;
/** Words before the value echoed or printed (printf's format: `printf '%s\n' 'pw'`, its `\n` perhaps a line break), a few at most. */
const FORMAT = String.raw`(?:[^|]{0,40}?[ \t]+)?`;

const urlPassword = (s: string) => notPlaceholder(s) && (!s.includes("/") || (!/^\d{0,5}\//.test(s) && looksSecret(s.replace("/", ""), true, "password")));

export const RULES: Rule[] = [
  // Whole blocks first: their base64 bodies would otherwise feed other rules.
  { kind: "private-key", re: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|[\s\S]*)/g },
  { kind: "jwt", re: /(?<![\w-])eyJ[\w-]{8,8192}\.[\w-]{8,8192}\.[\w-]{8,8192}/g },
  // Base64 of a PEM private key (a Kubernetes secret's `tls.key`, a CI variable).
  { kind: "private-key", check: (s) => Buffer.from(s.slice(0, 120), "base64").toString("latin1").includes("PRIVATE KEY"), re: /(?<![A-Za-z0-9+\/])LS0tLS1CRUdJTi[A-Za-z0-9+\/]{20,16384}={0,2}/g },
  // Base64 of a JSON document holding credentials (a Kubernetes `.dockerconfigjson`).
  { kind: "docker-auth", check: (s) => /"(?:auth|password|identitytoken)"/.test(Buffer.from(s.slice(0, 8192), "base64").toString("latin1")), re: /(?<![A-Za-z0-9+\/])eyJ[A-Za-z0-9+\/]{20,16384}={0,2}(?![A-Za-z0-9+\/=])/g },
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
  { kind: "age-secret-key", re: /(?<![A-Za-z0-9])AGE-SECRET-KEY-1[0-9A-Z]{58}(?![A-Za-z0-9])/g },
  { kind: "terraform-token", gate: /\.atlasv1\./, re: /(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[\w-]{60,90}/g },
  { kind: "linear-api-key", re: /(?<![A-Za-z0-9])lin_(?:api|oauth)_[A-Za-z0-9]{40}(?![\w-])/g },
  { kind: "grafana-token", re: /(?<![A-Za-z0-9])(?:glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}|glc_[A-Za-z0-9+\/]{32,400}={0,2})(?![\w-])/g },
  { kind: "postman-api-key", re: /(?<![A-Za-z0-9])PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?![\w-])/g },
  { kind: "sentry-token", re: /(?<![A-Za-z0-9])(?:sntrys_[\w=+\/-]{40,400}|sntryu_[a-f0-9]{64})/g },
  { kind: "databricks-token", re: /(?<![A-Za-z0-9])dapi[a-f0-9]{32}(?:-\d)?(?![\w-])/g },
  { kind: "supabase-token", re: /(?<![A-Za-z0-9])sbp_[a-f0-9]{40}(?![\w-])/g },
  { kind: "figma-token", re: /(?<![A-Za-z0-9])figd_[\w-]{40,60}/g },
  { kind: "notion-token", re: /(?<![A-Za-z0-9])(?:ntn_[A-Za-z0-9]{46}|secret_[A-Za-z0-9]{43})(?![\w-])/g },
  { kind: "doppler-token", re: /(?<![A-Za-z0-9])dp\.(?:st|sa|ct|pt|scim|audit)\.[\w-]{40,64}/g },
  { kind: "azure-storage-key", re: /(?<![\w-])(?:AccountKey|SharedAccessKey)=(?<s>[A-Za-z0-9+\/]{20,1024}={0,2})/gi },
  { kind: "mailgun-api-key", check: looksRandom, re: /(?<![\w-])key-[0-9a-z]{32}(?![\w-])/g },
  { kind: "mailgun-api-key", gate: /-[0-9a-f]{8}-[0-9a-f]{8}(?![\w-])/, re: /(?<![\w-])[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}(?![\w-])/g },
  { kind: "azure-sas-signature", re: /[?&]sig=(?<s>[A-Za-z0-9%+\/]{20,512}(?:=|%3D){0,2})/gi },
  ...VENDOR_RULES,
  // Credentials in context.
  // The password may hold one `/` (not a port and a path: `https://host:8443/@scope/pkg`).
  { kind: "url-password", check: urlPassword, gate: /:\/\//, re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s:\/?#@'"\[\]]{0,256}:(?<s>[^\s\/?'"]{1,512}|[^\s\/?'"@]{0,256}\/[^\s\/?'"@]{1,256}(?=@[\w.-]+(?:[:\/]|\s|$)))(?=@)/g },
  // A token as the whole user part: `https://<token>@github.com/acme/x.git`.
  { kind: "url-token", check: (s) => looksRandom(s) || /^[a-f0-9]{32,}$/i.test(s), gate: /:\/\//, re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/(?<s>[^\s:\/?#@'"\[\]]{16,256})(?=@)/g },
  {
    kind: "authorization-header",
    check: (s) => looksSecret(s, true, "token"),
    re: /(?<![\w-])(?:Proxy-)?Authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:(?:Bearer|Basic|Token|Bot|Digest|Negotiate|ApiKey|Key|SSWS)[ \t]+)?(?<s>[\w.~+\/=-]{8,4096})/gi,
  },
  { kind: "bearer-token", check: (s) => looksRandom(s), re: /(?<![\w-])Bearer[ \t]+(?<s>[\w.~+\/-]{16,4096}=*)/g },
  { kind: "basic-auth", check: (s) => looksSecret(s, true, "password"), re: /(?<![\w-])(?:-u|--user)[ \t]+\\?["']?(?![+%])[^\s:"'\\]{0,256}:(?<s>[^\s"'\\]{1,512})/g },
  // `.netrc`: `machine h login u password p` (or the password before the login).
  { kind: "password", check: notPlaceholder, gate: /machine/, re: /(?<![\w-])machine\s{1,64}\S{1,256}\s{1,64}(?:login\s{1,64}\S{1,256}\s{1,64}password[ \t]{1,64}(?<s>\S{1,512})|password[ \t]{1,64}(?<uq>\S{1,512})(?=\s{1,64}login\s))/g },
  { kind: "connection-string-password", check: notPlaceholder, gate: /pwd|password/i, re: /;[ \t]{0,4}(?:password|pwd)[ \t]*=(?<s>\{[^}\r\n]{1,256}\}|[^;\r\n"']{1,256})/gi },
  // A Docker `config.json` (or Kubernetes dockerconfigjson) entry: `"auth": "<base64 of user:password>"`.
  { kind: "docker-auth", check: isBase64Credential, re: /(?<![\w-])\\?["']?auth\\?["']?[ \t]*[:=][ \t]*\\?["']?(?<s>[A-Za-z0-9+\/]{8,4096}={0,2})/g },
  // Passwords given to a command's short flag: `mysql -uroot -pS3cret` (glued), `sshpass -p 'S3cret'`,
  // `docker login -u ci -p S3cret`, `mongosh -p`, `redis-cli -a`, `az login -p`, `ldapsearch -w`, `sqlcmd -P`.
  cliPassword(String.raw`mysql(?:dump|admin|import|show|check)?|mariadb(?:-dump|-admin)?`, "-p", ""),
  cliPassword("sshpass", "-p", "[ \\t]*"),
  cliPassword(String.raw`(?:docker|podman|nerdctl|buildah|skopeo|oras)[ \t]+login|helm[ \t]+registry[ \t]+login|az[ \t]+login`, "-p", "[ \\t]+", /login/),
  cliPassword(String.raw`mongo(?:sh|dump|restore|export|import|stat|top)?`, "-p"),
  cliPassword("redis-cli", "-a"),
  cliPassword(String.raw`ldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn)`, "-w"),
  cliPassword("sqlcmd|bcp", "-P"),
  { kind: "password", check: notPlaceholder, re: /(?<![\w-])smbclient\b[^\n|;&]{0,512}?[ \t](?:-U[ \t]*|--user[= ])[^\s%'"]{1,256}%(?<s>[^\s'"]{1,256})/g },
  { kind: "password", check: notPlaceholder, re: /(?<![\w-])htpasswd(?:[ \t]+-[A-Za-z]+)*?[ \t]+-[A-Za-z]*b[A-Za-z]*(?:[ \t]+-[A-Za-z]+)*[ \t]+\S+[ \t]+\S+[ \t]+(?:'(?<sq>[^'\r\n]{1,256})(?=')|"(?<dq>[^"\r\n]{1,256})(?=")|(?<s>[^\s'"]{1,256}))/g },
  { kind: "password", check: notPlaceholder, re: /(?<![\w-])-pass(?:in|out)?[ \t]+pass:(?<s>[^\s'"]{1,256})/g },
  // A secret piped or fed to a command that reads it from stdin.
  { kind: (g) => (g.sec1 ?? g.sec2 ?? g.sec3 ? "secret" : "password"), check: (s, g) => (g.sec1 ?? g.sec2 ?? g.sec3 ? looksSecret(s, true) : notPlaceholder(s)), gate: /echo|printf/, re: new RegExp(String.raw`(?<![\w-])(?:echo|printf)(?:[ \t]+-[a-zA-Z]+)*[ \t]+${FORMAT}(?:'(?<sq>[^'\r\n]{1,256})(?='[ \t]*\|[^\n]{0,256}?${stdin(1)})|"(?<dq>[^"\r\n]{1,256})(?="[ \t]*\|[^\n]{0,256}?${stdin(2)})|(?<s>[^\s'"|]{1,256})(?=[ \t]*\|[^\n]{0,256}?${stdin(3)}))`, "g") },
  { kind: (g) => (g.su ? "password" : "token"), check: notPlaceholder, re: /(?:(?<![\w-])--(?:with-token|password-stdin)|(?<su>(?<![\w-])sudo\b[^\n|;&<]{0,64}?[ \t]-[A-Za-z]*S\b[^\n|;&<]{0,128}?))[ \t]*<<<[ \t]*(?:'(?<sq>[^'\r\n]{1,256})(?=')|"(?<dq>[^"\r\n]{1,256})(?=")|(?<s>[^\s'"]{1,256}))/g },
  { kind: "vault-token", check: looksRandom, re: /(?<![\w-])vault[ \t]+login(?:[ \t]+-\S+)*[ \t]+(?<s>[^\s'"=-][^\s'"=]{7,255})(?=\s|$)/g },
  ...COMMAND_RULES,
  ...MORE_RULES,
  // A secret-named setting set from the command line: `aws configure set aws_secret_access_key X`,
  // `npm config set //registry.npmjs.org/:_authToken X`, `git config user.password X`.
  { kind: assignment, check: assignmentCheck(() => true), re: new RegExp(String.raw`(?<![\w-])(?:set|setx|setenv|config)(?:[ \t]+--?[\w-]{1,40}){0,4}[ \t]+(?:[^\s=]{0,200}?[:/.])?(?<key>${KEY})[ \t]+${VALUE}`, "gi") },
  // `--password xyz`, `--api-key=xyz`, `-Dx.keyStorePassword=xyz`.
  { kind: assignment, check: assignmentCheck(() => true), re: new RegExp(String.raw`(?<![\w-])--?(?=[A-Za-z])(?<key>${KEY})(?:=|[ \t]+)${FLAG_VALUE}`, "gi") },
  // `KEY=value`, `key: value`, `"key": "value"`, `key := "value"`, `'key' => 'value'`.
  { kind: assignment, check: assignmentCheck(literalAssignment), re: new RegExp(String.raw`(?<![\w.$-])(?<kq>\\?["']|)(?=[A-Za-z_])(?<key>${KEY})\k<kq>(?<sep>[ \t]*(?::=|=>|=(?![=>~])|:(?!:)))[ \t]*${VALUE}`, "gi") },
  ...CONTEXT_RULES,
  ...PROSE_RULES,
  ...LANG_RULES,
];
