/**
 * Just enough TOML to edit Codex's config.toml the way `mem install` must: find a table or a key,
 * insert one line after a table's last key, append a table of ours at the end, and take out only
 * what mem wrote, marked with a trailing comment (MARK). Every other byte (the user's comments,
 * spacing, key order, odd quoting) stays as it was. Pure; no TOML library.
 *
 * The text is cut into statements, each a whole line or lines: a table header (`[a.b]`), an
 * array-of-tables header (`[[a]]`), a key = value (a multi-line string or array spans lines), a
 * comment, or a blank line. A text it cannot cut so (an unterminated string, an unbalanced
 * bracket, a line that is none of these) is refused with its line number: TomlError.
 */

export const MARK = "# added by mem install";

export class TomlError extends Error {
  override name = "TomlError";
}

export interface Statement {
  kind: "table" | "array" | "kv" | "comment" | "blank";
  /** Where the statement starts (its line's first byte) and ends (after its final line end, or at the text's end). */
  start: number;
  end: number;
  /** The header's path (table, array); for a key, the path of the table it is in. */
  table: string[];
  /** A key's own (dotted) path, relative to `table`. */
  key?: string[];
  /** A key's value, as written (trimmed, without a trailing comment). */
  value?: string;
  /** The trailing comment, if any (with its `#`). */
  comment?: string;
  line: number;
}

const BARE = /[A-Za-z0-9_-]/;

/** The end (exclusive) of the string starting at `i` (its first quote), multi-line ones too. */
function stringEnd(text: string, i: number, line: number): number {
  const q = text[i]!;
  const triple = text.startsWith(q.repeat(3), i);
  let j = i + (triple ? 3 : 1);
  while (j < text.length) {
    const c = text[j]!;
    if (q === '"' && c === "\\") {
      j += 2;
      continue;
    }
    if (triple) {
      if (text.startsWith(q.repeat(3), j)) {
        let k = j + 3;
        while (text[k] === q && k < j + 5) k++; // up to two quotes of the content may sit before the closing three
        return k;
      }
    } else if (c === q) return j + 1;
    else if (c === "\n") break;
    j++;
  }
  throw new TomlError(`an unterminated string (line ${line})`);
}

/** One key part's text as a name: a bare key, or a quoted one decoded. */
function keyName(raw: string, line: number): string {
  if (raw.startsWith("'")) return raw.slice(1, -1);
  if (raw.startsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw.slice(1, -1);
    }
  }
  if (raw === "" || ![...raw].every((c) => BARE.test(c))) throw new TomlError(`a key is not valid (line ${line}): ${JSON.stringify(raw.slice(0, 40))}`);
  return raw;
}

/** A dotted key at `i`: its parts and where it ends. */
function readKey(text: string, i: number, line: number): { path: string[]; end: number } {
  const path: string[] = [];
  for (;;) {
    while (text[i] === " " || text[i] === "\t") i++;
    const start = i;
    if (text[i] === '"' || text[i] === "'") {
      if (text.startsWith(text[i]!.repeat(3), i)) throw new TomlError(`a key is not valid (line ${line})`);
      i = stringEnd(text, i, line);
    } else while (i < text.length && BARE.test(text[i]!)) i++;
    path.push(keyName(text.slice(start, i), line));
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] !== ".") return { path, end: i };
    i++;
  }
}

/** The end of the value at `i` (before any trailing comment) and of its last line. */
function readValue(text: string, i: number, line: number): number {
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const c = text[j]!;
    if (c === '"' || c === "'") j = stringEnd(text, j, line);
    else if (c === "[" || c === "{") {
      depth++;
      j++;
    } else if (c === "]" || c === "}") {
      if (--depth < 0) throw new TomlError(`an unbalanced "${c}" (line ${line})`);
      j++;
    } else if (c === "#") {
      if (depth === 0) return j;
      const nl = text.indexOf("\n", j);
      j = nl < 0 ? text.length : nl;
    } else if (c === "\n" && depth === 0) return j;
    else j++;
  }
  if (depth !== 0) throw new TomlError(`an unclosed array or inline table (line ${line})`);
  return j;
}

