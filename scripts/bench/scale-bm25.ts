/**
 * bench:scale's BM25 leg: `n` chunks of synthetic text (a 20,000-word vocabulary drawn Zipf-wise,
 * as bench:prompt's corpus) written straight into a real SQLite store (FTS5 through its triggers),
 * then the leg timed for prompts of 3–7 content words, as the daemon runs it.
 */
import { join } from "node:path";
import { loadavg } from "node:os";
import { defaultConfig } from "../../src/config/config.js";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { openDb, type Db } from "../../src/store/db.js";
import { prng } from "../prng.js";
import { syntheticQueries, vocabulary, zipf } from "./scale.js";

/** The curve's store of `n` chunks in `dir`: a store kept there by an earlier run (`--bm25-dir`) is used as it is. */
export function bm25Store(dir: string, n: number): { db: Db; writeS: number } {
  const db = openDb(join(dir, `bm25-${n}.sqlite`));
  const t = performance.now();
  if ((db.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n !== n) fill(db, n);
  return { db, writeS: (performance.now() - t) / 1000 };
}

/** Leaves the store with `n` chunks of the seeded Zipf text, whatever it held. */
function fill(db: Db, n: number): void {
  db.prepare("DELETE FROM chunks").run();
  db.prepare("DELETE FROM sources").run();
  const rand = prng(7);
  const word = zipf(vocabulary(20_000, rand), rand);
  const sentence = () => `${Array.from({ length: 8 + Math.floor(rand() * 10) }, word).join(" ")}.`;
  db.prepare("INSERT INTO sources (id, project, path, kind, size, mtime_ms, content_hash, indexed_at) VALUES (1, 'bench', 'bench.md', 'markdown', 0, 0, '', 0)").run();
  const insert = db.prepare(
    "INSERT INTO chunks (id, source_id, project, path, kind, heading, start_line, end_line, text, seq) VALUES (?, 1, 'bench', 'bench.md', 'markdown', ?, ?, ?, ?, ?)",
  );
  for (let i = 0; i < n; i += 10_000) {
    db.transaction(() => {
      for (let k = i; k < Math.min(n, i + 10_000); k++) insert.run(`c${k}`, `${word()} ${word()}`, k, k, Array.from({ length: 12 }, sentence).join(" "), k);
    })();
  }
}

export async function bm25Curve(work: string, n: number, queries: number, log: (s: string) => void): Promise<void> {
  const { db, writeS } = bm25Store(work, n);
  const limit = defaultConfig().query.candidates;
  const times: number[] = [];
  for (const [i, q] of syntheticQueries(queries + 10).entries()) {
    const t = performance.now();
    bm25Leg(db, `why did we decide on ${q}?`, { projects: ["bench"] }, limit);
    if (i >= 10) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!.toFixed(1);
  log(`BM25 leg ${n.toLocaleString("en")} chunks (written in ${writeS.toFixed(0)} s): p50 ${at(50)} / p95 ${at(95)} / p99 ${at(99)} ms [load ${loadavg()[0]!.toFixed(1)}]`);
  db.close();
}
