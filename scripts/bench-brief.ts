/**
 * `npm run bench:brief`: the memory-that-lasts hooks at scale, as Claude Code spawns them. A project
 * with 100k captured events over 200 sessions (commands, edits, reads, errors, decisions, tasks),
 * each session summarised, a task registry and hot notes; then:
 *   - the SessionStart briefing (the whole hook process, wall time), made in-process and by the
 *     warm daemon, each beside a bare `node -e 0` spawn measured in the same loop (target: p95 at
 *     most 300 ms over the bare spawn's); the project is on a branch with a changed file and a
 *     recent session's edits, so the files in play are read from git and the store;
 *   - the turn's end: a Stop hook with nothing new to read, with the daemon warm (handed to it) and
 *     without one, each paired with a bare `node -e 0` spawn (target under 100 ms).
 * Not a test. `MEM_BENCH_EVENTS=N` changes the size; `MEM_BENCH_KEEP=1` keeps the data home (to profile).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CapturedEvent } from "../src/store/event-types.js";
import { ask } from "../src/daemon/client.cjs";
import { resolveProject } from "../src/project/identity.js";
import { clean, cleanText } from "../src/redact/clean.cjs";
import { openDb } from "../src/store/db.js";
import { EventStore } from "../src/store/events.js";
import { SessionStore } from "../src/store/sessions.js";
import { summarizeSession } from "../src/capture/summary.js";
import { TaskStore } from "../src/store/tasks.js";
import { prng } from "./prng.js";
import { percentile } from "./bench/metrics.js";

const BIN = fileURLToPath(new URL("../../bin/mem.cjs", import.meta.url));
const EVENTS = Number(process.env.MEM_BENCH_EVENTS ?? 100_000);
const SESSIONS = 200;
const log = (s: string) => process.stdout.write(`${s}\n`);

function run(args: string[], input: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("close", () => resolve({ ms: performance.now() - t, stdout }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), n: s.length };
};
const fmt = (x: { p50: number; p95: number; n: number }) => `p50 ${x.p50.toFixed(0)} ms, p95 ${x.p95.toFixed(0)} ms (n=${x.n})`;

const work = mkdtempSync(join(tmpdir(), "mem-bench-brief-"));
try {
  const repo = join(work, "repo");
  mkdirSync(join(repo, "memory"), { recursive: true });
  const git = (...args: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=b", "-c", "user.email=b@localhost", "-c", "init.defaultBranch=main", ...args], { stdio: "ignore" });
  git("init", "-q");
  for (let i = 0; i < 40; i++) mkdirSync(join(repo, "src", `m${i}`), { recursive: true });
  writeFileSync(join(repo, "memory", "state.md"), "# State\n\n## Now\n- [ ] Ship the briefing projection\n- [x] Redaction boundary\n");
  writeFileSync(join(repo, "memory", "identity.md"), "# Who we are\n\nA small team building mem.\n");
  const home = join(work, "home");
  // A branch with a commit of its own and a change in the working tree: every git run of the briefing has work.
  writeFileSync(join(repo, "src", "m0", "auth.ts"), "export const alg = 'HS256';\n");
  git("add", "-A");
  git("commit", "-qm", "initial");
  git("checkout", "-qb", "feature/es256");
  writeFileSync(join(repo, "src", "m1", "keys.ts"), "export const keys = [];\n");
  git("add", "-A");
  git("commit", "-qm", "keys");
  writeFileSync(join(repo, "src", "m0", "auth.ts"), "export const alg = 'ES256';\n");
  const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: home, MEM_EMBED_ORDER: "none" };
  execFileSync(process.execPath, [BIN, "index", join(repo, "memory"), "-q"], { env, stdio: "ignore" });

  const t0 = performance.now();
  const db = openDb(join(home, "mem.sqlite"));
  const project = resolveProject(repo).id;
  const events = new EventStore(db);
  const sessions = new SessionStore(db);
  const tasks = new TaskStore(db);
  const rnd = prng(11);
  // The last session ends about a day ago: its edits are in play at SessionStart.
  const start = Date.now() - SESSIONS * 12 * 3_600_000 - 86_400_000;
  const perSession = Math.ceil(EVENTS / SESSIONS);
  let decisions = 0;
  for (let s = 0; s < SESSIONS; s++) {
    const session = cleanText(`bench-session-${s}`);
    sessions.touch(session, project, start + s * 3_600_000 * 12);
    const batch: CapturedEvent[] = [];
    for (let i = 0; i < perSession && s * perSession + i < EVENTS; i++) {
      const time = new Date(start + s * 3_600_000 * 12 + i * 1000).toISOString();
      const file = join(repo, "src", `m${Math.floor(rnd() * 40)}`, `f${Math.floor(rnd() * 50)}.ts`);
      const r = rnd();
      const id = `e-${s}-${i}`;
      if (r < 0.6) batch.push({ id, type: "command_run", time, session, files: [], text: `$ npm run task-${Math.floor(rnd() * 300)}`, metadata: { status: rnd() < 0.9 ? "ok" : "error" } });
      else if (r < 0.8) batch.push({ id, type: "file_modified", time, session, files: [file], text: `Edit ${file}`, metadata: {} });
      else if (r < 0.9) batch.push({ id, type: "file_explored", time, session, files: [file], text: `Read ${file}`, metadata: {} });
      else if (r < 0.95) batch.push({ id, type: "error", time, session, files: [], text: `$ npm test failed: case ${Math.floor(rnd() * 1000)}`, metadata: {} });
      else if (r < 0.98) {
        decisions++;
        batch.push({ id, type: rnd() < 0.7 ? "decision" : "rejected", time, session, files: rnd() < 0.3 ? [file] : [], text: `Chose option ${Math.floor(rnd() * 1e6)} for module m${Math.floor(rnd() * 40)} because it keeps the hook under budget`, confidence: 0.9, metadata: { source: "keyword" } });
      } else batch.push({ id, type: "task", time, session, files: [], text: `Todo [pending]: follow up ${Math.floor(rnd() * 1e6)}`, metadata: {} });
    }
    events.insert(project, clean(batch));
    sessions.saveSummary(session, clean(summarizeSession(batch, [`work item ${s}`], 2)), start + s * 3_600_000 * 12 + perSession * 1000);
    if (s % 10 === 0) tasks.add(project, cleanText(`Open task from session ${s}`), start + s * 3_600_000 * 12);
  }
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  log(`mem bench:brief — node ${process.version}, ${new Date().toISOString()}`);
  log(`project: ${EVENTS} events over ${SESSIONS} sessions (${decisions} decisions and rejected approaches), built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const startPayload = (i: number) => JSON.stringify({ session_id: `new-${i}`, cwd: repo, hook_event_name: "SessionStart", source: "startup" });
  const brief: number[] = [];
  const bareB: number[] = [];
  let chars = 0;
  let inProcessOut = "";
  for (let i = 0; i < 12; i++) {
    bareB.push((await run(["-e", "0"], "", env)).ms);
    const r = await run([BIN, "hook", "session-start"], startPayload(i), { ...env, MEM_NO_DAEMON: "1" });
    if (i >= 2) brief.push(r.ms); // the first two warm the page cache
    chars = r.stdout.length;
    inProcessOut = r.stdout;
  }
  log(`SessionStart briefing, no daemon (whole hook process): ${fmt(stats(brief))}; bare spawn ${fmt(stats(bareB))}; ${chars} characters of output`);
  if (!inProcessOut.includes("About the files in play")) log("warning: the briefing shows no files in play");

  // The warm daemon, caught up with the captured events (as it is between sessions), then both paths in one loop.
  spawn(process.execPath, [BIN, "serve", "-q"], { env, detached: true, stdio: "ignore" }).unref();
  for (let i = 0; i < 100 && (await ask(home, { op: "ping" }, 300)).kind !== "reply"; i++) await new Promise((r) => setTimeout(r, 100));
  const backlog = openDb(join(home, "mem.sqlite"), { readonly: true });
  const unchunked = backlog.prepare("SELECT count(*) FROM events WHERE chunked = 0").pluck();
  const caughtUp = performance.now();
  while ((unchunked.get() as number) > 0 && performance.now() - caughtUp < 600_000) await new Promise((r) => setTimeout(r, 1_000));
  backlog.close();
  log(`daemon caught up with the captured events in ${((performance.now() - caughtUp) / 1000).toFixed(0)} s`);
  const both = { bare: [] as number[], daemon: [] as number[], local: [] as number[], own: [] as number[] };
  // Ages are rounded to hours and days: two runs a moment apart can fall on either side of a boundary (the bench's sessions are 12 h apart).
  const ageless = (s: string) => s.replace(/\d+ (h|d) ago|within the hour/g, "…");
  const compared = { same: 0, agesOnly: 0, different: 0 };
  for (let i = 0; i < 22; i++) {
    const bare = await run(["-e", "0"], "", env);
    const d = await run([BIN, "hook", "session-start"], startPayload(100 + i), { ...env, MEM_NO_DAEMON: "0" });
    const l = await run([BIN, "hook", "session-start"], startPayload(200 + i), { ...env, MEM_NO_DAEMON: "1" });
    if (d.stdout === l.stdout) compared.same++;
    else if (ageless(d.stdout) === ageless(l.stdout)) compared.agesOnly++;
    else compared.different++;
    // The daemon's own time for the same request, without the hook process around it.
    const own = await ask(home, { op: "brief", cwd: repo, session: `own-${i}`, source: "startup", userEnv: {} }, 10_000);
    if (i < 2) continue; // warm-up
    if (own.kind === "reply" && own.reply.ok && typeof own.reply.ms === "number") both.own.push(own.reply.ms);
    both.bare.push(bare.ms);
    both.daemon.push(d.ms);
    both.local.push(l.ms);
  }
  const [b, dm, lc] = [stats(both.bare), stats(both.daemon), stats(both.local)];
  log(`SessionStart briefing, one loop: bare spawn ${fmt(b)}`);
  log(`  through the warm daemon: ${fmt(dm)}; over the bare spawn p50 +${(dm.p50 - b.p50).toFixed(0)} ms, p95 +${(dm.p95 - b.p95).toFixed(0)} ms (target: p95 at most +300 ms)`);
  log(`  of which the daemon's own work (its reply's ms): ${fmt(stats(both.own))}`);
  log(`  in-process (no daemon):  ${fmt(lc)}; over the bare spawn p50 +${(lc.p50 - b.p50).toFixed(0)} ms, p95 +${(lc.p95 - b.p95).toFixed(0)} ms`);
  log(`  the two paths' output: the same bytes ${compared.same} times, differing only in an age rounded across a boundary ${compared.agesOnly}, otherwise different ${compared.different} (must be 0)`);
  await ask(home, { op: "stop" }, 2_000);
  for (let i = 0; i < 50 && (await ask(home, { op: "ping" }, 300)).kind === "reply"; i++) await new Promise((r) => setTimeout(r, 100));

  // The turn's end: a Stop with nothing new (its transcript already read).
  const transcript = join(work, "t.jsonl");
  writeFileSync(transcript, `${JSON.stringify({ type: "assistant", sessionId: "stop-s", timestamp: new Date().toISOString(), message: { role: "assistant", content: [{ type: "text", text: "Done." }] } })}\n`);
  const stopPayload = JSON.stringify({ session_id: "stop-s", cwd: repo, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false });
  await run([BIN, "hook", "stop"], stopPayload, { ...env, MEM_NO_DAEMON: "1" }); // the first read
  for (const [label, daemon] of [["no daemon (the full runner)", false], ["daemon warm (handed to it)", true]] as const) {
    if (daemon) {
      spawn(process.execPath, [BIN, "serve", "-q"], { env, detached: true, stdio: "ignore" }).unref();
      for (let i = 0; i < 100 && (await ask(home, { op: "ping" }, 300)).kind !== "reply"; i++) await new Promise((r) => setTimeout(r, 100));
    }
    const bare: number[] = [];
    const stop: number[] = [];
    for (let i = 0; i < 40; i++) {
      bare.push((await run(["-e", "0"], "", env)).ms);
      stop.push((await run([BIN, "hook", "stop"], stopPayload, { ...env, MEM_NO_DAEMON: daemon ? "0" : "1" })).ms);
    }
    const b = stats(bare);
    const st = stats(stop);
    log(`Stop with nothing new, ${label}: ${fmt(st)}; paired bare spawn ${fmt(b)}; over the bare spawn p50 +${(st.p50 - b.p50).toFixed(0)} ms (target: the turn's end under 100 ms)`);
  }
  await ask(home, { op: "stop" }, 2_000);
} finally {
  if (process.env.MEM_BENCH_KEEP === "1") log(`kept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
