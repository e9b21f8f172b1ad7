/**
 * A real `mem serve` for tests: a data home with its config.json and a git project beside it, the
 * daemon spawned on it (`serve -q`), answering pings before the test goes on. Children are
 * collected so the test file's `after` kills any left running.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
