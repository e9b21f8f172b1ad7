import type { EmbedKind, Prefixes } from "../config/catalogue.js";

export type { EmbedKind, Prefixes } from "../config/catalogue.js";

/**
 * The one interface every embedding provider implements (Ollama, transformers.js, test embedders).
 * Vectors are returned unit-normalised so cosine similarity is a dot product.
 */
export interface EmbeddingProvider {
  /** Provider family: "ollama", "transformers", ... */
  readonly name: string;
  /** Model identifier as the provider knows it, e.g. "nomic-embed-text". */
  readonly model: string;
  /** Checks the provider can embed right now (server answers, model present / files loadable). Never throws. */
  health(signal?: AbortSignal): Promise<Health>;
  /**
   * The prefixes the provider puts before texts (models/catalogue.json): part of the vector
   * table's name, so vectors made under another prefix policy never share a table. Absent: none.
   */
  readonly prefixes?: Prefixes;
  /**
   * Embeds a batch of `kind` texts: "document" for what is indexed, "query" for what is searched
   * (a model may want a different prefix on each side). Throws EmbedError on failure. Output
   * length equals input length.
   */
  embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<Float32Array[]>;
  /** Releases resources (sessions, sockets). */
  close?(): Promise<void>;
}

export type Health =
  | { ok: true; dims: number; detail?: string }
  | { ok: false; reason: string; fix?: string };

export class EmbedError extends Error {
  constructor(message: string, readonly retryable = false, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EmbedError";
  }
}

/** Normalises a vector to unit length in place; returns it. Zero vectors stay zero. */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}
