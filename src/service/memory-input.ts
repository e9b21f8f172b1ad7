/**
 * What the memory service takes from a caller (the CLI, the daemon's socket, the MCP server, an
 * import) and the ids it gives: a memory's text, kind, tags and files are checked here, each
 * refusal a MemoryError that says what was wrong. Pure.
 */
import { createHash } from "node:crypto";
import { MIN_ID_CHARS } from "../store/one-id.js";
import { MemoryError } from "../util/memory-error.js";
import { EXPLICIT_KINDS, MAX_MEMORY_CHARS } from "./types.js";

const sha = (...parts: string[]) => createHash("sha256").update(parts.join("\0")).digest("hex");

/** The id of an explicit memory put under a client key in a project (the same key, the same id). */
export const keyedId = (project: string, key: string) => `mem:${sha(project, key).slice(0, 24)}`;
/** The id of a memory with no key and no id of its own given to an import: its content's. */
export const contentId = (project: string, kind: string, text: string) => `mem:${sha(project, "import", kind, text).slice(0, 24)}`;

/** The id an import gives a line whose own id is another project's, or could pass for another memory's one id: the same line, the same id. */
export const importedId = (project: string, id: string) => `mem:${sha(project, "imported id", id).slice(0, 24)}`;

/** The fewest leading characters of an id that `get` (so edit and forget) resolves (the one id has 12). */
export const MIN_ID_PREFIX = MIN_ID_CHARS;

export function checkText(text: unknown, what = "text"): string {
  if (typeof text !== "string" || text.trim() === "") throw new MemoryError("bad_argument", `${what} must be a non-empty string`);
  if (text.length > MAX_MEMORY_CHARS) throw new MemoryError("too_large", `${what} is ${text.length.toLocaleString("en")} characters; a memory holds at most ${MAX_MEMORY_CHARS.toLocaleString("en")} (write a longer document as a markdown note and \`mem index\` it)`);
  return text.trim();
}

export function checkKind(kind: unknown): string {
  if (kind === undefined) return "note";
  if (typeof kind !== "string" || !(EXPLICIT_KINDS as readonly string[]).includes(kind)) throw new MemoryError("bad_argument", `kind must be one of ${EXPLICIT_KINDS.join(", ")}, got ${JSON.stringify(kind)}`);
  return kind;
}

export function checkList(v: unknown, what: string, max: number, item: RegExp): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw new MemoryError("bad_argument", `${what} must be a list of strings`);
  const out = [...new Set((v as string[]).map((x) => x.trim()).filter(Boolean))];
  if (out.length > max) throw new MemoryError("bad_argument", `at most ${max} ${what}, got ${out.length}`);
  const bad = out.find((x) => !item.test(x));
  if (bad !== undefined) throw new MemoryError("bad_argument", `bad ${what.replace(/s$/, "")}: ${JSON.stringify(bad.slice(0, 80))}`);
  return out;
}
export const TAG = /^[\p{L}\p{N}_.:/#+-]{1,64}$/u;
export const FILE = /^[^\0\n\r]{1,1024}$/;
