/**
 * Rules for shapes the assignment rules miss (issue 29): passwords on command lines that name no password flag
 * (`openssl enc -k`, `(pass …)` after an ssh command), Oracle thin connection strings (`user/pass@//host:1521/svc`),
 * values split over two lines (a shell `\` continuation, adjacent or concatenated string literals), `0x` private
 * keys, presigned URLs' signatures and session tokens, and wallet seed phrases after their label. Run after the
 * provider formats and before the generic assignments (src/redact/rules.cts).
 */
import { isPassphrase, isPlaceholder, keyKind, looksSecret } from "./judge.cjs";
import { assignment, cliPassword, type Groups, KEY, notPlaceholder, type Rule } from "./syntax.cjs";

/** The key's kind when it names a secret and the value looks like one, as a literal. */
const namedLiteral = (s: string, g: Groups) => {
  const kind = keyKind(g.key ?? "");
  return kind !== null && looksSecret(s, true, kind);
};
/** The rest of a split literal: one run without spaces, slashes or colons (not a URL, a path or a sentence). */
const continued = (s: string) => /^[^\s\/:]{4,512}$/.test(s) && !isPlaceholder(s) && !/^[A-Za-z]+$/.test(s);
/**
 * What joins two string literals, from the closing quote to the opening one: `+`, `..`, `&`, a `\` continuation, a
 * line break, or nothing; quotes and breaks may be JSON-escaped (`\"abc\" \\\n \"def\"` in a stored payload).
 */
const JOIN = String.raw`\\?["'][ \t]*(?:\+|\.\.|&|\\{1,2})?[ \t]*(?:(?:\r?\n|\\n)[ \t]*)?(?:\+[ \t]*)?\\?["']`;
/** A word of a seed phrase (BIP-39 words are 3 to 8 lowercase letters), optionally numbered (`1. abandon`). */
const SEED_WORD = String.raw`(?:\d{1,2}[.):][ \t]*)?(?!(?:the|and|for|are|was|you|not|but|then|than|with|from|this|that)(?![a-z]))[a-z]{3,8}`;
const SEED_SEP = String.raw`(?:[ \t]+|[ \t]*\r?\n[ \t]*)`;
/** 24, 21, 18, 15 or 12 words, the longest first (a sentence may go on after the phrase). */
const SEED = [23, 20, 17, 14, 11].map((n) => String.raw`${SEED_WORD}(?:${SEED_SEP}${SEED_WORD}){${n}}(?![a-z])`).join("|");
/** A mnemonic has 12, 15, 18, 21 or 24 words, none of them a short word of prose. */
export const isSeedPhrase = (s: string) => {
  const words = s.replace(/\d{1,2}[.):]/g, " ").trim().split(/\s+/);
  return words.length % 3 === 0 && words.length >= 12 && words.length <= 24 && words.every((w) => /^[a-z]{3,8}$/.test(w) && !PROSE.has(w));
};
/** Words of prose that no seed phrase list holds in a row with eleven others (a sentence has several). */
const PROSE = new Set(
  ("the and for are was were you your this that with from have has not but can will would should could there their " +
    "they them then than what when which who how why into onto out our its his her she him all any each use used " +
    "see run let get got set new old one two may might must been being here also just only very more most").split(" "),
);

