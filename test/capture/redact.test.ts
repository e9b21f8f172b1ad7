import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { keyKind, redact, redactDeep, shannonEntropy, stripPrivate } from "../../src/capture/redact.js";

// All secrets below are fake, generated from a seeded PRNG at run time. Provider prefixes are split
// ("gh" + "p_") so that no literal in this file looks like a live credential to secret scanners.
let seed = 0x5eed;
function rnd(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = LOWER.toUpperCase();
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = "0123456789abcdef";
const B64 = ALNUM + "+/";
const B64URL = ALNUM + "-_";
/** n random characters; from a mixed alphabet and n >= 8, always both a digit and a letter (like real tokens). */
function rand(n: number, alphabet = ALNUM): string {
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
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." +
  Buffer.from(JSON.stringify({ sub: rand(12), iat: 1714000000, scope: "repo" })).toString("base64url") +
  "." +
  rand(43, B64URL);

interface Case {
  name: string;
  text: string;
  /** [secret value, kind]; the expected output is `text` with every occurrence replaced by `[REDACTED:kind]`. */
  secrets: [string, string][];
}

function secretCases(): Case[] {
  const c: Case[] = [];
  const add = (name: string, secrets: [string, string][], text: (...s: string[]) => string) =>
    c.push({ name, secrets, text: text(...secrets.map(([s]) => s)) });

  add("AWS credentials file", [["AK" + "IA" + rand(16, UPPER + DIGITS), "aws-access-key-id"], [rand(40, B64), "aws-secret-access-key"]],
    (id, key) => `$ cat ~/.aws/credentials\n[default]\naws_access_key_id = ${id}\naws_secret_access_key = ${key}\nregion = eu-west-1\n`);
  add("AWS STS JSON output", [["AS" + "IA" + rand(16, UPPER + DIGITS), "aws-access-key-id"], [rand(40, B64), "aws-secret-access-key"], ["IQoJb3JpZ2luX2Vj" + rand(180, B64), "token"]],
    (id, key, st) => `{\n  "Credentials": {\n    "AccessKeyId": "${id}",\n    "SecretAccessKey": "${key}",\n    "SessionToken": "${st}",\n    "Expiration": "2024-05-01T12:00:00+00:00"\n  }\n}`);
  add("GCP service-account JSON private_key", [[pem("PRIVATE KEY", 8, "\\n"), "private-key"]],
    (pk) => `{\n  "type": "service_account",\n  "project_id": "demo-project-4711",\n  "private_key_id": "${rand(40, HEX)}",\n  "private_key": "${pk}\\n",\n  "client_email": "ci@demo-project-4711.iam.gserviceaccount.com"\n}`);
  add("GCP API key in a curl URL", [["AI" + "za" + rand(35, B64URL), "gcp-api-key"]],
    (k) => `curl -s "https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=${k}" | jq .status`);
  add("GitHub PAT in a git remote URL", [["gh" + "p_" + rand(36), "github-token"]],
    (t) => `$ git remote -v\norigin\thttps://${t}@github.com/acme/widgets.git (fetch)\norigin\thttps://${t}@github.com/acme/widgets.git (push)\n`);
  add("GitHub OAuth token in gh hosts.yml", [["gh" + "o_" + rand(36), "github-token"]],
    (t) => `github.com:\n    user: octocat\n    oauth_token: ${t}\n    git_protocol: https\n`);
  add("GitHub app token in an x-access-token clone URL", [["gh" + "s_" + rand(36), "github-token"]],
    (t) => `Run git clone https://x-access-token:${t}@github.com/acme/api.git\nCloning into 'api'...`);
  add("GitHub fine-grained PAT in .env", [["github" + "_pat_" + rand(22) + "_" + rand(59), "github-token"]], (t) => `# CI\nGH_TOKEN=${t}\nGH_REPO=acme/api\n`);
  add("GitHub user and refresh tokens in an OAuth response", [["gh" + "u_" + rand(36), "github-token"], ["gh" + "r_" + rand(76), "github-token"]],
    (a, r) => `{"access_token":"${a}","expires_in":28800,"refresh_token":"${r}","refresh_token_expires_in":15811200,"token_type":"bearer"}`);
  add("GitLab PAT in a curl header", [["gl" + "pat-" + rand(20, B64URL), "gitlab-token"]],
    (t) => `curl --header "PRIVATE-TOKEN: ${t}" "https://gitlab.example.com/api/v4/projects?owned=true"`);
  add("OpenAI project key exported in a shell", [["sk-" + "proj-" + rand(120, B64URL), "openai-api-key"]], (k) => `$ export OPENAI_API_KEY=${k}\n$ python agent.py --model gpt-4o\n`);
  add("OpenAI legacy key in a Python stack trace", [["sk-" + rand(48), "openai-api-key"]],
    (k) => `Traceback (most recent call last):\n  File "/app/main.py", line 12, in <module>\n    client.chat.completions.create(model="gpt-4o", messages=msgs)\nopenai.AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key provided: ${k}. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error'}}`);
  add("Anthropic key in Claude Code settings JSON", [["sk-" + "ant-api03-" + rand(93, B64URL) + "AA", "anthropic-api-key"]],
    (k) => `{\n  "env": {\n    "ANTHROPIC_API_KEY": "${k}",\n    "MAX_THINKING_TOKENS": "8000"\n  }\n}`);
  add("Slack bot token in YAML", [["xo" + "xb-" + rand(12, DIGITS) + "-" + rand(13, DIGITS) + "-" + rand(24), "slack-token"]],
    (t) => `slack:\n  channel: "#deploys"\n  bot_token: ${t}\n  notify_on_failure: true\n`);
  add("Slack user token as a bearer header", [["xo" + "xp-" + rand(12, DIGITS) + "-" + rand(12, DIGITS) + "-" + rand(13, DIGITS) + "-" + rand(32, HEX), "slack-token"]],
    (t) => `curl -s -H "Authorization: Bearer ${t}" https://slack.com/api/auth.test`);
  add("Slack app-level token in .env", [["xa" + "pp-1-A0" + rand(9, UPPER + DIGITS) + "-" + rand(13, DIGITS) + "-" + rand(64, HEX), "slack-token"]], (t) => `SLACK_APP_TOKEN=${t}\nSLACK_SOCKET_MODE=1\n`);
  add("Slack incoming-webhook URL", [["T" + rand(8, UPPER + DIGITS) + "/B" + rand(10, UPPER + DIGITS) + "/" + rand(24), "slack-webhook"]],
    (p) => `curl -X POST -H 'Content-type: application/json' --data '{"text":"deploy done"}' https://hooks.slack.com/services/${p}`);
  add("Stripe live secret key in Node code", [["sk" + "_live_" + rand(99), "stripe-secret-key"]],
    (k) => `import Stripe from "stripe";\nconst stripe = new Stripe("${k}", { apiVersion: "2024-04-10" });\n`);
  add("Stripe test and restricted keys in .env (publishable key kept)", [["sk" + "_test_" + rand(99), "stripe-secret-key"], ["rk" + "_live_" + rand(99), "stripe-secret-key"]],
    (s, r) => `STRIPE_PUBLISHABLE_KEY=pk_test_51HxYzAbCdEfGh\nSTRIPE_SECRET_KEY=${s}\nSTRIPE_RESTRICTED_KEY=${r}\n`);
  add("Stripe webhook signing secret in CLI output", [["wh" + "sec_" + rand(32), "stripe-webhook-secret"]],
    (s) => `$ stripe listen --forward-to localhost:3000/webhook\n> Ready! Your webhook signing secret is ${s} (^C to quit)`);
  add("Twilio API key and auth token in .env (account SID kept)", [["S" + "K" + rand(32, HEX), "twilio-api-key"], [rand(32, HEX), "token"]],
    (k, t) => `TWILIO_ACCOUNT_SID=AC${"0a1b2c3d".repeat(4)}\nTWILIO_API_KEY=${k}\nTWILIO_AUTH_TOKEN=${t}\n`);
  add("Twilio auth token in curl -u", [[rand(32, HEX), "basic-auth"]],
    (t) => `curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC${"9f8e7d6c".repeat(4)}/Messages.json --data-urlencode "Body=hi" -u AC${"9f8e7d6c".repeat(4)}:${t}`);
  add("SendGrid key in a quoted env assignment", [["S" + "G." + rand(22, B64URL) + "." + rand(43, B64URL), "sendgrid-api-key"]], (k) => `SENDGRID_API_KEY='${k}'\nMAIL_FROM=noreply@example.com\n`);
  add("npm token in .npmrc", [["np" + "m_" + rand(36), "npm-token"]], (t) => `//registry.npmjs.org/:_authToken=${t}\nregistry=https://registry.npmjs.org/\n`);
  add("PyPI token in .pypirc", [["py" + "pi-AgEIcHlwaS5vcmc" + rand(70, B64URL), "pypi-token"]], (t) => `[pypi]\n  username = __token__\n  password = ${t}\n`);
  add("Hugging Face token on a CLI", [["h" + "f_" + rand(34), "huggingface-token"]], (t) => `$ huggingface-cli login --token ${t} --add-to-git-credential`);
  add("Azure storage connection string", [[rand(86, B64) + "==", "azure-storage-key"]],
    (k) => `{\n  "Values": {\n    "AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=${k};EndpointSuffix=core.windows.net"\n  }\n}`);
  add("Azure SAS URL signature", [[rand(43) + "%3D", "azure-sas-signature"]],
    (s) => `az storage blob download --blob-url "https://acmestore.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2024-06-01T00:00:00Z&spr=https&sig=${s}"`);
  add("Google OAuth client secret in client_secret.json", [["GOC" + "SPX-" + rand(28, B64URL), "google-oauth-client-secret"]],
    (s) => `{"installed":{"client_id":"123456789012-abc123def456.apps.googleusercontent.com","project_id":"demo","client_secret":"${s}","redirect_uris":["http://localhost"]}}`);
  add("Google OAuth access token from gcloud", [["ya" + "29." + rand(150, B64URL), "google-oauth-token"]], (t) => `$ gcloud auth print-access-token\n${t}\n$ echo done`);
  add("Discord bot token in Python", [["M" + rand(25) + "." + rand(6, B64URL) + "." + rand(38, B64URL), "discord-bot-token"]],
    (t) => `intents = discord.Intents.default()\nclient = MyClient(intents=intents)\nclient.run("${t}")\n`);
  add("Discord webhook URL", [[rand(68, B64URL), "discord-webhook"]], (t) => `DISCORD_WEBHOOK=https://discord.com/api/webhooks/123456789012345678/${t}\n`);
  add("Telegram bot token in an API URL", [[rand(10, "123456789") + ":AA" + rand(33, B64URL), "telegram-bot-token"]],
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
  add("MongoDB SRV URL in a stack trace", [[rand(16) + "!", "url-password"]],
    (p) => `MongoServerError: bad auth : Authentication failed.\n    at Connection.onMessage (/app/node_modules/mongodb/lib/cmap/connection.js:202:26)\nconnecting to mongodb+srv://admin:${p}@cluster0.x1y2z.mongodb.net/prod?retryWrites=true`);
  add("MySQL, Redis and AMQP URLs in docker-compose", [[rand(14), "url-password"], [rand(24, HEX), "url-password"], [rand(12), "url-password"]],
    (a, b, d) => `services:\n  api:\n    environment:\n      - MYSQL_URL=mysql://root:${a}@mysql:3306/shop\n      - REDIS_URL=redis://:${b}@redis:6379/0\n      - AMQP_URL=amqps://guest:${d}@rabbit.internal:5671/vhost\n`);
  add("ADO.NET connection string Password=", [["Tr0ub4dor&3 " + rand(6), "connection-string-password"]],
    (p) => `"DefaultConnection": "Server=tcp:acme.database.windows.net,1433;Initial Catalog=shop;User ID=sqladmin;Password=${p};Encrypt=True;"`);
  add("Basic Authorization header in an HTTP dump", [[Buffer.from("deploy:" + rand(16)).toString("base64"), "authorization-header"]],
    (b) => `GET /api/v1/reports HTTP/1.1\nHost: internal.acme.dev\nAuthorization: Basic ${b}\nAccept: application/json\n`);
  add("Opaque bearer token in a header", [[rand(40, B64URL), "authorization-header"]], (t) => `> GET /v2/items HTTP/2\n> authorization: Bearer ${t}\n> user-agent: curl/8.4.0\n`);
  add("Bearer token in a debug log line", [[rand(32, B64URL), "bearer-token"]], (t) => `DEBUG http: retrying GET /v1/jobs with Bearer ${t} (attempt 2/3)`);
  add("Generic secrets in a .env file", [[rand(14) + "#", "password"], [rand(48, B64), "secret"], ["base64:" + rand(43, B64) + "=", "secret"]],
    (p, s, k) => `APP_ENV=production\nDB_PASSWORD=${p}\nJWT_SECRET=${s}\nAPP_KEY=${k}\nLOG_LEVEL=info\n`);
  add("YAML password", [[rand(18), "password"]], (p) => `database:\n  host: db.internal\n  username: app\n  password: ${p}\n  pool: 10\n`);
  add("JSON client_secret", [[rand(32, B64URL), "secret"]], (s) => `{"client_id": "acme-cli", "client_secret": "${s}", "scopes": ["read", "write"]}`);
  add("CLI --password= and --api-key flags", [[rand(12) + "!", "password"], [rand(32, HEX), "api-key"]],
    (p, k) => `$ mysql --host=db --user=root --password=${p} shop < dump.sql\n$ deploy --api-key ${k} --region eu-west-1`);
  add("api_key in a query string", [[rand(32), "api-key"]], (k) => `GET https://api.example.com/v2/items?api_key=${k}&page=2 -> 200 OK`);
  add("X-Api-Key header", [[rand(40, HEX), "api-key"]], (k) => `curl -H "X-Api-Key: ${k}" -H "Accept: application/json" https://api.example.com/health`);
  add(".netrc entry", [[rand(20), "password"]], (p) => `machine api.heroku.com\n  login jane@example.com\n  password ${p}\n`);
  add("JSON-escaped JSON inside a tool response", [[rand(14) + "$", "password"]],
    (p) => `{"tool_response": "{\\"user\\": \\"bob\\", \\"password\\": \\"${p}\\", \\"ok\\": true}"}`);
  add("Java system property", [[rand(16), "password"]], (p) => `java -Djavax.net.ssl.keyStorePassword=${p} -Djavax.net.ssl.keyStore=/etc/ks.jks -jar app.jar`);
  add("DigitalOcean, Vault and Shopify tokens", [["do" + "p_v1_" + rand(64, HEX), "digitalocean-token"], ["hv" + "s." + rand(90, B64URL), "vault-token"], ["sh" + "pat_" + rand(32, HEX), "shopify-token"]],
    (d, v, s) => `doctl auth init --access-token ${d}\nexport VAULT_TOKEN=${v}\nSHOPIFY_ACCESS_TOKEN=${s}\n`);
  add("Hard-coded apiKey in TypeScript", [[rand(32), "api-key"]], (k) => `const client = new WeatherClient({ apiKey: "${k}", timeoutMs: 5000 });`);
  add("PowerShell env assignment", [[rand(24, B64URL), "token"]], (t) => `PS> $env:API_TOKEN = "${t}"\nPS> ./deploy.ps1`);
  add("Go short variable declaration", [[rand(30), "token"]], (t) => `func main() {\n\ttoken := "${t}"\n\tfmt.Println(len(token))\n}`);
  add("PHP array config", [[rand(15) + "%", "password"]], (p) => `return [\n    'host' => 'localhost',\n    'password' => '${p}',\n];`);
  return c;
}

const expected = (k: Case) => k.secrets.reduce((t, [s, kind]) => t.split(s).join(`[REDACTED:${kind}]`), k.text);
const occurrences = (k: Case) => k.secrets.reduce((n, [s]) => n + k.text.split(s).length - 1, 0);

describe("redact: secrets are replaced, their context survives", () => {
  const cases = secretCases();
  test("the corpus has at least 30 distinct secret shapes", () => {
    assert.ok(cases.length >= 30, `${cases.length} cases`);
    assert.ok(new Set(cases.flatMap((k) => k.secrets.map(([, kind]) => kind))).size >= 30);
  });
  for (const k of cases) {
    test(`redacts: ${k.name}`, () => {
      const r = redact(k.text);
      for (const [s] of k.secrets) assert.ok(!r.text.includes(s), `secret survived in:\n${r.text}`);
      assert.equal(r.text, expected(k));
      assert.equal(r.count, occurrences(k));
      assert.deepEqual(r.kinds, [...new Set(k.secrets.map(([, kind]) => kind))].sort());
    });
  }
  test("redacting twice is the same as redacting once", () => {
    for (const k of cases) {
      const once = redact(k.text).text;
      const twice = redact(once);
      assert.equal(twice.text, once, k.name);
      assert.equal(twice.count, 0, k.name);
    }
  });
});

const NON_SECRETS: Record<string, string> = {
  "git log with commit SHAs": `commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Jane Dev <jane@example.com>\nDate:   Tue Mar 5 14:22:01 2024 +0100\n\n    Fix token refresh race (#412)\n\n    Reverts 3f2a1b0c and cherry-picks e83c5163316f89bfbde7d9ab23ca55e2d3d5e4b1.\n`,
  UUIDs: `request_id=3fa85f64-5717-4562-b3fc-2c963f66afa6 trace=550e8400-e29b-41d4-a716-446655440000\n{"id": "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "session_id": "f47ac10b-58cc-4372-a567-0e02b2c3d479"}`,
  "URLs without credentials": `https://github.com/acme/widgets/pull/42\nhttp://localhost:3000/api/search?q=token&limit=10\npostgres://db.internal:5432/app\nredis://localhost:6379/0\nssh://git@github.com:22/acme/widgets.git\ngit@github.com:acme/widgets.git\nhttps://jane@example.com/path\nhttp://[::1]:8080/\nhttps://example.com/callback?code=abc&state=xyz\nmailto:ops@example.com`,
  "TypeScript auth code": `import { z } from "zod";\n\nexport const LoginInput = z.object({\n  email: z.string().email(),\n  password: z.string().min(12),\n});\n\nexport async function login(input: unknown, store: SessionStore): Promise<{ token: string; expiresAt: number }> {\n  const { email, password } = LoginInput.parse(input);\n  const user = await store.findUser(email);\n  if (!user || !(await verify(user.passwordHash, password))) throw new AuthError("invalid email or password");\n  const token = randomBytes(32).toString("base64url");\n  const apiKey = process.env.API_KEY ?? "";\n  if (token === previousToken || password == null) return retry();\n  headers.Authorization = \`Bearer \${token}\`;\n  return { token, expiresAt: Date.now() + SESSION_TTL_MS };\n}\n`,
  "Python settings code": `def connect(settings):\n    password = settings.DB_PASSWORD\n    token = os.environ.get("GITHUB_TOKEN")\n    secret_key = get_secret("django-secret-key")\n    headers = {"Authorization": f"Bearer {token}"}\n    return psycopg.connect(host=settings.DB_HOST, password=password)\n`,
  "markdown prose": `## Authentication\n\nCreate a personal access token and export it as \`GITHUB_TOKEN\`. The CLI reads \`--token\` first, then the environment.\nTokens look like \`ghp_…\` or \`github_pat_…\`; never commit them. If you rotate the password, restart the worker: the secret is cached.\n\n- token: required\n- password: optional (leave empty to use SSO)\n- Authorization: required for write endpoints\n\nBearer tokens expire after one hour. See the task-sk-1234abcd5678efgh9012ijkl ticket and the risk-assessment doc.\n`,
  "package-lock integrity hash": `"node_modules/yaml": {\n  "version": "2.8.1",\n  "resolved": "https://registry.npmjs.org/yaml/-/yaml-2.8.1.tgz",\n  "integrity": "sha512-lcYcMxX2PO9XMGvAJkJ3OsNMw+/7FKes7/hgerGUYWIoWu5j/+YQqcZr5JnPZWzOsEBgMbSbiSTn/dv/69Mkpw==",\n  "license": "ISC"\n}`,
  "env template with placeholders": `# Copy to .env and fill in\nDB_PASSWORD=\nREDIS_PASSWORD=""\nAPI_KEY=<your-api-key>\nSTRIPE_SECRET_KEY=\${STRIPE_SECRET_KEY}\nSESSION_SECRET=changeme\nGITHUB_TOKEN=your_github_token_here\nSMTP_PASSWORD=********\nWEBHOOK_SECRET=$WEBHOOK_SECRET\nDB_URL=postgres://app:\${DB_PASSWORD}@db:5432/app\nADMIN_PASSWORD=xxxxxxxx\ntoken: null\npassword: ~\nsecret: true\ngh_token: \${{ secrets.GH_TOKEN }}\nPASSWORD_FILE=/run/secrets/db_password\n`,
  "LLM config with token-ish keys": `model: claude-sonnet-4\nmax_tokens: 4096\ntokenizer: cl100k_base\ntoken_type: Bearer\ntoken_budget: 120000\ntoken_expires_in: 3600\ntemperature: 0.2\n`,
  "shell session": `$ docker run --rm -u 1000:1000 -v "$PWD":/src -e NODE_ENV=production node:20 npm test\n$ git push -u origin feature/redaction\n$ ssh -i ~/.ssh/id_ed25519 deploy@10.0.0.5\n$ kubectl create secret generic db --from-literal=username=app\n$ echo "$PASSWORD" | docker login --username ci --password-stdin ghcr.io\nPWD=/home/dev/project OLDPWD=/home/dev/src/mem HOME=/home/dev\n`,
  "hashes, digests and ordinary base64 in code": `FROM node:20@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\nconst PIXEL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";\nconst BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";\nconst header = btoa(JSON.stringify({ alg: "none" }));\nhf_hub_download(repo_id="Xenova/all-MiniLM-L6-v2", filename="onnx/model.onnx")\n`,
  "certificate and public key blocks": `-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUEXAMPLEdGVzdCBjZXJ0aWZpY2F0ZSBib2R5\n-----END CERTIFICATE-----\n-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEexamplepublickeybody==\n-----END PUBLIC KEY-----\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExamplePublicKeyBodyOnly jane@laptop\n`,
  "SQL and CSS": `SELECT id, password_hash FROM users WHERE email = $1 AND token_version = 3;\n.btn-secret { color: #ff00aa; }\nUPDATE api_keys SET revoked_at = now() WHERE key_prefix = 'ak_live';\n`,
};

describe("redact: non-secrets survive byte-for-byte", () => {
  for (const [name, text] of Object.entries(NON_SECRETS)) {
    test(`keeps: ${name}`, () => {
      const r = redact(text);
      assert.equal(r.text, text);
      assert.equal(r.count, 0);
      assert.deepEqual(r.kinds, []);
    });
  }
  test("keeps public identifiers: Stripe publishable keys and Twilio account SIDs", () => {
    const pk = "pk" + "_live_" + rand(99);
    const text = `const stripe = Stripe("${pk}");\nSID=AC${rand(32, HEX)}\n`;
    assert.equal(redact(text).text, text);
  });
  test("under a secret-named key keeps words, identifiers, code references, prose and placeholders", () => {
    const kept = [
      "apiKey: ApiKeyProvider",
      "private token: string | undefined;",
      "readonly operatorToken: TOperator;",
      "password = hashedPassword",
      "const token = getToken(); API_TOKEN = readToken(path)",
      "token_str: 'survival'",
      "access_token: correcthorse",
      'const password = "Password used to generate key";',
      'unexpected_token: "予期しないトークンです。"',
      "STENCIL_PASS_DEPTH_FAIL: 0x0B95",
      "passphrase: 'sample'",
      '"X-API-Key": "my-key"',
    ];
    for (const text of kept) assert.equal(redact(text).text, text, text);
  });
  test("a plain word is redacted only as a literal password: quoted, an env-file line or a CLI argument", () => {
    assert.equal(redact('password = "correcthorse"').text, 'password = "[REDACTED:password]"');
    assert.equal(redact("DB_PASSWORD=correcthorse").text, "DB_PASSWORD=[REDACTED:password]");
    assert.equal(redact("--password correcthorse").text, "--password [REDACTED:password]");
    assert.equal(redact("password: correcthorse").count, 0); // YAML or a TypeScript object: ambiguous, kept
    assert.equal(redact("secret: Xk9mQ2vL8pR4").text, "secret: [REDACTED:secret]");
  });
  test("keeps words that merely contain secret-ish prefixes", () => {
    for (const text of ["the task-sk-" + rand(30) + " id", "ask-" + rand(30), "ghp_short", "desk_live_" + rand(20)]) assert.equal(redact(text).text, text);
  });
});

describe("<private> spans", () => {
  test("removes a multi-line span entirely, keeping the text around it", () => {
    const r = redact("before <private>my salary is 100k\nand my address</private> after");
    assert.equal(r.text, "before  after");
    assert.equal(r.count, 1);
    assert.deepEqual(r.kinds, ["private"]);
  });
  test("is case-insensitive and accepts attributes", () => {
    assert.equal(stripPrivate('a<PRIVATE>x</Private>b<private reason="hr">y</private>c'), "abc");
  });
  test("removes nested spans up to the outermost closing tag", () => {
    assert.equal(stripPrivate("a<private>b<private>c</private>d</private>e"), "ae");
  });
  test("an unclosed <private> removes everything to the end", () => {
    assert.equal(stripPrivate("keep this <private>secret notes\nmore lines"), "keep this ");
    assert.equal(stripPrivate("x<private>a<private>b</private>c"), "x");
  });
  test("stray closing tags are dropped, and tags rebuilt by a removal are removed too", () => {
    assert.equal(stripPrivate("a</private>b"), "ab");
    const r = redact("<pri<private>x</private>vate>hidden</private>tail");
    assert.ok(!r.text.includes("hidden"));
    assert.equal(redact(r.text).text, r.text);
  });
  test("secrets inside a private span are counted only as private", () => {
    const r = redact(`ok <private>DB_PASSWORD=${rand(20)}</private> done`);
    assert.equal(r.text, "ok  done");
    assert.deepEqual(r.kinds, ["private"]);
  });
});

describe("redactDeep", () => {
  const ghp = "gh" + "p_" + rand(36);
  const pw = rand(16);
  test("redacts strings at every depth, keeps keys and non-string values, does not mutate its input", () => {
    const input = {
      tool_name: "Bash",
      tool_input: { command: `git clone https://${ghp}@github.com/acme/x.git`, timeout: 120000, background: false, note: null },
      tool_response: { stdout: [`DB_PASSWORD=${pw}`, "done"], exit: 0 },
    };
    const copy = structuredClone(input);
    const r = redactDeep(input);
    assert.deepEqual(input, copy);
    assert.deepEqual(r.value, {
      tool_name: "Bash",
      tool_input: { command: "git clone https://[REDACTED:github-token]@github.com/acme/x.git", timeout: 120000, background: false, note: null },
      tool_response: { stdout: ["DB_PASSWORD=[REDACTED:password]", "done"], exit: 0 },
    });
    assert.equal(r.count, 2);
    assert.deepEqual(r.kinds, ["github-token", "password"]);
  });
  test("a whole string value under a secret-named key is redacted; placeholders and other keys are kept", () => {
    const r = redactDeep({ env: { DB_PASSWORD: pw, HOME: "/home/dev", API_TOKEN: "", SECRET: "${SECRET}" }, headers: [{ "x-api-key": pw }] });
    assert.deepEqual(r.value, {
      env: { DB_PASSWORD: "[REDACTED:password]", HOME: "/home/dev", API_TOKEN: "", SECRET: "${SECRET}" },
      headers: [{ "x-api-key": "[REDACTED:api-key]" }],
    });
    assert.equal(r.count, 2);
  });
  test("leaves primitives, class instances and cycles intact", () => {
    assert.deepEqual(redactDeep(42).value, 42);
    assert.equal(redactDeep(`token=${pw}`).value, "token=[REDACTED:token]");
    const d = new Date(0);
    assert.equal(redactDeep({ d }).value.d, d);
    const a: Record<string, unknown> = { s: ghp };
    a.self = a;
    const r = redactDeep(a).value;
    assert.equal(r.s, "[REDACTED:github-token]");
    assert.equal(r.self, r);
  });
});

describe("helpers", () => {
  test("Shannon entropy: 0 for one symbol, log2(n) for n distinct symbols", () => {
    assert.equal(shannonEntropy("aaaa"), 0);
    assert.equal(shannonEntropy("abcd"), 2);
  });
  test("keyKind recognises secret-named keys across naming styles and skips descriptive ones", () => {
    assert.equal(keyKind("AWS_SECRET_ACCESS_KEY"), "aws-secret-access-key");
    assert.equal(keyKind("PGPASSWORD"), "password");
    assert.equal(keyKind("_authToken"), "token");
    assert.equal(keyKind("APIKey"), "api-key");
    assert.equal(keyKind("x-api-key"), "api-key");
    assert.equal(keyKind("client_secret"), "secret");
    for (const k of ["tokenizer", "max_tokens", "token_type", "password_file", "PWD", "private_key_id", "key", "publishable_key"]) assert.equal(keyKind(k), null, k);
  });
});

describe("hostile inputs complete in linear time", () => {
  const MB5 = 5 * 1024 * 1024;
  const fill = (unit: string) => unit.repeat(Math.ceil(MB5 / unit.length)).slice(0, MB5);
  const b64run = () => {
    const parts: string[] = [];
    for (let i = 0; i < MB5 / 4096; i++) parts.push(rand(4096, B64));
    return parts.join("");
  };
  const inputs: [string, () => string][] = [
    ["a run of 'a'", () => fill("a")],
    ["a run of '='", () => fill("=")],
    ["a run of base64 characters", b64run],
    ["many BEGIN PRIVATE KEY lines without END", () => fill("-----BEGIN RSA PRIVATE KEY-----\n")],
    ["many -----BEGIN without a label", () => fill("-----BEGIN ")],
    ["many unclosed <private>", () => fill("<private>")],
    ["JWT-like fragments", () => fill("eyJaaaaaaaaa.")],
    ["key=value chains", () => fill("a=a:a.")],
    ["unterminated escaped quotes", () => fill('password="\\')],
    ["repeated CLI flags", () => fill("--password ")],
    ["secret-named keys with bare values", () => fill("token=")],
    ["secret-named keys assigned from calls", () => fill("token=getToken(")],
    ["unterminated single quotes after keys", () => fill("token='")],
    ["URL prefixes without @", () => fill("postgres://u:")],
    ["repeated Authorization headers", () => fill("Authorization: Bearer ")],
  ];
  for (const [name, make] of inputs) {
    test(`5 MB of ${name}`, { timeout: 60_000 }, () => {
      const text = make();
      const r = redact(text);
      assert.ok(r.text.length <= text.length + 40 * r.count);
    });
  }
  test("a 5 MB run of one character comes back unchanged", { timeout: 60_000 }, () => {
    const text = fill("a");
    assert.equal(redact(text).text, text);
  });
  test("an unterminated private key swallows the rest of a huge input in one redaction", { timeout: 60_000 }, () => {
    const r = redact("head\n" + fill("-----BEGIN RSA PRIVATE KEY-----\n"));
    assert.equal(r.text, "head\n[REDACTED:private-key]");
    assert.equal(r.count, 1);
  });
});
