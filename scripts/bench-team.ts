/**
 * `npm run bench:team`: team memory through git, on real repositories (a bare remote and clones,
 * real `git commit`, `push`, `pull`), BM25 only:
 *   - a pull of 500 records: teammate B's clone, its team folder indexed, pulls a commit that adds
 *     500 MADR records; then the index pass a SessionStart or prompt starts in the background after
 *     a pull (`mem index --stale`). Wall times of the pull and of the pass, and per record;
 *   - the briefing with 300 team decisions (accepted, in the file format `mem share` writes, by
 *     three teammates): the SessionStart hook's whole process over 15 runs (p50/p95), the
 *     briefing's size against its budget, and how many decisions it names.
 * Not a test. `MEM_BENCH_TEAM_PULL=N` and `MEM_BENCH_TEAM_BRIEF=N` change the sizes;
 * `MEM_BENCH_TEAM_SHOW=1` prints the briefing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BRIEFING_TOKENS } from "../src/hooks/session-brief.js";
import { percentile } from "./bench/metrics.js";
import { decisionRecordText } from "./bench/records.js";
import { prng } from "./prng.js";

const BIN = fileURLToPath(new URL("../../bin/mem.cjs", import.meta.url));
const PULL = Number(process.env.MEM_BENCH_TEAM_PULL ?? 500);
const BRIEF = Number(process.env.MEM_BENCH_TEAM_BRIEF ?? 300);
const RUNS = 15;
const TEAM = ["Ada Lovelace <ada@example.com>", "Bob Barker <bob@example.com>", "Grace Hopper <grace@example.com>"];
const log = (s: string) => process.stdout.write(`${s}\n`);
const work = realpathSync(mkdtempSync(join(tmpdir(), "mem-bench-team-")));
const gitEnv = { ...process.env, HOME: work, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: gitEnv, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
const clock = <T>(f: () => T): { ms: number; value: T } => {
  const t = performance.now();
  const value = f();
  return { ms: performance.now() - t, value };
};

/** A bare remote seeded with one record, and two clones (A writes, B reads) with their identities. */
function team(label: string): { a: string; b: string } {
  const remote = join(work, `${label}.git`);
  git(work, "init", "-q", "--bare", remote);
  git(remote, "symbolic-ref", "HEAD", "refs/heads/main");
  const a = join(work, `${label}-a`);
  git(work, "init", "-q", "-b", "main", a);
  for (const [k, v] of [["user.name", "Ada Lovelace"], ["user.email", "ada@example.com"]]) git(a, "config", k!, v!);
  mkdirSync(join(a, "docs", "decisions"), { recursive: true });
  writeFileSync(join(a, "docs", "decisions", "0000-record-decisions.md"), "---\nstatus: accepted\ndate: 2025-01-01\ndecision-makers: Ada Lovelace <ada@example.com>\n---\n# Record our decisions in docs/decisions\n");
  git(a, "add", "-A");
  git(a, "commit", "-q", "-m", "start");
  git(a, "remote", "add", "origin", remote);
  git(a, "push", "-q", "origin", "main");
  const b = join(work, `${label}-b`);
  git(work, "clone", "-q", remote, b);
  for (const [k, v] of [["user.name", "Bob Barker"], ["user.email", "bob@example.com"], ["pull.rebase", "false"]]) git(b, "config", k!, v!);
  return { a, b };
}

/** A writes `n` records into its team folder, commits and pushes. */
function push(a: string, n: number, text: (i: number) => string): void {
  for (let i = 1; i <= n; i++) writeFileSync(join(a, "docs", "decisions", `${String(i).padStart(4, "0")}-record.md`), text(i));
  git(a, "add", "-A");
  git(a, "commit", "-q", "-m", `${n} records`);
  git(a, "push", "-q", "origin", "main");
}

function mem(home: string, cwd: string) {
  const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: home, MEM_EMBED_ORDER: "none", MEM_WATCH: "0", MEM_NO_DAEMON: "1" };
  return (args: string[], input = "") => {
    const r = clock(() => spawnSync(process.execPath, [BIN, ...args], { env, cwd, input, encoding: "utf8" }));
    if (r.value.status !== 0) throw new Error(`mem ${args.join(" ")}: exit ${r.value.status}\n${r.value.stderr}`);
    return { ms: r.ms, stdout: r.value.stdout };
  };
}

const total = (run: ReturnType<typeof mem>, kind: string) => (JSON.parse(run(["list", "--kind", kind, "--limit", "1", "--json"]).stdout) as { total: number }).total;

try {
  {
    const { a, b } = team("pull");
    const run = mem(join(work, "home-pull"), b);
    run(["index", "docs/decisions", "-q"]);
    const rand = prng(11);
    push(a, PULL, (i) => decisionRecordText(i, rand));
    const pulled = clock(() => git(b, "pull", "-q", "--no-edit", "origin", "main"));
    const pass = run(["index", "--stale", "-q"]);
    const records = total(run, "decision") + total(run, "rejected") + total(run, "superseded") + total(run, "proposed");
    log(`pull of ${PULL} new records: git pull ${pulled.ms.toFixed(0)} ms; index pass (mem index --stale, as the hooks start it) ${pass.ms.toFixed(0)} ms, ${(pass.ms / PULL).toFixed(2)} ms a record; ${records} records in the index`);
  }
  {
    const { a, b } = team("brief");
    const run = mem(join(work, "home-brief"), b);
    const rand = prng(13);
    push(a, BRIEF - 1, (i) => decisionRecordText(i, rand, { status: "accepted", makers: JSON.stringify(TEAM[i % TEAM.length]), shared: true }));
    git(b, "pull", "-q", "--no-edit", "origin", "main");
    run(["index", "docs/decisions", "-q"]);
    const decisions = total(run, "decision");
    const input = JSON.stringify({ session_id: "bench", cwd: b, hook_event_name: "SessionStart", source: "startup" });
    const times: number[] = [];
    let context = "";
    for (let i = 0; i < RUNS; i++) {
      const r = run(["hook", "session-start"], input);
      times.push(r.ms);
      context = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    }
    const s = [...times].sort((x, y) => x - y);
    const named = (context.match(/\[(?:team )?record docs\/decisions\//g) ?? []).length;
    const withAuthor = (context.match(/\[(?:team )?record docs\/decisions\/[^\]]* · by [^\]]+\]/g) ?? []).length;
    const more = /^- \d+ (older )?decisions: .*$/m.exec(context)?.[0] ?? "(no line counts the rest)";
    log(`briefing with ${decisions} team decisions: SessionStart (whole hook process) p50 ${percentile(s, 50).toFixed(0)} ms, p95 ${percentile(s, 95).toFixed(0)} ms (n=${RUNS})`);
    if (process.env.MEM_BENCH_TEAM_SHOW === "1") log(context);
    log(`briefing: ${context.length} characters (budget about ${BRIEFING_TOKENS * 4} characters for ${BRIEFING_TOKENS} tokens); ${named} decisions named, ${withAuthor} of them with their author; the rest: ${more.trim()}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
