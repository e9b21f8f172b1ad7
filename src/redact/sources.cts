/**
 * Where secrets come from (issue 29): the files that hold secret material and the commands that print it. The
 * capture path (src/capture/extract/withhold.ts) stores only the fact that such a file was read or written, or
 * that such a command ran; its content or output never reaches the redaction rules, let alone a store. Pure.
 *
 * Secret files (by name): `.env`, `.env.*` and `*.env` (not `.env.example`, `.sample`, `.template`, `.dist`),
 * `.pgpass`, `.my.cnf`, `.netrc`/`_netrc`, `.git-credentials`, `credentials` and `credentials.*` as data (an AWS,
 * gcloud or Terraform credentials file: `.json`, `.csv`, `.ini`, …; not `credentials.ts` or a note), private keys
 * (`id_rsa`, `id_ed25519`, any `id_*` but `.pub`; `*.pem`, `*.key`, `*.p12`, `*.pfx`, `*.jks`, `*.keystore`, `*.ppk`),
 * `secrets.yml`/`.yaml`/`.json`, `.htpasswd`,
 * `.vault-pass`, a kubeconfig (`.kube/config`), a Docker `config.json` under `.docker/`, and `.npmrc`/`.pypirc`
 * when their content holds a credential (or, read without content, always).
 *
 * Commands that print secrets: an environment dump (`env`, `printenv`, `set`, `export`/`export -p`, a
 * secret-named variable echoed (`echo $API_TOKEN`),
 * `declare -p`/`-x`, `Get-ChildItem env:`, `/proc/*\/environ`, `docker inspect`, `docker compose config`),
 * a reader (`cat`, `head`, `less`, `grep`, `sed`, `diff`, `base64`, `jq`, `git show`, …) given a secret file, and
 * the CLIs that print credentials: `kubectl get secret … -o yaml|json|…`, `kubectl describe secret`,
 * `kubectl config view --raw`, `aws configure get|list|export-credentials`, `aws sts get-session-token|assume-role`,
 * `aws secretsmanager get-secret-value`, `aws ssm get-parameter(s) --with-decryption`, `aws ecr get-login-password`,
 * `aws iam create-access-key`, `gcloud auth print-access-token|print-identity-token`, `gcloud secrets versions
 * access`, `az account get-access-token`, `az keyvault secret show`, `az ad sp create-for-rbac`, `vault kv get`,
 * `vault read`, `vault token create`, `op read`/`op item get`, `security find-*-password -w|-g`, `gh auth token`,
 * `heroku config`, `terraform output -raw|-json`, `pass show`, `bw get`, `secret-tool lookup`, `sops -d`,
 * `ansible-vault view|decrypt`, `gpg -d`, `openssl rand`, `wg genkey`, `age-keygen`, `git credential fill`.
 */

import { keyKind } from "./judge.cjs";

const TEMPLATE = /\.(?:example|sample|template|tmpl|dist|defaults?|schema)$/i;
const KEY_EXT = /\.(?:pem|key|p12|pfx|jks|keystore|ppk|kdbx)$/i;

/** `true` when the text of an `.npmrc` or `.pypirc` holds a credential. */
const hasAuth = (content: string) => /(?:_auth(?:Token)?|_password|password|token)\s*[=:]/i.test(content);

/**
 * Why a file's content is secret (`"secret file .env"`), or null. `content`, when known, decides for files that
 * hold a credential only sometimes (`.npmrc`, `.pypirc`).
 */
