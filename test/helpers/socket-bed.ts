/**
 * The test bed for where the daemon's socket goes (test/daemon/socket-*.test.ts): shared
 * directories like /tmp, data homes too long for a socket address, the process environment set
 * for a call, and a process of another uid (nobody) squatting a place with its own sockets.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { until } from "./until.js";

export const UID = process.getuid?.() ?? -1;
export const OTHER = 65534; // nobody

/** A directory anyone may create entries in, like /tmp (mode 1777). */
export function shared(tmp: string, name: string): string {
  const d = join(tmp, name);
  mkdirSync(d);
  chmodSync(d, 0o1777);
  return d;
}

/** A data home whose path is too long for a socket (sun_path is ~104 bytes). */
export const longHome = (tmp: string, name: string) => join(tmp, `home-${name}-${"x".repeat(110)}`);

/** Runs `fn` with these process environment variables (undefined: unset). */
export function withEnv<T>(vars: Record<string, string | undefined>, fn: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (v: Record<string, string | undefined>) => {
    for (const [k, x] of Object.entries(v)) if (x === undefined) delete process.env[k];
    else process.env[k] = x;
  };
  set(vars);
  try {
    return fn();
  } finally {
    set(saved);
  }
}

/** The name mem used to give a long data home's socket in the shared temp directory (FNV-1a of the path). */
export function oldGuessableName(home: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < home.length; i++) h = Math.imul(h ^ home.charCodeAt(i), 0x01000193) >>> 0;
  return `mem-${h.toString(16).padStart(8, "0")}.sock`;
}

/** A process of another uid that makes `dirs` (mode 0777) and listens on `socks`, printing whatever it is sent. */
const SQUATTER = `
const net = require("node:net"), fs = require("node:fs");
const { dirs, socks } = JSON.parse(process.argv[1]);
for (const d of dirs) { fs.mkdirSync(d, { recursive: true }); fs.chmodSync(d, 0o777); }
let ready = 0;
for (const p of socks) net.createServer((c) => {
  c.on("error", () => {});
  c.on("data", (d) => { process.stdout.write(JSON.stringify({ p, d: String(d) }) + "\\n"); c.end('{"ok":true,"text":"SQUATTED CONTEXT"}\\n'); });
}).listen(p, () => { fs.chmodSync(p, 0o777); if (++ready === socks.length) process.stdout.write("ready\\n"); });
`;
export async function squat(dirs: string[], socks: string[], children: ChildProcess[]): Promise<{ received: () => string[] }> {
  const child = spawn(process.execPath, ["-e", SQUATTER, JSON.stringify({ dirs, socks })], { uid: OTHER, gid: OTHER, cwd: "/", env: {}, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  await until(() => out.includes("ready\n") || child.exitCode !== null, 60_000);
  assert.ok(out.includes("ready\n"), "the squatter is listening");
  return { received: () => out.split("\n").filter((l) => l.startsWith("{")) };
}
