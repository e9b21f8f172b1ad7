/**
 * What the SDK's stdio transport drops without a word: a line that is not JSON, or JSON that is
 * no JSON-RPC 2.0 message. JSON-RPC 2.0 asks for an answer to both (Parse error -32700 and
 * Invalid Request -32600, id null when it cannot be read), so the client is not left waiting.
 * Pure: a line in, the error to answer with (or undefined: the line goes on to the SDK).
 */

export interface LineError {
  id: string | number | null;
  code: number;
  message: string;
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** The error a line must be answered with, or undefined for a line the SDK reads (or a blank one, skipped by `blank`). */
export function lineError(line: Buffer | string): LineError | undefined {
  const text = (typeof line === "string" ? line : line.toString("utf8")).trim();
  if (text === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { id: null, code: PARSE_ERROR, message: "Parse error: the line is not valid JSON" };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { id: null, code: INVALID_REQUEST, message: `Invalid Request: a JSON-RPC message is one JSON object${Array.isArray(value) ? " (batches are not supported)" : ""}` };
  }
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return { id: idOf(m.id), code: INVALID_REQUEST, message: 'Invalid Request: "jsonrpc" must be "2.0"' };
  if (!("method" in m) && !("result" in m) && !("error" in m)) return { id: idOf(m.id), code: INVALID_REQUEST, message: "Invalid Request: no method" };
  if ("method" in m && typeof m.method !== "string") return { id: idOf(m.id), code: INVALID_REQUEST, message: "Invalid Request: method must be a string" };
  return undefined;
}

/** A blank line (the SDK would report it as unreadable): dropped, with no answer. */
export const blank = (line: Buffer | string) => (typeof line === "string" ? line : line.toString("utf8")).trim() === "";

const idOf = (v: unknown): string | number | null => (typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) ? v : null);

/** The JSON-RPC error answer for `e`, one line. */
export const errorLine = (e: LineError) => `${JSON.stringify({ jsonrpc: "2.0", id: e.id, error: { code: e.code, message: e.message } })}\n`;
