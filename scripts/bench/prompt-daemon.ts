/**
 * bench:prompt's daemon: a real `mem serve` (node bin/mem.cjs) on the data home, asked over its
 * socket as the UserPromptSubmit hook asks it (src/daemon/client.cts), and its resident memory read
 * by the kernel (/proc/<pid>/status: VmRSS now, VmHWM its peak) beside what it says of itself.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ask } from "../../src/daemon/client.cjs";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));

export interface Daemon {
  child: ChildProcess;
  pid: number;
  stderr: () => string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for `ok` up to `ms`, polling; throws with `what` when it never comes. */
export async function waitFor(ok: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** `mem serve` on `home` (its log lines kept), until it answers a ping. */
export async function startDaemon(home: string, workHome: string): Promise<Daemon> {
  const child = spawn(process.execPath, [BIN, "serve"], { env: { PATH: process.env.PATH, HOME: workHome, MEM_HOME: home, MEM_WATCH: "0" }, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`mem serve exited (${child.exitCode}): ${err}`);
    return (await ask(home, { op: "ping" }, 500)).kind === "reply";
  }, 120_000, "the daemon to answer");
  return {
    child,
    pid: child.pid!,
    stderr: () => err,
    async stop() {
      if (child.exitCode !== null) return;
      await ask(home, { op: "stop" }, 2_000);
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/** The daemon's status reply (ok), or undefined. */
export async function status(home: string): Promise<Record<string, unknown> | undefined> {
  const r = await ask(home, { op: "status" }, 5_000);
  return r.kind === "reply" && r.reply.ok ? r.reply : undefined;
}

/** VmRSS and VmHWM of a process, in bytes (Linux). */
export function procMemory(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(join("/proc", String(pid), "status"), "utf8");
  const kb = (f: string) => Number(new RegExp(`^${f}:\\s+(\\d+) kB$`, "m").exec(s)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

export interface PromptTimes {
  /** The daemon's own `ms` (from the request's parse to the answer; the prompt's embedding included). */
  daemon: number[];
  /** The client's round trip on the socket (connect, request, answer). */
  roundTrip: number[];
  answered: number;
  failed: string[];
}

/** Sends each prompt as the hook does (op "prompt", cwd, session), one after another; the first `warm` are not counted. */
export async function sendPrompts(home: string, cwd: string, prompts: string[], warm: number, budgetMs: number): Promise<PromptTimes> {
  const out: PromptTimes = { daemon: [], roundTrip: [], answered: 0, failed: [] };
  for (const [i, prompt] of prompts.entries()) {
    const t = performance.now();
    const r = await ask(home, { op: "prompt", prompt, cwd, session: `bench-${i}` }, budgetMs);
    const rt = performance.now() - t;
    if (r.kind !== "reply" || !r.reply.ok) {
      out.failed.push(r.kind === "reply" ? String((r.reply as { error?: unknown }).error) : r.kind);
      continue;
    }
    if (i < warm) continue;
    out.daemon.push(Number(r.reply.ms));
    out.roundTrip.push(rt);
    if (typeof r.reply.text === "string") out.answered++;
  }
  return out;
}
