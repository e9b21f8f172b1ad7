/**
 * `npm run bench:pretool`: the pre-tool check's precision and speed (src/inject/pretool-check.ts).
 *
 * 1. Real sessions: every transcript under ../shared/data/transcripts is captured as mem captures
 *    one (its own decisions and rejected approaches, by the same extractors), the decision records
 *    of ../shared/data/adr-2 are added as the user's global decisions ("chose A over B" for every
 *    option a record turned down), then every Edit, MultiEdit, Write and Bash call of those
 *    sessions is replayed, in order, through a real daemon (`mem serve`, BM25 only). Reported:
 *    warnings per 100 tool calls (target ≤ 2), each warning with its memory, and the daemon's
 *    answer time as the hook's client sees it (p50/p95).
 * 2. Scripted regressions (scripts/bench/pretool-cases.ts): each memory in a project of its own,
 *    each call through the same daemon. Reported per half (tuning, checking): the share of
 *    regressions caught (target ≥ 90%) and of near misses warned about (should be 0).
 *    Then the same records as a team's: copied into a repository's docs/adr, indexed by `mem index`
 *    (the check reads the options each one turned down), and the real calls replayed there.
 * 3. The hook as Claude Code runs it (`mem hook pre-tool-use`, as `mem install` registers it):
 *    wall time with the daemon and without (the in-process fallback), beside a bare `node -e 0`.
 *
 * Not a test: figures only. `MEM_BENCH_TRANSCRIPTS` and `MEM_ADR2_DIR` point elsewhere.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { extractFromLines } from "../src/capture/extract/index.js";
import { readTranscriptFrom } from "../src/capture/transcript.js";
import { PRETOOL_TOOLS } from "../src/contract/hook.cjs";
import { ask } from "../src/daemon/client.cjs";
import { clean, cleanText } from "../src/redact/clean.cjs";
import { openDb } from "../src/store/db.js";
import type { CapturedEvent } from "../src/store/event-types.js";
import { EventStore } from "../src/store/events.js";
import { BIN, run, runHook } from "./bench/spawn.js";
import { SCRIPTED } from "./bench/pretool-cases.js";

const log = (s: string) => process.stdout.write(`${s}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms (n=${xs.length})`;

const SHARED = join(process.cwd(), "..", "shared", "data");
const TRANSCRIPTS = process.env.MEM_BENCH_TRANSCRIPTS ?? join(SHARED, "transcripts");
const ADR2 = process.env.MEM_ADR2_DIR ?? join(SHARED, "adr-2");

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...jsonlFiles(p));
    else if (name.endsWith(".jsonl")) out.push(p);
  }
  return out;
}

/** A transcript's project: its session's (a subagent's file is its parent session's). */
const projectOf = (file: string) => `transcript:${relative(TRANSCRIPTS, file).replace(/\/subagents\/.*$/, "").replace(/\.jsonl$/, "")}`;

interface Call {
  project: string;
  session: string;
  tool: string;
  input: Record<string, unknown>;
}

function toolCalls(lines: Record<string, unknown>[], project: string): Call[] {
  const out: Call[] = [];
  for (const l of lines) {
    const m = l.message as { role?: unknown; content?: unknown } | undefined;
    if (l.type !== "assistant" || !m || !Array.isArray(m.content)) continue;
    for (const b of m.content as Record<string, unknown>[]) {
      if (b?.type !== "tool_use" || typeof b.name !== "string" || !PRETOOL_TOOLS.has(b.name)) continue;
      if (b.input === null || typeof b.input !== "object" || Array.isArray(b.input)) continue;
      out.push({ project, session: typeof l.sessionId === "string" ? l.sessionId : "", tool: b.name, input: b.input as Record<string, unknown> });
    }
  }
  return out;
}

/** The adr-2 records as decisions: "Chosen option: "A" over "B", because …" for every option turned down. */
function adrDecisions(): CapturedEvent[] {
  const dir = join(ADR2, "corpus");
  if (!existsSync(dir)) return [];
  const out: CapturedEvent[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".md")).sort()) {
    const text = readFileSync(join(dir, name), "utf8");
    const chosen = /Chosen option:\s*"([^"]+)"(?:,\s*because\s*([^\n]*))?/.exec(text);
    const options = /## Considered Options\s*\n([\s\S]*?)\n## /.exec(text)?.[1]?.split("\n").flatMap((l) => /^\s*[*-]\s+(.+)$/.exec(l)?.[1]?.trim() ?? []) ?? [];
    if (!chosen) continue;
    for (const [i, option] of options.entries()) {
      if (option.replace(/\W/g, "").toLowerCase() === chosen[1]!.replace(/\W/g, "").toLowerCase()) continue;
      out.push({ id: `adr:${name}:${i}`, type: "decision", time: "2024-01-01T00:00:00.000Z", session: "", files: [], text: `Chosen option: "${chosen[1]}" over "${option.replace(/"/g, "'")}"${chosen[2] ? `, because ${chosen[2]}` : ""}`, metadata: { source: name } });
    }
  }
  return out;
}

