/**
 * Where secrets come from (src/redact/sources.cts), table-driven: which files are secret files and which
 * commands print secret material or write a secret file's content; and what must not be taken for one.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { commandSecrecy, secretFileReason } from "../../src/redact/sources.cjs";

const SECRET_FILES = [
  ".env", "/srv/app/.env", ".env.local", ".env.production", "config/prod.env", ".pgpass", "/home/u/.my.cnf", ".netrc", "_netrc",
  "~/.aws/credentials", "credentials.json", "credentials.csv", ".git-credentials", "id_rsa", "/root/.ssh/id_ed25519", "id_ecdsa_sk",
  "tls.key", "server.pem", "cert.p12", "store.pfx", "app.keystore", "secrets.yml", "secrets.yaml", "config/secrets.json",
  "C:\\Users\\me\\.ssh\\id_rsa", "/home/u/.kube/config", "/home/u/.docker/config.json", ".htpasswd",
];
const PLAIN_FILES = [
  ".env.example", ".env.sample", ".env.template", ".env.dist", "id_rsa.pub", "/root/.ssh/id_ed25519.pub", "credentials.md", "src/credentials.ts",
  "README.md", "env.ts", "src/keys.ts", "keymap.json", "environment.yml", "docs/secrets.md", "known_hosts", "authorized_keys", "config.json",
];

const READS = [
  "cat .env", "cat .env.local", "cat ./config/.env.production | grep DB_", "printenv", "printenv AWS_SECRET_ACCESS_KEY", "env", "env | sort", "set",
  "export -p", "export", "declare -x", "kubectl get secret db-creds -o yaml", "kubectl -n prod get secrets api -o json", "kubectl describe secret api",
  "kubectl config view --raw", "aws configure get aws_secret_access_key", "aws configure list", "aws configure export-credentials --profile ci",
  "aws sts get-session-token --duration-seconds 900", "aws secretsmanager get-secret-value --secret-id prod/db",
  "aws ssm get-parameter --name /prod/db --with-decryption", "gcloud auth print-access-token", "gcloud secrets versions access latest --secret=db",
  "az account get-access-token", "az keyvault secret show --vault-name kv --name db", "cat ~/.pgpass", "cat ~/.netrc", "cat ~/.aws/credentials",
  "cat ~/.ssh/id_ed25519", "head -5 ~/.ssh/id_rsa", "cat certs/tls.key", "cat server.pem", "vault kv get secret/app", "vault read database/creds/ro",
  "op read op://vault/db/password", "security find-generic-password -s deploy -w", "docker inspect api", "docker compose config",
  "sudo cat /etc/app/.env", "ssh web1 'cat /srv/app/.env'", "grep -n TOKEN .env", "sed -n 1,20p .env.production", "base64 -d < tls.key",
  "echo $GITHUB_TOKEN", "echo \"${DB_PASSWORD}\"", "gh auth token", "heroku config -a api", "terraform output -json", "sops -d secrets.enc.yaml",
  "openssl rand -hex 32", "wg genkey", "cat /proc/1/environ", "git show HEAD:.env", "diff .env .env.example",
];
const NOT_READS = [
  "cat README.md", "ls -la .env", "cp .env.example .env", "rm .env.local", "chmod 600 ~/.ssh/id_rsa", "env NODE_ENV=test npm test", "set -euo pipefail",
  "export PATH=$PATH:/opt/bin", "kubectl get secrets", "kubectl get pods -o yaml", "aws s3 ls", "git add .env.example", "echo $PWD", "echo $HOME",
  "cat id_rsa.pub", "cat ~/.ssh/id_ed25519.pub >> ~/.ssh/authorized_keys", "grep -r TODO src", "docker ps", "gcloud config list", "npm run build",
];
const WRITES = [
  "cat > .env <<EOF\nDB_URL=postgres://localhost/app\nEOF", "echo 'API_KEY=abc' >> .env.local", "printf 'x=1\\n' > config/prod.env",
  "echo \"$KEY\" | tee secrets.yaml", "sed -i 's/^TOKEN=.*/TOKEN=abc/' .env", "cat <<'EOF' > ~/.pgpass\nlocalhost:5432:*:app:pw\nEOF",
];

describe("secret files", () => {
  for (const f of SECRET_FILES) test(`secret: ${f}`, () => assert.ok(secretFileReason(f)?.startsWith("secret file "), f));
  for (const f of PLAIN_FILES) test(`not secret: ${f}`, () => assert.equal(secretFileReason(f), null));
  test(".npmrc and .pypirc are secret when they hold a credential", () => {
    assert.ok(secretFileReason(".npmrc", "//registry.npmjs.org/:_authToken=abc\n"));
    assert.ok(secretFileReason("/home/u/.pypirc", "[pypi]\nusername = __token__\npassword = pypi-abc\n"));
    assert.equal(secretFileReason(".npmrc", "save-exact=true\nfund=false\n"), null);
    assert.ok(secretFileReason(".npmrc"), "read without its content: assume it holds one");
  });
});

describe("commands", () => {
  for (const c of READS) test(`prints secret material: ${JSON.stringify(c)}`, () => assert.ok(commandSecrecy(c).reads, c));
  for (const c of NOT_READS) test(`prints none: ${JSON.stringify(c)}`, () => assert.deepEqual(commandSecrecy(c), {}));
  for (const c of WRITES) test(`writes a secret file: ${JSON.stringify(c.split("\n")[0])}`, () => assert.ok(commandSecrecy(c).writes?.startsWith("secret file "), c));
});