/** The rest of a line after `i`: only spaces and a comment may be there. Returns the comment and the statement's end. */
function lineRest(text: string, i: number, line: number): { comment?: string; end: number } {
  while (text[i] === " " || text[i] === "\t" || text[i] === "\r") i++;
  const nl = text.indexOf("\n", i);
  const stop = nl < 0 ? text.length : nl;
  const rest = text.slice(i, stop).replace(/\r$/, "");
  if (rest !== "" && !rest.startsWith("#")) throw new TomlError(`unexpected text after a value (line ${line}): ${JSON.stringify(rest.slice(0, 40))}`);
  return { ...(rest ? { comment: rest } : {}), end: nl < 0 ? text.length : nl + 1 };
}

/** Cuts a TOML text into statements. @throws TomlError */
export function statements(text: string): Statement[] {
  const out: Statement[] = [];
  let table: string[] = [];
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const start = i;
    while (text[i] === " " || text[i] === "\t") i++;
    const c = text[i];
    let s: Statement;
    if (c === undefined || c === "\n" || (c === "\r" && text[i + 1] === "\n")) {
      const end = c === undefined ? text.length : text.indexOf("\n", i) + 1;
      s = { kind: "blank", start, end, table, line };
    } else if (c === "#") {
      const nl = text.indexOf("\n", i);
      s = { kind: "comment", start, end: nl < 0 ? text.length : nl + 1, table, line };
    } else if (c === "[") {
      const array = text[i + 1] === "[";
      const k = readKey(text, i + (array ? 2 : 1), line);
      if (text[k.end] !== "]" || (array && text[k.end + 1] !== "]")) throw new TomlError(`a table header is not closed (line ${line})`);
      const rest = lineRest(text, k.end + (array ? 2 : 1), line);
      table = k.path;
      s = { kind: array ? "array" : "table", start, end: rest.end, table, line, ...(rest.comment ? { comment: rest.comment } : {}) };
    } else {
      const k = readKey(text, i, line);
      if (text[k.end] !== "=") throw new TomlError(`expected "=" after a key (line ${line})`);
      let v = k.end + 1;
      while (text[v] === " " || text[v] === "\t") v++;
      if (v >= text.length || text[v] === "\n" || text[v] === "#") throw new TomlError(`a key without a value (line ${line})`);
      const vEnd = readValue(text, v, line);
      const rest = lineRest(text, vEnd, line);
      const value = text.slice(v, vEnd).trim();
      // A bare value is one word (a number, a boolean, a date), or a date and a time with a space between.
      if (!/^["'[{]/.test(value) && /\s/.test(value) && !/^\d{4}-\d{2}-\d{2} \d{2}:\S*$/.test(value)) throw new TomlError(`unexpected text after a value (line ${line}): ${JSON.stringify(value.slice(0, 40))}`);
      s = { kind: "kv", start, end: rest.end, table, key: k.path, value, line, ...(rest.comment ? { comment: rest.comment } : {}) };
    }
    out.push(s);
    line += (text.slice(s.start, s.end).match(/\n/g) ?? []).length;
    i = s.end;
  }
  return out;
}

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, n) => x === b[n]);
const startsWith = (a: readonly string[], prefix: readonly string[]) => prefix.every((x, n) => a[n] === x);

/** A statement's full path: a header's, or its table's plus a key's. */
export function fullPath(s: Statement): string[] {
  return s.kind === "kv" ? [...s.table, ...s.key!] : s.table;
}

/** The statements whose full path starts with `prefix`. */
export function under(list: Statement[], prefix: readonly string[]): Statement[] {
  return list.filter((s) => (s.kind === "kv" || s.kind === "table" || s.kind === "array") && startsWith(fullPath(s), prefix));
}

/** The key = value at exactly `path`, if any. */
export function findKey(list: Statement[], path: readonly string[]): Statement | undefined {
  return list.find((s) => s.kind === "kv" && samePath(fullPath(s), path));
}

