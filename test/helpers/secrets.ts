/**
 * The fake-secret corpus shared by the redaction tests and the store tests (nothing secret may reach
 * SQLite, FTS5 or LanceDB).
 */
// All secrets below are fake, generated from a seeded PRNG at run time. Provider prefixes are split
// ("gh" + "p_") so that no literal in this file looks like a live credential to secret scanners.
import assert from "node:assert/strict";
import { ALNUM, B64, B64URL, DIGITS, HEX, LOWER, UPPER } from "./alphabets.js";
import { moreShapes } from "./secret-shapes.js";

export { B64, HEX } from "./alphabets.js";

let seed = 0x5eed;
function rnd(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
/** n random characters; from a mixed alphabet and n >= 8, always both a digit and a letter (like real tokens). */
export function rand(n: number, alphabet = ALNUM): string {
  for (;;) {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
    const mixed = /\d/.test(alphabet) && /[A-Za-z]/.test(alphabet);
    if (n < 8 || !mixed || (/\d/.test(s) && /[A-Za-z]/.test(s))) return s;
  }
}
const pemBody = (lines: number) => Array.from({ length: lines }, () => rand(64, B64)).join("\n");
const pem = (label: string, lines = 6, nl = "\n") =>
  `-----BEGIN ${label}-----${nl}${pemBody(lines).replaceAll("\n", nl)}${nl}-----END ${label}-----`;
const jwt = () =>
  `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub: rand(12), iat: 1714000000, scope: "repo" })).toString("base64url")}.${rand(43, B64URL)}`;

export interface Case {
  name: string;
  text: string;
  /** [secret value, kind]; the expected output is `text` with every occurrence replaced by `[REDACTED:kind]`. */
  secrets: [string, string][];
}

/**
 * What redaction must make of a case: no secret left, each occurrence replaced by `[REDACTED:kind]`
 * and counted, the kinds named (the result of `redact(k.text)` checked).
 */
export function assertRedacted(k: Case, r: { text: string; count: number; kinds: string[] }): void {
  for (const [s] of k.secrets) assert.ok(!r.text.includes(s), `secret survived in:\n${r.text}`);
  assert.equal(r.text, k.secrets.reduce((t, [s, kind]) => t.split(s).join(`[REDACTED:${kind}]`), k.text));
  assert.equal(r.count, k.secrets.reduce((n, [s]) => n + k.text.split(s).length - 1, 0));
  assert.deepEqual(r.kinds, [...new Set(k.secrets.map(([, kind]) => kind))].sort());
}

export function secretCases(): Case[] {
  const c: Case[] = [];
  const add = (name: string, secrets: [string, string][], text: (...s: string[]) => string) =>
    c.push({ name, secrets, text: text(...secrets.map(([s]) => s)) });

  add("AWS credentials file", [[`AKIA${rand(16, UPPER + DIGITS)}`, "aws-access-key-id"], [rand(40, B64), "aws-secret-access-key"]],
    (id, key) => `$ cat ~/.aws/credentials\n[default]\naws_access_key_id = ${id}\naws_secret_access_key = ${key}\nregion = eu-west-1\n`);
  add("AWS STS JSON output", [[`ASIA${rand(16, UPPER + DIGITS)}`, "aws-access-key-id"], [rand(40, B64), "aws-secret-access-key"], [`IQoJb3JpZ2luX2Vj${rand(180, B64)}`, "token"]],
    (id, key, st) => `{\n  "Credentials": {\n    "AccessKeyId": "${id}",\n    "SecretAccessKey": "${key}",\n    "SessionToken": "${st}",\n    "Expiration": "2024-05-01T12:00:00+00:00"\n  }\n}`);
  add("GCP service-account JSON private_key and private_key_id", [[rand(40, HEX), "gcp-private-key-id"], [pem("PRIVATE KEY", 8, "\\n"), "private-key"]],
    (id, pk) => `{\n  "type": "service_account",\n  "project_id": "demo-project-4711",\n  "private_key_id": "${id}",\n  "private_key": "${pk}\\n",\n  "client_email": "ci@demo-project-4711.iam.gserviceaccount.com"\n}`);
  add("GCP API key in a curl URL", [[`AIza${rand(35, B64URL)}`, "gcp-api-key"]],
    (k) => `curl -s "https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=${k}" | jq .status`);
  add("GitHub PAT in a git remote URL", [[`ghp_${rand(36)}`, "github-token"]],
    (t) => `$ git remote -v\norigin\thttps://${t}@github.com/acme/widgets.git (fetch)\norigin\thttps://${t}@github.com/acme/widgets.git (push)\n`);
  add("GitHub OAuth token in gh hosts.yml", [[`gho_${rand(36)}`, "github-token"]],
    (t) => `github.com:\n    user: octocat\n    oauth_token: ${t}\n    git_protocol: https\n`);
  add("GitHub app token in an x-access-token clone URL", [[`ghs_${rand(36)}`, "github-token"]],
    (t) => `Run git clone https://x-access-token:${t}@github.com/acme/api.git\nCloning into 'api'...`);
  add("GitHub fine-grained PAT in .env", [[`github_pat_${rand(22)}_${rand(59)}`, "github-token"]], (t) => `# CI\nGH_TOKEN=${t}\nGH_REPO=acme/api\n`);
  add("GitHub user and refresh tokens in an OAuth response", [[`ghu_${rand(36)}`, "github-token"], [`ghr_${rand(76)}`, "github-token"]],
    (a, r) => `{"access_token":"${a}","expires_in":28800,"refresh_token":"${r}","refresh_token_expires_in":15811200,"token_type":"bearer"}`);
  add("GitLab PAT in a curl header", [[`glpat-${rand(20, B64URL)}`, "gitlab-token"]],
    (t) => `curl --header "PRIVATE-TOKEN: ${t}" "https://gitlab.example.com/api/v4/projects?owned=true"`);
  add("OpenAI project key exported in a shell", [[`sk-proj-${rand(120, B64URL)}`, "openai-api-key"]], (k) => `$ export OPENAI_API_KEY=${k}\n$ python agent.py --model gpt-4o\n`);
  add("OpenAI legacy key in a Python stack trace", [[`sk-${rand(48)}`, "openai-api-key"]],
    (k) => `Traceback (most recent call last):\n  File "/app/main.py", line 12, in <module>\n    client.chat.completions.create(model="gpt-4o", messages=msgs)\nopenai.AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key provided: ${k}. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error'}}`);
  add("Anthropic key in Claude Code settings JSON", [[`sk-ant-api03-${rand(93, B64URL)}AA`, "anthropic-api-key"]],
    (k) => `{\n  "env": {\n    "ANTHROPIC_API_KEY": "${k}",\n    "MAX_THINKING_TOKENS": "8000"\n  }\n}`);
  add("Slack bot token in YAML", [[`xoxb-${rand(12, DIGITS)}-${rand(13, DIGITS)}-${rand(24)}`, "slack-token"]],
    (t) => `slack:\n  channel: "#deploys"\n  bot_token: ${t}\n  notify_on_failure: true\n`);
  add("Slack user token as a bearer header", [[`xoxp-${rand(12, DIGITS)}-${rand(12, DIGITS)}-${rand(13, DIGITS)}-${rand(32, HEX)}`, "slack-token"]],
    (t) => `curl -s -H "Authorization: Bearer ${t}" https://slack.com/api/auth.test`);
  add("Slack app-level token in .env", [[`xapp-1-A0${rand(9, UPPER + DIGITS)}-${rand(13, DIGITS)}-${rand(64, HEX)}`, "slack-token"]], (t) => `SLACK_APP_TOKEN=${t}\nSLACK_SOCKET_MODE=1\n`);
  add("Slack incoming-webhook URL", [[`T${rand(8, UPPER + DIGITS)}/B${rand(10, UPPER + DIGITS)}/${rand(24)}`, "slack-webhook"]],
    (p) => `curl -X POST -H 'Content-type: application/json' --data '{"text":"deploy done"}' https://hooks.slack.com/services/${p}`);
  add("Stripe live secret key in Node code", [[`sk_live_${rand(99)}`, "stripe-secret-key"]],
    (k) => `import Stripe from "stripe";\nconst stripe = new Stripe("${k}", { apiVersion: "2024-04-10" });\n`);
  add("Stripe test and restricted keys in .env (publishable key kept)", [[`sk_test_${rand(99)}`, "stripe-secret-key"], [`rk_live_${rand(99)}`, "stripe-secret-key"]],
    (s, r) => `STRIPE_PUBLISHABLE_KEY=pk_test_51HxYzAbCdEfGh\nSTRIPE_SECRET_KEY=${s}\nSTRIPE_RESTRICTED_KEY=${r}\n`);
  add("Stripe webhook signing secret in CLI output", [[`whsec_${rand(32)}`, "stripe-webhook-secret"]],
    (s) => `$ stripe listen --forward-to localhost:3000/webhook\n> Ready! Your webhook signing secret is ${s} (^C to quit)`);
  add("Twilio API key and auth token in .env (account SID kept)", [[`SK${rand(32, HEX)}`, "twilio-api-key"], [rand(32, HEX), "token"]],
    (k, t) => `TWILIO_ACCOUNT_SID=AC${"0a1b2c3d".repeat(4)}\nTWILIO_API_KEY=${k}\nTWILIO_AUTH_TOKEN=${t}\n`);
  add("Twilio auth token in curl -u", [[rand(32, HEX), "basic-auth"]],
    (t) => `curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC${"9f8e7d6c".repeat(4)}/Messages.json --data-urlencode "Body=hi" -u AC${"9f8e7d6c".repeat(4)}:${t}`);
  add("SendGrid key in a quoted env assignment", [[`SG.${rand(22, B64URL)}.${rand(43, B64URL)}`, "sendgrid-api-key"]], (k) => `SENDGRID_API_KEY='${k}'\nMAIL_FROM=noreply@example.com\n`);
  add("npm token in .npmrc", [[`npm_${rand(36)}`, "npm-token"]], (t) => `//registry.npmjs.org/:_authToken=${t}\nregistry=https://registry.npmjs.org/\n`);
  add("PyPI token in .pypirc", [[`pypi-AgEIcHlwaS5vcmc${rand(70, B64URL)}`, "pypi-token"]], (t) => `[pypi]\n  username = __token__\n  password = ${t}\n`);
  add("Hugging Face token on a CLI", [[`hf_${rand(34)}`, "huggingface-token"]], (t) => `$ huggingface-cli login --token ${t} --add-to-git-credential`);
  add("Azure storage connection string", [[`${rand(86, B64)}==`, "azure-storage-key"]],
    (k) => `{\n  "Values": {\n    "AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=${k};EndpointSuffix=core.windows.net"\n  }\n}`);
  add("Azure SAS URL signature", [[`${rand(43)}%3D`, "azure-sas-signature"]],
    (s) => `az storage blob download --blob-url "https://acmestore.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2024-06-01T00:00:00Z&spr=https&sig=${s}"`);
  add("Google OAuth client secret in client_secret.json", [[`GOCSPX-${rand(28, B64URL)}`, "google-oauth-client-secret"]],
    (s) => `{"installed":{"client_id":"123456789012-abc123def456.apps.googleusercontent.com","project_id":"demo","client_secret":"${s}","redirect_uris":["http://localhost"]}}`);
  add("Google OAuth access token from gcloud", [[`ya29.${rand(150, B64URL)}`, "google-oauth-token"]], (t) => `$ gcloud auth print-access-token\n${t}\n$ echo done`);
  add("Discord bot token in Python", [[`M${rand(25)}.${rand(6, B64URL)}.${rand(38, B64URL)}`, "discord-bot-token"]],
    (t) => `intents = discord.Intents.default()\nclient = MyClient(intents=intents)\nclient.run("${t}")\n`);
  add("Discord webhook URL", [[rand(68, B64URL), "discord-webhook"]], (t) => `DISCORD_WEBHOOK=https://discord.com/api/webhooks/123456789012345678/${t}\n`);
  add("Telegram bot token in an API URL", [[`${rand(10, "123456789")}:AA${rand(33, B64URL)}`, "telegram-bot-token"]],
    (t) => `curl "https://api.telegram.org/bot${t}/sendMessage?chat_id=-1001234567&text=hi"`);
  add("RSA private key printed by cat", [[pem("RSA PRIVATE KEY", 10), "private-key"]], (k) => `$ cat ~/.ssh/deploy_rsa\n${k}\n$ ssh-add ~/.ssh/deploy_rsa\n`);
  add("OpenSSH private key in a tool output", [[pem("OPENSSH PRIVATE KEY", 7), "private-key"]], (k) => `Read file id_ed25519 (7 lines):\n${k}\nEnd of file.`);
  add("EC private key after public EC parameters", [[pem("EC PRIVATE KEY", 3), "private-key"]], (k) => `-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n${k}\n`);
  add("PGP private key block", [[pem("PGP PRIVATE KEY BLOCK", 5), "private-key"]], (k) => `$ gpg --export-secret-keys --armor jane@example.com\n${k}\n`);
  add("Encrypted PKCS#8 key in YAML", [[pem("ENCRYPTED PRIVATE KEY", 4).replaceAll("\n", "\n    "), "private-key"]], (k) => `tls:\n  key: |\n    ${k}\n  cert_file: /etc/tls/cert.pem\n`);
  add("Truncated private key (no END line) runs to the end", [[`-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody(2)}\n`, "private-key"]], (k) => `$ head -3 ~/.ssh/id_ed25519\n${k}`);
  add("JWT in a login response", [[jwt(), "jwt"]], (t) => `{"access_token":"${t}","token_type":"Bearer","expires_in":3600}`);
  add("JWT in a curl Authorization header", [[jwt(), "jwt"]], (t) => `curl -H 'Authorization: Bearer ${t}' https://api.example.com/v1/me`);
  add("Postgres URL password in .env", [[rand(20), "url-password"]], (p) => `DATABASE_URL=postgres://app_user:${p}@db.internal:5432/app?sslmode=require\n`);
  add("MongoDB SRV URL in a stack trace", [[`${rand(16)}!`, "url-password"]],
    (p) => `MongoServerError: bad auth : Authentication failed.\n    at Connection.onMessage (/app/node_modules/mongodb/lib/cmap/connection.js:202:26)\nconnecting to mongodb+srv://admin:${p}@cluster0.x1y2z.mongodb.net/prod?retryWrites=true`);
  add("MySQL, Redis and AMQP URLs in docker-compose", [[rand(14), "url-password"], [rand(24, HEX), "url-password"], [rand(12), "url-password"]],
    (a, b, d) => `services:\n  api:\n    environment:\n      - MYSQL_URL=mysql://root:${a}@mysql:3306/shop\n      - REDIS_URL=redis://:${b}@redis:6379/0\n      - AMQP_URL=amqps://guest:${d}@rabbit.internal:5671/vhost\n`);
  add("ADO.NET connection string Password=", [[`Tr0ub4dor&3 ${rand(6)}`, "connection-string-password"]],
    (p) => `"DefaultConnection": "Server=tcp:acme.database.windows.net,1433;Initial Catalog=shop;User ID=sqladmin;Password=${p};Encrypt=True;"`);
  add("Basic Authorization header in an HTTP dump", [[Buffer.from(`deploy:${rand(16)}`).toString("base64"), "authorization-header"]],
    (b) => `GET /api/v1/reports HTTP/1.1\nHost: internal.acme.dev\nAuthorization: Basic ${b}\nAccept: application/json\n`);
  add("Opaque bearer token in a header", [[rand(40, B64URL), "authorization-header"]], (t) => `> GET /v2/items HTTP/2\n> authorization: Bearer ${t}\n> user-agent: curl/8.4.0\n`);
  add("Bearer token in a debug log line", [[rand(32, B64URL), "bearer-token"]], (t) => `DEBUG http: retrying GET /v1/jobs with Bearer ${t} (attempt 2/3)`);
  add("Generic secrets in a .env file", [[`${rand(14)}#`, "password"], [rand(48, B64), "secret"], [`base64:${rand(43, B64)}=`, "secret"]],
    (p, s, k) => `APP_ENV=production\nDB_PASSWORD=${p}\nJWT_SECRET=${s}\nAPP_KEY=${k}\nLOG_LEVEL=info\n`);
  add("YAML password", [[rand(18), "password"]], (p) => `database:\n  host: db.internal\n  username: app\n  password: ${p}\n  pool: 10\n`);
  add("JSON client_secret", [[rand(32, B64URL), "secret"]], (s) => `{"client_id": "acme-cli", "client_secret": "${s}", "scopes": ["read", "write"]}`);
  add("CLI --password= and --api-key flags", [[`${rand(12)}!`, "password"], [rand(32, HEX), "api-key"]],
    (p, k) => `$ mysql --host=db --user=root --password=${p} shop < dump.sql\n$ deploy --api-key ${k} --region eu-west-1`);
  add("api_key in a query string", [[rand(32), "api-key"]], (k) => `GET https://api.example.com/v2/items?api_key=${k}&page=2 -> 200 OK`);
  add("X-Api-Key header", [[rand(40, HEX), "api-key"]], (k) => `curl -H "X-Api-Key: ${k}" -H "Accept: application/json" https://api.example.com/health`);
  add(".netrc entry", [[rand(20), "password"]], (p) => `machine api.heroku.com\n  login jane@example.com\n  password ${p}\n`);
  add("JSON-escaped JSON inside a tool response", [[`${rand(14)}$`, "password"]],
    (p) => `{"tool_response": "{\\"user\\": \\"bob\\", \\"password\\": \\"${p}\\", \\"ok\\": true}"}`);
  add("Java system property", [[rand(16), "password"]], (p) => `java -Djavax.net.ssl.keyStorePassword=${p} -Djavax.net.ssl.keyStore=/etc/ks.jks -jar app.jar`);
  add("DigitalOcean, Vault and Shopify tokens", [[`dop_v1_${rand(64, HEX)}`, "digitalocean-token"], [`hvs.${rand(90, B64URL)}`, "vault-token"], [`shpat_${rand(32, HEX)}`, "shopify-token"]],
    (d, v, s) => `doctl auth init --access-token ${d}\nexport VAULT_TOKEN=${v}\nSHOPIFY_ACCESS_TOKEN=${s}\n`);
  add("Hard-coded apiKey in TypeScript", [[rand(32), "api-key"]], (k) => `const client = new WeatherClient({ apiKey: "${k}", timeoutMs: 5000 });`);
  add("PowerShell env assignment", [[rand(24, B64URL), "token"]], (t) => `PS> $env:API_TOKEN = "${t}"\nPS> ./deploy.ps1`);
  add("Go short variable declaration", [[rand(30), "token"]], (t) => `func main() {\n\ttoken := "${t}"\n\tfmt.Println(len(token))\n}`);
  add("PHP array config", [[`${rand(15)}%`, "password"]], (p) => `return [\n    'host' => 'localhost',\n    'password' => '${p}',\n];`);
  add("Docker config.json registry auth", [[Buffer.from(`ci-bot:${rand(20)}`).toString("base64"), "docker-auth"]],
    (a) => `$ cat ~/.docker/config.json\n{\n  "auths": {\n    "ghcr.io": {\n      "auth": "${a}"\n    }\n  },\n  "credsStore": "desktop"\n}`);
  add("Mailgun keys, old and new format", [[`key-${rand(32, LOWER + DIGITS)}`, "mailgun-api-key"], [`${rand(32, HEX)}-${rand(8, HEX)}-${rand(8, HEX)}`, "mailgun-api-key"]],
    (a, b) => `Rotate the mailgun key ${a} (legacy) and the sending key ${b} before Friday`);
  add("mysql -p with the password glued on", [[`${rand(14)}!`, "password"]], (p) => `$ mysql -h db.internal -u root -p${p} shop -e "select count(*) from orders"`);
  add("sshpass -p before ssh", [[rand(16), "password"]], (p) => `$ sshpass -p '${p}' ssh -o StrictHostKeyChecking=no deploy@10.0.0.7 'systemctl restart api'`);
  // Credentials on common command lines.
  add("aws configure set with the secret key", [[rand(40, B64), "aws-secret-access-key"]], (k) => `$ aws configure set aws_secret_access_key ${k} --profile ci`);
  add("docker login -p", [[rand(16), "password"]], (p) => `$ docker login -u ci-bot -p ${p} registry.example.com\nLogin Succeeded`);
  add("Postgres URL whose password holds a #", [[`${rand(8)}#${rand(9)}`, "url-password"]], (p) => `$ psql "postgres://app:${p}@db.internal:5432/app" -c 'select 1'`);
  add("mongosh -p", [[rand(14), "password"]], (p) => `$ mongosh "mongodb://db.internal:27017/admin" -u admin -p ${p} --quiet`);
  add("redis-cli -a after a -p port", [[rand(20), "password"]], (p) => `$ redis-cli -h cache.internal -p 6379 -a ${p} ping\nPONG`);
  add("az login -p", [[`${rand(12)}!`, "password"]], (p) => `$ az login -u ops@example.com -p '${p}' --allow-no-subscriptions`);
  add("ldapsearch -w", [[rand(14), "password"]], (p) => `$ ldapsearch -x -H ldap://dir.internal -D "cn=admin,dc=example,dc=com" -w ${p} -b "dc=example,dc=com"`);
  add("sqlcmd -P", [[rand(15), "password"]], (p) => `$ sqlcmd -S db.internal -U sa -P ${p} -Q "SELECT 1"`);
  add("smbclient -U user%password", [[rand(13), "password"]], (p) => `$ smbclient //files.internal/share -U jane%${p} -c 'ls'`);
  add("htpasswd -b", [[rand(14), "password"]], (p) => `$ htpasswd -cb /etc/nginx/.htpasswd jane ${p}`);
  add("curl -u with an empty user", [[rand(32), "basic-auth"]], (t) => `$ curl -u :${t} https://api.example.com/v1/projects`);
  add("a token as the whole user part of a URL", [[rand(40), "url-token"]], (t) => `$ git clone https://${t}@git.example.com/acme/infra.git`);
  add("echo piped to docker login --password-stdin", [[rand(18), "password"]], (p) => `$ echo '${p}' | docker login -u ci --password-stdin ghcr.io`);
  add("vault login with a legacy token", [[`s.${rand(24)}`, "vault-token"]], (t) => `$ vault login ${t}\nSuccess! You are now authenticated.`);
  add("gh auth login with a here-string", [[rand(30), "token"]], (t) => `$ gh auth login --with-token <<< ${t}`);
  add("npm config set of a legacy auth token", [[rand(36), "token"]], (t) => `$ npm config set //registry.npmjs.org/:_authToken ${t}`);
  add("git config user.password", [[rand(16), "password"]], (p) => `$ git config --global user.password ${p}`);
  add("keytool -storepass and -keypass", [[rand(12), "password"], [rand(13), "password"]], (a, b) => `$ keytool -genkeypair -alias app -keystore app.jks -storepass ${a} -keypass ${b} -dname "CN=app"`);
  add("openssl -passin pass:", [[rand(14), "password"]], (p) => `$ openssl rsa -in key.enc.pem -passin pass:${p} -out key.pem`);
  moreShapes(add, rand);
  return c;
}

