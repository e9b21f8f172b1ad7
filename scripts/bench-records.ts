/**
 * `npm run bench:records`: a team's decision records at scale, as a teammate meets them. A git
 * repository with 500 MADR records in docs/decisions (accepted, rejected, superseded, proposed),
 * then:
 *   - `mem index docs/decisions` of all 500 (a fresh clone's first index), and again with 50 of
 *     them edited (a pull of 50 changes);
 *   - the SessionStart briefing with 300 records in force (the whole hook process, wall time),
 *     its size against the briefing's budget, and how many records it names.
 * Not a test. `MEM_BENCH_RECORDS=N` changes the size.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BRIEFING_TOKENS } from "../src/hooks/session-brief.js";
import { percentile } from "./bench/metrics.js";
import { decisionRecordText } from "./bench/records.js";
import { prng } from "./prng.js";

const BIN = fileURLToPath(new URL("../../bin/mem.cjs", import.meta.url));
const N = Number(process.env.MEM_BENCH_RECORDS ?? 500);
const log = (s: string) => process.stdout.write(`${s}\n`);
const record = (i: number, rand: () => number, edited = false) => decisionRecordText(i, rand, { edited });

const work = mkdtempSync(join(tmpdir(), "mem-bench-records-"));
try {
  const repo = join(work, "repo");
  const dir = join(repo, "docs", "decisions");
  mkdirSync(dir, { recursive: true });
  execFileSync("git", ["-C", repo, "init", "-q"]);
  const rand = prng(7);
  for (let i = 0; i < N; i++) writeFileSync(join(dir, `${String(i).padStart(4, "0")}-record.md`), record(i, rand));
  const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: join(work, "home"), MEM_EMBED_ORDER: "none", MEM_WATCH: "0", MEM_NO_DAEMON: "1" };
  const timed = (args: string[], input = "") => {
    const t = performance.now();
    const r = spawnSync(process.execPath, [BIN, ...args], { env, cwd: repo, input, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`mem ${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
    return { ms: performance.now() - t, stdout: r.stdout };
  };
  log(`${N} decision records in docs/decisions`);
  log(`first index (a fresh clone): ${timed(["index", "docs/decisions", "-q"]).ms.toFixed(0)} ms`);
  for (let i = 0; i < 50; i++) writeFileSync(join(dir, `${String(i * 7).padStart(4, "0")}-record.md`), record(i * 7, rand, true));
  log(`index after a pull of 50 edited records: ${timed(["index", "docs/decisions", "-q"]).ms.toFixed(0)} ms`);
  const listed = JSON.parse(timed(["list", "--kind", "decision", "--limit", "1", "--json"]).stdout) as { total: number };
  log(`records in force (decisions): ${listed.total}`);
  const input = JSON.stringify({ session_id: "bench", cwd: repo, hook_event_name: "SessionStart", source: "startup" });
  const times: number[] = [];
  let context = "";
  for (let i = 0; i < 15; i++) {
    const r = timed(["hook", "session-start"], input);
    times.push(r.ms);
    context = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  }
  const s = [...times].sort((a, b) => a - b);
  log(`SessionStart briefing (whole hook process): p50 ${percentile(s, 50).toFixed(0)} ms, p95 ${percentile(s, 95).toFixed(0)} ms (n=${s.length})`);
  const named = (context.match(/\[record docs\/decisions\//g) ?? []).length;
  log(`briefing: ${context.length} characters (budget about ${BRIEFING_TOKENS * 4} characters for ${BRIEFING_TOKENS} tokens), ${named} records named, the rest counted in "more" lines`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
