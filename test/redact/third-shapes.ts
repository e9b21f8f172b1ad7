/**
 * A third corpus of secret shapes (issue 29): the classes the second round still stored. Passphrase-like values
 * under lowercase keys (YAML, `.my.cnf`, Spring), passwords on command lines without a password flag, Oracle thin
 * strings and `.pgpass` lines, secrets in prose in ten languages, quoted multi-word passphrases, values split
 * over two lines, the secret column of a markdown table, wallet seed phrases, 2FA recovery codes, `0x` private
 * keys and presigned URLs. Values come from the corpus's seeded generator; each shape is written the way it shows
 * up in a session. Used by third-shapes.test.ts and fed through every channel by third-channels.test.ts.
 */
import { DIGITS, HEX, LOWER, UPPER } from "../helpers/alphabets.js";
import { type Case, rand } from "../helpers/secrets.js";

/** Words for passphrase-like values (`Lantern.Orchid47!`), chosen by the generator. */
const WORDS = (
  "Lantern Orchid Quartz Meadow Copper Window Amber Falcon Maple River Violet Canyon Crimson Harvest Winter Garden " +
  "Ember Stone Pine Valley Frost Island Tundra Rocket Zephyr Nebula Hollow Velvet Coral Mistral Kestrel Cedar Birch " +
  "Lunar Marble Saffron Plum Raven Onyx Hazel Ivory Cobalt Falcon Tulip Nimbus Comet Prism Walrus Sable Jasper"
).split(" ");
/** Lowercase words for seed phrases and multi-word passphrases (written for this corpus). */
const LOWER_WORDS = (
  "anchor bamboo cabin dolphin eagle fabric garlic harbor index jungle kitten ladder magnet napkin oyster pepper " +
  "quiz rabbit saddle tunnel umbrella velvet walnut yellow zebra absorb bridge candle desert empty fossil glove " +
  "hazard immune jacket kidney lemon mirror noble orbit pistol random salmon ticket unfold vessel wagon"
).split(" ");

const pick = (list: readonly string[]) => list[Number(rand(4, DIGITS)) % list.length]!;
const punct = () => pick(["!", "#", "$", "?", "%", "*", "+", "~"]);
/** `Lantern.Orchid47!` and its variations. */
const phrasey = (sep = ".", tail = true) => `${pick(WORDS)}${sep}${pick(WORDS)}${rand(2, DIGITS)}${tail ? punct() : ""}`;
const seedWords = (n: number) => Array.from({ length: n }, () => pick(LOWER_WORDS)).join(" ");
const hex = (n: number) => rand(n, HEX);

