/**
 * What the SDK's stdio transport drops without a word: a line that is not JSON, or JSON that is
 * no JSON-RPC 2.0 message its schema reads (an id that is neither a string nor an integer, params
 * that are not an object, a member too many, a request that carries a result). JSON-RPC 2.0 asks
 * for an answer (Parse error -32700, Invalid Request -32600, Invalid params -32602; id null when
 * it cannot be read), so the client is not left waiting. A line is also handed on in the form
 * the SDK reads: without a leading byte order mark or surrounding white space, which JSON.parse
 * (the SDK's) refuses but a client may well send.
 * Pure: a line in, the error to answer with (or undefined: the line goes on to the SDK).
 */
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

export interface LineError {
  id: string | number | null;
  code: number;
  message: string;
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/** The line as the SDK is to read it: no byte order mark, no white space (JSON's or Unicode's) around it (trim takes both). */
export const normalLine = (line: Buffer | string): string => (typeof line === "string" ? line : line.toString("utf8")).trim();

/** The error a line must be answered with, or undefined for a line the SDK reads (or a blank one, skipped by `blank`). */
export function lineError(line: Buffer | string): LineError | undefined {
  const text = normalLine(line);
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
  const invalid = (why: string, code = INVALID_REQUEST): LineError => ({ id: idOf(m.id), code, message: `${code === INVALID_PARAMS ? "Invalid params" : "Invalid Request"}: ${why}` });
  if (m.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0"');
  if (!("method" in m)) return "result" in m || "error" in m ? undefined : invalid("no method"); // a response: the SDK's (never answered)
  if (typeof m.method !== "string") return invalid("method must be a string");
  if ("result" in m || "error" in m) return invalid("a request has a method or a result/error, not both");
  if ("id" in m && !(typeof m.id === "string" || Number.isInteger(m.id))) return invalid("id must be a string or an integer");
  if ("params" in m && Array.isArray(m.params)) return "id" in m ? invalid("params must be an object (by name); MCP takes no positional params", INVALID_PARAMS) : undefined; // a notification is never answered
  if ("params" in m && (m.params === null || typeof m.params !== "object")) return invalid("params must be an object");
  // Anything else the SDK's schema refuses (a member it does not know, a malformed _meta) it would drop.
  if (!JSONRPCMessageSchema.safeParse(m).success) return invalid(`not a JSON-RPC message of MCP (a request has jsonrpc, id, method and params${"id" in m ? "" : "; a notification no id"}, nothing else)`);
  return undefined;
}

/** A blank line (the SDK would report it as unreadable): dropped, with no answer. */
export const blank = (line: Buffer | string) => normalLine(line) === "";

const idOf = (v: unknown): string | number | null => (typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) ? v : null);

/** The JSON-RPC error answer for `e`, one line. */
export const errorLine = (e: LineError) => `${JSON.stringify({ jsonrpc: "2.0", id: e.id, error: { code: e.code, message: e.message } })}\n`;
