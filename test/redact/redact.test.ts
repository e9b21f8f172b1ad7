import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { keyKind, redact, redactDeep, redactLines, shannonEntropy, stripPrivate } from "../../src/redact/redact.cjs";

import { assertRedacted, B64, HEX, rand, secretCases } from "../helpers/secrets.js";


describe("redact: secrets are replaced, their context survives", () => {
  const cases = secretCases();
  test("the corpus has at least 120 distinct secret shapes of at least 50 kinds", () => {
    assert.ok(new Set(cases.map((k) => k.name)).size >= 120, `${cases.length} cases`);
    assert.ok(new Set(cases.map((k) => k.text)).size === cases.length, "no two cases are the same text");
    assert.ok(new Set(cases.flatMap((k) => k.secrets.map(([, kind]) => kind))).size >= 50);
  });
  for (const k of cases) {
    test(`redacts: ${k.name}`, () => {
      assertRedacted(k, redact(k.text));
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
  "git log with commit SHAs": "commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Jane Dev <jane@example.com>\nDate:   Tue Mar 5 14:22:01 2024 +0100\n\n    Fix token refresh race (#412)\n\n    Reverts 3f2a1b0c and cherry-picks e83c5163316f89bfbde7d9ab23ca55e2d3d5e4b1.\n",
  UUIDs: `request_id=3fa85f64-5717-4562-b3fc-2c963f66afa6 trace=550e8400-e29b-41d4-a716-446655440000\n{"id": "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "session_id": "f47ac10b-58cc-4372-a567-0e02b2c3d479"}`,
  "URLs without credentials": "https://github.com/acme/widgets/pull/42\nhttp://localhost:3000/api/search?q=token&limit=10\npostgres://db.internal:5432/app\nredis://localhost:6379/0\nssh://git@github.com:22/acme/widgets.git\ngit@github.com:acme/widgets.git\nhttps://jane@example.com/path\nhttp://[::1]:8080/\nhttps://example.com/callback?code=abc&state=xyz\nmailto:ops@example.com",
  "TypeScript auth code": `import { z } from "zod";\n\nexport const LoginInput = z.object({\n  email: z.string().email(),\n  password: z.string().min(12),\n});\n\nexport async function login(input: unknown, store: SessionStore): Promise<{ token: string; expiresAt: number }> {\n  const { email, password } = LoginInput.parse(input);\n  const user = await store.findUser(email);\n  if (!user || !(await verify(user.passwordHash, password))) throw new AuthError("invalid email or password");\n  const token = randomBytes(32).toString("base64url");\n  const apiKey = process.env.API_KEY ?? "";\n  if (token === previousToken || password == null) return retry();\n  headers.Authorization = \`Bearer \${token}\`;\n  return { token, expiresAt: Date.now() + SESSION_TTL_MS };\n}\n`,
  "Python settings code": `def connect(settings):\n    password = settings.DB_PASSWORD\n    token = os.environ.get("GITHUB_TOKEN")\n    secret_key = get_secret("django-secret-key")\n    headers = {"Authorization": f"Bearer {token}"}\n    return psycopg.connect(host=settings.DB_HOST, password=password)\n`,
  "markdown prose": "## Authentication\n\nCreate a personal access token and export it as \`GITHUB_TOKEN\`. The CLI reads \`--token\` first, then the environment.\nTokens look like \`ghp_…\` or \`github_pat_…\`; never commit them. If you rotate the password, restart the worker: the secret is cached.\n\n- token: required\n- password: optional (leave empty to use SSO)\n- Authorization: required for write endpoints\n\nBearer tokens expire after one hour. See the task-sk-1234abcd5678efgh9012ijkl ticket and the risk-assessment doc.\n",
  "package-lock integrity hash": `"node_modules/yaml": {\n  "version": "2.8.1",\n  "resolved": "https://registry.npmjs.org/yaml/-/yaml-2.8.1.tgz",\n  "integrity": "sha512-lcYcMxX2PO9XMGvAJkJ3OsNMw+/7FKes7/hgerGUYWIoWu5j/+YQqcZr5JnPZWzOsEBgMbSbiSTn/dv/69Mkpw==",\n  "license": "ISC"\n}`,
  "env template with placeholders": `# Copy to .env and fill in\nDB_PASSWORD=\nREDIS_PASSWORD=""\nAPI_KEY=<your-api-key>\nSTRIPE_SECRET_KEY=\${STRIPE_SECRET_KEY}\nSESSION_SECRET=changeme\nGITHUB_TOKEN=your_github_token_here\nSMTP_PASSWORD=********\nWEBHOOK_SECRET=$WEBHOOK_SECRET\nDB_URL=postgres://app:\${DB_PASSWORD}@db:5432/app\nADMIN_PASSWORD=xxxxxxxx\ntoken: null\npassword: ~\nsecret: true\ngh_token: \${{ secrets.GH_TOKEN }}\nPASSWORD_FILE=/run/secrets/db_password\n`,
  "LLM config with token-ish keys": "model: claude-sonnet-4\nmax_tokens: 4096\ntokenizer: cl100k_base\ntoken_type: Bearer\ntoken_budget: 120000\ntoken_expires_in: 3600\ntemperature: 0.2\n",
  "shell session": `$ docker run --rm -u 1000:1000 -v "$PWD":/src -e NODE_ENV=production node:20 npm test\n$ git push -u origin feature/redaction\n$ ssh -i ~/.ssh/id_ed25519 deploy@10.0.0.5\n$ kubectl create secret generic db --from-literal=username=app\n$ echo "$PASSWORD" | docker login --username ci --password-stdin ghcr.io\nPWD=/home/dev/project OLDPWD=/home/dev/src/mem HOME=/home/dev\n`,
  "hashes, digests and ordinary base64 in code": `FROM node:20@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\nconst PIXEL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";\nconst BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";\nconst header = btoa(JSON.stringify({ alg: "none" }));\nhf_hub_download(repo_id="Xenova/all-MiniLM-L6-v2", filename="onnx/model.onnx")\n`,
  "certificate and public key blocks": "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUEXAMPLEdGVzdCBjZXJ0aWZpY2F0ZSBib2R5\n-----END CERTIFICATE-----\n-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEexamplepublickeybody==\n-----END PUBLIC KEY-----\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExamplePublicKeyBodyOnly jane@laptop\n",
  "commands whose flags are not passwords": "$ docker run -p 8080:80 -e MODE=dev nginx:1.27\n$ redis-cli -h cache -p 6379 ping\n$ htpasswd -B -c /etc/nginx/.htpasswd jane\n$ git config core.editor vim\n$ npm config set registry https://registry.npmjs.org/\n$ echo $REGISTRY_TOKEN | docker login --password-stdin ghcr.io\n$ vault login -method=userpass username=jdoe\n$ git clone ssh://git@github.com/acme/widgets.git\n$ keytool -list -keystore app.jks\n$ deploy --api-key --region eu-west-1\n",
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
    const pk = `pk_live_${rand(99)}`;
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
    for (const text of [`the task-sk-${rand(30)} id`, `ask-${rand(30)}`, "ghp_short", `desk_live_${rand(20)}`]) assert.equal(redact(text).text, text);
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
  const ghp = `ghp_${rand(36)}`;
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
  test("a value is judged under the name of its name/value pair (Kubernetes env, ECS, CloudFormation parameters)", () => {
    const r = redactDeep({ env: [{ name: "DB_HOST", value: "db.internal" }, { name: "DB_PASSWORD", value: `${pw}.x` }], Parameters: [{ ParameterKey: "ApiToken", ParameterValue: pw }] });
    assert.deepEqual(r.value, { env: [{ name: "DB_HOST", value: "db.internal" }, { name: "DB_PASSWORD", value: "[REDACTED:password]" }], Parameters: [{ ParameterKey: "ApiToken", ParameterValue: "[REDACTED:token]" }] });
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

describe("redactLines: a whole document redacted before it is cut, its lines where they were", () => {
  test("a multi-line key and a multi-line <private> block keep the line count; the lines after them keep their numbers", () => {
    const key = `-----BEGIN RSA PRIVATE KEY-----\n${Array.from({ length: 30 }, () => rand(64, B64)).join("\n")}\n-----END RSA PRIVATE KEY-----`;
    const doc = `# Keys\n\n${key}\n\n# Journal\n<private>\nline a\nline b\n</private>\nafter ${`ghp_${rand(36)}`}\nlast line\n`;
    const out = redactLines(doc);
    assert.equal(out.split("\n").length, doc.split("\n").length);
    const lines = out.split("\n");
    assert.equal(lines[2], "[REDACTED:private-key]");
    assert.equal(lines.indexOf("last line"), doc.split("\n").indexOf("last line"));
    assert.equal(lines[lines.indexOf("last line") - 1], "after [REDACTED:github-token]");
    assert.ok(!out.includes("line a") && !out.includes("BEGIN"));
    assert.equal(redact(doc).text.split("\n").length < doc.split("\n").length, true, "plain redact collapses the lines");
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
    assert.equal(keyKind("private_key_id"), "gcp-private-key-id");
    for (const k of ["tokenizer", "max_tokens", "token_type", "password_file", "PWD", "key_id", "key", "publishable_key"]) assert.equal(keyKind(k), null, k);
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
    ["mysql commands with no -p", () => fill("mysql -u root ")],
    ["sshpass without a password", () => fill("sshpass -x ")],
    ["auth keys with base64 values", () => fill('"auth": "dXNlcjpwYXNz')],
    ["hex runs with dashes", () => fill("0123456789abcdef-")],
    ["login commands with no password flag", () => fill("docker login -u ci ")],
    ["config set of secret-named keys with no value", () => fill("config set --global token ")],
    ["echo pipes with no --password-stdin", () => fill("echo 'abc' | ")],
    ["URL schemes with a long user and no @", () => fill("https://abcdefghijklmnopqrstuvwx")],
    ["htpasswd flags", () => fill("htpasswd -b -c ")],
    ["labels before rejected values (rescanned)", () => fill("token:/token:/")],
    ["secret-named keys with code-path values", () => fill("key: DB_KEY=a.b ")],
    ["percent escapes", () => fill("%41%42")],
    ["plus-joined words", () => fill("a+b+")],
    ["non-ASCII percent escapes", () => fill("%C3%A9")],
    [".pgpass-like fields", () => fill("a:1:b:c:")],
    ["name/value pairs with no value", () => fill("name: DB_PASSWORD\n")],
    ["passphrase keys with no end", () => fill("passphrase: a ")],
    ["prose with no secret after 'password is'", () => fill("the password is ")],
    ["XML tags never closed", () => fill("<password>abc")],
    ["base64 PEM prefixes", () => fill("LS0tLS1CRUdJTi")],
    ["base64 JSON prefixes", () => fill("eyJhdXRoIjoi")],
    ["AWS key id markers", () => fill("AKIAIOSFODNN7EXAMPLQ ")],
    ["define calls with no value", () => fill("define('DB_PASSWORD', ")],
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
    const r = redact(`head\n${fill("-----BEGIN RSA PRIVATE KEY-----\n")}`);
    assert.equal(r.text, "head\n[REDACTED:private-key]");
    assert.equal(r.count, 1);
  });
});
