import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const LOCK_MODULE = fileURLToPath(new URL("../../src/daemon/lock.js", import.meta.url));

/**
 * Another process holding `index.lock` in `home` (let go when it exits): for `ms`, or until
 * `release` is called; resolves once it holds it.
 */
export async function lockHolder(home: string, ms?: number): Promise<{ child: ChildProcess; release: () => void }> {
  mkdirSync(home, { recursive: true });
  const letGo = "() => { l.release(); process.exit(0); }";
  const until = ms === undefined ? `process.stdin.once("data", ${letGo})` : `setTimeout(${letGo}, ${ms})`;
  const code = `import(${JSON.stringify(LOCK_MODULE)}).then(({ acquireLock }) => { const l = acquireLock(${JSON.stringify(join(home, "index.lock"))}); if (!l.ok) process.exit(2); process.stdout.write("held\\n"); ${until}; });`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["pipe", "pipe", "inherit"] });
  child.stdin!.on("error", () => undefined); // released twice, or after it exited
  const [chunk] = (await once(child.stdout!, "data")) as [Buffer];
  assert.equal(String(chunk), "held\n");
  return { child, release: () => child.stdin!.end("go\n") };
}

/**
 * Another process holding SQLite's write lock on `file` (BEGIN IMMEDIATE) until `release` is
 * called or it exits; resolves once it holds it. A writer in this or any process waits its busy
 * timeout, then fails with SQLITE_BUSY.
 */
export async function sqliteLockHolder(file: string): Promise<{ child: ChildProcess; release: () => Promise<void> }> {
  const code = `const D = require("better-sqlite3"); const db = new D(${JSON.stringify(file)}); db.pragma("busy_timeout = 5000"); db.exec("BEGIN IMMEDIATE"); process.stdout.write("held\\n"); process.stdin.once("data", () => { db.exec("COMMIT"); db.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["pipe", "pipe", "inherit"], cwd: fileURLToPath(new URL("../../..", import.meta.url)) });
  child.stdin!.on("error", () => undefined);
  const [chunk] = (await once(child.stdout!, "data")) as [Buffer];
  assert.equal(String(chunk), "held\n");
  return {
    child,
    release: async () => {
      if (child.exitCode !== null) return;
      child.stdin!.end("go\n");
      await once(child, "exit");
    },
  };
}
