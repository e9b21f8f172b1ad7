/**
 * Secrets known by the block of lines they sit in, not by a pattern of one line (issue 29): the cells of a
 * markdown table's secret column (a header named password, secret, token, API key, Passwort, …), the codes listed
 * after "recovery codes" or "backup codes", and a line that is nothing but a seed phrase (12 to 24 short lowercase
 * words, none of them a word of prose). Pure; returns the spans to replace, which redact.cts applies after the
 * line rules. Linear: each line is looked at a bounded number of times.
 */
import { keyKind, looksSecret } from "./judge.cjs";
import { isSeedPhrase } from "./rules-more.cjs";

export interface Span {
  start: number;
  end: number;
  kind: string;
}

const MARK = "[REDACTED:";
/** Header words of other languages that name a password column. */
const PASSWORD_HEADER = /^(?:passwort|kennwort|mot de passe|contrase(?:ñ|n)a|clave|senha|wachtwoord|has(?:ł|l)o|пароль|密码|密碼|口令|パスワード|pw|pwd|pass)$/i;

interface Line {
  text: string;
  at: number;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let at = 0;
  for (const t of text.split("\n")) {
    out.push({ text: t, at });
    at += t.length + 1;
  }
  return out;
}

/**
 * The cells of a table row with their offsets in the line. `edges` (from the separator row) says whether the table
 * opens and closes its rows with `|`; then text before the first `|` (a prefix the row was quoted with) is not a cell.
 */
function cells(line: string, edges: { lead: boolean; trail: boolean }): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let start = 0;
  for (let i = 0; i <= line.length; i++) {
    if (i === line.length || (line[i] === "|" && line[i - 1] !== "\\")) {
      out.push({ text: line.slice(start, i), at: start });
      start = i + 1;
    }
  }
  if (edges.lead || /^\s*\|/.test(line)) out.shift();
  if (edges.trail || /\|\s*$/.test(line)) out.pop();
  return out;
}

const SEPARATOR = /^\s*\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)+\|?\s*$/;

/** The kind a table header names, or null: `Password`, `API Key`, `Token`, `Secret`, `Passwort`. */
function headerKind(cell: string): string | null {
  const name = cell.replace(/[*_\x60]/g, "").trim();
  if (name === "" || name.length > 40) return null;
  if (PASSWORD_HEADER.test(name)) return "password";
  return keyKind(name.replace(/\s+/g, "_"));
}

function tableSpans(lines: Line[], out: Span[]): void {
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = lines[i]!.text;
    if (!head.includes("|") || !SEPARATOR.test(lines[i + 1]!.text)) continue;
    const sep = lines[i + 1]!.text;
    const edges = { lead: /^\s*\|/.test(sep), trail: /\|\s*$/.test(sep) };
    const secret = cells(head, edges).map((c) => headerKind(c.text));
    if (!secret.some((k) => k !== null)) continue;
    let j = i + 2;
    for (; j < lines.length && lines[j]!.text.includes("|"); j++) {
      const row = cells(lines[j]!.text, edges);
      for (const [col, kind] of secret.entries()) {
        const cell = row[col];
        if (kind === null || cell === undefined) continue;
        const lead = /^[\s\x60*]*/.exec(cell.text)![0].length;
        const value = cell.text.slice(lead).replace(/[\s\x60*]*$/, "");
        if (value === "" || value.includes(MARK) || !looksSecret(value, true, kind)) continue;
        const start = lines[j]!.at + cell.at + lead;
        out.push({ start, end: start + value.length, kind });
      }
    }
    i = j - 1;
  }
}

const CODES_LABEL = /(?:recovery|backup|2fa|mfa|two-factor|emergency|one-time|scratch)[ \t-]*codes?|wiederherstellungscodes|codes? de (?:secours|r[ée]cup[ée]ration)|c[óo]digos de (?:recuperaci[óo]n|respaldo)|恢复码|备用码|リカバリーコード/i;
const CODE = /(?<![\w-])(?:[A-Za-z0-9]{4,6}-[A-Za-z0-9]{4,6}|\d{4}[ -]\d{4}|\d{6,10})(?![\w-])/g;
/** A line of a code list: codes and list marks only. */
const CODE_LINE = /^[\s*•·\-+]*(?:\d{1,2}[.)][ \t]+)?(?:(?:[A-Za-z0-9]{4,6}-[A-Za-z0-9]{4,6}|\d{4}[ -]\d{4}|\d{6,10})[\s,;]*)+$/;

function codeSpans(lines: Line[], out: Span[]): void {
  for (let i = 0; i < lines.length; i++) {
    const m = CODES_LABEL.exec(lines[i]!.text);
    if (!m) continue;
    const rest = lines[i]!.text.slice((m.index ?? 0) + m[0].length);
    const add = (line: Line, from: number, listed: boolean) => {
      for (const c of line.text.slice(from).matchAll(CODE)) {
        const code = c[0];
        if (!listed && !/\d/.test(code)) continue; // `follow-up` in the label's own sentence: words, not codes
        const start = line.at + from + (c.index ?? 0);
        out.push({ start, end: start + code.length, kind: "recovery-code" });
      }
    };
    add(lines[i]!, lines[i]!.text.length - rest.length, false);
    let j = i + 1;
    for (; j < lines.length && j <= i + 40; j++) {
      if (lines[j]!.text.trim() === "") continue;
      if (!CODE_LINE.test(lines[j]!.text)) break;
      add(lines[j]!, 0, true);
    }
    i = j - 1;
  }
}

const BARE_SEED = /^[ \t]*([a-z]{3,8}(?: [a-z]{3,8}){11,23})[ \t]*$/;

function seedSpans(lines: Line[], out: Span[]): void {
  for (const line of lines) {
    if (line.text.length > 240) continue;
    const m = BARE_SEED.exec(line.text);
    if (!m || !isSeedPhrase(m[1]!)) continue;
    const start = line.at + line.text.indexOf(m[1]!);
    out.push({ start, end: start + m[1]!.length, kind: "seed-phrase" });
  }
}

/** The spans of `text` to replace, in order and not overlapping. */
export function blockSpans(text: string): Span[] {
  const tables = text.includes("|") && /\n[ \t]*\|?[ \t]*:?-/.test(text);
  const codes = CODES_LABEL.test(text);
  const seeds = /(?:^|\n)[ \t]*[a-z]{3,8} [a-z]{3,8} [a-z]{3,8} /.test(text);
  if (!tables && !codes && !seeds) return [];
  const lines = linesOf(text);
  const out: Span[] = [];
  if (tables) tableSpans(lines, out);
  if (codes) codeSpans(lines, out);
  if (seeds) seedSpans(lines, out);
  out.sort((a, b) => a.start - b.start);
  return out.filter((s, i) => i === 0 || s.start >= out[i - 1]!.end);
}
