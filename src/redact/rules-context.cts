/**
 * Rules for secrets known only by what surrounds them, run after the provider formats and the assignments
 * (src/redact/rules.cts): config shapes that are not `key = value` (a `.pgpass` line, PHP `define`, a
 * name/value pair, `az … keys list` output), passphrases with spaces, a secret named in prose ("the password
 * is …"), an AWS secret key near its key id, and passwords on database command lines.
 */
import { isPassphrase, keyKind, looksRandom, looksSecret } from "./judge.cjs";
import { assignment, type Groups, KEY, notPlaceholder, PHRASE, QUOTED, type Rule, VALUE } from "./syntax.cjs";

/** The key's kind when it names a secret and the value looks like one, as a literal (quoted, or config). */
const namedLiteral = (s: string, g: Groups) => {
  const kind = keyKind(g.key ?? "");
  return kind !== null && looksSecret(s, true, kind, /phrase/i.test(g.key ?? ""));
};
/** A password that may be a plain word when it is quoted; letters and digits mixed count as written out too. */
const proseSecret = (kind: string) => (s: string, g: Groups) => looksSecret(s, g.q !== "" || (s.length >= 8 && /\d/.test(s) && /[A-Za-z]/.test(s)), kind);

/** Prose words that end a secret named in a sentence: trailing punctuation is not part of it. */
const PROSE_VALUE = String.raw`(?<q>["'\x60\u201c]?)(?<s>[^\s"'\x60\u201d]{1,256}?)(?=[.,;:)]*(?:["'\x60\u201d]|\s|$))`;

/** The words a secret-named key holds (a text with none skips the rules that need one, in one scan). */
const KEYWORD = /pass|pwd|pw|psk|secret|token|key|auth|cred|pat/i;

