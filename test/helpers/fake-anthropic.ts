import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback HTTP server speaking the part of the Anthropic Messages API that Claude Code uses for
 * a turn (`POST /v1/messages`, streamed or not), so a real Claude Code can run a scripted session
 * with no network and no model. Every request body is kept for the test to read.
 */
export type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export interface FakeAnthropic {
  readonly url: string;
  /** Bodies of every /v1/messages request, parsed, in order. */
  readonly requests: Record<string, unknown>[];
  close(): Promise<void>;
}

/** `script` sees the request body and says what the model answers (text and/or tool calls). */
export async function startFakeAnthropic(script: (body: Record<string, unknown>) => Block[]): Promise<FakeAnthropic> {
  const requests: Record<string, unknown>[] = [];
  const server = createServer((req, res) => void handle(req, res));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      // not JSON: answered below like any unknown request
    }
    const json = (status: number, o: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(o));
    };
    if (req.method !== "POST" || !req.url?.startsWith("/v1/messages")) return json(404, { type: "error", error: { type: "not_found_error", message: "not here" } });
    if (req.url.startsWith("/v1/messages/count_tokens")) return json(200, { input_tokens: 100 });
    requests.push(body);
    const content = script(body);
    const stop = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
    const message = { id: `msg_${requests.length}`, type: "message", role: "assistant", model: String(body.model ?? "claude-test"), content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 } };
    if (body.stream !== true) return json(200, message);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    event("message_start", { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
    content.forEach((b, index) => {
      if (b.type === "text") {
        event("content_block_start", { index, content_block: { type: "text", text: "" } });
        event("content_block_delta", { index, delta: { type: "text_delta", text: b.text } });
      } else {
        event("content_block_start", { index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
        event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) } });
      }
      event("content_block_stop", { index });
    });
    event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
    event("message_stop", {});
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
