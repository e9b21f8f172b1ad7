/**
 * Passwords and tokens on command lines that do not name them with a secret-named flag: positional passwords
 * (`net user NAME PASS`, `rabbitmqctl add_user NAME PASS`, `mc alias set NAME URL KEY SECRET`), short flags of
 * remote-admin and messaging tools, `user/password@db` for Oracle, a value given to a secret store (`gh secret
 * set --body`, `aws ssm put-parameter --value`), `openssl passwd`, `expect` scripts answering a password prompt,
 * and the `aws configure` prompts. Run before the generic flag and assignment rules (src/redact/rules.cts).
 */
import { isPlaceholder, looksRandom, looksSecret } from "./judge.cjs";
import { cliPassword, notPlaceholder, type Rule } from "./syntax.cjs";

/** A value that is the next shell word: quoted, or a bare run that does not start a flag. */
const WORD = String.raw`(?:'(?<sq>[^'\r\n]{1,256})(?=')|"(?<dq>[^"\r\n]{1,256})(?=")|(?<s>[^\s'"\/*-][^\s'"]{0,255}))`;
/** A bare password as a positional argument: not a placeholder, a flag, a Windows switch or a plain lowercase word. */
const positional = (s: string) => !isPlaceholder(s) && !/^[\/-]/.test(s) && s.length >= 4 && !/^[a-z]+$/.test(s);

/** Every command (or prompt) the rules below know: a text naming none of them skips them all in one scan. */
const COMMANDS =
  /evil-winrm|psexec|crackmapexec|nxc|netexec|smbmap|hydra|rdesktop|nuget|mosquitto_|ipmitool|snmp|add-(?:generic|internet)-password|nmcli|freerdp|(?:https?|xhs?)[ \t][^\n]{0,256}?(?:-a|--auth)\b|lftp|net[ \t]+us[er]|sqlplus|sqlldr|expdp|impdp|\brman\b|rabbitmqctl|mc[ \t]+(?:alias|config)|(?:gh|glab)[ \t]+(?:secret|variable)|put-parameter|openssl[ \t]+passwd|expect[ \t]|Secret Access Key|http-basic|github-oauth|gitlab-(?:token|oauth)|bearer\./i;

