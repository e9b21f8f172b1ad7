import { existsSync } from "node:fs";
import { readRegular } from "../util/read-regular.cjs";
import { join } from "node:path";
import type { TransformersConfig } from "../config/config.js";
import { withPrefix, type EmbedKind, type ModelEntry, type Prefixes } from "../config/catalogue.js";
import { modelInfo, type ModelInfo } from "./models.js";
import { EmbedError, normalize, type EmbeddingProvider, type Health } from "./provider.js";
import { loadTransformers } from "./transformers-lib.js";
import { downloadNotice, embedNotice } from "./notices.js";

/** A model still loading after this long (or half its load timeout), with nothing on disk, is being downloaded: say so. */
export const DOWNLOAD_NOTICE_AFTER_MS = 1_000;

/** The slice of a transformers.js feature-extraction pipeline this provider uses. */
type Extractor = ((texts: string[], opts: { pooling: "mean" | "cls"; normalize: boolean }) => Promise<{ dims: number[]; data: Float32Array }>) & {
  dispose?: () => Promise<void>;
};

/** What is on disk for a model: its folder, whether it is complete, and which onnx flavour it has. */
interface LocalModel {
  dir: string;
  complete: boolean;
  quantized: boolean;
}

/** Embeddings computed in-process by transformers.js (ONNX Runtime), pooled as the catalogue says (mean by default) and unit-normalised. */
export class TransformersProvider implements EmbeddingProvider {
  readonly name = "transformers";
  readonly model: string;
  /** What mem knows of the model (models/catalogue.json, or `overrides` from config): prefixes and pooling. */
  readonly info: ModelInfo;
  readonly prefixes: Prefixes;
  private loading: Promise<Extractor> | undefined;
  /** Has `loading` resolved? (close() awaits disposal only then.) */
  private ready = false;

  constructor(private readonly cfg: TransformersConfig, overrides: ModelEntry[] = []) {
    this.model = cfg.model;
    this.info = modelInfo(cfg.model, overrides);
    this.prefixes = this.info.entry.prefixes;
  }

  private local(): LocalModel {
    const dir = join(this.cfg.cacheDir, ...this.model.split("/"));
    const has = (f: string) => existsSync(join(dir, f));
    const quantized = has("onnx/model_quantized.onnx");
    const onnx = quantized || has("onnx/model.onnx");
    const complete = onnx && has("config.json") && has("tokenizer.json") && has("tokenizer_config.json");
    // Nothing local: a download fetches the quantized file, which is what Xenova hub repos ship.
    return { dir, complete, quantized: quantized || !onnx };
  }

  /**
   * Loads the pipeline once; a failed load is forgotten so the next call may retry.
   * transformers.js `env` is process-global: providers with different cacheDirs must not load concurrently.
   */
  private load(): Promise<Extractor> {
    this.loading ??= (async () => {
      const { pipeline, env } = await loadTransformers();
      env.localModelPath = this.cfg.cacheDir;
      env.cacheDir = this.cfg.cacheDir;
      env.allowLocalModels = true;
      env.allowRemoteModels = this.cfg.allowRemote;
      const { complete, quantized } = this.local();
      // Said only when the download is really under way: one that fails at once (offline) says nothing.
      const notice = !complete && this.cfg.allowRemote ? setTimeout(() => embedNotice(downloadNotice(this.model, this.cfg.cacheDir)), Math.min(DOWNLOAD_NOTICE_AFTER_MS, this.cfg.loadTimeoutMs / 2)) : undefined;
      notice?.unref();
      try {
        return (await pipeline("feature-extraction", this.model, { quantized })) as unknown as Extractor;
      } finally {
        clearTimeout(notice);
      }
    })();
    const attempt = this.loading;
    attempt.then(
      () => { if (this.loading === attempt) this.ready = true; },
      () => { if (this.loading === attempt) this.loading = undefined; },
    );
    return attempt;
  }

