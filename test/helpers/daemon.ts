/**
 * A real `mem serve` for tests: a data home with its config.json and a git project beside it, the
 * daemon spawned on it (`serve -q`), answering pings before the test goes on. Children are
 * collected so the test file's `after` kills any left running; `endProcessesUnder` ends those no
 * test holds (a daemon a hook started) before a test bed is removed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { BIN } from "./mem-cli.js";
import { until } from "./until.js";

export interface DaemonSandbox {
  /** The data home (MEM_HOME). */
  home: string;
  /** A project (a `.git` folder marks its top level). */
  proj: string;
  env: NodeJS.ProcessEnv;
}

/** `<dir>/home` holding `config`, `<dir>/proj`, and the environment that points mem at them. */
export function daemonSandbox(dir: string, config: Record<string, unknown>): DaemonSandbox {
  const home = join(dir, "home");
  const proj = join(dir, "proj");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(proj, ".git"), { recursive: true });
  writeFileSync(join(home, "config.json"), JSON.stringify(config));
  return { home, proj, env: { PATH: process.env.PATH, HOME: dir, MEM_HOME: home } };
}

/** Whether a daemon answers on `home`'s socket. */
export const daemonUp = async (home: string): Promise<boolean> => (await ask(home, { op: "ping" }, 500)).kind === "reply";

/** Spawns `mem serve -q` on the sandbox and waits until it answers. */
export async function startDaemon(s: DaemonSandbox, children: ChildProcess[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, "serve", "-q"], { env: s.env, stdio: "ignore" });
  children.push(child);
  await until(() => daemonUp(s.home));
  return child;
}

/** The daemon's answer to `status`, or undefined when it does not answer well. */
export async function daemonStatus(home: string): Promise<Record<string, unknown> | undefined> {
  const r = await ask(home, { op: "status" }, 30_000);
  return r.kind === "reply" && r.reply.ok ? (r.reply as Record<string, unknown>) : undefined;
}

/** How many requests the daemon on `home` has answered (NaN when it does not answer). */
export const daemonRequests = async (home: string): Promise<number> => Number((await daemonStatus(home))?.requests ?? Number.NaN);

/**
 * A temp folder (its real path) for a test file's daemons, and the list its children go into:
 * after the file's tests, any child still running is killed and the folder removed.
 */
export function daemonScratch(prefix: string): { tmp: string; children: ChildProcess[] } {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const children: ChildProcess[] = [];
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    await endProcessesUnder(tmp);
    rmSync(tmp, { recursive: true, force: true });
  });
  return { tmp, children };
}

/**
 * The processes whose data home (MEM_HOME), or HOME (the default data home is in it), is `dir` or
 * under it: a test's daemons, and those no test holds, such as the daemon a hook starts for next
 * time (spawned detached: no child of the test's). Read from /proc; none found where there is none.
 */
export function processesUnder(dir: string): number[] {
  if (!existsSync("/proc/self/environ")) return [];
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
      if (env.some((kv) => ["MEM_HOME", "HOME"].some((k) => kv === `${k}=${dir}` || kv.startsWith(`${k}=${dir}/`)))) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * Ends every process under `dir` (processesUnder) and waits until they are gone. A daemon left
 * running writes to its data home (its WAL, its log; a daemon whose store vanished logs that
 * it stops) while the test's `after` removes the folder, and the removal fails (ENOTEMPTY).
 */
export async function endProcessesUnder(dir: string): Promise<void> {
  for (const pid of processesUnder(dir)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  await until(() => processesUnder(dir).length === 0, 60_000, `the processes with their data home in ${dir} ended`);
}
