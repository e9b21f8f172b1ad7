/**
 * `npm run bench:brief`: the memory-that-lasts hooks at scale, as Claude Code spawns them. A project
 * with 100k captured events over 200 sessions (commands, edits, reads, errors, decisions, tasks),
 * each session summarised, a task registry and hot notes; then:
 *   - the SessionStart briefing (the whole hook process, wall time; target under 300 ms);
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
  execFileSync("git", ["-C", repo, "init", "-q"]);
  for (let i = 0; i < 40; i++) mkdirSync(join(repo, "src", `m${i}`), { recursive: true });
  writeFileSync(join(repo, "memory", "state.md"), "# State\n\n## Now\n- [ ] Ship the briefing projection\n- [x] Redaction boundary\n");
  writeFileSync(join(repo, "memory", "identity.md"), "# Who we are\n\nA small team building mem.\n");
  const home = join(work, "home");
  const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: home, MEM_EMBED_ORDER: "none" };
  execFileSync(process.execPath, [BIN, "index", join(repo, "memory"), "-q"], { env, stdio: "ignore" });

  const t0 = performance.now();
  const db = openDb(join(home, "mem.sqlite"));
  const project = resolveProject(repo).id;
  const events = new EventStore(db);
  const sessions = new SessionStore(db);
  const tasks = new TaskStore(db);
  const rnd = prng(11);
  const start = Date.now() - 120 * 86_400_000;
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
  for (let i = 0; i < 12; i++) {
    bareB.push((await run(["-e", "0"], "", env)).ms);
    const r = await run([BIN, "hook", "session-start"], startPayload(i), { ...env, MEM_NO_DAEMON: "1" });
    if (i >= 2) brief.push(r.ms); // the first two warm the page cache
    chars = r.stdout.length;
  }
  log(`SessionStart briefing (whole hook process): ${fmt(stats(brief))}; bare spawn ${fmt(stats(bareB))}; ${chars} characters of output (target: under 300 ms)`);

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