export const MORE_RULES: Rule[] = [
  // `openssl enc -k PASS` (`-kfile` names a file and is kept).
  cliPassword("openssl", "-k"),
  // `ssh admin@host (pass …)`, `ssh root@nas   # password: …`: a password noted after an ssh command.
  {
    kind: "password",
    check: (s, g) => looksSecret(s, g.q !== "" || (s.length >= 6 && /\d/.test(s)), "password"),
    gate: /ssh/,
    re: /(?<![\w-])ssh\b[^\n]{0,256}?[(#,;][ \t]*(?:pass(?:word)?|pw|pwd)[ \t]*[:=]?[ \t]+(?<q>["']?)(?<s>[^\s)"']{1,256})/gi,
  },
  // Oracle: `scott/pass@//host:1521/svc`, `jdbc:oracle:thin:user/pass@host:1521:SID`, `connect u/p@(DESCRIPTION=…)`.
  {
    kind: "password",
    check: (s) => notPlaceholder(s) && s.length >= 3,
    gate: /@/,
    re: /(?<![\w\/.$#-])[A-Za-z][\w$#]{0,127}\/(?<s>[^\s\/@'"]{1,256})(?=@(?:\/\/[\w.-]{1,253}(?::\d{1,5})?\/|[\w.-]{1,253}:\d{1,5}[:\/]|\(DESCRIPTION))/gi,
  },
  // A value continued on the next line with `\`: `DEPLOY_TOKEN=abc\` / `def` (each part replaced, the break kept).
  {
    kind: assignment,
    check: (s, g) => namedLiteral(`${s}${g.next ?? ""}`, g),
    gate: /\\\r?\n/,
    re: new RegExp(String.raw`(?<![\w.$-])(?<key>${KEY})[ \t]*[:=][ \t]*(?<s>[^\s"'\\]{2,1024})(?=\\\r?\n[ \t]*(?<next>[^\s"'\\]{2,1024}))`, "gi"),
  },
  { kind: (g) => g.kind ?? "secret", gate: /\]\\\r?\n/, re: /(?<=\[REDACTED:(?<kind>[\w-]{1,40})\]\\\r?\n[ \t]*)(?<s>[^\s"'\\]{2,1024})/g },
  // `gpg key passphrase "four plain words"`: a quoted passphrase after the word, without `=` or `:`.
  { kind: "password", check: isPassphrase, gate: /phrase/i, re: /(?<![\w-])pass[ -]?phrase[ \t]+(?<q>["'])(?<s>[^"'\r\n]{1,200})(?=\k<q>)/gi },
  // The first of several literals under a secret-named key: `API_KEY = (` / `"abc"` / `"def"`, `#define SECRET "a" \`.
  {
    kind: assignment,
    check: (s, g) => namedLiteral(`${s}${g.next ?? ""}`, g),
    gate: /["']/,
    re: new RegExp(String.raw`(?:#define[ \t]+|(?<![\w.$-]))(?<key>${KEY})(?:[ \t]+|[ \t]*(?::=|=|:)[ \t]*\(?[ \t]*(?:(?:\r?\n|\\n)[ \t]*)?)\\?["'](?<s>[^"'\r\n\\]{1,512})(?=${JOIN}(?<next>[^"'\r\n\\]{1,512})\\?["'])`, "gi"),
  },
  // `#define API_SECRET "…"` (a C macro is an assignment without `=`; also without its `#`, as a tag keeps it).
  { kind: assignment, check: namedLiteral, gate: /define/, re: new RegExp(String.raw`(?<![\w-])#?define[ \t]+(?<key>${KEY})[ \t]+\\?(?:"(?<dq>[^"\\\r\n]{1,1024})(?=\\?")|'(?<sq>[^'\r\n]{1,1024})(?='))`, "gi") },
  // A literal that continues a redacted one: `[REDACTED:token]' + 'def'`, `"[REDACTED:secret]" \` / `"def"`.
  { kind: (g) => g.kind ?? "secret", check: continued, gate: /\[REDACTED:/, re: new RegExp(String.raw`(?<=\[REDACTED:(?<kind>[\w-]{1,40})\]${JOIN})(?<s>[^"'\r\n\\]{1,512})(?=\\?["'])`, "g") },
  { kind: (g) => g.kind ?? "secret", check: continued, gate: /\[REDACTED:/, re: new RegExp(String.raw`(?<=\[REDACTED:(?<kind>[\w-]{1,40})\]${JOIN})(?<s>[^"'\r\n\\]{1,512})(?=\\?["'])`, "g") },
  // A 32-byte hex key under a label that says private or secret (a bare `0x…` of 64 hex digits is a transaction
  // or block hash as often, and is kept), or given to a wallet: `new ethers.Wallet("0x…")`.
  {
    kind: "private-key",
    gate: /0x/,
    re: /(?:priv(?:ate)?|secret|signer|signing|deployer|wallet|mnemonic)[\w .-]{0,24}?(?:key|sk)?\\?["']?[ \t]*(?:[:=]|\(|[ \t])[ \t]*\\?["']?(?<s>0x[0-9a-fA-F]{64})(?![0-9a-fA-F])/gi,
  },
  { kind: "private-key", gate: /Wallet/, re: /Wallet[ \t]*\([ \t]*["'](?<s>(?:0x)?[0-9a-fA-F]{64})(?=["'])/g },
  // Presigned URLs: the signature and the session token are the credential (the access key id has its own rule).
  { kind: "signature", check: (s) => s.length >= 16, gate: /Signature=/i, re: /[?&](?:X-Amz-Signature|X-Goog-Signature|Signature)=(?<s>[\w%~.+\/=-]{16,4096})/gi },
  { kind: "token", check: (s) => s.length >= 16, gate: /Security-Token=/i, re: /[?&]X-Amz-Security-Token=(?<s>[\w%~.+\/=-]{16,8192})/gi },
  // A seed phrase after its label: `seed phrase: …`, `MNEMONIC="…"`, `Secret Recovery Phrase:` and numbered words.
  {
    kind: "seed-phrase",
    check: isSeedPhrase,
    gate: /seed|mnemonic|recovery|phrase|助记词|助記詞|ニーモニック/i,
    re: new RegExp(String.raw`(?:seed(?:[ \t]+phrase|[ \t]+words)?|mnemonic(?:[ \t]+phrase)?|recovery[ \t]+(?:phrase|words)|secret[ \t]+phrase|助记词|助記詞|ニーモニック)\\?["']?[ \t]*[:=：]?[ \t]*\\?["']?[ \t]*(?:\r?\n[ \t]*)?(?<s>${SEED})`, "gi"),
  },
];
