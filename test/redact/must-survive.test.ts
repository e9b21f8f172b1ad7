/**
 * What redaction must leave alone, byte for byte: code that names secrets without holding one, identifiers,
 * commit hashes, UUIDs, paths, versions, prose about keys and passwords, test runner output, URL-encoded text
 * with no secret in it. Each row is one string; a row that fails names itself.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { redact } from "../../src/redact/redact.cjs";

const SURVIVE: [group: string, text: string][] = [
  // Code identifiers and references.
  ["identifier", "const passwordField = form.querySelector('#password');"],
  ["identifier", "const ids = tokenizer.encode(x);"],
  ["identifier", "const key = getApiKey();"],
  ["identifier", "apiKey: ApiKeyProvider"],
  ["identifier", "password = hashedPassword"],
  ["identifier", "token: string | undefined;"],
  ["identifier", "const secret = await vault.read(secretPath);"],
  ["identifier", "DB_PASSWORD = settings.DB_PASSWORD"],
  ["identifier", "password=config.db.password"],
  ["identifier", "auth = HTTPBasicAuth(user, password)"],
  ["identifier", "if (!authToken) throw new Error('missing token');"],
  ["identifier", "tokenCount += encoder.tokenLength(chunk)"],
  ["identifier", "passwordHash := bcrypt.GenerateFromPassword(pw, 12)"],
  ["identifier", "self.secret_key = kwargs.get('secret_key')"],
  ["identifier", "export function verifyToken(token: string): Claims {"],
  ["identifier", "class PasswordResetTokenRepository extends Repository<ResetToken> {}"],
  ["identifier", "token = token.strip()"],
  ["identifier", "credentials = service_account.Credentials.from_service_account_file(path)"],
  ["identifier", "const { token, refreshToken } = await auth.refresh(session);"],
  ["identifier", "auth: true"],
  ["identifier", "auth: required"],
  ["identifier", "auth_backend: ldap"],
  ["identifier", "credential_helper: osxkeychain"],
  ["identifier", "sort_key: created_at"],
  ["identifier", "partition_key = 'tenant_id'"],
  ["identifier", "PRIMARY_KEY=id"],
  ["identifier", "cache_key = f\"user:{user_id}\""],
  ["identifier", "const token = jwt.sign(payload, process.env.JWT_SECRET, { expiresIn: '1h' });"],
  ["identifier", "api_key=os.getenv(\"API_KEY\")"],
  ["identifier", "SECRET_KEY=os.environ[\"SECRET_KEY\"]"],
  ["identifier", "TOKEN=$(cat /run/secrets/token)"],
  ["identifier", "password: z.string().min(8).max(128),"],
  ["identifier", "def __init__(self, user: str, password: str = \"\") -> None:"],
  ["identifier", "tokenizer := bpe.New(vocab)"],
  ["identifier", "\"auth\": \"bearer-token\", \"auth\": \"oauth2\""],
  ["identifier", "bypass: true\npass: 3\npasses: 12"],
  ["identifier", ".swatch { --secret-color: #ff00aa; }"],
  ["identifier", "PASSWORD_MIN_LENGTH=12\nTOKEN_TTL=3600\nSESSION_KEY_PREFIX=sess"],
  ["identifier", "onKeyDown={(e) => e.key === 'Enter' && submit()}"],
  // Prose about keys, with harmless values.
  ["prose", "Use key=id for the join, not key=name."],
  ["prose", "The password is wrong, try resetting it."],
  ["prose", "The token is expired; run gh auth login again."],
  ["prose", "The secret is stored in Vault under kv/app."],
  ["prose", "The passphrase is required when the key is encrypted."],
  ["prose", "the api key is in 1Password"],
  ["prose", "The password was changed yesterday by the on-call."],
  ["prose", "Your token is valid for 3600 seconds."],
  ["prose", "Set the password: it must be at least 12 characters."],
  ["prose", "The credentials are read from ~/.aws/credentials by default."],
  ["prose", "Keys are rotated every 90 days (see the runbook)."],
  // Hashes, ids, paths, versions.
  ["hash", "Reverted 9fceb02d0ae598e95dc970b74767f19372d61af8 and 3f2a1b0c."],
  ["hash", "merge e83c5163316f89bfbde7d9ab23ca55e2d3d5e4b1 into main"],
  ["hash", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
  ["uuid", "The request 3fa85f64-5717-4562-b3fc-2c963f66afa6 failed twice."],
  ["uuid", "session_id=f47ac10b-58cc-4372-a567-0e02b2c3d479"],
  ["path", "GOOGLE_APPLICATION_CREDENTIALS=/etc/gcp/service-account.json"],
  ["path", "SSL_KEY_FILE=/etc/ssl/private/server.key"],
  ["path", "ssh_key: ~/.ssh/id_ed25519"],
  ["path", "TLS_KEY=./certs/dev.key"],
  ["path", "password_file: /run/secrets/db_password"],
  ["path", "KEYSTORE_PATH=C:\\certs\\app.pfx"],
  ["path", "see src/redact/rules.cts:42:7 and test/redact/redact.test.ts:12:3"],
  ["version", "API_KEY_VERSION=2.4.1"],
  ["version", "token_version: 3"],
  ["version", "node v20.11.1, npm 10.2.4, typescript@5.9.3"],
  ["version", "\"version\": \"1.0.0-rc.2+build.5\""],
  // Output of tools.
  ["tool output", "--- PASS: TestParseTOMLConfigWithOptions (0.00s)\n--- FAIL: TestSmoke/bash (54.11s)"],
  ["tool output", "TIMESTAMP=\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\""],
  ["tool output", "src/app.ts:12:5 - error TS2322: Type 'string' is not assignable to type 'number'."],
  ["tool output", "2024-05-01T10:00:00Z INFO token refresh scheduled in 300s"],
  ["tool output", "127.0.0.1:6379:0:keys=12,expires=0"],
  ["tool output", "PASS  test/auth/token.test.ts (1.2 s)"],
  // URL-encoded text with no secret.
  ["encoded", "https://www.google.com/search?q=how+to+rotate+a+password+safely&hl=en"],
  ["encoded", "GET /search?q=C%2B%2B+templates&page=2"],
  ["encoded", "x = a+b; y = c+d;"],
  ["encoded", "redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback&response_type=code"],
  // Placeholders.
  ["placeholder", "DB_PASSWORD=${DB_PASSWORD}\nAPI_KEY=<your-api-key>\nSECRET=changeme\nTOKEN=xxxxxxxx"],
  ["placeholder", "mysql -u root -p$MYSQL_ROOT_PASSWORD shop"],
  ["placeholder", "passphrase: 'sample'"],
  ["placeholder", "Archive passwords: `zip -P …`, `7z a -p…`, `mysql -uroot -p…`, DB_PASSWORD=… in the docs"],
  ["placeholder", "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: db, key: password}"],
];

describe("must survive redaction unchanged", () => {
  for (const [group, text] of SURVIVE) {
    test(`${group}: ${text.split("\n")[0]!.slice(0, 70)}`, () => {
      const r = redact(text);
      assert.equal(r.text, text);
      assert.equal(r.count, 0);
    });
  }
});
