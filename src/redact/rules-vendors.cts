/**
 * More provider token formats, in one pattern (one pass over the text whatever their number): each alternative is
 * a named group whose name gives the kind. Then key material that is not a PEM private key (an OpenVPN static
 * key, an RFC 4716 SSH2 key) and password hashes (`/etc/shadow`, `.htpasswd`, bcrypt, argon2), which can be
 * cracked offline and so are kept no more than the passwords themselves. Run with the first provider formats
 * (src/redact/rules.cts), before the assignments.
 */
import type { Groups, Rule } from "./syntax.cjs";

/** [kind, pattern]; each pattern starts with a literal. The group of an alternative is its kind without dashes. */
const VENDORS: [string, string][] = [
  ["pulumi-token", String.raw`pul-[a-f0-9]{40}`],
  ["docker-hub-token", String.raw`dckr_(?:pat|oat)_[\w-]{24,64}`],
  ["atlassian-token", String.raw`AT(?:ATT|CTT)3[\w=-]{150,300}|ATBB[A-Za-z0-9]{32,40}`],
  ["newrelic-key", String.raw`NR(?:AK|JS|II|AA)-[A-Za-z0-9]{19,32}`],
  ["heroku-token", String.raw`HRKU-[\w-]{20,80}`],
  ["fly-token", String.raw`(?:FlyV1[ \t]+)?fm[12][a-z]?_[A-Za-z0-9+\/=_-]{50,4096}`],
  ["netlify-token", String.raw`nfp_[A-Za-z0-9]{36,40}`],
  ["render-token", String.raw`rnd_[A-Za-z0-9]{32,40}`],
  ["mapbox-token", String.raw`sk\.eyJ[\w-]{10,512}\.[\w-]{16,128}`],
  ["airtable-token", String.raw`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}`],
  ["square-token", String.raw`EAAA[\w-]{60}|sq0(?:atp|csp|idp)-[\w-]{22,64}`],
  ["braintree-token", String.raw`access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}`],
  ["alibaba-access-key-id", String.raw`LTAI[A-Za-z0-9]{12,24}`],
  ["tencent-secret-id", String.raw`AKID[A-Za-z0-9]{32,40}`],
  ["contentful-token", String.raw`CFPAT-[\w-]{43}`],
  ["typeform-token", String.raw`tfp_[\w-]{40,64}`],
  ["buildkite-token", String.raw`bkua_[a-f0-9]{40}`],
  ["circleci-token", String.raw`CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}`],
  ["prefect-token", String.raw`pnu_[A-Za-z0-9]{36}`],
  ["sourcegraph-token", String.raw`sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}`],
  ["onepassword-token", String.raw`ops_eyJ[A-Za-z0-9+\/=_-]{100,8192}`],
  ["grafana-token", String.raw`eyJrIjoi[A-Za-z0-9+\/]{40,400}={0,2}`],
  ["fcm-server-key", String.raw`AAAA[\w-]{7}:APA91b[\w-]{100,256}`],
  ["planetscale-token", String.raw`pscale_(?:tkn|pw|oauth)_[\w.-]{32,64}`],
  ["replicate-token", String.raw`r8_[A-Za-z0-9]{37}`],
  ["groq-api-key", String.raw`gsk_[A-Za-z0-9]{52}`],
  ["xai-api-key", String.raw`xai-[A-Za-z0-9]{80}`],
  ["perplexity-api-key", String.raw`pplx-[A-Za-z0-9]{48}`],
  ["langsmith-api-key", String.raw`lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}`],
  ["tailscale-key", String.raw`tskey-(?:auth|api|client|scim|webhook)-[\w-]{20,128}`],
  // A Cloudflare tunnel token: base64 of `{"a":"<account>","t":"<tunnel>","s":"<secret>"}`.
  ["cloudflare-tunnel-token", String.raw`eyJhIjoi[A-Za-z0-9+\/]{60,1024}={0,2}`],
  ["gitlab-token", String.raw`GR1348941[\w-]{20,64}`],
];

const VENDOR_RE = new RegExp(String.raw`(?<![\w-])(?:${VENDORS.map(([kind, re]) => `(?<${kind.replace(/-/g, "")}>${re})`).join("|")})(?![\w-])`, "g");
const vendorKind = (g: Groups) => VENDORS.find(([kind]) => g[kind.replace(/-/g, "")] !== undefined)?.[0] ?? "secret";

/** Characters of crypt(3) hashes. */
const C = "[./A-Za-z0-9]";

export const VENDOR_RULES: Rule[] = [
  { kind: vendorKind, re: VENDOR_RE },
  // Kept out of the pattern above: an alternative starting with a character class slows every other one.
  { kind: "mailchimp-api-key", gate: /-us\d/, re: /(?<![\w-])[a-f0-9]{32}-us\d{1,2}(?![\w-])/g },
  // Key blocks that are not `PRIVATE KEY`: OpenVPN static keys, RFC 4716 (`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`).
  { kind: "private-key", gate: /BEGIN/, re: /-----BEGIN OpenVPN Static key V\d-----[\s\S]*?(?:-----END OpenVPN Static key V\d-----|$(?![\s\S]))/g },
  { kind: "private-key", gate: /BEGIN/, re: /---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----[\s\S]*?(?:---- END SSH2 (?:ENCRYPTED )?PRIVATE KEY ----|$(?![\s\S]))/g },
  // Password hashes: md5-crypt, apr1, sha256/512-crypt, bcrypt, yescrypt, argon2, scrypt and PBKDF2 in PHC form.
  {
    kind: "password-hash",
    gate: /\$/,
    re: new RegExp(
      String.raw`(?<![\w$])(?:\$(?:1|5|6|apr1)\$(?:rounds=\d{1,9}\$)?${C}{1,16}\$${C}{22,86}|\$2[abxy]?\$\d{2}\$${C}{53}|\$(?:y|gy|7)\$${C}{1,64}\$${C}{1,64}\$${C}{22,86}|\$(?:argon2(?:id|i|d)|scrypt|pbkdf2(?:-sha\d{1,3})?)\$[\w=,$+\/.-]{20,512})(?![./A-Za-z0-9])`,
      "g",
    ),
  },
];