export function thirdCases(): Case[] {
  const c: Case[] = [];
  const add = (name: string, secrets: [string, string][], text: (...s: string[]) => string) =>
    c.push({ name, secrets, text: text(...secrets.map(([s]) => s)) });
  const pw = (v: string): [string, string] => [v, "password"];

  // Lowercase secret-named keys whose value reads like words.
  add("YAML datasource password, words and digits", [pw(phrasey())], (p) => `datasource:\n  url: jdbc:postgresql://db:5432/app\n  username: app\n  password: ${p}\n  pool: 10\n`);
  add(".my.cnf client section", [pw(phrasey("."))], (p) => `$ cat ~/.my.cnf\n[client]\nuser=backup\npassword=${p}\nhost=127.0.0.1\n`);
  add(".my.cnf with spaces around =", [pw(phrasey("-"))], (p) => `[mysqldump]\nuser = dumper\npassword = ${p}\n`);
  add("Spring properties datasource password", [pw(phrasey())], (p) => `spring.datasource.url=jdbc:mysql://db:3306/shop\nspring.datasource.username=shop\nspring.datasource.password=${p}\n`);
  add("Spring rabbitmq password with spaces", [pw(phrasey("_"))], (p) => `spring.rabbitmq.host = mq.internal\nspring.rabbitmq.password = ${p}\n`);
  add("Quarkus datasource password", [pw(phrasey("", false))], (p) => `quarkus.datasource.username=quarkus\nquarkus.datasource.password=${p}`);
  add("nested Spring YAML password", [pw(`${pick(WORDS)}-${pick(WORDS)}-${rand(4, DIGITS)}`)], (p) => `spring:\n  datasource:\n    username: svc\n    password: ${p}\n`);
  add("YAML db_pass under a service", [pw(phrasey())], (p) => `services:\n  api:\n    db_pass: ${p}\n    replicas: 2\n`);
  add("smtp_password in a config.yml", [pw(phrasey())], (p) => `mailer:\n  smtp_host: smtp.example.org\n  smtp_password: ${p}\n`);
  add("mail.smtp.pass property", [pw(phrasey())], (p) => `mail.smtp.user=alerts@example.org\nmail.smtp.pass=${p}\n`);
  add("ldap bind password with a colon", [pw(phrasey())], (p) => `ldap.url: ldaps://ldap.corp:636\nldap.bind.password: ${p}\n`);
  add("ini secret under a section", [[phrasey("-"), "secret"]], (p) => `[oauth]\nclient_id = web-portal\nclient_secret = ${p}\n`);

  // Passwords on command lines.
  add("echo piped to sudo -S", [pw(phrasey())], (p) => `$ echo '${p}' | sudo -S apt-get install -y nginx`);
  add("double-quoted echo to sudo -S -k", [pw(`${pick(WORDS)}#${pick(WORDS)}${rand(3, DIGITS)}`)], (p) => `echo "${p}" | sudo -S -k systemctl restart postgresql`);
  add("bare echo to sudo --stdin", [pw(phrasey())], (p) => `ssh web2 'echo ${p} | sudo --stdin reboot'`);
  add("printf to sudo -S", [pw(phrasey())], (p) => `printf '%s\\n' '${p}' | sudo -S -u postgres psql -c 'select 1'`);
  add("openssl enc -k", [pw(phrasey())], (p) => `$ openssl enc -aes-256-cbc -salt -pbkdf2 -in dump.sql -out dump.sql.enc -k ${p}`);
  add("openssl enc -d -pass pass:", [pw(phrasey())], (p) => `openssl enc -d -aes-256-cbc -pbkdf2 -in backup.tgz.enc -pass pass:${p} | tar xz`);
  add("openssl aes shorthand with quoted -k", [pw(`${phrasey()} ${rand(3, DIGITS)}`)], (p) => `openssl aes-128-cbc -in notes.txt -out notes.enc -k "${p}"`);
  add("ssh then (pass …)", [pw(phrasey())], (p) => `ssh admin@10.20.0.7 (pass ${p})`);
  add("ssh then (password: …)", [pw(phrasey())], (p) => `ssh -p 2222 ops@nas.home.arpa (password: ${p})`);
  add("ssh with a trailing pass comment", [pw(phrasey())], (p) => `ssh root@192.168.1.40   # pass ${p}`);

  // Oracle thin strings and .pgpass lines.
  add("Oracle easy connect user/pass@//host", [pw(phrasey())], (p) => `sqlcl scott/${p}@//ora-prod.example.com:1521/ORCLPDB1`);
  add("jdbc:oracle:thin with SID", [pw(phrasey())], (p) => `jdbc.url=jdbc:oracle:thin:app_user/${p}@db-prod:1521:ORCL`);
  add("jdbc:oracle:thin with service", [pw(`${pick(WORDS)}_${pick(WORDS)}${rand(2, DIGITS)}`)], (p) => `"url": "jdbc:oracle:thin:reporting/${p}@//10.0.4.12:1521/REPORTS"`);
  add("ORACLE_CONN env line", [pw(phrasey())], (p) => `ORACLE_CONN=hr/${p}@//ora.internal:1522/HRPDB`);
  add("SQL*Plus connect command", [pw(phrasey())], (p) => `SQL> connect etl/${p}@//dwh.internal:1521/DWH\nConnected.`);
  add(".pgpass line with a words password", [pw(phrasey())], (p) => `db.internal:5432:app:app_rw:${p}`);
  add(".pgpass wildcards", [pw(rand(14))], (p) => `$ cat ~/.pgpass\n*:5432:*:replicator:${p}\n`);
  add(".pgpass after its header comment", [pw(phrasey())], (p) => `# hostname:port:database:username:password\nlocalhost:6432:billing:billing_app:${p}\n`);
  add(".pgpass with an IP and a dashed password", [pw(`${pick(WORDS)}.${pick(WORDS)}-${rand(4, DIGITS)}`)], (p) => `10.0.0.15:5433:analytics:readonly:${p}`);

  // Secrets in prose.
  add("login: user / password", [pw(phrasey())], (p) => `Grafana login: admin / ${p}`);
  add("Login: root / … with a note", [pw(phrasey())], (p) => `Login: root / ${p}  (change after first boot)`);
  add("creds are USER with PASS", [pw(phrasey())], (p) => `fyi the creds are app_rw with ${p} for the replica`);
  add("creds are USER with password PASS", [pw(phrasey())], (p) => `the staging creds are svc_backup with password ${p}`);
  add("wifi pw:", [pw(`${pick(LOWER_WORDS)}${pick(LOWER_WORDS)}${rand(2, DIGITS)}`)], (p) => `office wifi pw: ${p}`);
  add("guest Wi-Fi password is", [pw(phrasey("-"))], (p) => `Guest Wi-Fi password is ${p}, network "Lobby".`);
  add("API key we got from the vendor", [[hex(32), "api-key"]], (k) => `the API key we got from the vendor is ${k}, it expires in May`);
  add("the key the vendor sent", [[rand(28), "api-key"]], (k) => `The key the vendor sent over: ${k}`);
  add("for the box use root / …", [pw(phrasey())], (p) => `for the staging box use root / ${p} until LDAP works`);
  add("creds: user / pass", [pw(phrasey())], (p) => `jenkins creds: deploy / ${p}`);
  add("creds user:pass in a sentence", [[`reporting:${phrasey()}`, "secret"]], (p) => `DB creds are ${p} (read only)`);
  add("the token they gave us", [[rand(36), "token"]], (t) => `the token they gave us is ${t} — keep it out of git`);
  add("admin password for the router:", [pw(phrasey())], (p) => `admin password for the router: ${p}`);
  add("username … password … in one line", [pw(phrasey())], (p) => `vpn username jdoe password ${p}`);

  // Prose in other languages.
  add("German Kennwort lautet", [pw(phrasey())], (p) => `Das Kennwort für den Server lautet ${p}`);
  add("German Passwort:", [pw(phrasey())], (p) => `Passwort: ${p}`);
  add("German Zugangsdaten user / pass", [pw(phrasey())], (p) => `Zugangsdaten: admin / ${p}`);
  add("French mot de passe est", [pw(phrasey())], (p) => `Le mot de passe est ${p}`);
  add("French mot de passe with a spaced colon", [pw(phrasey())], (p) => `mot de passe : ${p}`);
  add("French c'est", [pw(phrasey())], (p) => `Le mot de passe du wifi c'est ${p}`);
  add("Spanish contraseña es", [pw(phrasey())], (p) => `La contraseña es ${p}`);
  add("Spanish contraseña:", [pw(phrasey("-"))], (p) => `usuario: admin\ncontraseña: ${p}`);
  add("Spanish clave del servidor", [pw(phrasey())], (p) => `La clave del servidor es ${p}`);
  add("Chinese 密码 fullwidth colon", [pw(phrasey())], (p) => `服务器密码：${p}`);
  add("Chinese 密码是", [pw(phrasey())], (p) => `数据库密码是 ${p}`);
  add("Chinese 口令", [pw(phrasey())], (p) => `口令: ${p}`);
  add("Japanese パスワード fullwidth colon", [pw(phrasey())], (p) => `パスワード：${p}`);
  add("Japanese パスワードは … です", [pw(phrasey())], (p) => `管理画面のパスワードは ${p} です`);
  add("Russian пароль:", [pw(phrasey())], (p) => `логин admin, пароль: ${p}`);
  add("Russian Пароль — ", [pw(phrasey())], (p) => `Пароль от сервера — ${p}`);
  add("Italian la password è", [pw(phrasey())], (p) => `La password è ${p}`);
  add("Portuguese senha:", [pw(phrasey())], (p) => `senha: ${p}`);
  add("Portuguese a senha do banco é", [pw(phrasey())], (p) => `A senha do banco é ${p}`);
  add("Dutch wachtwoord:", [pw(phrasey())], (p) => `wachtwoord: ${p}`);
  add("Dutch het wachtwoord is", [pw(phrasey())], (p) => `Het wachtwoord is ${p}`);
  add("Polish hasło", [pw(phrasey())], (p) => `hasło do bazy: ${p}`);

  // Quoted multi-word passphrases.
  add("wpa psk in quotes with spaces", [pw(seedWords(4))], (p) => `network={\n  ssid="attic"\n  psk="${p}"\n}`);
  add("passphrase then a quoted phrase", [pw(seedWords(4))], (p) => `gpg key passphrase "${p}"`);
  add("--passphrase with single quotes", [pw(seedWords(4))], (p) => `gpg --batch --pinentry-mode loopback --passphrase '${p}' -d secrets.gpg`);
  add("key_passphrase in YAML quotes", [pw(seedWords(5))], (p) => `signing:\n  key_passphrase: "${p}"\n`);
  add("JSON psk with spaces", [pw(seedWords(4))], (p) => `{"ssid": "barn", "psk": "${p}"}`);
  add("hostapd wpa_passphrase", [pw(seedWords(4))], (p) => `interface=wlan0\nwpa_passphrase=${p}\n`);

  // Values split over two lines.
  add("token split by a shell continuation", [[rand(20), "token"], [rand(20), "token"]], (a, b) => `export DEPLOY_TOKEN=${a}\\\n${b}\nnpm run deploy`);
  add("mysql password flag on the continued line", [pw(phrasey())], (p) => `mysql -h db.internal -u root \\\n  -p'${p}' shop < dump.sql`);
  add("Python adjacent string literals", [[rand(16), "api-key"], [rand(16), "api-key"]], (a, b) => `API_KEY = (\n    "${a}"\n    "${b}"\n)`);
  add("JavaScript concatenated literals", [[rand(14), "token"], [rand(14), "token"]], (a, b) => `const token = '${a}' + '${b}';`);
  add("C adjacent literals over a continuation", [[hex(16), "secret"], [hex(16), "secret"]], (a, b) => `#define API_SECRET "${a}" \\\n                   "${b}"`);
  add("Java concatenation on two lines", [[rand(12), "password"], [rand(12), "password"]], (a, b) => `String dbPassword = "${a}" +\n    "${b}";`);

  // The secret column of a markdown table.
  add("markdown table with a password column", [pw(phrasey()), pw(phrasey())], (a, b) => `| service | user | password |\n|---|---|---|\n| grafana | admin | ${a} |\n| jenkins | ci | ${b} |\n`);
  add("markdown table with an API Key column", [[hex(32), "api-key"]], (k) => `| Env | API Key |\n|-----|---------|\n| prod | ${k} |\n| dev | (ask Sam) |\n`);
  add("markdown table token in the middle column", [[rand(30), "token"]], (t) => `| Host | Token | Notes |\n| :--- | :---: | ---: |\n| ci-runner-3 | \`${t}\` | rotates monthly |\n`);
  add("markdown table Secret column", [[rand(24), "secret"], [rand(24), "secret"]], (a, b) => `|Account|Secret|Expires|\n|-|-|-|\n|billing|${a}|2027-01|\n|search|${b}|2026-12|`);
  add("markdown table with a German Passwort column", [pw(phrasey())], (p) => `| Benutzer | Passwort |\n|---|---|\n| root | ${p} |`);

  // Wallet seed phrases.
  add("seed phrase after a label", [[seedWords(12), "seed-phrase"]], (s) => `wallet seed phrase: ${s}`);
  add("mnemonic in an env file", [[seedWords(12), "seed-phrase"]], (s) => `MNEMONIC="${s}"\nRPC_URL=https://rpc.example.org`);
  const numbered = seedWords(24).split(" ").map((w, i) => `${i + 1}. ${w}`).join("\n");
  add("24 recovery words numbered", [[numbered, "seed-phrase"]], (s) => `Secret Recovery Phrase:\n${s}`);
  add("bare 12 words on their own line", [[seedWords(12), "seed-phrase"]], (s) => `backup of the ledger:\n${s}\n`);
  add("hardhat config mnemonic", [[seedWords(12), "seed-phrase"]], (s) => `networks: { sepolia: { accounts: { mnemonic: "${s}" } } }`);
  add("Chinese 助记词", [[seedWords(12), "seed-phrase"]], (s) => `助记词：${s}`);

  // 2FA recovery codes.
  const code4 = () => `${rand(4, LOWER + DIGITS)}-${rand(4, LOWER + DIGITS)}`;
  const code5 = () => `${rand(5, DIGITS)}-${rand(5, DIGITS)}`;
  const codes = (f: () => string, n: number) => Array.from({ length: n }, f);
  const rc1 = codes(code4, 6);
  add("recovery codes as a list", rc1.map((x) => [x, "recovery-code"]), (...x) => `GitHub recovery codes:\n${x.map((v) => `  ${v}`).join("\n")}\n`);
  const rc2 = codes(code5, 5);
  add("backup codes on one line", rc2.map((x) => [x, "recovery-code"]), (...x) => `backup codes: ${x.join(" ")}`);
  const rc3 = codes(() => `${rand(5, HEX)}-${rand(5, HEX)}`, 4);
  add("recovery codes in a bullet list", rc3.map((x) => [x, "recovery-code"]), (...x) => `Saved the 2FA recovery codes:\n${x.map((v) => `- ${v}`).join("\n")}`);
  const rc4 = codes(() => rand(8, DIGITS), 5);
  add("8-digit backup codes", rc4.map((x) => [x, "recovery-code"]), (...x) => `Google backup codes\n${x.join("\n")}`);

  // 0x private keys.
  add("PRIVATE_KEY=0x…", [[`0x${hex(64)}`, "private-key"]], (k) => `PRIVATE_KEY=${k}\nRPC=https://eth.example.org`);
  add("private key: 0x… in prose", [[`0x${hex(64)}`, "private-key"]], (k) => `deployer private key: ${k}`);
  add("ethers Wallet constructor", [[`0x${hex(64)}`, "private-key"]], (k) => `const wallet = new ethers.Wallet("${k}", provider);`);
  add("cast --private-key", [[`0x${hex(64)}`, "private-key"]], (k) => `cast send 0x${hex(40)} "mint()" --private-key ${k} --rpc-url $RPC`);
  add("signer key in JSON", [[`0x${hex(64)}`, "private-key"]], (k) => `{"signerKey": "${k}", "chainId": 11155111}`);

  // Presigned URLs.
  const amzDate = `2026${rand(4, DIGITS)}T${rand(6, DIGITS)}Z`;
  add(
    "presigned S3 URL",
    [[hex(64), "signature"], [`AKIA${rand(16, UPPER + DIGITS)}`, "aws-access-key-id"]],
    (s, id) => `curl -o build.zip "https://artifacts.s3.amazonaws.com/build.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${id}%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=${amzDate}&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${s}"`,
  );
  add(
    "presigned URL with a session token",
    [[hex(64), "signature"], [`IQoJb3JpZ2luX2Vj${rand(80)}`, "token"], [`ASIA${rand(16, UPPER + DIGITS)}`, "aws-access-key-id"]],
    (s, t, id) => `https://uploads.s3.eu-west-1.amazonaws.com/in/a.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${id}%2F20260301%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Security-Token=${encodeURIComponent(t)}&X-Amz-Signature=${s}`,
  );
  add("X-Amz-Signature alone in a log", [[hex(64), "signature"]], (s) => `GET /reports/q3.pdf?X-Amz-Expires=900&X-Amz-Signature=${s} 200 12ms`);
  add("Google Cloud signed URL", [[hex(128), "signature"]], (s) => `https://storage.googleapis.com/bkt/obj.tar?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Expires=600&X-Goog-Signature=${s}`);
  return c;
}