export function secretFileReason(path: string, content?: string): string | null {
  const p = path.replace(/\\/g, "/").replace(/\/+$/, "");
  const base = p.slice(p.lastIndexOf("/") + 1);
  if (base === "" || base.length > 255) return null;
  const why = () => `secret file ${base}`;
  if (/\.pub$/i.test(base) || TEMPLATE.test(base)) return null;
  if (/^\.env(?:\..+)?$/i.test(base) || /^[\w.-]+\.env$/i.test(base)) return why();
  if (/^(?:\.pgpass|\.my\.cnf|\.netrc|_netrc|\.git-credentials|\.htpasswd|\.vault[-_]pass(?:word)?|\.boto|\.s3cfg)$/i.test(base)) return why();
  if (/^credentials(?:\.(?:json|csv|ya?ml|toml|ini|cfg|conf|txt|xml|properties|db))?$/i.test(base)) return why();
  if (/^id_(?:rsa|dsa|ecdsa|ed25519|xmss)(?:[_-][\w-]+)?$/i.test(base) || /^id_[\w-]+$/.test(base)) return why();
  if (KEY_EXT.test(base)) return why();
  if (/^secrets?\.(?:ya?ml|json|toml|env)$/i.test(base)) return why();
  if (/(?:^|\/)\.kube\/config$/.test(p) || /(?:^|\/)\.docker\/config\.json$/.test(p)) return why();
  if (/^\.(?:npmrc|pypirc)$/i.test(base) && (content === undefined || hasAuth(content))) return why();
  return null;
}