export const CONTEXT_RULES: Rule[] = [
  // A `.pgpass` line: host:port:database:user:password (each field may be `*`), also quoted or inside a sentence.
  {
    kind: "password",
    check: (s) => looksSecret(s, true, "password"),
    gate: /:(?:\d{1,5}|\*):/,
    re: /(?<![^\s"'\x60])(?:[\w.-]{1,253}|\*|\[[\da-fA-F:]{2,45}\]):(?:\d{1,5}|\*):(?:[\w.-]{1,128}|\*):(?:[\w.@-]{1,128}|\*):(?<s>(?:[^\s:\\"'\x60]|\\[:\\]){1,256})(?=[\s"'\x60]|$)/g,
  },
  // PHP `define('DB_PASSWORD', '…')`, `putenv`/`setenv`/`set('token', '…')`, `os.environ['API_KEY'] = '…'`.
  {
    kind: assignment,
    check: namedLiteral,
    gate: /define|env|set|put/i,
    re: new RegExp(String.raw`(?<![\w$])(?:define|setenv|putenv|set|put|setItem|setdefault|Setenv|SetEnvironmentVariable)[ \t]*\([ \t]*(?<kq>['"])(?<key>[\w.-]{1,80})\k<kq>[ \t]*,[ \t]*${QUOTED}`, "gi"),
  },
  { kind: assignment, check: namedLiteral, gate: /\][ \t]*[=|?]/, re: new RegExp(String.raw`\[[ \t]*(?<kq>['"])(?<key>[\w.-]{1,80})\k<kq>[ \t]*\][ \t]*(?:=|\|\|=|\?\?=)[ \t]*${QUOTED}`, "g") },
  // A name/value pair: Kubernetes `env` (`- name: DB_PASSWORD` / `value: …`), ECS task definitions, Terraform outputs.
  {
    kind: assignment,
    check: namedLiteral,
    gate: /value/i,
    re: new RegExp(String.raw`(?<![\w-])(?<nq>\\?["']?)(?:name|Name|key|Key|ParameterKey)\k<nq>[ \t]*[:=][ \t]*(?<kq>\\?["']?)(?<key>[\w.-]{1,80})\k<kq>[ \t]*,?[ \t]*(?:\r?\n[ \t]*)?(?<vq>\\?["']?)(?:value|Value|ParameterValue)\k<vq>[ \t]*[:=][ \t]*${VALUE}`, "g"),
  },
  // `az storage account keys list`: `"keyName": "key1", "permissions": "FULL", "value": "<key>"`.
  { kind: "azure-storage-key", gate: /keyName/, check: (s) => looksSecret(s, true, "secret"), re: /\\?["']keyName\\?["'][ \t]*:[ \t]*\\?["'][^"'\n]{1,64}["'][^{}]{0,512}?\\?["']value\\?["'][ \t]*:[ \t]*\\?["'](?<s>[^"'\\\n]{8,1024})/g },
  // XML config: `<password>…</password>` (Maven settings.xml, NuGet, Tomcat), `<add key="ApiToken" value="…"/>`.
  { kind: assignment, check: namedLiteral, gate: /<\//, re: /<(?<key>[\w.:-]{0,40}(?:pass|secret|token|key|auth|cred)[\w.:-]{0,24})>(?<s>[^<\r\n]{1,1024})(?=<\/\k<key>>)/gi },
  { kind: assignment, check: namedLiteral, gate: /value=/i, re: /<add[ \t]+key="(?<key>[\w.:-]{1,80})"[ \t]+value="(?<dq>[^"\r\n]{1,1024})(?=")/gi },
  // A Redis config: `requirepass …`, `masterauth …`.
  { kind: "password", check: (s) => looksSecret(s, true, "password"), gate: /requirepass|masterauth/, re: /(?<![^\n])[ \t]*(?:requirepass|masterauth)[ \t]+(?:"(?<dq>[^"\r\n]{1,512})(?=")|(?<s>\S{1,512}))/g },
  // SQL: `CREATE USER … PASSWORD '…'`, `IDENTIFIED BY '…'`.
  { kind: "password", check: notPlaceholder, gate: /password|identified/i, re: /(?<![\w-])(?:WITH[ \t]+(?:ENCRYPTED[ \t]+)?PASSWORD|IDENTIFIED[ \t]+BY|SET[ \t]+PASSWORD[ \t]*=?)[ \t]+(?:PASSWORD[ \t]*\()?'(?<sq>[^'\r\n]{1,256})(?=')/gi },
  // `requests.get(url, auth=("user", "…"))`, `ConvertTo-SecureString "…" -AsPlainText`, `props.setProperty("db.password", "…")`.
  { kind: "password", check: (s) => looksSecret(s, true, "password"), gate: /auth/, re: new RegExp(String.raw`(?<![\w-])auth[ \t]*=[ \t]*[(\[][ \t]*["'][^"'\r\n]{0,128}["'][ \t]*,[ \t]*${QUOTED}`, "g") },
  { kind: "password", check: notPlaceholder, gate: /SecureString/, re: new RegExp(String.raw`ConvertTo-SecureString[ \t]+(?:-String[ \t]+)?${QUOTED}`, "gi") },
  { kind: assignment, check: namedLiteral, gate: /Property|Secret/, re: new RegExp(String.raw`(?<![\w$])(?:setProperty|setSecret|put_secret)[ \t]*\([ \t]*(?<kq>['"])(?<key>[\w.-]{1,80})\k<kq>[ \t]*,[ \t]*${QUOTED}`, "g") },
  // A JSON Web Key's private parts (`"d"`, `"p"`, `"q"`, …) next to `"kty"`.
  { kind: "private-key", gate: /kty/, re: /\\?["'](?:d|p|q|dp|dq|qi|k)\\?["'][ \t]*:[ \t]*\\?["'](?<s>[\w-]{16,8192})/g },
  // PuTTY key files: the lines after `Private-Lines: N`.
  { kind: "private-key", gate: /Private-Lines/, re: /(?<=Private-Lines:[ \t]*\d{1,3}\r?\n)(?<s>(?:[A-Za-z0-9+\/=]{1,128}(?:\r?\n|$)){1,64})/g },
  // PHP, Perl and PowerShell variables: `$db_password = '…';`, `my $apiKey = "…";`.
  { kind: assignment, check: namedLiteral, group: KEYWORD, gate: /\$/, re: new RegExp(String.raw`(?<![\w.$-])\$(?<key>${KEY})[ \t]*=(?![=>~])[ \t]*${QUOTED}`, "gi") },
  // Dockerfile `ENV NAME value` (the legacy form without `=`).
  { kind: assignment, check: namedLiteral, group: KEYWORD, gate: /ENV|ARG/, re: new RegExp(String.raw`(?<![^\n])[ \t]*(?:ENV|ARG)[ \t]+(?<key>${KEY})[ \t]+${VALUE}`, "gi") },
  // `<property name="hibernate.connection.password">…</property>`, `<entry key="api.token">…</entry>`.
  { kind: assignment, check: namedLiteral, group: KEYWORD, gate: /(?:name|key)=/, re: new RegExp(String.raw`<[\w:.-]{1,40}[ \t]+(?:[\w:.-]{1,40}="[^"\r\n<>]{0,200}"[ \t]+)*(?:name|key)="(?<key>${KEY})"[^<>\r\n]{0,200}>(?<s>[^<\r\n]{1,1024})(?=<\/)`, "gi") },
  // Ruby symbol keys in brackets: `knife[:aws_secret_access_key] = "…"`, `config[:api_token] = '…'`.
  { kind: assignment, check: namedLiteral, group: KEYWORD, gate: /\[:/, re: new RegExp(String.raw`\[:(?<key>[\w.-]{1,80})\][ \t]*(?:=|\|\|=)[ \t]*${QUOTED}`, "g") },
  // A markdown table row: `| DB_PASSWORD | value |`.
  { kind: assignment, check: namedLiteral, group: KEYWORD, gate: /\|/, re: new RegExp(String.raw`\|[ \t]*\x60?(?<key>${KEY})\x60?[ \t]*\|[ \t]*\x60?(?<s>[^|\s\x60]{1,512})(?=\x60?[ \t]*\|)`, "gi") },
  // JSON escaped more than once: `\\\"password\\\": \\\"…\\\"`.
  { kind: assignment, check: namedLiteral, group: KEYWORD, gate: /\\\\/, re: new RegExp(String.raw`(?<kq>\\{2,15}["'])(?<key>${KEY})\k<kq>[ \t]*:[ \t]*\k<kq>(?<s>[^"'\\\r\n]{1,1024})(?=\\)`, "gi") },
  // A YAML block scalar under a secret-named key: `signing_secret: |` and the indented lines below it.
  { kind: assignment, check: (s, g) => namedLiteral(s.replace(/\s+/g, ""), g), group: KEYWORD, gate: /:[ \t]*[|>]/, re: new RegExp(String.raw`:[ \t]*[|>][-+]?[ \t]*\r?\n(?<=(?<![\w.-])(?<key>${KEY}):[ \t]*[|>][-+]?[ \t]*\r?\n)(?<ind>[ \t]+)(?<s>\S[^\r\n]{0,1023}(?:\r?\n\k<ind>\S[^\r\n]{0,1023}){0,63})`, "gi") },
  // A quoted value wrapped over several lines (`API_TOKEN="abc…` / `…xyz"`; a key pasted from a narrow terminal).
  { kind: assignment, check: (s, g) => namedLiteral(s.replace(/\s+/g, ""), g), group: KEYWORD, gate: /[:=][ \t]*["'][^"'\s]{1,1024}\r?\n/, re: new RegExp(String.raw`(?<q>["'])(?<s>[^\s"']{1,1024}(?:\r?\n[ \t]*[^\s"']{1,1024}){1,64})(?=\k<q>)(?<=(?<![\w.$-])["']?(?<key>${KEY})["']?[ \t]*[:=][ \t]*\k<q>\k<s>)`, "gi") },
  // A quoted value whose quote never closes on its line (the first line of a wrapped value, a cut sentence). Here and
  // above, the key is looked for behind the value only once the value has the rare shape (so not behind every quote).
  { kind: assignment, check: namedLiteral, group: KEYWORD, gate: /[:=][ \t]*["']/, re: new RegExp(String.raw`(?<q>["'])(?<s>[^\s"'\\]{8,1024})(?=\s|$)(?![^\r\n"']{0,1024}\k<q>)(?<=(?<![\w.$-])["']?(?<key>${KEY})["']?[ \t]*[:=][ \t]*\k<q>\k<s>)`, "gi") },
  // Each quoted item of a list under a secret-named key: `"api_keys": ["…", "…"]`, `TOKENS=['…']`.
  {
    kind: assignment,
    check: namedLiteral,
    gate: /(?:pass|pwd|pw|psk|secret|token|key|auth|cred|pat)[\w.-]{0,32}["']?[ \t]*[:=][ \t]*\[/i,
    re: new RegExp(String.raw`(?<q>["'])(?<=(?<![\w.-])["']?(?<key>${KEY})["']?[ \t]*[:=][ \t]*\[[ \t]*(?:["'][^"'\r\n]{0,256}["'][ \t]*,[ \t]*){0,15}["'])(?<s>[^"'\r\n]{1,256})(?=\k<q>)`, "gi"),
  },
  // A cookie in a `Cookie:` or `Set-Cookie:` header whose value looks random (a session id, a signed session). The
  // header is found looking back from each `name=` no further than the last colon, so the scan stays short.
  {
    kind: "cookie",
    check: (s) => s.length >= 16 && looksRandom(s),
    gate: /cookie/i,
    re: /(?<![\w.%-])[\w.%-]{1,64}=(?<=(?:^|[\s"'{,])(?:Set-)?Cookie\\?["']?[ \t]*:[^\r\n:]{0,4096})(?<s>[^;\s"',\\]{16,4096})/gi,
  },
  // A passphrase of several words, unquoted, to the end of its line (YAML, an env file).
  {
    kind: "password",
    check: isPassphrase,
    gate: /phrase/i,
    re: /(?<![\w.$-])(?<kq>["']?)[\w.-]{0,40}pass[\W_]?phrase[\w.-]{0,20}\k<kq>[ \t]*[:=][ \t]*(?<s>[^\s"'#][^\n"'#]{0,199}?)(?=[ \t]*(?:#|\r?\n|$))/gi,
  },
  // Prose: "the password is …", "passphrase was …", "the secret is …", "my token is now …".
  { kind: "password", check: (s) => isPassphrase(s), gate: /phrase/i, re: new RegExp(String.raw`(?<![\w-])pass[ -]?phrase[ \t]+(?:is|was)(?:[ \t]+now)?[ \t]*:?[ \t]+${PHRASE}`, "gi") },
  { kind: "password", check: proseSecret("password"), gate: /\b(?:is|was)\b/, re: new RegExp(String.raw`(?<![\w-])(?:pass(?:word|wd|phrase)|pwd|passcode)[ \t]+(?:is|was)(?:[ \t]+now)?[ \t]*:?[ \t]+${PROSE_VALUE}`, "gi") },
  { kind: "secret", check: proseSecret("secret"), gate: /\b(?:is|was)\b/, re: new RegExp(String.raw`(?<![\w-])(?:secret(?:[ \t]+(?:access[ \t]+)?key)?|api[ \t-]?key|token|credentials?)[ \t]+(?:is|was)(?:[ \t]+now)?[ \t]*:?[ \t]+${PROSE_VALUE}`, "gi") },
  // An AWS secret access key (40 base64 characters) soon after its key id, in whatever words.
  {
    kind: "aws-secret-access-key",
    check: looksRandom,
    gate: /\[REDACTED:aws-access-key-id\]/,
    re: /\[REDACTED:aws-access-key-id\][\s\S]{0,200}?(?<![A-Za-z0-9+\/])(?<s>[A-Za-z0-9+\/]{40})(?![A-Za-z0-9+\/=])/g,
  },
  // Archive and key passwords: `zip -P …`, `7z a -p…`, `ssh-keygen -N '…'`.
  { kind: "password", check: notPlaceholder, gate: /zip|7z|ssh-keygen/, re: /(?<![\w-])(?:(?:un)?zip\b[^\n|;&]{0,256}?[ \t]-P[ \t]+|7za?\b[^\n|;&]{0,256}?[ \t]-p|ssh-keygen\b[^\n|;&]{0,256}?[ \t]-[NP][ \t]+)(?:'(?<sq>[^'\r\n]{1,256})(?=')|"(?<dq>[^"\r\n]{1,256})(?=")|(?<s>[^\s'"-][^\s'"]{0,255}))/g },
  // libpq connection strings on a command line: `psql "host=db user=app password=…"`.
  { kind: "password", check: notPlaceholder, gate: /psql|pg_/, re: /(?<![\w-])(?:psql|pg_dump|pg_dumpall|pg_restore|pgbench|pg_isready)\b[^\n|;&]{0,512}?[\s'"]password=(?<s>[^\s'"]{1,256})/g },
];
