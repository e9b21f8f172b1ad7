/**
 * Secrets named in prose in other words and other languages (issue 29), after the English prose rules
 * (src/redact/rules-prose.cts): a password word of ten languages as a label (`Passwort: …`, `mot de passe : …`,
 * `密码：…`, `пароль: …`) or before a verb (`Das Kennwort lautet …`, `La contraseña es …`, `数据库密码是 …`,
 * `パスワードは … です`), a user and a password after a slash (`login: admin / …`, `use root / …`), "the creds
 * are USER with …", and a secret named several words before its value ("the API key we got from the vendor is
 * …", "the key the vendor sent over: …"). A bare value must be written like a password (eight or more characters
 * with letters and digits); a quoted one may be a plain word.
 */
import { looksRandom, looksSecret } from "./judge.cjs";
import type { Groups, Rule } from "./syntax.cjs";

/** Password words (not `pass` or `pwd` alone: "the prior pass", Go's `Pwd:` field; passphrases are in rules-prose.cts). */
const PW = String.raw`(?:pass(?:word|wd|wort)|pw|passcode|kennwort|mot[ \t]+de[ \t]+passe|contrase(?:ñ|n)a|clave|senha|wachtwoord|has(?:ł|l)o|l(?:ö|o)senord|adgangskode|salasana|heslo|(?:ş|s)ifre|пароль|парол(?:я|ем)|密码|密碼|口令|パスワード|暗証番号|비밀번호|parola[ \t]+d'ordine)`;
/** Words that name any secret: the password words, keys, tokens, credentials. */
const SECRET = String.raw`(?:${PW}|api[ \t-]?key|key|token|secret|creds|credentials)`;
/** Verbs that put a value after a secret's name: "is", "lautet", "est", "c'est", "es", "è", "é", "is", "är", "—". */
const IS = String.raw`(?:is|was|are|ist|lautet|war|est|c['\u2019]est|es|era|è|é|är|er|jest|[\u2014\u2013=-])`;
/** The value: optionally quoted, sentence punctuation after it left out. */
const VALUE = String.raw`(?<q>["'\x60\u201c\u00ab\u300c]?)(?<s>[^\s"'\x60\u201d\u00bb\u300d]{1,256}?)(?=[.,;:)\u3002\uff0c]*(?:["'\x60\u201d\u00bb\u300d]|\s|$|\u3002|\uff0c|です))`;

/** Letters and digits mixed, eight characters or more (a quoted value may be a word): written like a password. */
const written = (kind: string) => (s: string, g: Groups) => {
  if (g.q !== "" && g.q !== "\x60") return looksSecret(s, true, kind); // in backticks it is code, not a quote
  if (s.length < 8 || !/\d/.test(s) || !/[A-Za-z\u00c0-\u024f]/.test(s) || /^v?\d+(?:\.\d+)+/.test(s) || /[(){}\[\]<>;]/.test(s)) return false;
  // A reference in code (`settings.Database.Password2`) is judged as code; `Lantern.Orchid47!` is not one.
  const code = CODE_REF.test(s) && !/^[A-Z][a-z]+\.[A-Za-z][a-z]+\d{1,4}[!?$]?$/.test(s);
  return looksSecret(s, !code, kind);
};
const CODE_REF = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+[!?]?$/;

/** A cheap scan: a text naming no password or secret word skips these rules. */
const GATE = /pass|pw|wort|passe|contrase|clave|senha|wachtwoord|has[łl]o|senord|kode|salasana|heslo|ifre|пароль|парол|密|口令|パスワード|暗証|비밀|key|token|secret|cred|login|user|benutzer|usuario|utilisateur|zugang|identifiant|логин|[ \t]\/[ \t]/i;

const RULES: Rule[] = [
  // `Passwort: …`, `mot de passe : …`, `密码：…`, `wifi pw: …`, `hasło do bazy: …`, `admin password for the router: …`
  // (not go test's `--- PASS: TestX1`).
  {
    kind: "password",
    check: written("password"),
    re: new RegExp(String.raw`(?<![\w-])(?<!-{3}[ \t])${PW}(?:[ \t]+[^\s:\uff1a=\x60"']{1,24}){0,4}?[ \t]*[:\uff1a=][ \t]*${VALUE}`, "gi"),
  },
  // `Das Kennwort für den Server lautet …`, `La contraseña es …`, `Пароль от сервера — …`, `Le mot de passe du wifi c'est …`.
  {
    kind: "password",
    check: written("password"),
    re: new RegExp(String.raw`(?<![\w-])${PW}(?:[ \t]+[^\s:\uff1a\x60"']{1,24}){0,4}?[ \t]+${IS}[ \t]*:?[ \t]+${VALUE}`, "gi"),
  },
  // Chinese and Japanese, no spaces between words: `数据库密码是 …`, `密码为…`, `パスワードは … です`.
  { kind: "password", check: written("password"), re: new RegExp(String.raw`(?:密码|密碼|口令|パスワード|暗証番号|비밀번호)[^\s:\uff1a\u3002]{0,10}?(?:是|为|為|は|는|은)[ \t]*${VALUE}`, "g") },
  // `login: admin / …`, `Zugangsdaten: root / …`, `creds: deploy / …`, `use root / …`, `user admin password …`.
  {
    kind: "password",
    check: written("password"),
    re: new RegExp(String.raw`(?<![\w-])(?:login|logon|user(?:name)?|benutzer(?:name)?|usuario|utilisateur|identifiants?|zugangsdaten|creds|credentials|account|логин|use|using)[ \t]*[:\uff1a=]?[ \t]+[^\s/,;:\x60"']{1,64}(?:[ \t]+\/[ \t]+|[ \t]*[,;]?[ \t]+${PW}[ \t]*[:=\uff1a]?[ \t]*)${VALUE}`, "gi"),
  },
  // "the creds are app_rw with …", "credentials are svc with password …".
  {
    kind: "password",
    check: written("password"),
    re: new RegExp(String.raw`(?<![\w-])(?:creds|credentials|login)[ \t]+(?:are|is|were|was)[ \t]+[^\s,;:]{1,64}[ \t]+(?:with|and|,|\/)[ \t]+(?:(?:the[ \t]+)?${PW}[ \t]+)?${VALUE}`, "gi"),
  },
  // "the API key we got from the vendor is …", "the token they gave us is …", "The key the vendor sent over: …"
  // (a bare value must look random here: "Key functions: `register/2`" is not one).
  {
    kind: (g) => (/key/i.test(g.what ?? "") ? "api-key" : /token/i.test(g.what ?? "") ? "token" : "secret"),
    check: (s, g) => written("secret")(s, g) && (/^["'\u201c\u00ab\u300c]$/.test(g.q ?? "") || looksRandom(s)),
    re: new RegExp(String.raw`(?<![\w-])(?<what>${SECRET})(?:[ \t]+[^\s:\uff1a.,;!?"'\x60]{1,24}){1,6}?(?:[ \t]+${IS}[ \t]*:?|[ \t]*[:\uff1a])[ \t]+${VALUE}`, "gi"),
  },
];

export const LANG_RULES: Rule[] = RULES.map((rule) => ({ ...rule, group: GATE }));
