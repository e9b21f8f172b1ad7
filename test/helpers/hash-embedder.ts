import { createHash } from "node:crypto";
import { normalize, type EmbedKind, type EmbeddingProvider, type Health } from "../../src/embed/provider.js";

/**
 * A deterministic embedder for ranking tests: feature-hashed bag of lower-cased words (plus a
 * per-word sign), unit-normalised. Texts that share words are close; unrelated texts are near
 * orthogonal. It knows nothing of meaning — it exists so ranking and fusion are reproducible.
 */
export function hashVector(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = createHash("md5").update(word).digest();
    const slot = h.readUInt32LE(0) % dims;
    v[slot] = v[slot]! + ((h[4]! & 1) === 0 ? 1 : -1);
  }
  return normalize(v);
}

export class HashEmbedder implements EmbeddingProvider {
  readonly name = "hash";
  /** Calls and texts embedded as documents (what the vector step stores). */
  calls = 0;
  texts = 0;
  /** Calls and texts embedded as queries (searches, and the calibration's pseudo-queries). */
  queryCalls = 0;
  queries = 0;
  /** When set, embed() of documents throws once this many documents have been embedded. */
  failAfterTexts: number | undefined;
  constructor(readonly model = "hash-test", readonly dims = 64) {}
  async health(): Promise<Health> {
    return { ok: true, dims: this.dims };
  }
  /** Both sides alike: a hash embedder has no prefixes. */
  async embed(texts: string[], kind?: EmbedKind): Promise<Float32Array[]> {
    if (kind === "query") {
      this.queryCalls++;
      this.queries += texts.length;
      return texts.map((t) => hashVector(t, this.dims));
    }
    if (this.failAfterTexts !== undefined && this.texts + texts.length > this.failAfterTexts) {
      throw new Error("hash embedder: simulated failure");
    }
    this.calls++;
    this.texts += texts.length;
    return texts.map((t) => hashVector(t, this.dims));
  }
}
