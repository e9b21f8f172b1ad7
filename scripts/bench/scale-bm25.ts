/**
 * bench:scale's BM25 leg: `n` chunks of synthetic text (a 20,000-word vocabulary drawn Zipf-wise,
 * as bench:prompt's corpus) written straight into a real SQLite store (FTS5 through its triggers),
 * then the leg timed for prompts of 3–7 content words, as the daemon runs it and with every match
 * scored.
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

/**
 * The leg timed on `queries` prompts, bounded as the daemon runs it (src/retrieve/bm25-bound.ts)
 * and, interleaved with it on the same prompts, unbounded (every match scored): both timings, and
 * how many prompts got the same top 50 either way. The CPU time a prompt (mean) says what the
 * leg costs on a machine shared with other work, where the wall times wait for a core.
 */
export async function bm25Curve(work: string, n: number, queries: number, log: (s: string) => void): Promise<void> {
  const { db, writeS } = bm25Store(work, n);
  const limit = defaultConfig().query.candidates;
  const bounded: number[] = [];
  const full: number[] = [];
  const cpu = new Map<number[], number>([
    [bounded, 0],
    [full, 0],
  ]);
  let same = 0;
  for (const [i, q] of syntheticQueries(queries + 10).entries()) {
    const prompt = `why did we decide on ${q}?`;
    const run = (budget: number | undefined, into: number[]) => {
      const t = performance.now();
      const c = process.cpuUsage();
      const hits = bm25Leg(db, prompt, { projects: ["bench"] }, limit, undefined, undefined, budget);
      if (i >= 10) {
        into.push(performance.now() - t);
        const u = process.cpuUsage(c);
        cpu.set(into, cpu.get(into)! + (u.user + u.system) / 1000);
      }
      return hits.map((h) => h.id).join();
    };
    // in turns, which goes first: neither always finds the pages the other just read
    const first = i % 2 === 0 ? run(undefined, bounded) : run(Number.POSITIVE_INFINITY, full);
    const second = i % 2 === 0 ? run(Number.POSITIVE_INFINITY, full) : run(undefined, bounded);
    if (i >= 10 && first === second) same++;
  }
  const pcts = (times: number[]) => {
    const s = [...times].sort((x, y) => x - y);
    const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(1);
    return `p50 ${at(50)} / p95 ${at(95)} / p99 ${at(99)} ms (CPU ${(cpu.get(times)! / times.length).toFixed(1)} ms a prompt)`;
  };
  log(
    `BM25 leg ${n.toLocaleString("en")} chunks (written in ${writeS.toFixed(0)} s): ${pcts(bounded)}; every match scored ${pcts(full)}; the same top ${limit} for ${same} of ${bounded.length} prompts [load ${loadavg()[0]!.toFixed(1)}]`,
  );
  db.close();
}