/** Strings that must come out byte for byte: public keys and hashes near the new classes. */
export const THIRD_SURVIVE: string[] = [
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq3kP9zXw2vN8LmT4rY6bH1sD0fJ7cA5eU2iO9pQxZk deploy@build-01",
  "# ~/.ssh/authorized_keys\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb2Qw9xR4tLm8Kd3Zp7Yc1Vn6Ue0Sj5Ha2Gf9Eo3Ib7 jane@laptop\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7x9Lm2Kq8Tz4Wd1Vb6Nc3Xe5Rf7Yg9Uh0Ij2Ok4Pl6 ops@bastion",
  'command="/usr/bin/rrsync -ro /srv",no-pty ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq3kP9zXw2vN8LmT4rY6bH1sD0fJ7cA5eU2iO9pQxZk backup',
  "DEPLOY_KEY=ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq3kP9zXw2vN8LmT4rY6bH1sD0fJ7cA5eU2iO9pQxZk ci@acme",
  'authorized_keys: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq3kP9zXw2vN8LmT4rY6bH1sD0fJ7cA5eU2iO9pQxZk me@x"',
  "ssh_pub_key: ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEx4mPle7Kd9Rw2Tq5Zn8Vb1Yc3Uf6Ho0Lj4Gs7Xa2 admin@router",
  "key: sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAIK9x2mT4vQ8bN1rL5pZ7cW3yH6dF0sJ4gA2eU9iO1kX8 yubikey",
  "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE9x2mT4vQ8bN1rL5pZ7cW3yH6dF0sJ4gA2eU9iO1kX8Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz1Xc3Vb5Nm7Q==\n-----END PUBLIC KEY-----",
  "public_key = \"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQDx7Lm2Kq8Tz4Wd1Vb6Nc3Xe5Rf7Yg9Uh0Ij2Ok4Pl6 terraform\"",
  "tx 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 confirmed in block 18923611",
  "sha256: 3f79bb7b435b05321651daefd374cdc681dc06faa65e374e38337b88ca046dea",
  "Merkle root 0x9c22ff5f21f0b81b113e63f7db6da94fedef11b2119b4088b89664fb9a3cb658 matches",
  "We keep 2FA recovery codes in the shared vault; print them from there.",
  "npm run build && npm test && git push origin main --follow-tags --quiet",
  "| Name | Type | Description |\n|---|---|---|\n| password | string | The user's password, never logged |\n| token | string | Session token from /login |",
  "| Key | Default |\n|---|---|\n| cache_ttl | 3600 |\n| max_tokens | 4096 |",
  "Das Passwort muss mindestens 12 Zeichen lang sein.",
  "Le mot de passe est incorrect, réessayez.",
  "La contraseña es obligatoria.",
  "密码错误，请重试。",
  "ssh deploy@web-01 'sudo systemctl restart app'",
  "openssl enc -aes-256-cbc -in a -out b -kfile /run/secrets/backup.key",
  "echo $PASSWORD | sudo -S true",
  "postgres://app@db:5432/app?sslmode=require",
  "jdbc:oracle:thin:@//db.internal:1521/ORCLPDB1",
  "https://bucket.s3.amazonaws.com/file.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-SignedHeaders=host",
  "A seed phrase is 12 or 24 words; never paste yours into a chat.",
  "the login is admin / see the vault",
];
