/**
 * A JSON settings file (Claude Code's settings.json, an MCP config) as data: its JSON types, the
 * checks that it can be merged safely (SettingsError when not), key-order-blind equality, and its
 * text parsed and written back in the file's own style (indent, line ends, final newline, BOM).
 * No I/O: the caller reads and writes files (files.ts); ./settings.ts merges our hooks into one.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The settings file cannot be merged safely; nothing is written. */
export class SettingsError extends Error {
  override name = "SettingsError";
}

export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Deep equality that ignores object key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

/** The settings must be an object, and its `hooks` (when there) an object too. */
export function checkTopLevel(settings: unknown): asserts settings is JsonObject {
  if (!isObject(settings)) throw new SettingsError(`the settings file must hold a JSON object, not ${describeType(settings)}`);
  if (settings.hooks !== undefined && !isObject(settings.hooks)) throw new SettingsError(`"hooks" must be an object (event → matcher groups), not ${describeType(settings.hooks)}`);
}

/** A JSON value's type, for an error message: "null", "an array", "an object", "a string"… */
export function describeType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

// ---------------------------------------------------------------------------------------------
// Text: parse and re-serialise in the file's own style

export interface TextFormat {
  indent: string;
  eol: "\n" | "\r\n";
  finalNewline: boolean;
  bom: boolean;
}

export const DEFAULT_FORMAT: TextFormat = { indent: "  ", eol: "\n", finalNewline: true, bom: false };

/**
 * Parses a settings file's text. Empty (or whitespace-only) text is an empty object.
 * @throws SettingsError with the line and column when the text is not valid JSON, or not an object.
 */
export function parseSettingsText(text: string): { settings: JsonObject; format: TextFormat } {
  const bom = text.startsWith("\uFEFF");
  const body = bom ? text.slice(1) : text;
  const format: TextFormat = {
    indent: /^[{[][ \t]*\r?\n([ \t]+)\S/.exec(body)?.[1] ?? DEFAULT_FORMAT.indent,
    eol: body.includes("\r\n") ? "\r\n" : "\n",
    finalNewline: body.trim() === "" ? true : /\n$/.test(body),
    bom,
  };
  if (body.trim() === "") return { settings: {}, format };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /at position (\d+)/.exec(msg);
    let where = "";
    if (pos) {
      const before = body.slice(0, Number(pos[1]));
      const line = before.split("\n").length;
      where = ` (line ${line}, column ${before.length - before.lastIndexOf("\n")})`;
    }
    throw new SettingsError(`not valid JSON${where}: ${msg}`);
  }
  checkTopLevel(parsed);
  return { settings: parsed, format };
}

export function formatSettings(settings: JsonObject, format: TextFormat = DEFAULT_FORMAT): string {
  let text = JSON.stringify(settings, null, format.indent);
  if (format.eol === "\r\n") text = text.replace(/\n/g, "\r\n");
  return `${format.bom ? "\uFEFF" : ""}${text}${format.finalNewline ? format.eol : ""}`;
}
