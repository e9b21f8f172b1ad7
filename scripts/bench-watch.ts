/**
 * `npm run bench:watch`: how fresh the index stays. With a real daemon (BM25 only) watching a
 * notes folder of 1,000 notes in 10 folders: N edits one after another, each timed from the
 * write until the daemon's search finds the new word (p50, p95); then all 1,000 files touched at
 * once: how many index runs that caused and when the last one ended. With no daemon: what the
 * cheap check (`mem query`'s and the hooks') costs on roots of 1,000 and 10,000 sources.
 * Not a test.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { quickStale } from "../indexer/stale.js";
import { ask } from "../src/daemon/client.cjs";
import { openDb } from "../src/store/db.js";

const BIN = fileURLToPath(new URL("../../bin/mem.cjs", import.meta.url));
const EDITS = Number(process.env.MEM_BENCH_EDITS ?? 20);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tree(dir: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const d = join(dir, `d${i % 10}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, `n${i}.md`), `# Note ${i}\n\nThe note numbered ${i}, about nothing in particular.\n`);
  }
  const t = new Date(Date.now() - 60_000);
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) utimesSync(join(e.parentPath, e.name), t, t);
  utimesSync(dir, t, t);
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve) => spawn(process.execPath, [BIN, ...args], { env, stdio: "ignore" }).on("close", resolve));
}

async function until(cond: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(10)) if (await cond()) return;
  throw new Error(`not within ${ms} ms`);
}

const tmp = mkdtempSync(join(tmpdir(), "mem-bench-watch-"));
try {
  const home = join(tmp, "home");
  const notes = join(tmp, "notes");
  mkdirSync(home);
  writeFileSync(join(home, "config.json"), JSON.stringify({ embedding: { order: [] } }));
  tree(notes, 1000);
  const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home };
  await run(["index", notes, "-q"], env);
  const daemon = spawn(process.execPath, [BIN, "serve", "-q"], { env, stdio: "ignore" });
  const status = async () => {
    const r = await ask(home, { op: "status" }, 2_000);
    return r.kind === "reply" && r.reply.ok ? (r.reply.watch as { watched: number; busy: boolean; reindexes: number }) : undefined;
  };
  await until(async () => (await status())?.watched === 1, 20_000);
  await until(async () => (await status())?.busy === false, 60_000);
  const finds = async (word: string) => {
    const r = await ask(home, { op: "search", text: word, project: notes, mode: "bm25" }, 2_000);
    return r.kind === "reply" && r.reply.ok && (r.reply.results as { text: string }[]).some((x) => x.text.includes(word));
  };
  const latencies: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const word = `zebrafinch${i}x`;
    const t0 = performance.now();
    writeFileSync(join(notes, `d${i % 10}`, `n${i}.md`), `# Note ${i}\n\nEdited: the ${word} sings.\n`);
    await until(() => finds(word), 30_000);
    latencies.push(performance.now() - t0);
    await until(async () => (await status())?.busy === false, 30_000);
  }
  console.log(`edit → searchable through the daemon (${EDITS} edits, 1,000 notes): p50 ${pct(latencies, 0.5).toFixed(0)} ms, p95 ${pct(latencies, 0.95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`);

  const db = openDb(join(home, "mem.sqlite"), { readonly: true });
  const runs = () => db.prepare("SELECT count(*) FROM runs").pluck().get() as number;
  const before = runs();
  const t0 = performance.now();
  const now = new Date();
  for (let i = 0; i < 1000; i++) utimesSync(join(notes, `d${i % 10}`, `n${i}.md`), now, now);
  const touched = performance.now() - t0;
  await until(() => runs() > before, 30_000);
  await until(async () => (await status())?.busy === false, 60_000);
  const done = performance.now() - t0;
  await sleep(2_000);
  console.log(`1,000 files touched at once (in ${touched.toFixed(0)} ms): ${runs() - before} index run(s), done ${done.toFixed(0)} ms after the first touch`);
  await ask(home, { op: "stop" }, 2_000);
  await new Promise((r) => daemon.on("close", r));

  for (const size of [1_000, 10_000]) {
    const dir = join(tmp, `check-${size}`);
    tree(dir, size);
    const h = join(tmp, `home-${size}`);
    mkdirSync(h);
    await run(["index", dir, "-q"], { ...env, MEM_HOME: h, MEM_EMBED_ORDER: "none" });
    const d = openDb(join(h, "mem.sqlite"), { readonly: true });
    const roots = [{ project: dir, path: dir }];
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      quickStale(d, roots, { budget: 256, now: Date.now() + i * 1000 });
      times.push(performance.now() - t);
    }
    d.close();
    console.log(`the cheap check (no daemon), a root of ${size.toLocaleString("en")} notes: p50 ${pct(times, 0.5).toFixed(2)} ms, p95 ${pct(times, 0.95).toFixed(2)} ms (at most 256 stat calls)`);
  }
  db.close();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
