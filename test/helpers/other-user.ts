/**
 * A second, real local account for the multi-user tests (issue 29): made with `useradd` (no home,
 * no login shell), its steps run as that account through a real `node` child process started with
 * its uid and gid, and removed with `userdel` when the test ends, also when it fails or the process
 * exits early. Needs root and useradd: `otherUserSkip` is the skip message elsewhere.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";

const has = (cmd: string): boolean => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;

/** False when accounts can be made here, else why not (the skip message). */
export const otherUserSkip: false | string =
  process.platform !== "linux" ? "needs Linux" : process.getuid?.() !== 0 ? "needs root (to make a second account)" : !has("useradd") || !has("userdel") ? "needs useradd and userdel" : false;

export interface OtherUser {
  name: string;
  uid: number;
  gid: number;
  /** Runs `code` (a Node script, CommonJS) as this account; throws with its stderr when it fails. Its stdout. */
  run(code: string, env?: NodeJS.ProcessEnv): string;
  remove(): void;
}

const made = new Set<string>();
process.on("exit", () => {
  for (const name of made) spawnSync("userdel", [name], { stdio: "ignore" });
});

/** A new account, e.g. `memt3fa9c1`. */
export function makeUser(): OtherUser {
  if (otherUserSkip) throw new Error(otherUserSkip);
  const name = `memt${randomBytes(4).toString("hex")}`;
  execFileSync("useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", name], { stdio: "pipe" });
  made.add(name);
  const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
  return {
    name,
    uid,
    gid,
    run(code, env = {}) {
      const r = spawnSync(process.execPath, ["-e", code], { uid, gid, cwd: "/", env: { PATH: process.env.PATH, ...env }, encoding: "utf8", timeout: 30_000 });
      if (r.status !== 0) throw new Error(`as ${name}: exit ${r.status}: ${r.stderr || r.error?.message}`);
      return r.stdout;
    },
    remove() {
      if (!made.delete(name)) return;
      spawnSync("userdel", [name], { stdio: "ignore" });
    },
  };
}

/**
 * A test file's bed for a second account's attacks: a temp folder the account may walk into
 * (0755, as it may into /tmp), removed when the file's tests end, and the account, made before
 * them where it can be (see `otherUserSkip`) and removed after.
 */
export function attackBed(prefix: string): { tmp: string; mallory: () => OtherUser } {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  chmodSync(tmp, 0o755);
  let user: OtherUser | undefined;
  before(() => {
    if (!otherUserSkip) user = makeUser();
  });
  after(() => {
    user?.remove();
    rmSync(tmp, { recursive: true, force: true });
  });
  return {
    tmp,
    mallory: () => {
      if (!user) throw new Error(otherUserSkip || "the second account was not made");
      return user;
    },
  };
}
