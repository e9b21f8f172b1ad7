/**
 * A minimal edit of a JSON settings file's text: only the top-level members whose value changed
 * are written again (in the file's indent and line ends), added ones go at the end, removed ones
 * leave with their comma; every other byte of the file stays as the user wrote it (their key
 * order, spacing, inline arrays). Pure. Undefined when the text cannot be edited so (duplicate
 * keys, not an object): the caller writes the whole file instead.
 */
import type { JsonObject, TextFormat } from "./settings-json.js";

interface Member {
  key: string;
  /** Where the member's key (its opening quote) starts. */
  start: number;
  valueStart: number;
  valueEnd: number;
}

const WS = /[ \t\r\n]/;

function skipWs(text: string, i: number): number {
  while (i < text.length && WS.test(text[i]!)) i++;
  return i;
}

/** The end (exclusive) of the string starting at `i` (its opening quote). */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === '"') return j + 1;
  }
  throw new Error("unterminated string");
}

/** The end (exclusive) of the JSON value starting at `i`. */
function valueEnd(text: string, i: number): number {
  if (text[i] === '"') return stringEnd(text, i);
  if (text[i] !== "{" && text[i] !== "[") {
    let j = i;
    while (j < text.length && !/[,}\]\s]/.test(text[j]!)) j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '"') j = stringEnd(text, j) - 1;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  throw new Error("unterminated value");
}

/** The top-level members of an object's text (valid JSON), and where its closing brace is. */
function members(text: string): { list: Member[]; close: number } {
  let i = skipWs(text, 0);
  if (text[i] !== "{") throw new Error("not an object");
  const list: Member[] = [];
  i = skipWs(text, i + 1);
  while (text[i] !== "}") {
    const start = i;
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(start, keyEnd)) as string;
    i = skipWs(text, keyEnd);
    i = skipWs(text, i + 1); // past ':'
    const end = valueEnd(text, i);
    list.push({ key, start, valueStart: i, valueEnd: end });
    i = skipWs(text, end);
    if (text[i] === ",") i = skipWs(text, i + 1);
  }
  return { list, close: i };
}

/** The whitespace that begins the line `at` is on. */
function lineIndent(text: string, at: number): string {
  const bol = text.lastIndexOf("\n", at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(bol))![0];
}

/** A value written as a member at a line indented by `base`. */
function valueText(value: unknown, base: string, format: TextFormat): string {
  return JSON.stringify(value, null, format.indent).split("\n").join(format.eol + base);
}

export function editTopLevel(text: string, before: JsonObject, after: JsonObject, format: TextFormat): string | undefined {
  const body = format.bom ? text.slice(1) : text;
  let parsed: { list: Member[]; close: number };
  try {
    parsed = members(body);
  } catch {
    return undefined;
  }
  const { list, close } = parsed;
  if (list.length === 0 || new Set(list.map((m) => m.key)).size !== list.length) return undefined;
  if (Object.keys(after).length === 0) return `${format.bom ? "\uFEFF" : ""}{}${format.finalNewline ? format.eol : ""}`;
  if (list.filter((m) => !Object.hasOwn(after, m.key)).length > 1) return undefined; // one at a time: their commas never overlap
  const edits: { from: number; to: number; text: string }[] = [];
  list.forEach((m, n) => {
    if (!Object.hasOwn(after, m.key)) {
      // Removed with its comma: the one before it, or (the first member) the one after it.
      const from = n > 0 ? list[n - 1]!.valueEnd : m.start;
      const to = n > 0 ? m.valueEnd : n + 1 < list.length ? list[n + 1]!.start : m.valueEnd;
      edits.push({ from, to, text: "" });
    } else if (JSON.stringify(before[m.key]) !== JSON.stringify(after[m.key])) {
      edits.push({ from: m.valueStart, to: m.valueEnd, text: valueText(after[m.key], lineIndent(body, m.start), format) });
    }
  });
  const added = Object.keys(after).filter((k) => !Object.hasOwn(before, k));
  if (added.length > 0) {
    const last = list.at(-1)!;
    const base = lineIndent(body, last.start);
    const oneLine = !body.slice(body.indexOf("{"), close).includes("\n");
    const sep = oneLine ? " " : `${format.eol}${base}`;
    edits.push({ from: last.valueEnd, to: last.valueEnd, text: added.map((k) => `,${sep}${JSON.stringify(k)}: ${valueText(after[k], base, format)}`).join("") });
  }
  // Applied from the end: a removal takes its member and one comma, never another edit's span.
  edits.sort((a, b) => b.from - a.from);
  let out = body;
  for (const e of edits) out = out.slice(0, e.from) + e.text + out.slice(e.to);
  try {
    if (JSON.stringify(JSON.parse(out)) !== JSON.stringify(after)) return undefined;
  } catch {
    return undefined;
  }
  return (format.bom ? "\uFEFF" : "") + out;
}
