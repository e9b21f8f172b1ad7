/**
 * A minimal edit of a JSON settings file's text, at any depth: inside an object only the members
 * whose value changed are edited (added ones go at the end, removed ones leave with their comma),
 * inside an array only the items that changed (items appended go at the end, items taken out
 * leave with their comma), down to the smallest value that changed, which is written again in the
 * file's indent and line ends. Every other byte stays as the user wrote it: their key order,
 * spacing, inline arrays, and their own hooks beside mem's. Pure. Undefined when the text cannot
 * be edited so (duplicate top-level keys, not an object): the caller writes the whole file instead.
 */
import type { JsonObject, TextFormat } from "./settings-json.js";

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

/** A member of an object's text, or an item of an array's (`key` undefined): where it starts and where its value is. */
interface Part {
  key?: string;
  /** Where the member's key (its opening quote), or the item, starts. */
  start: number;
  valueStart: number;
  valueEnd: number;
}

/** The members of the object (`{` at `at`) or the items of the array (`[` at `at`) of valid JSON text, and where it closes. */
function parts(text: string, at: number): { list: Part[]; close: number } {
  const object = text[at] === "{";
  if (!object && text[at] !== "[") throw new Error("not an object or an array");
  const list: Part[] = [];
  let i = skipWs(text, at + 1);
  while (text[i] !== (object ? "}" : "]")) {
    const start = i;
    let key: string | undefined;
    if (object) {
      const keyEnd = stringEnd(text, i);
      key = JSON.parse(text.slice(start, keyEnd)) as string;
      i = skipWs(text, keyEnd);
      i = skipWs(text, i + 1); // past ':'
    }
    const end = valueEnd(text, i);
    list.push({ ...(key !== undefined ? { key } : {}), start, valueStart: i, valueEnd: end });
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

type Edit = { from: number; to: number; text: string };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The spans that take out the parts `gone` (indices into `list`, ascending) with one comma each:
 * those before the first part kept up to its start; the others from the end of the part before.
 * Undefined when every part goes (the caller writes the value again).
 */
function removals(list: Part[], gone: ReadonlySet<number>): Edit[] | undefined {
  const firstKept = list.findIndex((_, n) => !gone.has(n));
  if (firstKept < 0) return undefined;
  const out: Edit[] = [];
  if (firstKept > 0) out.push({ from: list[0]!.start, to: list[firstKept]!.start, text: "" });
  for (let n = firstKept + 1; n < list.length; n++) if (gone.has(n)) out.push({ from: list[n - 1]!.valueEnd, to: list[n]!.valueEnd, text: "" });
  return out;
}

/** Text appended after the last part (`last`) of a container closing at `close` that opened at `open`. */
function appended(body: string, open: number, close: number, last: Part, items: string[], format: TextFormat): Edit {
  const oneLine = !body.slice(open, close).includes("\n");
  const sep = oneLine ? " " : `${format.eol}${lineIndent(body, last.start)}`;
  return { from: last.valueEnd, to: last.valueEnd, text: items.map((t) => `,${sep}${t}`).join("") };
}

/**
 * The edits that turn the value `before` (its text at `at`) into `after`, as small as they can be:
 * the same object or array edited part by part, anything else written again. `indent`: the
 * whitespace of the line the value's part starts on.
 */
function editValue(body: string, at: number, end: number, before: unknown, after: unknown, indent: string, format: TextFormat): Edit[] {
  if (same(before, after)) return [];
  const whole = (): Edit[] => [{ from: at, to: end, text: valueText(after, indent, format) }];
  const objects = isPlain(before) && isPlain(after);
  const arrays = Array.isArray(before) && Array.isArray(after);
  if (!objects && !arrays) return whole();
  let parsed: { list: Part[]; close: number };
  try {
    parsed = parts(body, at);
  } catch {
    return whole();
  }
  const { list, close } = parsed;
  if (list.length === 0) return whole();
  const edits: Edit[] = [];
  const inner = (p: Part, b: unknown, a: unknown) => edits.push(...editValue(body, p.valueStart, p.valueEnd, b, a, lineIndent(body, p.start), format));
  if (objects) {
    const b = before as Record<string, unknown>;
    const a = after as Record<string, unknown>;
    if (new Set(list.map((p) => p.key)).size !== list.length) return whole();
    const gone = new Set(list.flatMap((p, n) => (Object.hasOwn(a, p.key!) ? [] : [n])));
    const taken = removals(list, gone);
    if (!taken) return whole();
    edits.push(...taken);
    for (const p of list) if (Object.hasOwn(a, p.key!)) inner(p, b[p.key!], a[p.key!]);
    const added = Object.keys(a).filter((k) => !Object.hasOwn(b, k));
    if (added.length > 0) edits.push(appended(body, at, close, list.at(-1)!, added.map((k) => `${JSON.stringify(k)}: ${valueText(a[k], lineIndent(body, list.at(-1)!.start), format)}`), format));
    return edits;
  }
  const b = before as unknown[];
  const a = after as unknown[];
  if (b.length === a.length) {
    list.forEach((p, n) => inner(p, b[n], a[n]));
    return edits;
  }
  if (a.length > b.length && b.every((v, n) => same(v, a[n]))) {
    edits.push(appended(body, at, close, list.at(-1)!, a.slice(b.length).map((v) => valueText(v, lineIndent(body, list.at(-1)!.start), format)), format));
    return edits;
  }
  // Items taken out, the others in their order and unchanged.
  const gone = new Set<number>();
  let k = 0;
  b.forEach((v, n) => {
    if (k < a.length && same(v, a[k])) k++;
    else gone.add(n);
  });
  if (k !== a.length) return whole();
  return removals(list, gone) ?? whole();
}

export function editTopLevel(text: string, before: JsonObject, after: JsonObject, format: TextFormat): string | undefined {
  const body = format.bom ? text.slice(1) : text;
  let list: Part[];
  let open: number;
  try {
    open = skipWs(body, 0);
    list = parts(body, open).list;
  } catch {
    return undefined;
  }
  if (list.length === 0 || new Set(list.map((m) => m.key)).size !== list.length) return undefined;
  if (Object.keys(after).length === 0) return `${format.bom ? "\uFEFF" : ""}{}${format.finalNewline ? format.eol : ""}`;
  const edits = editValue(body, open, valueEnd(body, open), before, after, "", format);
  // Applied from the end: no two edits' spans overlap (a removal takes its part and one comma).
  edits.sort((x, y) => y.from - x.from);
  let out = body;
  let floor = Number.POSITIVE_INFINITY;
  for (const e of edits) {
    if (e.to > floor) return undefined; // overlapping spans: written whole instead
    out = out.slice(0, e.from) + e.text + out.slice(e.to);
    floor = e.from;
  }
  try {
    if (JSON.stringify(JSON.parse(out)) !== JSON.stringify(after)) return undefined;
  } catch {
    return undefined;
  }
  return (format.bom ? "\uFEFF" : "") + out;
}

/** The first key that appears twice in one object of valid JSON text (JSON.parse keeps only the last), or undefined. */
export function duplicateKey(text: string): string | undefined {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const look = (at: number): string | undefined => {
    if (body[at] !== "{" && body[at] !== "[") return undefined;
    const { list } = parts(body, at);
    const seen = new Set<string>();
    for (const p of list) {
      if (p.key !== undefined) {
        if (seen.has(p.key)) return p.key;
        seen.add(p.key);
      }
      const inner = look(p.valueStart);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  try {
    return look(skipWs(body, 0));
  } catch {
    return undefined;
  }
}
