import { Ollama } from "ollama";
import type { OllamaConfig } from "../config/config.js";
import { withPrefix, type EmbedKind, type ModelEntry, type Prefixes } from "../config/catalogue.js";
import { modelInfo, type ModelInfo } from "./models.js";
import { EmbedError, normalize, type EmbeddingProvider, type Health } from "./provider.js";

/** Socket-level failures that mean "the server is (momentarily) not there": worth retrying. */
const NET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND",
  "UND_ERR_SOCKET", "UND_ERR_CLOSED", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/**
 * The client console.log()s while reading a non-JSON error body, which would corrupt a stdio
 * protocol on stdout. Re-wrap every error answer as `{"error": ...}` JSON so it never does.
 */
async function jsonErrors(res: Response): Promise<Response> {
  if (res.ok) return res;
  const text = await res.text();
  let error = text.trim() || res.statusText || "no details";
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body?.error === "string") error = body.error;
  } catch { /* not JSON: keep the text */ }
  return new Response(JSON.stringify({ error: error.slice(0, 500) }), { status: res.status, statusText: res.statusText, headers: { "content-type": "application/json" } });
}

/** `nomic-embed-text` means `nomic-embed-text:latest`; an explicit tag must match exactly. */
export function modelMatches(wanted: string, listed: string): boolean {
  const lastSegment = wanted.slice(wanted.lastIndexOf("/") + 1);
  return listed === (lastSegment.includes(":") ? wanted : `${wanted}:latest`) || listed === wanted;
}

/** Embeddings from Ollama's `/api/embed`, one HTTP call per batch, with per-request timeouts. */
export class OllamaProvider implements EmbeddingProvider {
  readonly name = "ollama";
  readonly model: string;
  /** What mem knows of the model (models/catalogue.json, or `overrides` from config). */
  readonly info: ModelInfo;
  readonly prefixes: Prefixes;
  private dims: number | undefined;

  constructor(private readonly cfg: OllamaConfig, overrides: ModelEntry[] = []) {
    this.model = cfg.model;
    this.info = modelInfo(cfg.model, overrides);
    this.prefixes = this.info.entry.prefixes;
  }

  /**
   * The client passes no AbortSignal for non-streaming calls, so timeouts and cancellation go
   * through a custom fetch: every HTTP request gets its own timer plus the caller's signal.
   */
  private client(timeoutMs: number, signal?: AbortSignal): Ollama {
    const timedFetch: typeof fetch = (input, init) => {
      const signals = [AbortSignal.timeout(timeoutMs)];
      if (signal) signals.push(signal);
      if (init?.signal) signals.push(init.signal);
      return fetch(input, { ...init, signal: AbortSignal.any(signals) }).then(jsonErrors);
    };
    return new Ollama({ host: this.cfg.host, fetch: timedFetch });
  }

  private where(): string {
    return `ollama (model "${this.model}" at ${this.cfg.host})`;
  }

  /** Maps whatever the client threw onto an EmbedError that says what happened and whether to retry. */
  private toEmbedError(err: unknown, what: string, timeoutMs: number, signal?: AbortSignal): EmbedError {
    if (err instanceof EmbedError) return err;
    const e = err as { name?: string; message?: string; status_code?: unknown; cause?: { code?: string; message?: string } };
    if (signal?.aborted) return new EmbedError(`${this.where()}: ${what} aborted`, false, { cause: err });
    if (e?.name === "TimeoutError") return new EmbedError(`${this.where()}: ${what} timed out after ${timeoutMs} ms`, true, { cause: err });
    if (e?.name === "ResponseError" && typeof e.status_code === "number") {
      const retry = e.status_code >= 500 || e.status_code === 408 || e.status_code === 429;
      return new EmbedError(`${this.where()}: ${what} failed: HTTP ${e.status_code}: ${e.message}`, retry, { cause: err });
    }
    const code = e?.cause?.code;
    if (e?.name === "TypeError" && ((code !== undefined && NET_CODES.has(code)) || e.message === "fetch failed")) {
      const detail = code ?? e.cause?.message ?? e.message;
      return new EmbedError(`${this.where()}: ${what} failed: cannot reach the server (${detail})`, true, { cause: err });
    }
    if (e?.name === "SyntaxError") return new EmbedError(`${this.where()}: ${what}: answer is not valid JSON`, false, { cause: err });
    return new EmbedError(`${this.where()}: ${what} failed: ${e?.message ?? String(err)}`, false, { cause: err });
  }

