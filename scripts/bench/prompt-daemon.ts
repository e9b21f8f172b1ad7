/**
 * bench:prompt's daemon: a real `mem serve` (node bin/mem.cjs) on the data home, asked over its
 * socket as the UserPromptSubmit hook asks it (src/daemon/client.cts), and its resident memory read
 * by the kernel (/proc/<pid>/status: VmRSS now, VmHWM its peak) beside what it says of itself.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { getPriority } from "node:os";
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

/** `mem serve` on `home` (its log lines kept), until it answers a ping; `nodeArgs` go to node before mem's entry (`--cpu-prof`). */
export async function startDaemon(home: string, workHome: string, nodeArgs: readonly string[] = []): Promise<Daemon> {
  // A bench run niced (it builds stores of millions of rows) still measures a daemon at the
  // priority a user's runs at: `nice -n -N` back to 0 (root only; otherwise it stays niced, and says so).
  const own = getPriority();
  const argv = [...nodeArgs, BIN, "serve"];
  const [cmd, args] = own > 0 && process.getuid?.() === 0 ? ["nice", ["-n", String(-own), process.execPath, ...argv]] : [process.execPath, argv];
  // The environment the hooks start the daemon with (src/hooks/user-prompt.ts): glibc's mmap threshold fixed.
  const env = { PATH: process.env.PATH, HOME: workHome, MEM_HOME: home, MEM_WATCH: "0", MALLOC_MMAP_THRESHOLD_: "131072" };
  const child = spawn(cmd, args, { env, stdio: ["ignore", "ignore", "pipe"] });
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

/** A process's memory as the kernel counts it (Linux), in bytes: VmRSS and its parts (anonymous, file-backed, shared), VmHWM its peak. */
export function procMemory(pid: number): { rss: number; hwm: number; anon: number; file: number; shmem: number } {
  const s = readFileSync(join("/proc", String(pid), "status"), "utf8");
  const kb = (f: string) => Number(new RegExp(`^${f}:\\s+(\\d+) kB$`, "m").exec(s)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM"), anon: kb("RssAnon"), file: kb("RssFile"), shmem: kb("RssShmem") };
}

/** The niceness of a process (/proc/<pid>/stat, field 19). */
export function niceOf(pid: number): number {
  const stat = readFileSync(join("/proc", String(pid), "stat"), "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

export interface PromptTimes {
  /** The daemon's own `ms` (from the request's parse to the answer; the prompt's embedding included). */
  daemon: number[];
  /** The client's round trip on the socket (connect, request, answer). */
  roundTrip: number[];
  answered: number;
  failed: string[];
}

/**
 * Sends each prompt as the hook does (op "prompt", cwd, session), one after another, `gapMs` apart
 * (a user's prompts come seconds apart: what the daemon does after an answer, off the prompt's
 * path, is not counted in the next one); the first `warm` are not counted.
 */
export async function sendPrompts(home: string, cwd: string, prompts: string[], warm: number, budgetMs: number, gapMs: number): Promise<PromptTimes> {
  const out: PromptTimes = { daemon: [], roundTrip: [], answered: 0, failed: [] };
  for (const [i, prompt] of prompts.entries()) {
    if (i > 0) await sleep(gapMs);
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
