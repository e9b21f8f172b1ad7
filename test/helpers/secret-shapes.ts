/**
 * More shapes for the fake-secret corpus (test/helpers/secrets.ts): the ones an adversarial review found stored
 * raw (issue 22), config and code formats, provider tokens, and URL-encoded command lines. All values are made
 * at run time by the corpus's seeded generator; provider prefixes are split so no literal looks live.
 */
import { ALNUM, B64, B64URL, b64, DIGITS, formEncode, HEX, LOWER, UPPER } from "./alphabets.js";

export type Add = (name: string, secrets: [string, string][], text: (...s: string[]) => string) => void;
export type Rand = (n: number, alphabet?: string) => string;


export function moreShapes(add: Add, rand: Rand): void {
  const uuid = () => `${rand(8, HEX)}-${rand(4, HEX)}-4${rand(3, HEX)}-a${rand(3, HEX)}-${rand(12, HEX)}`;
  // A password with punctuation: a dot, a dash, a word and digits (`Xk9q2.Lm4Np`, `Autumn.Lake42`).
  const dotted = () => `${rand(5)}.${rand(6)}`;
  const wordy = () => `${["Summer", "Autumn", "Harbor", "Velvet", "Copper"][rand(1, "01234")!.charCodeAt(0) % 5]}.${["Breeze", "Lake", "Falcon", "Maple"][rand(1, "0123")!.charCodeAt(0) % 4]}${rand(2, DIGITS)}`;

  // Found stored raw by the review.
  add("dotted password in .env", [[dotted(), "password"]], (p) => `APP_ENV=prod\nDB_PASSWORD=${p}\nDB_HOST=db.internal\n`);
  add("PGPASSWORD export of a word-and-dot password", [[wordy(), "password"]], (p) => `$ export PGPASSWORD=${p}\n$ psql -h db.internal -U app -d app -c '\\dt'`);
  add("JSON password with a dot", [[`Tr0${rand(5)}.${rand(2, UPPER)}${rand(3)}`, "password"]], (p) => `{"username": "admin", "password": "${p}", "remember": true}`);
  add("a label before the assignment", [[`${rand(10)}.${rand(4)}`, "password"]], (p) => `Here is the key: DB_PASSWORD=${p} (rotate after the demo)`);
  add("Heroku API key (a UUID) after a label", [[uuid(), "api-key"]], (k) => `heroku: HEROKU_API_KEY=${k}\n`);
  add(".pgpass line", [[`${rand(12)}:${rand(4)}`.replace(":", "\\:"), "password"]], (p) => `$ cat ~/.pgpass\ndb.internal:5432:app:app_user:${p}\n*:*:*:replicator:${p}\n`);
  add("WordPress wp-config define", [[`${rand(8)}.${rand(4)}-!`, "password"], [`${rand(40, B64)}`, "secret"]],
    (p, k) => `define( 'DB_NAME', 'wordpress' );\ndefine( 'DB_PASSWORD', '${p}' );\ndefine('AUTH_KEY', '${k}');\n`);
  add("SSHPASS environment variable", [[rand(14), "password"]], (p) => `$ SSHPASS=${p} sshpass -e ssh deploy@10.0.0.8 uptime`);
  add("az storage account keys list output", [[`${rand(86, B64)}==`, "azure-storage-key"], [`${rand(86, B64)}==`, "azure-storage-key"]],
    (a, b) => `$ az storage account keys list -g rg-prod -n acmestore\n[\n  {\n    "creationTime": "2024-03-01T10:00:00+00:00",\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "${a}"\n  },\n  {\n    "keyName": "key2",\n    "permissions": "FULL",\n    "value": "${b}"\n  }\n]`);
  add("passphrase with spaces in YAML", [[`copper falcon wander ${rand(6, LOWER)} orbit`, "password"]], (p) => `signing:\n  key_file: /etc/keys/release.asc\n  passphrase: ${p}\n`);
  add("AWS secret in prose after its key id", [[`AKIA${rand(16, UPPER + DIGITS)}`, "aws-access-key-id"], [rand(40, B64), "secret"]],
    (id, s) => `I created an IAM user for CI: the key id is ${id} and the secret is ${s}, please store both in the vault.`);
  add("AWS secret after its key id, no words", [[`AKIA${rand(16, UPPER + DIGITS)}`, "aws-access-key-id"], [rand(40, B64), "aws-secret-access-key"]], (id, s) => `new ci creds ${id} / ${s}`);
  add("password named in prose", [[`${rand(9)}!`, "password"]], (p) => `The staging admin password is ${p} until Monday.`);
  add("passphrase named in prose", [[`granite ladder ${rand(7, LOWER)} tulip`, "password"]], (p) => `The GPG passphrase is ${p}.\nDon't lose it.`);
  add("URL-encoded mysql -p in a query string", [[rand(12), "password"]], (p) => `GET /admin/run?cmd=${formEncode(`mysql -u root -p${p} shop`)}&async=1 HTTP/1.1`);
  add("URL-encoded sshpass -p", [[rand(13), "password"]], (p) => `POST /exec body: cmd=${formEncode(`sshpass -p ${p} ssh deploy@10.0.0.9`)}`);
  add("URL-encoded docker login -p", [[`${rand(10)}.${rand(3)}`, "password"]], (p) => `https://ci.example.com/run?script=${encodeURIComponent(`docker login -u ci -p ${p} registry.example.com`)}`);
  add("URL-encoded curl -u user:password", [[`${rand(11)}`, "basic-auth"]], (p) => `webhook?cmd=${formEncode(`curl -u admin:${p} https://api.example.com/v1/reindex`)}`);
  add("URL-encoded redis-cli -a", [[rand(16), "password"]], (p) => `GET /debug?c=${formEncode(`redis-cli -h cache -a ${p} INFO`)}`);
  add("double URL-encoded password assignment", [[rand(14), "password"]], (p) => `next=${encodeURIComponent(encodeURIComponent(`/login?password=${p}`))}`);
  // Config files.
  add("Kubernetes Secret with base64 data", [[b64(`${rand(14)}.`), "password"], [b64(rand(32)), "token"]],
    (p, t) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  password: ${p}\n  api-token: ${t}\n`);
  add("Kubernetes env name/value pair", [[`${rand(10)}.${rand(2)}`, "password"]], (p) => `env:\n  - name: DB_HOST\n    value: db.internal\n  - name: DB_PASSWORD\n    value: "${p}"\n`);
  add("ECS task definition environment", [[rand(32), "token"]], (t) => `"environment": [{"name": "LOG_LEVEL", "value": "info"}, {"name": "API_TOKEN", "value": "${t}"}]`);
  add("docker-compose POSTGRES_PASSWORD", [[`${rand(8)}-${rand(6)}`, "password"]], (p) => `services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: ${p}\n`);
  add("TOML database section", [[`${rand(12)}.${rand(2)}`, "password"]], (p) => `[database]\nhost = "db.internal"\nport = 5432\npassword = "${p}"\n`);
  add("my.cnf client section", [[rand(15), "password"]], (p) => `[client]\nuser=root\npassword=${p}\nhost=127.0.0.1\n`);
  add("terraform.tfvars", [[`${rand(10)}#${rand(4)}`, "password"]], (p) => `region      = "eu-west-1"\ndb_password = "${p}"\n`);
  add(".npmrc _auth", [[b64(`ci:${rand(18)}`), "secret"]], (a) => `registry=https://npm.example.com/\n_auth=${a}\nalways-auth=true\n`);
  add("pip.conf index-url with a password", [[rand(20), "url-password"]], (p) => `[global]\nindex-url = https://ci:${p}@pypi.example.com/simple\n`);
  add("Maven settings.xml server password", [[`${rand(10)}.${rand(3)}`, "password"]], (p) => `<servers>\n  <server>\n    <id>nexus</id>\n    <username>deploy</username>\n    <password>${p}</password>\n  </server>\n</servers>`);
  add("web.config appSettings token", [[rand(36), "token"]], (t) => `<appSettings>\n  <add key="ApiToken" value="${t}" />\n  <add key="Region" value="westeurope" />\n</appSettings>`);
  add("Npgsql connection string", [[`${rand(9)}.${rand(4)}`, "connection-string-password"]], (p) => `"ConnectionStrings": { "Default": "Host=db;Database=app;Username=app;Password=${p};Pooling=true" }`);
  add("JDBC URL password parameter", [[rand(16), "password"]], (p) => `jdbc:postgresql://db.internal:5432/app?user=app&password=${p}&ssl=true`);
  add("Spring datasource property", [[`${rand(6)}-${rand(5)}.${rand(3)}`, "password"]], (p) => `spring.datasource.url=jdbc:mysql://db:3306/shop\nspring.datasource.password=${p}\n`);
  add("Rails secret_key_base", [[rand(128, HEX), "secret"]], (k) => `production:\n  secret_key_base: ${k}\n`);
  add("Django SECRET_KEY", [[`django-insecure-${rand(40, `${LOWER}${DIGITS}!@#%^&*(-_=+)`)}`, "secret"]], (k) => `# settings.py\nSECRET_KEY = '${k}'\nDEBUG = False\n`);
  add("Firebase web config", [[`AIza${rand(35, B64URL)}`, "gcp-api-key"]], (k) => `const firebaseConfig = {\n  apiKey: "${k}",\n  authDomain: "demo.firebaseapp.com",\n  projectId: "demo",\n};`);
  add("Sentry DSN", [[rand(32, HEX), "url-token"]], (k) => `SENTRY_DSN=https://${k}@o4504.ingest.sentry.io/4505\n`);
  add("Datadog and New Relic keys in .env", [[rand(32, HEX), "api-key"], [rand(40, HEX), "secret"]], (d, n) => `DD_API_KEY=${d}\nNEW_RELIC_LICENSE_KEY=${n}\nDD_SITE=datadoghq.eu\n`);
  add("Azure client secret with ~ and .", [[`${rand(3)}8Q~${rand(31, `${ALNUM}._-`)}`, "secret"]], (s) => `export AZURE_CLIENT_ID=${uuid()}\nexport AZURE_CLIENT_SECRET=${s}\n`);
  add("az login as a service principal", [[`${rand(4)}8Q~${rand(20)}`, "password"]], (s) => `$ az login --service-principal -u ${uuid()} -p ${s} --tenant contoso.onmicrosoft.com`);
  add("AWS session token in the environment", [[`IQoJb3JpZ2luX2Vj${rand(200, B64)}`, "token"]], (t) => `AWS_REGION=eu-central-1\nAWS_SESSION_TOKEN=${t}\n`);
  add("shell history with PGPASSWORD", [[`${rand(7)}.${rand(5)}`, "password"]], (p) => `  511  cd infra\n  512  PGPASSWORD='${p}' psql -h db.internal -U app\n  513  exit`);
  add("psql connection string", [[rand(14), "password"]], (p) => `$ psql "host=db.internal port=5432 user=app password=${p} dbname=app sslmode=require"`);
  add("MongoDB URI with an encoded password", [[`${rand(6)}%40${rand(6)}`, "url-password"]], (p) => `MONGO_URI=mongodb://admin:${p}@mongo-0.internal:27017/admin\n`);
  add("redis.conf requirepass and masterauth", [[rand(24), "password"], [rand(22), "password"]], (a, b) => `bind 127.0.0.1\nrequirepass ${a}\nmasterauth ${b}\n`);
  add("RubyGems credentials", [[`rubygems_${rand(48, HEX)}`, "api-key"]], (k) => `---\n:rubygems_api_key: ${k}\n`);
  add("Composer auth.json http-basic", [[`${rand(12)}.${rand(4)}`, "password"]], (p) => `{"http-basic": {"repo.example.com": {"username": "ci", "password": "${p}"}}}`);
  add("Docker config JSON base64 in a Kubernetes secret", [[b64(JSON.stringify({ auths: { "ghcr.io": { auth: b64(`ci:${rand(20)}`) } } })), "docker-auth"]],
    (d) => `apiVersion: v1\nkind: Secret\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: ${d}\n`);
  add("base64 PEM private key in a Kubernetes TLS secret", [[b64(`-----BEGIN PRIVATE KEY-----\n${rand(64, B64)}\n${rand(64, B64)}\n-----END PRIVATE KEY-----\n`), "private-key"]],
    (k) => `kind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n  tls.key: ${k}\n`);
  add("PuTTY private key file", [[`${rand(64, B64)}\n${rand(44, B64)}\n`, "private-key"]],
    (k) => `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIExampleOnlyPublicPart\nPrivate-Lines: 2\n${k}Private-MAC: ${rand(64, HEX)}`);
  add("JSON Web Key private exponent", [[rand(86, B64URL), "private-key"], [rand(43, B64URL), "private-key"]],
    (d, p) => `{"kty":"RSA","kid":"k1","n":"sXch${"A".repeat(8)}","e":"AQAB","d":"${d}","p":"${p}"}`);
  // Code.
  add("requests auth tuple", [[`${rand(9)}.${rand(3)}`, "password"]], (p) => `r = requests.get(url, auth=("svc-reports", "${p}"), timeout=10)`);
  add("node-postgres client options", [[`${rand(8)}.${rand(5)}`, "password"]], (p) => `const client = new Client({ host: "db", user: "app", password: '${p}', port: 5432 });`);
  add("Go os.Setenv", [[rand(30), "token"]], (t) => `os.Setenv("API_TOKEN", "${t}")\nclient := api.New()`);
  add("Python os.environ item assignment", [[`${rand(40, B64URL)}`, "secret"]], (k) => `os.environ["OPENAI_KEY"] = "${k}"\n`);
  add("Ruby ENV item assignment", [[rand(28), "secret"]], (k) => `ENV['MAPBOX_KEY'] = '${k}'`);
  add("Java setProperty", [[`${rand(7)}.${rand(6)}`, "password"]], (p) => `props.setProperty("db.password", "${p}");`);
  add("PowerShell ConvertTo-SecureString", [[`P@${rand(8)}.${rand(2)}`, "password"]], (p) => `$pw = ConvertTo-SecureString "${p}" -AsPlainText -Force`);
  add("SQL CREATE USER and ALTER USER", [[rand(16), "password"], [`${rand(8)}.${rand(4)}`, "password"]],
    (a, b) => `CREATE USER reporting WITH PASSWORD '${a}';\nALTER USER 'app'@'%' IDENTIFIED BY '${b}';`);
  // Command lines.
  add("kubectl create secret --from-literal", [[rand(18), "password"]], (p) => `$ kubectl create secret generic db --from-literal=username=app --from-literal=password=${p}`);
  add("helm --set of a password", [[rand(15), "password"]], (p) => `$ helm upgrade api ./chart --set image.tag=1.4.2 --set db.password=${p}`);
  add("docker run -e with a token", [[rand(32), "token"]], (t) => `$ docker run -d -e GITHUB_RUNNER_TOKEN=${t} -e RUNNER_NAME=ci-7 runner:latest`);
  add("wget --http-password", [[`${rand(9)}.${rand(3)}`, "password"]], (p) => `$ wget --http-user=ci --http-password=${p} https://files.example.com/build.tgz`);
  add("zip -P and 7z -p", [[rand(12), "password"], [rand(13), "password"]], (a, b) => `$ zip -r -P ${a} backup.zip data/\n$ 7z a -p${b} -mhe=on backup.7z data/`);
  add("ssh-keygen -N passphrase", [[`${rand(10)}.${rand(4)}`, "password"]], (p) => `$ ssh-keygen -t ed25519 -f ~/.ssh/ci -N '${p}' -C ci@example.com`);
  add("gpg --passphrase", [[rand(18), "password"]], (p) => `$ gpg --batch --pinentry-mode loopback --passphrase ${p} -d backup.tar.gpg > backup.tar`);
  add("curl client credentials grant", [[rand(40, B64URL), "secret"]], (s) => `$ curl -X POST https://login.example.com/oauth/token -d "grant_type=client_credentials&client_id=ci&client_secret=${s}"`);
  add("X-Auth-Token header", [[rand(32, HEX), "token"]], (t) => `curl -H "X-Auth-Token: ${t}" https://api.example.com/v3/servers`);
  add("Google OAuth refresh token", [[`1//0g${rand(90, B64URL)}`, "token"]], (t) => `{"client_id": "cli.apps.googleusercontent.com", "refresh_token": "${t}", "type": "authorized_user"}`);
  // Provider formats.
  add("age secret key", [[`AGE-SECRET-KEY-1${rand(58, UPPER + DIGITS)}`, "age-secret-key"]], (k) => `# created: 2024-05-01T10:00:00Z\n# public key: age1${rand(58, LOWER + DIGITS)}\n${k}\n`);
  add("Terraform Cloud token in credentials.tfrc.json", [[`${rand(14)}.atlas${"v1"}.${rand(67, B64URL)}`, "terraform-token"]], (t) => `{"credentials": {"app.terraform.io": {"token": "${t}"}}}`);
  add("Linear, Postman and Databricks tokens", [[`lin_${"api"}_${rand(40)}`, "linear-api-key"], [`PMAK-${rand(24, HEX)}-${rand(34, HEX)}`, "postman-api-key"], [`dapi${rand(32, HEX)}`, "databricks-token"]],
    (l, p, d) => `Keys to rotate: ${l} (linear), ${p} (postman), ${d} (databricks)`);
  add("Grafana, Supabase and Notion tokens", [[`glsa_${rand(32)}_${rand(8, HEX)}`, "grafana-token"], [`sbp_${rand(40, HEX)}`, "supabase-token"], [`ntn_${rand(46)}`, "notion-token"]],
    (g, s, n) => `grafana ${g}\nsupabase ${s}\nnotion ${n}\n`);
  add("Doppler and Figma tokens", [[`dp.st.${rand(44)}`, "doppler-token"], [`figd_${rand(42, B64URL)}`, "figma-token"]], (d, f) => `DOPPLER_TOKEN=${d}\nFIGMA_TOKEN=${f}\n`);
  add("Sentry auth token", [[`sntrys_${rand(120, B64URL)}`, "sentry-token"]], (t) => `$ sentry-cli --auth-token ${t} releases new 1.4.2`);
}