  /** Checks the answer has one finite, same-length vector per input, then normalises each. */
  private validate(answer: unknown, count: number): Float32Array[] {
    const bad = (why: string) => new EmbedError(`${this.where()}: malformed /api/embed answer: ${why}`, false);
    const rows = (answer as { embeddings?: unknown } | null)?.embeddings;
    if (!Array.isArray(rows)) throw bad("no embeddings array");
    if (rows.length !== count) throw bad(`expected ${count} vectors, got ${rows.length}`);
    const dims = this.dims ?? (Array.isArray(rows[0]) ? rows[0].length : 0);
    return rows.map((row: unknown, i) => {
      if (!Array.isArray(row) || row.length === 0) throw bad(`vector ${i} is not a non-empty array`);
      if (row.length !== dims) throw bad(`vector ${i} has ${row.length} dims, expected ${dims}`);
      const v = new Float32Array(row.length);
      for (let j = 0; j < row.length; j++) {
        const x: unknown = row[j];
        if (typeof x !== "number") throw bad(`vector ${i} holds a non-number`);
        v[j] = x;
        if (!Number.isFinite(v[j])) throw bad(`vector ${i} holds a non-finite value`);
      }
      return normalize(v);
    });
  }

  async embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const timeoutMs = this.cfg.timeoutMs;
    let answer: unknown;
    try {
      signal?.throwIfAborted();
      answer = await this.client(timeoutMs, signal).embed({ model: this.model, input: withPrefix(texts, kind, this.prefixes) });
    } catch (err) {
      throw this.toEmbedError(err, `embedding ${texts.length} text(s)`, timeoutMs, signal);
    }
    const vectors = this.validate(answer, texts.length);
    this.dims ??= vectors[0]?.length;
    return vectors;
  }

  async health(signal?: AbortSignal): Promise<Health> {
    const host = this.cfg.host;
    const timeoutMs = this.cfg.healthTimeoutMs;
    let version: string;
    let names: string[];
    try {
      signal?.throwIfAborted();
      const client = this.client(timeoutMs, signal);
      const [v, list] = await Promise.all([client.version(), client.list()]);
      version = typeof v?.version === "string" ? v.version : "unknown";
      names = (Array.isArray(list?.models) ? list.models : []).flatMap((m) => [m?.name, m?.model]).filter((n) => typeof n === "string");
    } catch (err) {
      const e = this.toEmbedError(err, "health check", timeoutMs, signal);
      if (signal?.aborted) return { ok: false, reason: e.message };
      if (!e.retryable) return { ok: false, reason: e.message, fix: `check that ${host} is an Ollama server (MEM_OLLAMA_HOST)` };
      return { ok: false, reason: e.message, fix: `start it: \`ollama serve\` (expected at ${host}; set MEM_OLLAMA_HOST if it listens elsewhere)` };
    }
    if (!names.some((n) => modelMatches(this.model, n))) {
      const have = names.length > 0 ? ` (installed: ${[...new Set(names)].join(", ")})` : " (no models installed)";
      return { ok: false, reason: `${this.where()}: model is not pulled${have}`, fix: `\`ollama pull ${this.model}\`` };
    }
    try {
      // The probe may have to load the model first: give it the embed timeout, not the health one.
      const [probe] = await this.embed(["health check probe"], "query", signal);
      if (!probe) throw new EmbedError(`${this.where()}: probe returned no vector`);
      return { ok: true, dims: probe.length, detail: `ollama ${version} at ${host}, model ${this.model}, ${probe.length} dims` };
    } catch (err) {
      return { ok: false, reason: (err as Error).message };
    }
  }
}
