/**
 * The structural barrier before redaction (issue 29): in transcript lines (and the PostToolUse payloads turned
 * into lines, src/capture/record.ts), the content of a secret file read, edited or written, and the output of a
 * command that prints secret material, are replaced by a note saying why, before anything is extracted,
 * redacted or stored. What is a secret file or such a command is decided in src/redact/sources.cts. A `tool_use`
 * and its `tool_result` are matched by id, in main and progress (subagent) lines alike. Pure: the input lines
 * are not changed.
 */
import { commandSecrecy, secretFileReason } from "../../redact/sources.cjs";
import type { TranscriptLine } from "../../store/event-types.js";
import { isObj, str } from "./messages.js";

/** How a withheld content begins: `[content not stored: secret file .env]`. */
export const WITHHELD = "[content not stored: ";
const note = (why: string) => `${WITHHELD}${why}]`;

/** The reason a tool result was withheld (from its text), or undefined. */
export function withheldReason(text: string): string | undefined {
  return text.startsWith(WITHHELD) ? text.slice(WITHHELD.length, text.indexOf("]")) : undefined;
}

/** Input fields that carry a file's content, by tool. */
const CONTENT_FIELDS = ["content", "old_string", "new_string", "new_source", "old_source"];

/** A tool call's input with its secret parts replaced, and why (or undefined when nothing is secret). */
function guardInput(name: string, input: Record<string, unknown>): { input: Record<string, unknown>; why: string } | undefined {
  if (name === "Bash") {
    const command = str(input.command);
    if (command === undefined) return undefined;
    const s = commandSecrecy(command);
    if (s.writes) return { input: { ...input, command: note(`the command writes ${s.writes}`) }, why: s.writes };
    return s.reads ? { input, why: s.reads } : undefined;
  }
  const path = str(input.file_path) ?? str(input.notebook_path) ?? (name === "Grep" ? str(input.path) : undefined);
  if (path === undefined) return undefined;
  const content = [input.content, input.new_string].find((v): v is string => typeof v === "string");
  const why = secretFileReason(path, content);
  if (!why) return undefined;
  const out: Record<string, unknown> = { ...input };
  for (const f of CONTENT_FIELDS) if (typeof out[f] === "string") out[f] = note(why);
  if (Array.isArray(out.edits)) out.edits = out.edits.map((e) => (isObj(e) ? { ...e, old_string: note(why), new_string: note(why) } : e));
  return { input: out, why };
}

/** The message object of a line (a progress line carries a subagent's message in `data.message`). */
function entryOf(line: TranscriptLine): Record<string, unknown> | undefined {
  if (line.type === "progress" && isObj(line.data) && isObj(line.data.message)) return line.data.message;
  return line;
}

/** `line` with its message entry replaced by `entry`. */
function withEntry(line: TranscriptLine, entry: Record<string, unknown>): TranscriptLine {
  if (line.type === "progress" && isObj(line.data) && isObj(line.data.message)) return { ...line, data: { ...line.data, message: entry } };
  return entry;
}

/** The lines with secret file contents and secret command outputs replaced by a note. */
export function withholdSecrets(lines: readonly TranscriptLine[]): TranscriptLine[] {
  const withheld = new Map<string, string>();
  const out = lines.map((line) => {
    const entry = isObj(line) ? entryOf(line) : undefined;
    const msg = entry?.message;
    if (!entry || !isObj(msg) || !Array.isArray(msg.content)) return line;
    let changed = false;
    const content = msg.content.map((b: unknown) => {
      if (!isObj(b)) return b;
      if (b.type === "tool_use" && typeof b.id === "string") {
        const g = guardInput(str(b.name) ?? "", isObj(b.input) ? b.input : {});
        if (!g) return b;
        withheld.set(b.id, g.why);
        changed = true;
        return { ...b, input: g.input };
      }
      if (b.type === "tool_result" && typeof b.tool_use_id === "string" && withheld.has(b.tool_use_id)) {
        changed = true;
        return { ...b, content: note(withheld.get(b.tool_use_id)!) };
      }
      return b;
    });
    if (!changed) return line;
    const next: Record<string, unknown> = { ...entry, message: { ...msg, content } };
    const ids = content.filter((b): b is Record<string, unknown> => isObj(b) && b.type === "tool_result" && typeof b.tool_use_id === "string" && withheld.has(b.tool_use_id));
    if (ids.length > 0 && next.toolUseResult !== undefined) {
      const why = withheld.get(String(ids[0]!.tool_use_id))!;
      const type = isObj(next.toolUseResult) ? str(next.toolUseResult.type) : undefined; // Write's create/update is kept
      next.toolUseResult = type ? { type, withheld: why } : note(why);
    }
    return withEntry(line, next);
  });
  return out;
}