/** The `[path]` header, if any. */
export function findTable(list: Statement[], path: readonly string[]): Statement | undefined {
  return list.find((s) => s.kind === "table" && samePath(s.table, path));
}

/** The statements of the table opened by `header` (up to the next header), without the blank lines and comments at its end. */
export function tableBody(list: Statement[], header: Statement): Statement[] {
  const from = list.indexOf(header) + 1;
  let to = from;
  while (to < list.length && list[to]!.kind !== "table" && list[to]!.kind !== "array") to++;
  while (to > from && list[to - 1]!.kind !== "kv") to--;
  return list.slice(from, to);
}

/** A TOML basic string. */
export function tomlString(s: string): string {
  return JSON.stringify(s).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** The strings of a value that is a string or an array of strings (as this editor writes them or a user would); undefined otherwise. */
export function stringsOf(value: string): string[] | undefined {
  const one = (t: string): string | undefined => {
    t = t.trim();
    if (t.startsWith("'") && t.endsWith("'") && t.length >= 2 && !t.startsWith("'''")) return t.slice(1, -1);
    if (t.startsWith('"') && t.endsWith('"') && t.length >= 2 && !t.startsWith('"""')) {
      try {
        return JSON.parse(t) as string;
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
  const v = value.trim();
  if (!v.startsWith("[")) {
    const s = one(v);
    return s === undefined ? undefined : [s];
  }
  const inner = v.slice(1, -1).replace(/#[^\n]*/g, "");
  const parts = inner.split(/,(?=(?:[^"']|"(?:[^"\\]|\\.)*"|'[^']*')*$)/).map((p) => p.trim()).filter((p) => p !== "");
  const out = parts.map(one);
  return out.every((x): x is string => x !== undefined) ? out : undefined;
}

/** The line end a text uses ("\r\n" when any line has one). */
export const eolOf = (text: string): string => (text.includes("\r\n") ? "\r\n" : "\n");

/**
 * `text` with `line` (no line end) inserted after statement `after`: on its own line, the line
 * end added where `after` is the last line without one.
 */
export function insertAfter(text: string, after: Statement, line: string): string {
  const eol = eolOf(text);
  const at = after.end;
  const prev = text.slice(after.start, at);
  if (prev.endsWith("\n")) return `${text.slice(0, at)}${line}${eol}${text.slice(at)}`;
  return `${text.slice(0, at)}${eol}${line}${text.slice(at)}`;
}

/** `text` without statement `s`; the last line of a text that had no line end at its end keeps having none. */
export function removeStatement(text: string, s: Statement): string {
  if (s.end === text.length && !text.endsWith("\n")) {
    const from = text.lastIndexOf("\n", s.start - 1);
    const cut = from > 0 && text[from - 1] === "\r" ? from - 1 : from;
    return from < 0 ? text.slice(0, s.start) : text.slice(0, cut) + text.slice(s.end);
  }
  return text.slice(0, s.start) + text.slice(s.end);
}

/**
 * `text` with a block of lines (a table of ours) appended: after one blank line, or at the very
 * start of an empty text. A text without a final line end gets one first.
 */
export function appendBlock(text: string, lines: string[]): string {
  const eol = eolOf(text);
  const block = lines.join(eol) + eol;
  if (text === "") return block;
  return `${text}${text.endsWith("\n") ? "" : eol}${eol}${block}`;
}

/**
 * `text` without the table `header` opened and everything in it (up to the next header, not the
 * blank lines and comments just before that one), and the one blank line before it that
 * `appendBlock` put there.
 */
export function removeTable(text: string, list: Statement[], header: Statement): string {
  const body = tableBody(list, header);
  const last = body.at(-1) ?? header;
  let from = header.start;
  const i = list.indexOf(header);
  const before = list[i - 1];
  if (before?.kind === "blank") from = before.start;
  else if (before === undefined && list[list.indexOf(last) + 1]?.kind === "blank") {
    // ours was the first thing in the file: the blank line after it goes instead
    return text.slice(0, header.start) + text.slice(list[list.indexOf(last) + 1]!.end);
  }
  const out = text.slice(0, from) + text.slice(last.end);
  return out;
}
