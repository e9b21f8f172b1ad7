/**
 * What a decision or a rejected approach rules out, in terms a tool call can be checked against:
 * the span of its text that names the rejected thing ("we rejected HS256 because…", "use ES256
 * instead of HS256", "never run `npm run migrate:force`"), and the distinctive terms of that span
 * (code-like words, proper names, quoted commands). A memory whose text rules nothing out gives no
 * terms, and so never warns. Pure.
 */

/** A term: one or more tokens that must appear together, in order, in what the tool call adds. */
export type Term = readonly string[];

export interface RuledOut {
  /** The words naming what was ruled out, as written (for the warning). */
  span: string;
  /** Why, when the memory says ("because …"), else "". */
  reason: string;
  terms: Term[];
}

/** Where the span of what was ruled out starts, per kind of wording. */
const REJECT_MARKERS =
  /\b(?:rejected|ruled out|decided against|decided not to(?: use)?|abandoned|dropped|won't use|will not use|not going to use|chose not to(?: use)?|opted not to(?: use)?|do not (?:use|run|call|add)|don't (?:use|run|call|add)|never (?:use|run|call|add)|must not (?:use|run|call)|avoid(?: using| running)?|stop(?:ped)? using|no longer (?:use|run)s?|moved? away from|switch(?:ed)? (?:away )?from|migrat(?:ed|e) (?:away )?from|replac(?:ed|e)|instead of|rather than|in place of)\b/i;
/** A decision's "chose X over Y": Y follows `over` only after a verb of choice. */
const OVER = /\b(?:chose|choose|chosen|picked|prefer(?:red)?|opted for|went with|go with|settled on|selected|use|using|keep)\b.{1,120}?\bover\b/i;
/** Where the span ends: a reason, a purpose, what replaced it, the end of a clause. */
const SPAN_END = /\s*(?:\bbecause\b|\bsince\b|\bas (?:it|they|this|that)\b|\bdue to\b|\bgiven\b|\bso that\b|\bin favou?r of\b|\bfor\b|\bin order\b|\bto\b(?= [a-z]+\b)|\bthat\b|\bwhich\b|\bwhen\b|\bunless\b|\bafter\b|\bbut\b|\band (?:use|went|chose|kept|moved|instead)\b|[;—–()]|:(?=\s|$)|,\s|\.(?:\s|$)|!|\?|$)/i;
const REASON = /\b(?:because|since|due to|given that|as (?:it|they|this|that))\b\s*(.*)$/i;

/** Words too common to make a warning, even when capitalised or quoted alone: English, tools everyone runs, formats, type names. */
const COMMON = new Set(
  ("a an the this that these those it its we our us you i to of for in on at by with from into as is are was were be been use used using run " +
    "running add call not no never don't do does did instead rather than over approach idea option options way code file files change changes " +
    "api app data test tests script scripts config default new old all any some one two first second thing things them they " +
    "true false null undefined none yes npm npx yarn pnpm node git bash sh make build src lib main master " +
    "json yaml yml toml xml csv html css sql url uri http https cli ui id ids uuid tcp udp ssh io os cpu env pdf png svg utf ascii rest crud todo readme ci pr " +
    "github gitlab javascript typescript string number integer int float object error errors array date time map set list promise boolean bool value values type types class function result buffer path name text")
    .split(" "),
);

/** Tokens of code or prose: runs of word characters joined by the punctuation names are made of. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9_$@][A-Za-z0-9_$@.:/+-]*[A-Za-z0-9_$]|[A-Za-z0-9_$]|--?[A-Za-z][A-Za-z0-9-]*/g)) out.push(m[0]);
  return out;
}

/** Lower-cased, a trailing `.js`/`.ts` on a package-like name kept apart: `moment.js` matches `moment` too. */
export const norm = (t: string): string => t.toLowerCase();

/**
 * Whether one token, alone, is distinctive enough to warn on: code-like (a digit with letters, a
 * camelCase hump, inner punctuation, a long flag) or, unless `strict`, ALL CAPS of three letters
 * or more or a proper name (capitalised where a sentence does not start). `sentenceStart`: it
 * opens the sentence. `strict`: the span is long prose, where capitals name too much.
 */
