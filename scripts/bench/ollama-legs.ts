/**
 * A loopback Ollama for the benches: answers the calls mem's Ollama client makes (`/api/version`,
 * `/api/tags`, `/api/show`, `/api/embed`, and the older `/api/embeddings`) with the vectors of one
 * leg (./vector-legs.ts). 127.0.0.1 only; bodies, batches and texts are bounded, and anything
 * else is a clear 4xx answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Embed } from "./vector-legs.js";

const MAX_BODY = 32 * 1024 * 1024;
const MAX_INPUTS = 4_096;
const MAX_TEXT = 1024 * 1024;

export interface LegServer {
  /** Base URL (`MEM_OLLAMA_HOST`). */
  readonly url: string;
  /** Texts embedded so far. */
  readonly texts: number;
  close(): Promise<void>;
}

export interface LegServerOptions {
  /** The model `/api/tags` lists (and the only one `/api/embed` answers for). */
  model: string;
  embed: Embed;
}

const withTag = (name: string) => (name.slice(name.lastIndexOf("/") + 1).includes(":") ? name : `${name}:latest`);

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

/** The body as text, or undefined when it passes `MAX_BODY` (the request is then answered 413). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const round = (v: Float32Array) => Array.from(v, (x) => Math.round(x * 1e6) / 1e6);

export async function startLegServer(opts: LegServerOptions): Promise<LegServer> {
  const model = withTag(opts.model);
  let texts = 0;
  const sockets = new Set<Socket>();

  const parse = (body: string): Record<string, unknown> | undefined => {
    try {
      const o = JSON.parse(body) as unknown;
      return o !== null && typeof o === "object" && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };

  function embed(req: Record<string, unknown>, res: ServerResponse, legacy: boolean) {
    if (typeof req.model !== "string" || withTag(req.model) !== model) return send(res, 404, { error: `model "${String(req.model)}" not found, try pulling it first` });
    const raw = legacy ? req.prompt : req.input;
    const inputs = typeof raw === "string" ? [raw] : raw;
    if (!Array.isArray(inputs) || inputs.some((t) => typeof t !== "string")) return send(res, 400, { error: "invalid input type" });
    if (inputs.length > MAX_INPUTS) return send(res, 400, { error: `at most ${MAX_INPUTS} inputs a request` });
    if ((inputs as string[]).some((t) => t.length > MAX_TEXT)) return send(res, 400, { error: `an input is longer than ${MAX_TEXT} characters` });
    const vectors = (inputs as string[]).map((t) => round(opts.embed(t)));
    texts += vectors.length;
    if (legacy) return send(res, 200, { embedding: vectors[0] });
    send(res, 200, { model: req.model, embeddings: vectors, total_duration: 1000, load_duration: 0, prompt_eval_count: vectors.length });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const body = await readBody(req);
    if (body === undefined) return send(res, 413, { error: "request body too large" });
    if (req.method === "GET" && path === "/api/version") return send(res, 200, { version: "0.0.0-bench" });
    if (req.method === "GET" && path === "/api/tags") return send(res, 200, { models: [{ name: model, model, modified_at: "2026-01-01T00:00:00Z", size: 0, digest: "0".repeat(64), details: { format: "gguf", family: "bench", parameter_size: "0", quantization_level: "F32" } }] });
    if (req.method !== "POST") return send(res, 404, { error: "404 page not found" });
    const o = parse(body);
    if (!o) return send(res, 400, { error: "invalid request body" });
    if (path === "/api/embed") return embed(o, res, false);
    if (path === "/api/embeddings") return embed(o, res, true);
    if (path === "/api/show") {
      const name = typeof o.model === "string" ? o.model : o.name;
      if (typeof name !== "string" || withTag(name) !== model) return send(res, 404, { error: `model "${String(name)}" not found` });
      return send(res, 200, { modelfile: "", parameters: "", template: "", details: { format: "gguf", family: "bench" }, model_info: {}, capabilities: ["embedding"] });
    }
    send(res, 404, { error: "404 page not found" });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => (res.headersSent ? res.destroy() : send(res, 500, { error: (err as Error).message })));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get texts() {
      return texts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      }),
  };
}
