/**
 * A further corpus of secret shapes (issue 22, second round): vendor formats, config and code shapes, command
 * lines and prose the first corpus (test/helpers/secrets.ts, secret-shapes.ts) did not hold, each written the way
 * it shows up in a session. Values come from the corpus's seeded generator; provider prefixes are split so that no
 * literal here looks live to a secret scanner. Used by more-shapes.test.ts and fed through every channel by
 * every-channel.test.ts and explicit-channels.test.ts.
 */
import { ALNUM, B64, B64URL, b64, DIGITS, formEncode, HEX, LOWER, UPPER } from "../helpers/alphabets.js";
import { type Case, rand } from "../helpers/secrets.js";

const p = (...parts: string[]) => parts.join("");

export function heldOutCases(): Case[] {
  const c: Case[] = [];
  const add = (name: string, secrets: [string, string][], text: (...s: string[]) => string) =>
    c.push({ name, secrets, text: text(...secrets.map(([s]) => s)) });
  const uuid = () => `${rand(8, HEX)}-${rand(4, HEX)}-4${rand(3, HEX)}-b${rand(3, HEX)}-${rand(12, HEX)}`;
  const words = (n: number) => Array.from({ length: n }, () => rand(5 + (n % 3), LOWER)).join(" ");

  // Vendor token formats.
  add("Pulumi access token", [[p("pul", "-", rand(40, HEX)), "pulumi-token"]], (t) => `$ pulumi login --cloud-url https://api.pulumi.com\nEnter your access token: ${t}\nLogged in to pulumi.com as ops`);
  add("Docker Hub personal access token", [[p("dckr", "_pat_", rand(27, B64URL)), "docker-hub-token"]], (t) => `echo ${t} | docker login -u acmeci --password-stdin`);
  add("Atlassian API token in prose", [[p("ATATT", "3xFfGF0", rand(180, B64URL), "=", rand(8, HEX).toUpperCase()), "atlassian-token"]], (t) => `jira cli init: paste ${t} when asked for the API token`);
  add("New Relic user key", [[p("NR", "AK-", rand(27, UPPER + DIGITS)), "newrelic-key"]], (k) => `newrelic profiles add --profile prod --apiKey ${k} --region EU`);
  add("Heroku HRKU token", [[p("HR", "KU-", "AA", rand(58, B64URL)), "heroku-token"]], (t) => `heroku authorizations:create -d ci\nToken: ${t}`);
  add("Fly.io macaroon token", [[p("Fly", "V1 fm2_", rand(120, B64)), "fly-token"]], (t) => `FLY_API_TOKEN="${t}"`);
  add("Netlify and Render tokens", [[p("nf", "p_", rand(36)), "netlify-token"], [p("rn", "d_", rand(32)), "render-token"]], (a, b) => `deploy tokens: netlify ${a}, render ${b}`);
  add("Mapbox secret token", [[p("s", "k.eyJ1IjoiYWNtZSIsImEiOiJ", rand(20, B64URL), ".", rand(22, B64URL)), "mapbox-token"]], (t) => `mapbox.accessToken = '${t}';`);
  add("Airtable personal access token", [[p("pa", "t", rand(14), ".", rand(64, HEX)), "airtable-token"]], (t) => `curl https://api.airtable.com/v0/meta/bases -H "Authorization: Bearer ${t}"`);
  add("Square access token", [[p("EA", "AA", rand(60, B64URL)), "square-token"]], (t) => `square:\n  environment: production\n  access: ${t}\n`);
  add("Braintree access token", [[p("access_", "token$production$", rand(16, LOWER + DIGITS), "$", rand(32, HEX)), "braintree-token"]], (t) => `gateway = braintree.BraintreeGateway(access_token="${t}")`);
  add("Alibaba Cloud access key id and secret", [[p("LT", "AI", rand(20)), "alibaba-access-key-id"], [rand(30), "aws-secret-access-key"]], (id, s) => `aliyun configure set --access-key-id ${id} --access-key-secret ${s} --region cn-hangzhou`);
  add("Tencent Cloud SecretId", [[p("AK", "ID", rand(32)), "tencent-secret-id"]], (id) => `tccli configure set secretId ${id}`);
  add("Contentful and Typeform tokens", [[p("CF", "PAT-", rand(43, B64URL)), "contentful-token"], [p("tf", "p_", rand(44)), "typeform-token"]], (a, b) => `CMS token ${a}\nforms token ${b}`);
  add("Buildkite and CircleCI tokens", [[p("bk", "ua_", rand(40, HEX)), "buildkite-token"], [p("CCI", "PAT_", rand(22), "_", rand(40, HEX)), "circleci-token"]], (a, b) => `buildkite-agent start --token ${a}\ncircleci setup --token ${b}`);
  add("Prefect and Sourcegraph tokens", [[p("pn", "u_", rand(36)), "prefect-token"], [p("sg", "p_", rand(16, HEX), "_", rand(40, HEX)), "sourcegraph-token"]], (a, b) => `prefect cloud login -k ${a}\nsrc login --token ${b}`);
  add("1Password service account token", [[p("op", "s_eyJ", rand(300, B64)), "onepassword-token"]], (t) => `OP_SERVICE_ACCOUNT_TOKEN=${t}`);
  add("Grafana legacy API key", [[p("eyJr", "Ijoi", b64(`${rand(32)}","n":"ci","id":1}`).replace(/=+$/, "")), "grafana-token"]], (k) => `grafana: curl -H "Authorization: Bearer ${k}" http://grafana:3000/api/dashboards/home`);
  add("Firebase Cloud Messaging server key", [[p("AAAA", rand(7, B64URL), ":APA91b", rand(134, B64URL)), "fcm-server-key"]], (k) => `fcm legacy server key = ${k}`);
  add("Mailchimp API key", [[p(rand(32, HEX), "-us", "14"), "mailchimp-api-key"]], (k) => `const mailchimp = new Mailchimp('${k}');`);
  add("PlanetScale password and token", [[p("pscale", "_pw_", rand(43, B64URL)), "planetscale-token"], [p("pscale", "_tkn_", rand(43, B64URL)), "planetscale-token"]], (a, b) => `DATABASE_URL=mysql://u9x:${a}@aws.connect.psdb.cloud/app\nPSCALE_TOKEN ${b}`);
  add("Replicate, Groq, xAI and Perplexity keys", [[p("r8", "_", rand(37)), "replicate-token"], [p("gs", "k_", rand(52)), "groq-api-key"], [p("xa", "i-", rand(80)), "xai-api-key"], [p("ppl", "x-", rand(48)), "perplexity-api-key"]],
    (a, b, d, e) => `providers:\n- replicate ${a}\n- groq ${b}\n- xai ${d}\n- perplexity ${e}\n`);
  add("LangSmith API key", [[p("lsv2", "_pt_", rand(32, HEX), "_", rand(10, HEX)), "langsmith-api-key"]], (k) => `import os; client = Client(api_url=URL, api_key="${k}")`);
  add("Tailscale auth key", [[p("tskey", "-auth-", rand(17), "-", rand(33)), "tailscale-key"]], (k) => `$ sudo tailscale up --authkey=${k} --advertise-tags=tag:ci`);
  add("Cloudflare tunnel token", [[b64(JSON.stringify({ a: rand(32, HEX), t: uuid(), s: b64(rand(32)) })), "cloudflare-tunnel-token"]], (t) => `$ sudo cloudflared service install ${t}`);
  add("Slack configuration refresh token and legacy workspace token", [[p("xox", "e-1-", rand(140)), "slack-token"], [p("xox", "a-2-", rand(40)), "slack-token"]], (a, b) => `refresh ${a}\nlegacy ${b}`);
  add("GitLab runner registration token in prose", [[p("GR13", "48941", rand(20, B64URL)), "gitlab-token"]], (t) => `gitlab-runner register --url https://gitlab.example.com --registration-token ${t} --executor docker`);
  add("Azure DevOps PAT under a PAT-named variable", [[rand(52, `${LOWER}234567`), "token"]], (t) => `export AZURE_DEVOPS_EXT_PAT=${t}\naz devops configure --defaults organization=https://dev.azure.com/acme`);
  add("Anthropic admin key and OpenAI service-account key in prose", [[p("sk-", "ant-admin01-", rand(93, B64URL), "AA"), "anthropic-api-key"], [p("sk-", "svcacct-", rand(74, B64URL)), "openai-api-key"]], (a, b) => `rotated the admin key ${a} and the svc key ${b} today`);

  // Keys and hashes that are not tokens.
  add("OpenVPN static key", [[`-----BEGIN OpenVPN Static key V1-----\n${Array.from({ length: 16 }, () => rand(32, HEX)).join("\n")}\n-----END OpenVPN Static key V1-----`, "private-key"]], (k) => `<tls-auth>\n${k}\n</tls-auth>\nkey-direction 1`);
  add("SSH2 (RFC 4716) encrypted private key", [[`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20240501"\n${rand(64, B64)}\n${rand(64, B64)}\n${rand(20, B64)}==\n---- END SSH2 ENCRYPTED PRIVATE KEY ----`, "private-key"]], (k) => `$ cat ~/.ssh/legacy.ssh2\n${k}\n`);
  add("WireGuard private and preshared keys", [[`${rand(42, B64)}A=`, "secret"], [`${rand(42, B64)}E=`, "secret"]], (a, b) => `[Interface]\nPrivateKey = ${a}\nAddress = 10.8.0.2/24\n\n[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\nPresharedKey = ${b}\nEndpoint = vpn.example.com:51820\n`);
  add("/etc/shadow entry", [[`$6$${rand(16, `${ALNUM}./`)}$${rand(86, `${ALNUM}./`)}`, "password-hash"]], (h) => `$ sudo cat /etc/shadow | grep deploy\ndeploy:${h}:19700:0:99999:7:::`);
  add("htpasswd file lines (bcrypt and apr1)", [[`$2y$05$${rand(53, `${ALNUM}./`)}`, "password-hash"], [`$apr1$${rand(8, `${ALNUM}./`)}$${rand(22, `${ALNUM}./`)}`, "password-hash"]], (a, b) => `$ cat /etc/nginx/.htpasswd\njane:${a}\nbob:${b}\n`);
  add("bcrypt hash in a seed file", [[`$2b$12$${rand(53, `${ALNUM}./`)}`, "password-hash"]], (h) => `INSERT INTO users (email, password_digest) VALUES ('admin@example.com', '${h}');`);

  // Config shapes.
  add(".netrc with password before login", [[`${rand(10)}.${rand(5)}`, "password"]], (pw) => `machine ftp.example.com password ${pw} login backup\n`);
  add("Java properties with spaces and a word-like password", [[`Harbor.Falcon${rand(2, DIGITS)}`, "password"]], (pw) => `spring.mail.host = smtp.example.com\nspring.mail.password = ${pw}\n`);
  add("YAML password that looks like words with a dot", [[`Velvet.Maple${rand(2, DIGITS)}`, "password"]], (pw) => `smtp:\n  user: alerts\n  password: ${pw}\n  port: 587\n`);
  add("quoted password with spaces under a password key", [[`Tr0ub4dor & ${rand(4)} horse`, "password"]], (pw) => `db:\n  password: "${pw}"\n  host: db.internal\n`);
  add("password in smart quotes", [[`\u201c${rand(14)}\u201d`, "password"]], (pw) => `DB_PASSWORD=${pw}`);
  add("password with non-ASCII letters", [[`P\u00e4ssw\u00f6rt.${rand(6)}`, "password"]], (pw) => `ADMIN_PASSWORD=${pw}\n`);
  add("YAML block scalar under a secret key", [[rand(48, B64), "secret"]], (s) => `webhook:\n  signing_secret: |\n    ${s}\n  url: https://hooks.example.com/in\n`);
  add("JSON array of API keys", [[rand(32, HEX), "api-key"], [rand(32, HEX), "api-key"]], (a, b) => `{"service": "geo", "api_keys": ["${a}", "${b}"], "rotate": true}`);
  add("Dockerfile ENV in the legacy space form", [[rand(36), "token"]], (t) => `FROM node:20\nENV NPM_TOKEN ${t}\nRUN npm ci`);
  add("Hibernate property element", [[`${rand(8)}.${rand(4)}`, "password"]], (pw) => `<property name="hibernate.connection.username">app</property>\n<property name="hibernate.connection.password">${pw}</property>`);
  add("ODBC password in braces with a semicolon", [[`{${rand(6)};${rand(6)}}`, "connection-string-password"]], (pw) => `Driver={ODBC Driver 18 for SQL Server};Server=db;Uid=sa;Pwd=${pw};Encrypt=yes;`);
  add("wpa_supplicant psk", [[rand(20), "password"]], (pw) => `network={\n    ssid="office-5g"\n    psk="${pw}"\n}`);
  add("LDAP bind_pw and DB_PW", [[rand(16), "password"], [`${rand(9)}.${rand(3)}`, "password"]], (a, b) => `ldap:\n  bind_dn: cn=svc,dc=example,dc=com\n  bind_pw: ${a}\nDB_PW=${b}\n`);
  add("PHP variable assignment", [[`${rand(9)}.${rand(4)}`, "password"], [rand(32), "api-key"]], (a, b) => `<?php\n$db_password = '${a}';\n$apiKey = "${b}";\n`);
  add("Perl my $password", [[`${rand(7)}!${rand(4)}`, "password"]], (pw) => `my $password = '${pw}';\nmy $dbh = DBI->connect($dsn, $user, $password);`);
  add("Chef knife.rb secret", [[rand(40, B64), "aws-secret-access-key"]], (k) => `knife[:aws_access_key_id] = "AKIA" + ENV['SUFFIX']\nknife[:aws_secret_access_key] = "${k}"`);
  add("PASS= among several assignments", [[`${rand(8)}.${rand(4)}`, "password"]], (pw) => `USER=backup PASS=${pw} HOST=nas.local ./sync.sh`);
  add("markdown table of credentials", [[`${rand(10)}!`, "password"], [rand(32, HEX), "secret"]], (a, b) => `| Variable | Value |\n|---|---|\n| DB_PASSWORD | ${a} |\n| STRIPE_KEY | ${b} |\n`);
  add("triple-escaped JSON password", [[`${rand(12)}.${rand(2)}`, "password"]], (pw) => `{"log": "{\\"body\\": \\"{\\\\\\"password\\\\\\": \\\\\\"${pw}\\\\\\"}\\"}"}`);

  // Command lines.
  add("gh secret set --body", [[rand(40, B64URL), "secret"]], (s) => `$ gh secret set DEPLOY_KEY --body "${s}" --repo acme/api`);
  add("aws ssm put-parameter SecureString", [[`${rand(10)}.${rand(5)}`, "secret"]], (s) => `$ aws ssm put-parameter --name /prod/db/password --type SecureString --value '${s}' --overwrite`);
  add("echo piped to chpasswd", [[`deploy:${rand(9)}.${rand(3)}`, "password"]], (s) => `$ echo '${s}' | sudo chpasswd`);
  add("printf piped to docker secret create", [[rand(24), "secret"]], (s) => `$ printf '${s}' | docker secret create db_password -`);
  add("openssl passwd", [[`${rand(8)}.${rand(3)}`, "password"]], (pw) => `$ sudo usermod -p "$(openssl passwd -6 '${pw}')" deploy`);
  add("net user and net use on Windows", [[`${rand(10)}!`, "password"], [`${rand(9)}#1`, "password"]], (a, b) => `C:\\> net user svc_backup ${a} /add\nC:\\> net use Z: \\\\files\\share /user:CORP\\svc_backup ${b}`);
  add("xfreerdp /p: and evil-winrm -p", [[`${rand(11)}!`, "password"], [rand(14), "password"]], (a, b) => `$ xfreerdp /v:10.0.0.20 /u:Administrator /p:${a} /cert:ignore\n$ evil-winrm -i 10.0.0.21 -u admin -p ${b}`);
  add("psexec and crackmapexec passwords", [[`${rand(10)}.${rand(2)}`, "password"], [rand(13), "password"]], (a, b) => `PsExec.exe \\\\web01 -u CORP\\ops -p ${a} cmd\nnxc smb 10.0.0.0/24 -u ops -p '${b}' --shares`);
  add("sqlplus user/password@db", [[rand(12), "password"]], (pw) => `$ sqlplus system/${pw}@//db.internal:1521/ORCLPDB1 @migrate.sql`);
  add("lftp -u user,password", [[`${rand(10)}.${rand(3)}`, "password"]], (pw) => `$ lftp -u backup,${pw} sftp://files.example.com -e 'mirror -R dist /www; quit'`);
  add("curl --oauth2-bearer", [[rand(40, B64URL), "token"]], (t) => `$ curl --oauth2-bearer ${t} https://api.example.com/v1/me`);
  add("HTTPie -a user:password", [[`${rand(12)}`, "password"]], (pw) => `$ http -a admin:${pw} POST https://api.example.com/v1/jobs name=reindex`);
  add("poetry config http-basic", [[`${rand(14)}`, "password"]], (pw) => `$ poetry config http-basic.internal ci ${pw}`);
  add("mc alias set (MinIO)", [[rand(20, UPPER + DIGITS), "access-key"], [rand(40, B64), "secret"]], (a, s) => `$ mc alias set prod https://minio.example.com ${a} ${s}`);
  add("aws configure prompts", [[rand(40, B64), "aws-secret-access-key"]], (s) => `$ aws configure --profile ci\nAWS Access Key ID [None]: \nAWS Secret Access Key [None]: ${s}\nDefault region name [None]: eu-west-1`);
  add("setx and setenv", [[rand(32), "api-key"], [rand(30), "token"]], (a, b) => `C:\\> setx OPENAI_API_KEY "${a}"\n% setenv GITHUB_TOKEN ${b}`);
  add("macOS security add-generic-password -w", [[`${rand(10)}.${rand(3)}`, "password"]], (pw) => `$ security add-generic-password -a ci -s deploy-key -w '${pw}' -U`);
  add("nmcli wifi password", [[rand(16), "password"]], (pw) => `$ nmcli dev wifi connect "Office 5G" password ${pw} ifname wlan0`);
  add("rabbitmqctl add_user and change_password", [[rand(18), "password"], [`${rand(8)}.${rand(5)}`, "password"]], (a, b) => `$ rabbitmqctl add_user ci ${a}\n$ rabbitmqctl change_password admin ${b}`);
  add("mosquitto_pub and ipmitool -P", [[rand(15), "password"], [rand(12), "password"]], (a, b) => `$ mosquitto_pub -h mqtt.local -u sensor -P ${a} -t t/1 -m 22\n$ ipmitool -I lanplus -H 10.0.0.50 -U ADMIN -P ${b} power status`);
  add("expect script sending a password", [[`${rand(10)}.${rand(3)}`, "password"]], (pw) => `spawn ssh deploy@10.0.0.9\nexpect "*assword:*"\nsend "${pw}\\r"\ninteract`);
  add("dotnet nuget add source -p", [[rand(36), "password"]], (pw) => `$ dotnet nuget add source https://pkgs.example.com/v3/index.json -n internal -u ci -p ${pw} --store-password-in-clear-text`);
  add("Cookie header with a session id", [[rand(32, B64URL), "cookie"], [rand(40, HEX), "token"]], (a, b) => `curl 'https://app.example.com/api/me' -H 'Cookie: sessionid=${a}; csrftoken=${b}; theme=dark'`);
  add("Set-Cookie with a signed session", [[`s%3A${rand(32, B64URL)}.${rand(43, B64URL)}`, "cookie"]], (s) => `< HTTP/1.1 200 OK\n< Set-Cookie: connect.sid=${s}; Path=/; HttpOnly`);
  add("URL password holding a slash", [[`${rand(6)}/${rand(7)}`, "url-password"]], (pw) => `REDIS_URL=redis://default:${pw}@redis-123.cloud.example.com:6379`);
  add("URL-encoded psql connection in a form body", [[rand(14), "password"]], (pw) => `POST /tools/run HTTP/1.1\n\ncmd=${formEncode(`PGPASSWORD=${pw} psql -h db -U app -c 'select 1'`)}`);
  add("URL-encoded docker login with --password", [[`${rand(10)}!${rand(2)}`, "password"]], (pw) => `/run?c=${encodeURIComponent(`docker login --username ci --password ${pw} ghcr.io`)}`);
  add("base64url of user:password in a Basic header", [[b64(`svc-api:${rand(18)}`), "authorization-header"]], (b) => `{"headers": {"authorization": "Basic ${b}"}}`);

  // Prose.
  add("password for an account named in prose", [[`${rand(9)}!${rand(2)}`, "password"]], (pw) => `The password for the prod admin account is ${pw} until we move to SSO.`);
  add("password changed to a value in prose", [[`${rand(8)}.${rand(4)}`, "password"]], (pw) => `I changed the root password to ${pw} on both hosts.`);
  add("password is set to a value", [[`${rand(12)}`, "password"]], (pw) => `The Grafana admin password is set to ${pw} by the chart.`);
  add("use passphrase without is", [[`${words(4)}`, "password"]], (pw) => `To unlock the backup, use passphrase ${pw}\nthen run restore.`);
  add("credentials are user:password", [[`ops:${rand(10)}.${rand(2)}`, "secret"]], (cr) => `The staging credentials are ${cr} (shared vault is down).`);
  add("pass after a user in prose", [[`${rand(11)}`, "password"]], (pw) => `Log in to the router with user admin, pass ${pw}`);
  add("pw: after a host in a chat message", [[`${rand(8)}.${rand(4)}`, "password"]], (pw) => `jump host 10.0.0.4 user ops pw: ${pw}`);
  add("German Passwort", [[`${rand(9)}.${rand(3)}`, "password"]], (pw) => `Das Passwort ist ${pw} (bitte nicht weitergeben).\nPasswort: ${pw}`);
  add("secret key in a heading", [[rand(40, B64), "secret"]], (s) => `## Secret key: ${s}\n\nRotate quarterly.`);
  add("token after a Slack-style bullet", [[rand(40, B64URL), "token"]], (t) => `• deploy token = ${t}\n• expires in 90 days`);
  add("URL-encoded api_key in a logged request", [[rand(32), "api-key"]], (k) => `GET /proxy?url=${encodeURIComponent(`https://api.example.com/v1/geo?api_key=${k}&q=paris`)} 200`);
  add("secret split by a line continuation", [[rand(40, B64), "secret"]], (s) => `$ heroku config:set \\\n    SESSION_SECRET=${s} \\\n    --app acme-api`);
  // Attacks on the boundaries of a value: wrapped over lines, in a fence, in frontmatter.
  add("token wrapped over two lines inside quotes", [[`${rand(40, B64URL)}\n${rand(24, B64URL)}`, "token"]], (t) => `export API_TOKEN="${t}"\necho ok`);
  add("PGPASSWORD inside a markdown code fence", [[`${rand(6)}.${rand(6)}`, "password"]], (pw) => `## Restore\n\n\`\`\`bash\nexport PGPASSWORD=${pw}\npg_restore -d app dump.bin\n\`\`\`\n`);
  add("frontmatter with a word-and-digits password", [[`Copper.Lake${rand(2, DIGITS)}`, "password"]], (pw) => `---\ntitle: staging db\ndb_password: ${pw}\ntags: [ops]\n---\n# Staging\n`);
  add("the first line of a wrapped quoted token, cut from the rest", [[rand(40, B64URL), "token"]], (t) => `We decided to store it as export API_TOKEN="${t} for now.`);
  add("passphrase in prose followed by more words", [[words(4), "password"]], (pw) => `We decided to store it as: to unlock the backup, use passphrase ${pw} for now.`);
  add("passphrase is … followed by more words", [[words(5), "password"]], (pw) => `The release key passphrase is ${pw} for the 2.x line`);
  return c;
}
