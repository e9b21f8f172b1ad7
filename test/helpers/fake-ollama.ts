import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createNetServer, type Socket } from "node:net";
import { hashVector } from "./hash-embedder.js";

/**
 * Ways to spoil an otherwise good `/api/embed` answer:
 * - "count": one vector too many;
 * - "non-numeric": a string where a number belongs;
 * - "invalid-json": a body cut off mid-array (status 200, JSON content type);
 * - "ragged": the last vector is one dimension short;
 * - "overflow": a value (1e39) that is finite as a double but Infinity as a float32;
 * - "missing": no `embeddings` field at all.
 */
export type MalformedKind = "count" | "non-numeric" | "invalid-json" | "ragged" | "overflow" | "missing";

export interface FakeOllama {
  /** Base URL, e.g. "http://127.0.0.1:40123" (what OllamaConfig.host takes). */
  readonly url: string;
  /** POST /api/embed requests received (all of them, good or bad). */
  readonly requests: number;
  /** POST /api/embed requests counted as they arrive, before any delay (`requests` counts them once answered). */
  readonly arrived: number;
  /** Texts embedded by successful, well-formed answers. */
  readonly texts: number;
  /** The texts of those answers, as the server received them (prefixes included), oldest first. */
  readonly inputs: readonly string[];
  /** After `n` more successful embed answers the server destroys every socket and stops listening. */
  dieAfterEmbedRequests(n: number): void;
  /** Spoils every following embed answer in the given way; `null` goes back to good answers. */
  setMalformed(kind: MalformedKind | null): void;
  /** Changes the delay before every following answer. */
  setDelayMs(ms: number): void;
  /** Changes the delay before every following `/api/embed` answer only (the health check's version and tags stay quick). */
  setEmbedDelayMs(ms: number): void;
  /** Stops the server (idempotent, also fine after it died). */
  close(): Promise<void>;
}

export interface FakeOllamaOptions {
  /** Installed models as `/api/tags` lists them. Default ["nomic-embed-text:latest"]. */
  models?: string[];
  /** Vector length. Default 768 (nomic-embed-text's). */
  dims?: number;
  /** Delay before every API answer, in ms. Default 0. */
  delayMs?: number;
  /** Multiplies every vector (models need not answer with unit vectors). Default 1. */
  scale?: number;
}

/** nomic-embed-text's task prefixes. */
const TASK_PREFIX = /^(search_query|search_document|clustering|classification): /;

/** Ollama resolves an untagged name to `:latest`. */
const withTag = (name: string) => (name.slice(name.lastIndexOf("/") + 1).includes(":") ? name : `${name}:latest`);

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A loopback HTTP server speaking the part of Ollama's API that OllamaProvider uses. */
export async function startFakeOllama(opts: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const models = opts.models ?? ["nomic-embed-text:latest"];
  const dims = opts.dims ?? 768;
  let delayMs = opts.delayMs ?? 0;
  let embedDelayMs = 0;
  let arrived = 0;
  const scale = opts.scale ?? 1;
  let requests = 0;
  let texts = 0;
  const received: string[] = [];
  let malformed: MalformedKind | null = null;
  let dieAfter: number | undefined;
  let closed = false;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const tags = () => ({
    models: models.map((name) => ({
      name,
      model: name,
      modified_at: "2025-01-01T00:00:00.000000000Z",
      size: 274302450,
      digest: "0a109f422b47e3a30ba2b10eca18548e944e8a23073ee3f3e947efcf3c45e59f",
      details: { parent_model: "", format: "gguf", family: "nomic-bert", families: ["nomic-bert"], parameter_size: "137M", quantization_level: "F16" },
    })),
  });

  function die(): void {
    closed = true;
    server.close();
    server.closeAllConnections();
    for (const s of sockets) s.destroy();
  }

  function embed(body: string, res: ServerResponse): void {
    requests++;
    let parsed: { model?: unknown; input?: unknown };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      sendJson(res, 400, { error: "invalid request body" });
      return;
    }
    const { model, input } = parsed;
    if (typeof model !== "string" || model === "") {
      sendJson(res, 400, { error: "model is required" });
      return;
    }
    if (!models.includes(withTag(model))) {
      sendJson(res, 404, { error: `model "${model}" not found, try pulling it first` });
      return;
    }
    const inputs = typeof input === "string" ? [input] : input;
    if (!Array.isArray(inputs) || inputs.some((t) => typeof t !== "string")) {
      sendJson(res, 400, { error: "invalid input type" });
      return;
    }
    // Like nomic-embed-text, the fake reads a task prefix as which side a text is on, not as part of its
    // topic: the vector is the bare text's (what was received, prefix and all, is in `inputs`).
    const embeddings: unknown[][] = (inputs as string[]).map((t) => Array.from(hashVector(t.replace(TASK_PREFIX, ""), dims), (x) => x * scale));
    const answer: Record<string, unknown> = { model, embeddings, total_duration: 1000, load_duration: 100, prompt_eval_count: inputs.length };
    switch (malformed) {
      case "count": embeddings.push(Array.from(hashVector("extra", dims))); break;
      case "non-numeric": if (embeddings[0]) embeddings[0][0] = "0.5"; break;
      case "ragged": embeddings[embeddings.length - 1]?.pop(); break;
      case "overflow": if (embeddings[0]) embeddings[0][0] = 1e39; break;
      case "missing": delete answer.embeddings; break;
      case "invalid-json": {
        const cut = JSON.stringify(answer).slice(0, 40);
        res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(cut) });
        return void res.end(cut);
      }
      case null: break;
    }
    if (malformed !== null) {
      sendJson(res, 200, answer);
      return;
    }
    texts += inputs.length;
    received.push(...(inputs as string[]));
    if (dieAfter !== undefined && --dieAfter <= 0) res.once("finish", die);
    sendJson(res, 200, answer);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/api/embed") arrived++;
    const wait = delayMs + (path === "/api/embed" ? embedDelayMs : 0);
    if (wait > 0) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          resolve();
        }, wait);
        timers.add(t);
      });
    }
    if (closed || res.destroyed || req.socket.destroyed) return;
    if (req.method === "GET" && path === "/api/version") return sendJson(res, 200, { version: "0.0.0-fake" });
    if (req.method === "GET" && path === "/api/tags") return sendJson(res, 200, tags());
    if (req.method === "POST" && path === "/api/embed") return embed(body, res);
    sendJson(res, 404, { error: "404 page not found" });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
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
  const stopped = new Promise<void>((resolve) => server.once("close", () => resolve()));

  return {
    url: `http://127.0.0.1:${port}`,
    get requests() { return requests; },
    get arrived() { return arrived; },
    get texts() { return texts; },
    get inputs() { return received; },
    setDelayMs(ms: number) {
      delayMs = ms;
    },
    setEmbedDelayMs(ms: number) {
      embedDelayMs = ms;
    },
    dieAfterEmbedRequests(n: number) {
      dieAfter = n;
      if (n <= 0 && !closed) die();
    },
    setMalformed(kind: MalformedKind | null) { malformed = kind; },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      if (!closed) die();
      await stopped;
    },
  };
}

/** A loopback port nothing listens on: Ollama "not running". */
export async function closedPort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}