/** A word of a command line that names a secret file (quotes and a `~/` or `$HOME/` prefix allowed). */
function secretArg(words: string[]): string | null {
  for (const w of words) {
    const t = w.replace(/^['"]|['"]$/g, "");
    if (t.startsWith("-") && !t.includes("=")) continue;
    const path = t.includes("=") && t.startsWith("-") ? t.slice(t.indexOf("=") + 1) : t;
    if (/[*?]/.test(path) && /(?:^|\/)\.env\*?$|\.env\.\*$/.test(path)) return `secret file ${path.slice(path.lastIndexOf("/") + 1)}`;
    const why = secretFileReason(path) ?? (/^[\w.~^\/-]+:[^\/]/.test(path) ? secretFileReason(path.slice(path.indexOf(":") + 1)) : null); // `HEAD:.env`
    if (why) return why;
  }
  return null;
}

/** Commands that print a file's content (or part of it). */
const READERS = new Set(
  ("cat tac head tail less more most bat batcat nl strings xxd hexdump od base64 base32 grep egrep fgrep rg ag ack awk gawk " +
    "sed cut sort uniq diff colordiff jq yq dotenv type get-content gc vi vim nvim view emacs nano source . openssl gpg " +
    "sops ansible-vault ssh-keygen xclip pbcopy").split(" "),
);

/** Commands (their first words) that print credentials whatever their arguments, or with the arguments given. */
const PRINTERS: RegExp[] = [
  /^printenv\b/, // the environment, or one variable of it
  /^(?:env(?:\s+-0)?|set|export(?:\s+-p)?|(?:declare|typeset)\s+-[a-z]*[px][a-z]*)\s*$/, // an environment dump (no arguments)
  /^(?:get-childitem|gci|dir|ls)\s+env:/i,
  /^(?:cat|strings|tr)\b.*\/proc\/[\w*]+\/environ/,
  /^ps\s+\S*e\S*w/, // `ps eww`: every process's environment
  /^(?:docker|podman)\s+(?:container\s+)?inspect\b/,
  /^docker[\s-]+compose\s+(?:.*\s)?config\b/,
  /^(?:kubectl|oc|k)\s+(?:.*\s)?get\s+secrets?\b.*(?:-o|--output)[\s=]*(?:ya?ml|json|jsonpath|go-template|custom-columns)/,
  /^(?:kubectl|oc|k)\s+(?:.*\s)?(?:describe|view-secret)\s+secrets?\b/,
  /^(?:kubectl|oc|k)\s+view-secret\b/,
  /^(?:kubectl|oc|k)\s+config\s+view\b.*--raw/,
  /^kubectl\s+create\s+secret\b.*(?:-o|--output)[\s=]*(?:ya?ml|json)/,
  /^aws\s+(?:.*\s)?configure\s+(?:get|list|export-credentials)\b/,
  /^aws\s+(?:.*\s)?sts\s+(?:get-session-token|assume-role\S*|get-federation-token)\b/,
  /^aws\s+(?:.*\s)?(?:secretsmanager\s+get-secret-value|ecr\s+get-login-password|iam\s+create-access-key|codeartifact\s+get-authorization-token)\b/,
  /^aws\s+(?:.*\s)?ssm\s+get-parameters?(?:-by-path)?\b.*--with-decryption/,
  /^gcloud\s+(?:.*\s)?(?:auth\s+(?:application-default\s+)?print-(?:access|identity)-token|secrets\s+versions\s+access)\b/,
  /^az\s+(?:account\s+get-access-token|keyvault\s+secret\s+show|ad\s+sp\s+create-for-rbac|storage\s+account\s+keys\s+list|acr\s+login\b.*--expose-token)/,
  /^vault\s+(?:kv\s+get|read|token\s+create|write\s+\S*login)\b/,
  /^op\s+(?:read|item\s+get|signin\b.*--raw)\b/,
  /^security\s+find-(?:generic|internet)-password\b.*\s-[a-z]*[wg]\b/,
  /^gh\s+auth\s+(?:token|status\b.*(?:-t|--show-token))/,
  /^heroku\s+config(?::get)?\b/,
  /^terraform\s+output\b.*-(?:raw|json)/,
  /^(?:pass|gopass)\s+(?:show\s+)?[\w./-]+\s*$/,
  /^(?:bw|lpass)\s+(?:get|show)\b/,
  /^secret-tool\s+lookup\b/,
  /^sops\s+(?:-d|--decrypt|decrypt)\b/,
  /^ansible-vault\s+(?:view|decrypt)\b/,
  /^gpg\s+(?:.*\s)?(?:-d|--decrypt)\b/,
  /^openssl\s+rand\b/,
  /^(?:wg\s+genkey|age-keygen|git\s+credential\s+fill)\b/,
];

/** Splits a command line into its simple commands (at `|`, `;`, `&&`, `||`, `&`, `$(`, backticks, parentheses, newlines). */
function simpleCommands(command: string): string[] {
  return command
    .split(/\|\||&&|[|;&\n`()]|\$\(/)
    .map((c) => c.trim().replace(/^(?:sudo(?:\s+-\S+)*|time|nice(?:\s+-n\s*-?\d+)?|exec|command|xargs(?:\s+-\S+)*|ssh\s+\S+(?:\s+-\S+)*)\s+/, ""))
    .filter((c) => c !== "");
}

export interface CommandSecrecy {
  /** Why the command's output is secret (it prints secret material), or absent. */
  reads?: string;
  /** Why the command line itself holds a secret file's content (it writes one), or absent. */
  writes?: string;
}

/** Does a shell command print secret material, or write content into a secret file? */
export function commandSecrecy(command: string): CommandSecrecy {
  const out: CommandSecrecy = {};
  if (command.length > 100_000) return out;
  // Writing: a redirect or `tee` into a secret file, or an in-place edit of one, with the content on the line.
  for (const m of command.matchAll(/(?:>>?|\btee(?:\s+-a)?)\s*(['"]?)([^\s'";|&<>]+)\1/g)) {
    const why = secretFileReason(m[2]!);
    if (why && /<<|echo|printf|cat|tee|sed|\bEOF\b/.test(command)) out.writes = why;
  }
  for (const cmd of simpleCommands(command)) {
    const words = cmd.split(/\s+/);
    const name = (words[0] ?? "").replace(/^['"]/, "").replace(/^.*\//, "").toLowerCase();
    if (name === "sed" && /\s-i/.test(cmd) && !out.writes) {
      const why = secretArg(words.slice(1));
      if (why) out.writes = why;
    }
    const printer = PRINTERS.find((re) => re.test(cmd.replace(/^['"]/, "")));
    // `echo $API_TOKEN`, `printf '%s' "${DB_PASSWORD}"`: a secret-named variable printed.
    const shown = /^(?:echo|printf)\b/.test(cmd) ? [...cmd.matchAll(/\$\{?([A-Za-z_]\w*)/g)].find((m) => keyKind(m[1]!) !== null) : undefined;
    if (shown && !out.reads) out.reads = `the command prints a secret variable (${shown[1]})`;
    if (printer && !out.reads) out.reads = `the command prints secret material (${cmd.split(/\s+/).slice(0, 3).join(" ")})`;
    if (!out.reads && (READERS.has(name) || (name === "git" && /^git\s+(?:show|diff|log\s.*-p|blame)\b/.test(cmd)))) {
      const why = secretArg(words.slice(1));
      if (why) out.reads = why;
    }
  }
  return out;
}
