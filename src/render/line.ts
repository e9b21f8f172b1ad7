/**
 * Rendering stored text for the model's context so that it can never pose as instructions or as
 * another memory. Everything that goes into an injection or a briefing (paths, headings, kinds,
 * session ids, task subjects, note bodies) passes through here: it comes out on one line, with
 * control characters escaped or dropped, and with any markup that could open or close a tag
 * (`</system-reminder>`, `<mem-recall>`, `<!--`) defused by turning its `<` into `‹`. Pure.
 */

/**
 * C0 and C1 controls, DEL, line and paragraph separators, and every invisible format character
 * (\p{Cf}: zero-width spaces and joiners, soft hyphens, byte-order marks, the bidi controls that
 * reorder what a reader sees): none may hide between a `<` and the tag it starts.
 */
const INVISIBLE = "\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\p{Cf}";
const CONTROL = new RegExp(`[${INVISIBLE}]`, "gu");
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
/**
 * A `<`, or a look-alike (fullwidth, small, modifier, angle bracket), that starts a tag, a closing
 * tag, a comment or a processing instruction, even with invisible characters in between.
 */
const TAG_START = new RegExp(`[<\\uff1c\\ufe64\\u02c2\\u2329\\u3008](?=[${INVISIBLE}]*[/!?\\p{L}\\uff0f])`, "gu");
/** What a defused `<` becomes. */
export const DEFUSED_LT = "‹";

const escapeControl = (c: string) => NAMED[c] ?? `\\u{${c.codePointAt(0)!.toString(16)}}`;

function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const end = max - 1;
  // Never end inside a surrogate pair.
  const at = s.charCodeAt(end - 1) >= 0xd800 && s.charCodeAt(end - 1) <= 0xdbff ? end - 1 : end;
  return `${s.slice(0, at)}…`;
}

/** Defuses tag-like markup; everything else is kept. */
export function defuse(s: string): string {
  return s.replace(TAG_START, DEFUSED_LT);
}

const LT_AT_END = /[<\uff1c\ufe64\u02c2\u2329\u3008]$/u;

/**
 * A piece of text that will be joined to others (one line of a memory beside the next one shown):
 * rendered as `prose`, and a `<` it ends with defused too, since the piece joined after it could
 * start what that `<` opens (`<` + `/system-reminder>`).
 */
export function prosePiece(s: string): string {
  return prose(s).replace(LT_AT_END, DEFUSED_LT);
}

/**
 * A short field (a path, a kind, a heading, a session id) on one line: control characters shown
 * as escapes (`\n`, `\u{1b}`), so an odd name stays visibly odd; markup defused; at most `max`
 * characters.
 */
export function field(s: string, max = 200): string {
  return cut(defuse(s).replace(CONTROL, escapeControl).trim(), max);
}

/** What a character stands for inside an item's bracket when it would end the bracket, open another, or split a field in two. */
const IN_BRACKET: Record<string, string> = { "[": "［", "]": "］", "·": "•" };

/**
 * A value already rendered (by `field`) made safe inside an item's `[… · …]`: its square
 * brackets become fullwidth ones and its middle dots bullets, so a kind, a path or a status can
 * neither close the bracket early (and have what follows read as the memory's text or as
 * another item), nor open a second one, nor pass for an extra field. Pure.
 */
export const inBracket = (s: string): string => s.replace(/[[\]·]/g, (c) => IN_BRACKET[c]!);

/** An item's bracket: `[a · b · c]`, each part `inBracket` (empty parts left out). */
export function bracket(parts: readonly (string | undefined)[]): string {
  return `[${parts.filter((p): p is string => p !== undefined && p !== "").map(inBracket).join(" · ")}]`;
}

/**
 * Text to read (a note's body, a decision, a task) on one line: runs of whitespace, newlines
 * included, become one space; other control characters are dropped; markup defused; at most
 * `max` characters.
 */
export function prose(s: string, max = Number.POSITIVE_INFINITY): string {
  // A control character becomes a space, not nothing: dropping it could join the two halves of
  // a secret that redaction did not see as one, or of a tag.
  return cut(defuse(s).replace(CONTROL, " ").replace(/[\s\u0085]+/g, " ").trim(), max);
}

/**
 * Text for a terminal, kept as it is but for the invisible and control characters (`INVISIBLE`),
 * shown as escapes (`\u{1b}`): stored text can neither move the cursor, nor recolour, nor retitle
 * the terminal, nor hide what follows. Newlines are kept (the text's own lines).
 */
export function visible(s: string): string {
  return s.split("\n").map((l) => l.replace(CONTROL, escapeControl)).join("\n");
}

/**
 * JSON on one line with every invisible or control character escaped (`\u001b`, `\u009b`,
 * `\u202e`): still the same JSON to a parser, and nothing a terminal takes for an escape.
 */
export function safeJson(v: unknown): string {
  const unit = (c: string, i: number) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return JSON.stringify(v).replace(CONTROL, (c) => (c.length === 1 ? unit(c, 0) : unit(c, 0) + unit(c, 1)));
}

/** Session ids up to this many characters are shown whole. */
const SESSION_WHOLE = 16;

/**
 * A session id, short, the same everywhere: whole up to 16 characters; a longer one as its first 8
 * and last 4 characters ("1a2b3c4d…9f0e"), so ids that share a start ("sess-nc-…", a test run's)
 * stay told apart. As a field (one line, markup defused). `--json` gives the whole id. Pure.
 */
export function shortSession(session: string): string {
  const chars = [...session];
  return field(chars.length <= SESSION_WHOLE ? session : `${chars.slice(0, 8).join("")}…${chars.slice(-4).join("")}`);
}
