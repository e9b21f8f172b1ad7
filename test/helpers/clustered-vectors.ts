/**
 * Seeded vectors with the shape of real sentence embeddings, for bench:scale and the code copy's
 * tests: rows gather around topics (clusters), and every vector leans toward one shared direction
 * (real encoders' vectors are far from isotropic: their mean cosine is 0.2 to 0.4), which is what
 * makes sign codes harder. Or rows made from the real LoCoMo USE vectors (/work/shared/data/locomo-dev/vectors, or ../shared relative to the repo).
 */
import { existsSync, readFileSync } from "node:fs";
import { prng } from "../../scripts/prng.js";

function gaussian(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let j = 0; j < v.length; j++) v[j]! /= n;
  return v;
}

/** Unit vectors: `bases` directions, mixed two at a time with noise: a stream of rows or queries. */
export class ClusteredVectors {
  private readonly gauss: () => number;
  private readonly rand: () => number;

  constructor(
    readonly dims: number,
    private readonly bases: Float32Array[],
    seed: number,
    /** Gaussian noise per dimension, relative to a unit vector's per-dimension size. */
    private readonly noise = 0.9,
  ) {
    this.rand = prng(seed);
    this.gauss = gaussian(this.rand);
  }

  /** Synthetic topics: `topics` random directions leaning 0.6 toward one shared direction. */
  static synthetic(dims: number, topics: number, seed: number): ClusteredVectors {
    const g = gaussian(prng(seed));
    const shared = normalise(Float32Array.from({ length: dims }, g));
    const bases = Array.from({ length: topics }, () => {
      const v = normalise(Float32Array.from({ length: dims }, g));
      return normalise(v.map((x, j) => x + 0.6 * shared[j]!));
    });
    return new ClusteredVectors(dims, bases, seed + 1);
  }

  /** The LoCoMo conv-30 turn vectors (USE, 512 dims) as topics, when the file is there. */
  static locomo(path: string, seed: number): { rows: ClusteredVectors; questions: Float32Array[] } | undefined {
    if (!existsSync(path)) return undefined;
    const data = JSON.parse(readFileSync(path, "utf8")) as { turns: Record<string, number[]>; questions: Record<string, number[]> };
    const bases = Object.values(data.turns).map((v) => normalise(Float32Array.from(v)));
    const questions = Object.values(data.questions).map((v) => normalise(Float32Array.from(v)));
    return { rows: new ClusteredVectors(bases[0]!.length, bases, seed, 0.5), questions };
  }

  /** The next vector: a topic, a little of a second, and noise. */
  next(): Float32Array {
    const a = this.bases[Math.floor(this.rand() * this.bases.length)]!;
    const b = this.bases[Math.floor(this.rand() * this.bases.length)]!;
    const mix = 0.3 * this.rand();
    const scale = this.noise / Math.sqrt(this.dims);
    const v = new Float32Array(this.dims);
    for (let j = 0; j < this.dims; j++) v[j] = a[j]! + mix * b[j]! + scale * this.gauss();
    return normalise(v);
  }
}