const RULES: Rule[] = [
  // Short password flags of remote-admin, messaging and package tools.
  cliPassword(String.raw`evil-winrm|[Pp]s[Ee]xec(?:64)?(?:\.exe)?|crackmapexec|nxc|netexec|smbmap|hydra|rdesktop|dotnet[ \t]+nuget|nuget`, "-p", "[ \\t]+", /evil-winrm|[Pp]s[Ee]xec|crackmapexec|nxc|netexec|smbmap|hydra|rdesktop|nuget/),
  cliPassword(String.raw`mosquitto_(?:pub|sub|rr)|ipmitool|snmp(?:walk|get|set|bulkwalk)`, "-[PAX]", "[ \\t]+", /mosquitto|ipmitool|snmp/),
  cliPassword(String.raw`security[ \t]+add-(?:generic|internet)-password`, "-w", "[ \\t]+", /add-(?:generic|internet)-password/),
  cliPassword("nmcli", String.raw`(?:password|wifi-sec\.psk|802-11-wireless-security\.psk)`, "[ \\t]+", /nmcli/),
  cliPassword(String.raw`(?:wl|sdl-|x)freerdp[23]?`, "/p:", "", /freerdp/),
  // `http -a user:password` (HTTPie), `lftp -u user,password`.
  { kind: "password", check: notPlaceholder, gate: /http|xh/, re: /(?<![\w-])(?:https?|xhs?)\b[^\n|;&]{0,256}?[ \t](?:-a|--auth)(?:=|[ \t]+)['"]?[^\s:'"]{0,128}:(?<s>[^\s'"]{1,256})/g },
  { kind: "password", check: notPlaceholder, gate: /lftp/, re: /(?<![\w-])lftp\b[^\n|;&]{0,256}?[ \t]-u[ \t]+['"]?[^\s,'"]{1,128},(?<s>[^\s'"]{1,256})/g },
  // Windows: `net user NAME PASS /add`, `net use X: \\srv\share /user:DOMAIN\u PASS`.
  { kind: "password", check: positional, gate: /net/i, re: new RegExp(String.raw`(?<![\w-])net[ \t]+user[ \t]+(?:"[^"\r\n]{1,64}"|[^\s"\/]{1,64})[ \t]+${WORD}`, "gi") },
  { kind: "password", check: positional, gate: /net/i, re: new RegExp(String.raw`(?<![\w-])net[ \t]+use\b[^\n|&]{0,256}?[ \t]\/user:\S{1,128}[ \t]+${WORD}`, "gi") },
  // Oracle: `sqlplus user/password@db`, `expdp user/password`.
  { kind: "password", check: notPlaceholder, gate: /sqlplus|sqlldr|expdp|impdp|\brman\b/, re: /(?<![\w-])(?:sqlplus|sqlldr|expdp|impdp|rman(?:[ \t]+target)?)(?:[ \t]+-\w+)*[ \t]+['"]?[\w$#]{1,128}\/(?<s>[^\s@\/'"]{1,256})(?=[@\s'"]|$)/g },
  // RabbitMQ: `rabbitmqctl add_user NAME PASS`, `change_password NAME PASS`.
  { kind: "password", check: positional, gate: /rabbitmqctl/, re: new RegExp(String.raw`(?<![\w-])rabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S{1,128}[ \t]+${WORD}`, "g") },
  // MinIO client: `mc alias set NAME URL ACCESS_KEY SECRET_KEY` (the secret, then the access key).
  { kind: "secret", check: (s) => !isPlaceholder(s) && s.length >= 4, gate: /mc/, re: /(?<![\w-])mc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S{1,128}[ \t]+\S{1,512}[ \t]+[^\s-]\S{2,255}[ \t]+(?<s>[^\s'"-][^\s'"]{2,255})/g },
  { kind: "access-key", check: positional, gate: /mc/, re: /(?<![\w-])mc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S{1,128}[ \t]+\S{1,512}[ \t]+(?<s>[^\s'"\[-][^\s'"]{2,255})(?=[ \t]+\S)/g },
  // A value handed to a secret store: `gh secret set NAME --body X`, `aws ssm put-parameter … --value X` (a
  // SecureString, or a parameter whose name says secret).
  { kind: "secret", check: notPlaceholder, gate: /secret/, re: new RegExp(String.raw`(?<![\w-])(?:gh|glab)[ \t]+(?:secret|variable)[ \t]+set\b[^\n|;&]{0,256}?[ \t](?:--body|-b|--value|-v)(?:=|[ \t]+)${WORD}`, "g") },
  { kind: "secret", check: notPlaceholder, gate: /put-parameter/, re: new RegExp(String.raw`(?<![\w-])put-parameter\b(?=[^\n]{0,1024}?(?:SecureString|--name[ =]\S{0,200}(?:pass|pwd|secret|token|key|cred|auth)))[^\n|;&]{0,512}?[ \t]--value(?:=|[ \t]+)${WORD}`, "g") },
  // `openssl passwd -6 'password'` (the hash it prints is a password hash too).
  { kind: "password", check: notPlaceholder, gate: /passwd/, re: new RegExp(String.raw`(?<![\w-])openssl[ \t]+passwd(?:[ \t]+-(?:salt[ \t]+\S{1,64}|\w{1,10}))*[ \t]+${WORD}`, "g") },
  // An `expect` script answering a password prompt: `expect "*assword:*"` then `send "…\r"`.
  { kind: "password", check: notPlaceholder, gate: /send/, re: /(?<![\w-])expect[ \t]+(?:-\w+[ \t]+)?["'{][^\n]{0,64}?(?:assword|assphrase|PIN)[^\n]{0,64}\r?\n[ \t]*send[ \t]+(?:--[ \t]+)?"(?<s>[^"\\\r\n]{1,256}?)(?=\\[rn]|")/g },
  // `aws configure` prompts: `AWS Secret Access Key [None]: …`.
  { kind: "aws-secret-access-key", check: looksRandom, gate: /Secret Access Key/, re: /Secret Access Key[ \t]*\[[^\]\n]{0,64}\]:[ \t]*(?<s>[A-Za-z0-9+\/]{40})(?![A-Za-z0-9+\/])/g },
  // `poetry config http-basic.NAME USER PASS`, `composer config github-oauth.github.com TOKEN`.
  {
    kind: "password",
    check: (s) => looksSecret(s, true, "password"),
    gate: /http-basic|github-oauth|gitlab-(?:token|oauth)|bearer\./,
    re: new RegExp(String.raw`(?<![\w-])config\b(?:[ \t]+--?[\w-]{1,40}){0,3}[ \t]+(?:http-basic\.\S{1,256}[ \t]+\S{1,128}|(?:github-oauth|gitlab-token|gitlab-oauth|bearer)\.\S{1,256})[ \t]+${WORD}`, "g"),
  },
];

export const COMMAND_RULES: Rule[] = RULES.map((rule) => ({ ...rule, group: COMMANDS }));
