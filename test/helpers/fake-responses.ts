/**
 * A loopback server that speaks just enough of OpenAI's Responses API (`POST /v1/responses`,
 * streamed as server-sent events) for Codex CLI to finish a turn: every request is kept, and each
 * is answered with one assistant message, `reply`; with `call`, a request that holds no tool output
 * yet is answered first with that function call: a string is a command for Codex's `exec_command`
 * tool, `{ name, arguments }` any tool (update_plan, say). For the live Codex tests; listens on 127.0.0.1.
 */
import { createServer, type Server } from "node:http";

export interface FakeResponses {
  /** The base URL Codex's model provider points at (…/v1). */
  url: string;
  /** Every request body, parsed. */
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

/** A function call the fake model makes: a command for exec_command, or a named tool with its arguments. */
export type FakeCall = string | { name: string; arguments: Record<string, unknown> };

function events(reply: string, n: number, call: FakeCall | undefined): string {
  const fn = typeof call === "string" ? { name: "exec_command", arguments: { cmd: call } } : call;
  const item = fn
    ? { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: fn.name, arguments: JSON.stringify(fn.arguments), status: "completed" }
    : { type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: reply, annotations: [] }] };
  const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
  const out: [string, Record<string, unknown>][] = [
    ["response.created", { response: { id: `resp_${n}`, object: "response", status: "in_progress", output: [] } }],
    ["response.output_item.added", { output_index: 0, item }],
    ["response.output_item.done", { output_index: 0, item }],
    ["response.completed", { response: { id: `resp_${n}`, object: "response", status: "completed", output: [item], usage } }],
  ];
  return out.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`).join("");
}

export function startFakeResponses(reply: string, call?: FakeCall): Promise<FakeResponses> {
  const requests: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      try {
        requests.push(JSON.parse(body) as Record<string, unknown>);
      } catch {
        requests.push({ unparsed: body });
      }
      if (req.method !== "POST" || !req.url?.endsWith("/responses")) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(events(reply, requests.length, call !== undefined && !body.includes("function_call_output") ? call : undefined));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const a = server.address();
      const port = typeof a === "object" && a ? a.port : 0;
      resolve({ url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}