  /** Loads, giving up after cfg.loadTimeoutMs (the load itself cannot be cancelled; the timer never holds the process). */
  private loadWithin(signal?: AbortSignal): Promise<Extractor> {
    const ms = this.cfg.loadTimeoutMs;
    return new Promise<Extractor>((resolve, reject) => {
      const onAbort = () => reject(new EmbedError(`transformers: loading "${this.model}" aborted`));
      if (signal?.aborted) return onAbort();
      const timer = setTimeout(() => reject(new EmbedError(`transformers: loading "${this.model}" timed out after ${ms} ms`, true)), ms);
      timer.unref();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.load()
        .then(resolve, (err: unknown) => reject(this.wrap(err, "loading")))
        .finally(() => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
        });
    });
  }

  private wrap(err: unknown, what: string): EmbedError {
    if (err instanceof EmbedError) return err;
    const cause = (err as { cause?: { code?: string; message?: string } } | null)?.cause;
    const why = cause?.code ?? cause?.message;
    const msg = (err instanceof Error ? err.message : String(err)) + (why ? ` (${why})` : "");
    return new EmbedError(`transformers: ${what} "${this.model}" failed: ${msg}`, false, { cause: err });
  }

  async health(signal?: AbortSignal): Promise<Health> {
    try {
      const m = this.local();
      if (m.complete) {
        const read = readRegular(join(m.dir, "config.json"), 1024 * 1024);
        if (!read.ok) throw new Error(`config.json: ${read.reason}`);
        const config = JSON.parse(read.data.toString("utf8")) as { hidden_size?: unknown };
        const dims = config.hidden_size;
        if (typeof dims !== "number" || !(dims > 0)) return { ok: false, reason: `${m.dir}/config.json has no hidden_size` };
        return { ok: true, dims, detail: `${this.model} (${m.quantized ? "quantized" : "fp32"}) in ${this.cfg.cacheDir}` };
      }
      if (!this.cfg.allowRemote) {
        return {
          ok: false,
          reason: `model ${this.model} not found in ${this.cfg.cacheDir}`,
          fix: `run mem once on a machine that can reach the Hugging Face hub (it downloads into ${this.cfg.cacheDir}), ` +
            `or copy the ${this.model} folder (config.json, tokenizer.json, tokenizer_config.json, onnx/) there`,
        };
      }
      const extractor = await this.loadWithin(signal);
      const probe = await extractor(["dimension probe"], { pooling: this.info.entry.pooling, normalize: false });
      return { ok: true, dims: probe.dims[probe.dims.length - 1] ?? 0, detail: `${this.model} downloaded to ${this.cfg.cacheDir}` };
    } catch (err) {
      const offline = offlineReason(err, this.model, this.cfg.cacheDir);
      return { ok: false, reason: offline ?? this.wrap(err, "loading").message, fix: "check network access to huggingface.co, or set MEM_MODELS_DIR to a folder holding the model" };
    }
  }

  async embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const extractor = await this.loadWithin(signal);
    if (signal?.aborted) throw new EmbedError("transformers: embedding aborted");
    try {
      const out = await extractor(withPrefix(texts, kind, this.prefixes), { pooling: this.info.entry.pooling, normalize: false });
      const dims = out.dims[out.dims.length - 1] ?? 0;
      if (out.dims.length !== 2 || out.dims[0] !== texts.length || dims <= 0) throw new Error(`unexpected output shape [${out.dims.join(", ")}]`);
      return texts.map((_, i) => normalize(out.data.slice(i * dims, (i + 1) * dims)));
    } catch (err) {
      throw this.wrap(err, "embedding with");
    }
  }

  /** Drops the pipeline. A load still in flight (say, a stalled download) is not awaited: it is disposed when it lands. */
  async close(): Promise<void> {
    const loading = this.loading;
    this.loading = undefined;
    const disposed = loading?.then((e) => e.dispose?.()).catch(() => undefined);
    if (this.ready) await disposed;
    this.ready = false;
  }
}

/** Network failures of a download: the host unknown, unreachable, refusing, or timing out. */
const OFFLINE_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_SOCKET"]);

/**
 * A model load that failed because the hub could not be reached (no network, no DNS: fetch's
 * "fetch failed" with an ENOTFOUND cause) said as what it means for the user, not as the socket
 * error; undefined for any other failure. Pure.
 */
export function offlineReason(err: unknown, model: string, cacheDir: string): string | undefined {
  const e = err as { message?: unknown; cause?: { code?: unknown; cause?: { code?: unknown } } } | null;
  const code = e?.cause?.code ?? e?.cause?.cause?.code;
  const offline = (typeof code === "string" && OFFLINE_CODES.has(code)) || (typeof e?.message === "string" && /^fetch failed\b/.test(e.message) && code === undefined);
  return offline ? `model ${model} is not in ${cacheDir} and huggingface.co cannot be reached to download it (offline?)` : undefined;
}