export function distinctive(t: string, sentenceStart: boolean, strict = false): boolean {
  const lower = t.toLowerCase();
  if (COMMON.has(lower) || t.length < 2) return false;
  if (/^--[a-z][a-z0-9-]{2,}$/.test(t)) return true; // a long flag: --force, --no-verify
  if (/[A-Za-z]/.test(t) && /\d/.test(t) && t.length >= 3) return true; // HS256, es2015, sha1
  // moment.js, migrate:force, date-fns, lodash/fp; in long prose only . : _ # count ("step-by-step", "and/or" are words there)
  if (t.length >= 4 && (strict ? /^[A-Za-z0-9_$@]+[.:_#][A-Za-z0-9_$@]/ : /^[A-Za-z0-9_$@]+[.:/_+#-][A-Za-z0-9_$@]/).test(t)) return true;
  if (/^[a-z_$]+[A-Z]/.test(t)) return true; // createStore, localStorage
  if (strict) return false;
  if (/[a-z][A-Z]/.test(t)) return true; // GraphQL, InputOption
  if (/^[A-Z]{3,}$/.test(t)) return true; // MD5, JWT
  if (/^[A-Z][a-z]{3,}$/.test(t) && !sentenceStart) return true; // Redis, Postgres, Moment
  return false;
}

/** Spans longer than this many tokens are prose: only code-like tokens name something there. */
const LONG_SPAN = 6;

/** The quoted spans (`…`, "…") of a text: each is a phrase term when it holds a distinctive token or several tokens. */
function quotedTerms(span: string): Term[] {
  const out: Term[] = [];
  // A long quoted description is passed over whole: the code quoted inside it is not what it names.
  for (const m of span.matchAll(/`([^`]{2,400})`|"([^"]{2,400})"/g)) {
    // A quoted option ("Use MySQL Connector") is named by what follows its verb.
    const toks = tokens(m[1] ?? m[2] ?? "");
    if (toks.length > LONG_SPAN) continue; // a quoted description, not a name
    while (toks.length > 1 && /^(?:use|using|adopt|keep|the|a|an)$/i.test(toks[0]!)) toks.shift();
    if (toks.length === 0) continue;
    const code = /[()._/:-]/.test(m[1] ?? m[2] ?? ""); // `eval()`, `npm run x`: quoted as code
    if (toks.length >= 2 || toks.some((t) => distinctive(t, false)) || (code && toks[0]!.length >= 4 && !COMMON.has(toks[0]!.toLowerCase()))) out.push(toks.map(norm));
  }
  return out;
}

/**
 * The distinctive terms of a span: its quoted phrases; else its runs of distinctive tokens, each
 * run one phrase ("Docker Compose" is not any use of Docker); else, for a span of one to three
 * words that are not all common ("lodash", "local time"), the span itself as one phrase: the
 * marker before it said that is what was ruled out. `opensSentence`: the span starts its
 * sentence (a capital there makes no proper name).
 */
export function termsOf(span: string, opensSentence = false): Term[] {
  const quoted = quotedTerms(span);
  if (quoted.length > 0) return quoted;
  const toks = tokens(span);
  const strict = toks.length > LONG_SPAN;
  const out: Term[] = [];
  let run: string[] = [];
  toks.forEach((t, i) => {
    if (distinctive(t, opensSentence && i === 0, strict)) run.push(norm(t));
    else if (run.length > 0) {
      out.push(run);
      run = [];
    }
  });
  if (run.length > 0) out.push(run);
  if (out.length > 0) return out;
  const words = toks.filter((t, i) => !(i === 0 && /^(?:the|a|an)$/i.test(t)));
  if (!opensSentence && words.length >= 1 && words.length <= 3 && words.some((w) => w.length >= 4 && !COMMON.has(w.toLowerCase()) && /^[A-Za-z]/.test(w))) return [words.map(norm)];
  return out;
}

/** The span after a marker, up to the reason or the end of the clause. */
function spanAfter(text: string, at: number): string {
  const rest = text.slice(at).trimStart().replace(/^\s*(?:using|to use|running|to run|the use of|use of|use|run|with|on|the|of|:)\s+/i, "").replace(/^(?:the|a|an)\s+/i, "");
  // Quoted spans are kept whole: the end of a clause inside a quoted command does not end the span.
  const q = /^(`[^`]{1,400}`|"[^"]{1,400}")/.exec(rest);
  if (q) return q[1]!;
  const end = SPAN_END.exec(rest);
  return (end ? rest.slice(0, end.index) : rest).trim().slice(0, 160);
}

/** What `text` (a decision or a rejected approach) rules out; `kind` is the memory's. */
export function ruledOut(text: string, kind: string): RuledOut | undefined {
  const t = text.replace(/\s+/g, " ").trim();
  if (t === "") return undefined;
  const reason = (REASON.exec(t)?.[1] ?? "").replace(/[.\s]+$/, "").slice(0, 160);
  let span: string | undefined;
  let before = "";
  const m = REJECT_MARKERS.exec(t);
  if (m) {
    span = spanAfter(t, m.index + m[0].length);
    before = t.slice(0, m.index);
  }
  if ((!span || termsOf(span).length === 0) && kind === "decision") {
    const o = OVER.exec(t);
    if (o) {
      span = spanAfter(t, o.index + o[0].length);
      before = o[0];
    }
  }
  // A rejected approach with no marker ("HS256: shares the secret with every verifier") is the text before its reason.
  let opens = false;
  if ((!span || termsOf(span).length === 0) && kind === "rejected") {
    span = spanAfter(` ${t}`, 0);
    before = "";
    opens = true;
  }
  if (!span) return undefined;
  // What was chosen ("use ES256 instead of …") is not what was ruled out: terms it also names go.
  const chosen = new Set(tokens(before).map(norm));
  const terms = termsOf(span, opens).filter((term) => !(term.length === 1 && chosen.has(term[0]!)));
  return terms.length > 0 ? { span, reason, terms } : undefined;
}
