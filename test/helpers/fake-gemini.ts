/**
 * A loopback server that speaks just enough of Gemini's generateContent API
 * (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, and the plain `:generateContent`)
 * for Gemini CLI to finish a turn: every request is kept, and each is answered with one model
 * message, `reply`; with `tool`, a request that holds no tool result yet is answered with that
 * function call first. For the live Gemini CLI test; listens on 127.0.0.1.
 */
import { createServer, type Server } from "node:http";

export interface FakeGemini {
  /** What GOOGLE_GEMINI_BASE_URL points at. */
  url: string;
  /** Every request: its path and its body, parsed. */
  requests: { path: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

export function startFakeGemini(reply: string, tool?: { name: string; args: Record<string, unknown> }): Promise<FakeGemini> {
  const requests: FakeGemini["requests"] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {
        parsed = { unparsed: body };
      }
      const path = req.url ?? "";
      requests.push({ path, body: parsed });
      const parts = tool && !body.includes("functionResponse") ? [{ functionCall: tool }] : [{ text: reply }];
      const answer = { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 } };
      if (path.includes(":streamGenerateContent")) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`data: ${JSON.stringify(answer)}\n\n`);
      } else if (path.includes(":countTokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ totalTokens: 10 }));
      } else if (path.includes(":generateContent")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      } else {
        res.writeHead(404).end();
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const a = server.address();
      const port = typeof a === "object" && a ? a.port : 0;
      resolve({ url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}