const work = mkdtempSync(join(tmpdir(), "mem-bench-pretool-"));
const home = join(work, "home");
const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: home, MEM_EMBED_ORDER: "none", MEM_WATCH: "0" };
let daemon: ReturnType<typeof spawn> | undefined;
try {
  log(`mem bench:pretool — node ${process.version}, ${new Date().toISOString()}, load ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  // The store: each session's own decisions, the decision records as global ones, and the scripted memories.
  const db = openDb(join(home, "mem.sqlite"));
  const events = new EventStore(db);
  const calls: Call[] = [];
  let decisions = 0;
  const files = existsSync(TRANSCRIPTS) ? jsonlFiles(TRANSCRIPTS) : [];
  for (const file of files) {
    const project = projectOf(file);
    const { lines } = readTranscriptFrom(file, 0);
    const found = extractFromLines(lines).filter((e) => (e.type === "decision" || e.type === "rejected") && (e.confidence ?? 1) >= 0.6);
    decisions += events.insert(cleanText(project), clean(found));
    calls.push(...toolCalls(lines, project));
  }
  const adr = adrDecisions();
  events.insert(cleanText("global"), clean(adr));
  SCRIPTED.forEach((c, i) => {
    const e: CapturedEvent = { id: `scripted:${i}`, type: c.memory.kind, time: "2026-05-02T10:00:00.000Z", session: "", files: c.memory.files ?? [], text: c.memory.text, metadata: {} };
    events.insert(cleanText(`scripted:${i}`), clean([e]));
  });
  db.close();
  log(`store: ${files.length} transcripts, ${decisions} decisions and rejected approaches of their own, ${adr.length} from ${ADR2} as global decisions`);

  daemon = spawn(process.execPath, [BIN, "serve", "--quiet"], { env, stdio: "ignore" });
  for (let i = 0; i < 100 && (await ask(home, { op: "ping" }, 300)).kind !== "reply"; i++) await new Promise((r) => setTimeout(r, 100));

  // 1. The real sessions' tool calls, in order: against their own decisions and the records; then
  //    again with the scripted set's memories in force everywhere too (as the user's global decisions).
  const replay = async (label: string, tag: string) => {
    const ms: number[] = [];
    const warned: { call: Call; text: string }[] = [];
    for (const c of calls) {
      const t = performance.now();
      const r = await ask(home, { op: "pretool", cwd: "/", project: c.project, session: `${tag}${c.session}`, tool: c.tool, input: c.input }, 5_000);
      ms.push(performance.now() - t);
      if (r.kind !== "reply" || !r.reply.ok) throw new Error(`the daemon did not answer: ${JSON.stringify(r)}`);
      if (typeof r.reply.text === "string") warned.push({ call: c, text: r.reply.text });
    }
    log(`\nreal sessions, ${label}: ${calls.length} tool calls checked (${[...PRETOOL_TOOLS].map((t) => `${t} ${calls.filter((c) => c.tool === t).length}`).join(", ")})`);
    log(`  warnings: ${warned.length}, ${((100 * warned.length) / Math.max(1, calls.length)).toFixed(2)} per 100 tool calls (target ≤ 2)`);
    log(`  the daemon's answer, as the hook's client sees it: ${fmt(ms)}`);
    for (const w of warned.slice(0, 15)) log(`  - ${w.call.tool} ${String(w.call.input.file_path ?? w.call.input.command ?? "").replace(/\s+/g, " ").slice(0, 100)}\n    ${w.text.split("\n").slice(2, -1).join("\n    ")}`);
  };
  await replay("their own decisions and the records", "a:");
  const db2 = openDb(join(home, "mem.sqlite"));
  new EventStore(db2).insert(cleanText("global"), clean(SCRIPTED.map((c, i): CapturedEvent => ({ id: `scripted-global:${i}`, type: c.memory.kind, time: "2026-05-02T10:00:00.000Z", session: "", files: c.memory.files ?? [], text: c.memory.text, metadata: {} }))));
  db2.close();
  await replay(`the same and the scripted set's ${SCRIPTED.length} memories as global decisions`, "b:");

  // 2. The scripted regressions and near misses.
  const outcome: Record<string, { caught: number; regressions: number; falseWarnings: number; nearMisses: number; missed: string[]; wrong: string[] }> = {};
  for (const [i, c] of SCRIPTED.entries()) {
    const r = await ask(home, { op: "pretool", cwd: "/", project: `scripted:${i}`, session: `scripted-${i}`, tool: c.call.tool, input: c.call.input }, 5_000);
    if (r.kind !== "reply" || !r.reply.ok) throw new Error(`the daemon did not answer: ${JSON.stringify(r)}`);
    const o = (outcome[c.half] ??= { caught: 0, regressions: 0, falseWarnings: 0, nearMisses: 0, missed: [], wrong: [] });
    const said = typeof r.reply.text === "string";
    if (c.warn) {
      o.regressions++;
      if (said) o.caught++;
      else o.missed.push(c.name);
    } else {
      o.nearMisses++;
      if (said) {
        o.falseWarnings++;
        o.wrong.push(c.name);
      }
    }
  }
  log("\nscripted regressions (scripts/bench/pretool-cases.ts):");
  for (const half of ["tune", "check"]) {
    const o = outcome[half]!;
    log(`  ${half === "tune" ? "tuning" : "checking"} half: caught ${o.caught}/${o.regressions} (${((100 * o.caught) / o.regressions).toFixed(0)}%, target ≥ 90%); near misses warned ${o.falseWarnings}/${o.nearMisses}`);
    if (o.missed.length) log(`    missed: ${o.missed.join("; ")}`);
    if (o.wrong.length) log(`    warned wrongly: ${o.wrong.join("; ")}`);
  }
  const all = Object.values(outcome);
  const caught = all.reduce((n, o) => n + o.caught, 0);
  const regressions = all.reduce((n, o) => n + o.regressions, 0);
  log(`  both halves: caught ${caught}/${regressions} (${((100 * caught) / regressions).toFixed(0)}%)`);

  // The check's cost on a busy project: 3,000 decisions and rejected approaches (as bench:brief's store holds), the real calls against them.
  const BUSY = 3_000;
  const db3 = openDb(join(home, "mem.sqlite"));
  const words = ["cache", "queue", "tokens", "retries", "schema", "logging", "sessions", "uploads", "search", "billing"];
  new EventStore(db3).insert(cleanText("busy"), clean(Array.from({ length: BUSY }, (_, i): CapturedEvent => ({ id: `busy:${i}`, type: i % 3 === 0 ? "rejected" : "decision", time: "2026-01-01T00:00:00.000Z", session: "", files: i % 2 === 0 ? [`/busy/src/mod${i % 200}.ts`] : [], text: i % 3 === 0 ? `We rejected lib${i}x for the ${words[i % 10]} because it leaked memory under load.` : `Use tool${i}y instead of legacy${i}z for the ${words[i % 10]}.`, metadata: {} }))));
  db3.close();
  const busyMs: number[] = [];
  let busyWarned = 0;
  for (const c of calls.slice(0, 300)) {
    const t = performance.now();
    const r = await ask(home, { op: "pretool", cwd: "/", project: "busy", session: "busy", tool: c.tool, input: c.input }, 5_000);
    busyMs.push(performance.now() - t);
    if (r.kind === "reply" && r.reply.ok && typeof r.reply.text === "string") busyWarned++;
  }
  log(`\na busy project (${BUSY.toLocaleString("en")} decisions and rejected approaches), 300 real calls: the daemon's answer ${fmt(busyMs)}; ${busyWarned} warnings`);
  // As in a session: each call's PostToolUse captured through the daemon before the next check (a
  // write of the daemon's that is no decision: what the check keeps stays).
  const capturedMs: number[] = [];
  let captured = 0;
  for (const [i, c] of calls.slice(0, 300).entries()) {
    const t = performance.now();
    const r = await ask(home, { op: "pretool", cwd: "/", project: "busy", session: "busy-captured", tool: c.tool, input: c.input }, 5_000);
    capturedMs.push(performance.now() - t);
    if (r.kind !== "reply" || !r.reply.ok) throw new Error(`the daemon did not answer: ${JSON.stringify(r)}`);
    const payload = { session_id: "busy-captured", cwd: work, hook_event_name: "PostToolUse", tool_name: c.tool, tool_input: c.input, tool_use_id: `toolu_busy_${i}`, tool_response: { stdout: "ok" } };
    const cap = await ask(home, { op: "capture", event: "PostToolUse", payload }, 5_000);
    if (cap.kind === "reply" && cap.reply.ok) captured++;
  }
  log(`  the same with each call's capture (PostToolUse, through the daemon; ${captured} taken) before the next: ${fmt(capturedMs)}`);

  // The decision records as the team's: the adr-2 corpus in a repository's docs/adr, indexed as mem
  // indexes it (the check reads the options each record turned down), the real calls replayed there.
  const corpus = join(ADR2, "corpus");
  if (existsSync(corpus)) {
    const repo = join(work, "team-repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    cpSync(corpus, join(repo, "docs", "adr"), { recursive: true });
    const ix = await run([BIN, "index", join(repo, "docs", "adr"), "-q"], "", env);
    if (ix.code !== 0) throw new Error(`mem index exited ${ix.code}`);
    const teamMs: number[] = [];
    const teamWarned: { call: Call; text: string }[] = [];
    for (const c of calls) {
      const t = performance.now();
      const r = await ask(home, { op: "pretool", cwd: repo, session: `team:${c.session}`, tool: c.tool, input: c.input }, 5_000);
      teamMs.push(performance.now() - t);
      if (r.kind !== "reply" || !r.reply.ok) throw new Error(`the daemon did not answer: ${JSON.stringify(r)}`);
      if (typeof r.reply.text === "string") teamWarned.push({ call: c, text: r.reply.text });
    }
    const checked = await ask(home, { op: "pretool", cwd: repo, session: "team:count", tool: "Bash", input: { command: "true" } }, 5_000);
    log(`\nthe records as the team's (${ADR2}/corpus in a repository's docs/adr, indexed; ${checked.kind === "reply" ? String((checked.reply as { checked?: number }).checked) : "?"} statements read from them and the global memory), the same ${calls.length} real calls:`);
    log(`  warnings: ${teamWarned.length}, ${((100 * teamWarned.length) / Math.max(1, calls.length)).toFixed(2)} per 100 tool calls (target ≤ 2)`);
    log(`  the daemon's answer: ${fmt(teamMs)}`);
    for (const w of teamWarned.slice(0, 10)) log(`  - ${w.call.tool} ${String(w.call.input.file_path ?? w.call.input.command ?? "").replace(/\s+/g, " ").slice(0, 100)}\n    ${w.text.split("\n").slice(2, -1).join("\n    ")}`);
  }

  // 3. The hook process as Claude Code spawns it.
  const sample = calls.filter((_, i) => i % Math.max(1, Math.floor(calls.length / 30)) === 0).slice(0, 30);
  const payload = (c: Call, i: number) => JSON.stringify({ session_id: `hook-${i}`, transcript_path: "/nonexistent", cwd: work, hook_event_name: "PreToolUse", tool_name: c.tool, tool_input: c.input, tool_use_id: `toolu_bench_${i}` });
  const bare: number[] = [];
  const viaDaemon: number[] = [];
  for (const [i, c] of sample.entries()) {
    bare.push((await run(["-e", "0"], "", env)).ms);
    viaDaemon.push((await runHook("pre-tool-use", payload(c, i), env)).ms);
  }
  await ask(home, { op: "stop" }, 2_000);
  for (let i = 0; i < 50 && existsSync(join(home, "daemon.lock")); i++) await new Promise((r) => setTimeout(r, 100));
  const local: number[] = [];
  for (const [i, c] of sample.slice(0, 15).entries()) local.push((await runHook("pre-tool-use", payload(c, 1000 + i), { ...env, MEM_NO_DAEMON: "1" })).ms);
  log("\nthe hook process (`mem hook pre-tool-use` as mem install registers it), wall time:");
  log(`  bare node -e 0:               ${fmt(bare)}`);
  log(`  through the warm daemon:      ${fmt(viaDaemon)}`);
  log(`  in-process (MEM_NO_DAEMON=1): ${fmt(local)}`);
} finally {
  if (daemon && daemon.exitCode === null) daemon.kill();
  rmSync(work, { recursive: true, force: true });
}
