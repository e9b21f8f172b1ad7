/**
 * Secrets named in a sentence in more words than "the password is …" (src/redact/rules-context.cts): "the
 * password for the prod admin account is …", "I changed the root password to …", "is set to …", "use
 * passphrase …", "the credentials are user:…", "user admin, pass …", "Das Passwort ist …", and a label of
 * several words before a colon ("Secret key: …", "API token: …"). A bare value must look random; a quoted one
 * may be a plain word.
 */
import { isPassphrase, keyKind, looksSecret } from "./judge.cjs";
import { type Groups, PHRASE, type Rule } from "./syntax.cjs";

/** The value after the words: optionally quoted, trailing sentence punctuation left out. */
const VALUE = String.raw`(?<q>["'\x60\u201c]?)(?<s>[^\s"'\x60\u201d]{1,256}?)(?=[.,;:)]*(?:["'\x60\u201d]|\s|$))`;
const PASSWORD = String.raw`(?:pass(?:word|wd|wort|phrase)|pwd|passcode|kennwort|mot[ \t]+de[ \t]+passe)`;
const IS = String.raw`(?:is|was|are|were|ist|war|est|es)(?:[ \t]+(?:now|still|currently))?(?:[ \t]+(?:set|changed|reset|updated)[ \t]+to)?`;
/** Texts that name a password at all (a cheap literal scan before the patterns). */
const PASSWORD_GATE = /[Pp](?:ass|ASS|wd|WD)|[Kk]ennwort/;
const proseSecret = (kind: string) => (s: string, g: Groups) => looksSecret(s, g.q !== "" || (s.length >= 8 && /\d/.test(s) && /[A-Za-z]/.test(s)), kind);

/** A label of words as a key: `Secret key` → `Secret_key`. */
const label = (g: Groups) => `${g.label ?? ""}${g.kw ?? ""}`.replace(/[ \t]+/g, "_");

export const PROSE_RULES: Rule[] = [
  // "the password for the prod admin account is …", "Das Passwort ist …", "is set to …".
  { kind: "password", check: proseSecret("password"), group: PASSWORD_GATE, re: new RegExp(String.raw`(?<![\w-])${PASSWORD}(?:[ \t]+(?:for|of|on|to)[ \t]+[^\n.,;:!?"']{1,60}?)?[ \t]+${IS}[ \t]*:?[ \t]+${VALUE}`, "gi") },
  // "the staging credentials are ops:…", "the deploy token was …".
  { kind: (g) => (/cred/i.test(g.what ?? "") ? "secret" : "token"), check: proseSecret("secret"), gate: /cred|token/i, re: new RegExp(String.raw`(?<![\w-])(?<what>credentials|creds|(?:access|auth|deploy|bot|api)[ \t]+token)[ \t]+${IS}[ \t]*:?[ \t]+${VALUE}`, "gi") },
  // "I changed the root password to …", "reset the password to …".
  { kind: "password", check: proseSecret("password"), group: PASSWORD_GATE, re: new RegExp(String.raw`(?<![\w-])${PASSWORD}[ \t]+(?:(?:has[ \t]+been|got|was)[ \t]+)?(?:(?:changed|set|reset|updated|rotated)[ \t]+)?to[ \t]*:?[ \t]+${VALUE}`, "gi") },
  // "use passphrase correct horse battery staple": a passphrase of words to the end of the line or sentence.
  { kind: "password", check: (s) => isPassphrase(s), gate: /phrase/i, re: new RegExp(String.raw`(?<![\w-])(?:use|using|with|enter|type)[ \t]+(?:the[ \t]+)?(?:[\w-]{1,20}[ \t]+)?pass[ -]?phrase[ \t]+${PHRASE}`, "gi") },
  { kind: "password", check: proseSecret("password"), group: PASSWORD_GATE, re: new RegExp(String.raw`(?<![\w-])(?:use|using|with|enter|type)[ \t]+(?:the[ \t]+)?(?:[\w-]{1,20}[ \t]+)?pass(?:word|wd)[ \t]+${VALUE}`, "gi") },
  // "user admin, pass …", "login ops / pw …".
  { kind: "password", check: proseSecret("password"), group: /pass|pw/i, gate: /user|login/i, re: new RegExp(String.raw`(?<![\w-])(?:user(?:name)?|login)[ \t:=]+[^\s,;/]{1,64}[ \t]*[,;/]?[ \t]+(?:pass|pw|pwd)[ \t:=]+${VALUE}`, "gi") },
  // "Secret key: …", "API token - …": a label of two or three words naming a secret, then a colon.
  {
    kind: (g) => keyKind(label(g)) ?? "secret",
    check: (s, g) => keyKind(label(g)) !== null && proseSecret("secret")(s, g),
    gate: /(?:key|token|secret|password|passphrase|credentials?)[ \t]*:/i,
    re: new RegExp(String.raw`(?<kw>key|token|secret|password|passphrase|credentials?)[ \t]*:[ \t]+(?<=(?<![\w-])(?<label>(?:[A-Za-z][\w-]{1,20}[ \t]+){1,2})\k<kw>[ \t]*:[ \t]+)${VALUE}`, "gi"),
  },
];
