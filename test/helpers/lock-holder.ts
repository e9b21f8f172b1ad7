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
