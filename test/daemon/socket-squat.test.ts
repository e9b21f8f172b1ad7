/**
 * A squatted socket directory. For a data home whose path is too long for a socket address the
 * daemon listens in this user's `mem-<uid>` directory under the temp directory. When that place is
 * taken (open to others, a symlink, a file, another user's), the daemon leaves it alone and
 * listens in a private directory of its own, which both hook clients find through the data
 * home's socket.path; `mem doctor` says who holds the place and where mem went instead.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { socketDirCheck } from "../../src/health/socket.js";
import { socketPath } from "../../src/daemon/paths.cjs";
import { BIN, context, prompt, SCRIPT, SPY } from "../helpers/hook-script.js";
import { hasCommand } from "../helpers/has-command.js";
import { runChild } from "../helpers/run-child.js";
import { longHome, OTHER, oldGuessableName, shared, squat, UID, withEnv } from "../helpers/socket-bed.js";
import { until } from "../helpers/until.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-squat-"));
chmodSync(tmp, 0o755); // another uid must reach the shared directories below
const children: ChildProcess[] = [];
const envs: NodeJS.ProcessEnv[] = [];
after(async () => {
  for (const env of envs) await runChild(process.execPath, [BIN, "serve", "--stop", "-q"], { env, timeout: 5_000 });
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

const docs = join(tmp, "docs");
mkdirSync(docs);
writeFileSync(join(docs, "note.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server and FTS5 gives BM25.\n");
const QUESTION = (session: string) => prompt("why did we choose SQLite over Postgres", session, docs); // one session each: a memory is shown once per session
const CURL = process.platform === "win32" || !hasCommand("curl") ? "needs /bin/sh and curl" : false;

function envFor(home: string, tmpDir: string): NodeJS.ProcessEnv {
  const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, TMPDIR: tmpDir, MEM_EMBED_ORDER: "none", MEM_WATCH: "0", SPY_LOG: join(tmp, `${basename(tmpDir)}.spy.log`) };
  envs.push(env);
  return env;
}
/**
 * Why the daemon cannot listen under `sh` at all (its private directory's hook socket over a
 * socket address's length, as with a long TMPDIR: the daemon then says to set a shorter one), or
 * false: this file's beds nest three folders deep under the temp directory.
 */
const tooLong = (sh: string): string | false =>
  Buffer.byteLength(join(sh, `mem-${UID}-xxxxxx`, "0123abcd.hook.sock")) >= 100 ? `the temp directory (${tmpdir()}) is too long a path for sockets three folders below it` : false;
const mem = (args: string[], env: NodeJS.ProcessEnv, timeout = 30_000) => runChild(process.execPath, [BIN, ...args], { env, timeout });
const status = async (env: NodeJS.ProcessEnv) => JSON.parse((await mem(["serve", "--status", "--json"], env)).stdout) as Record<string, unknown>;
const doctor = (env: NodeJS.ProcessEnv) => withEnv({ TMPDIR: env.TMPDIR, XDG_RUNTIME_DIR: undefined }, () => socketDirCheck({ ...env, XDG_RUNTIME_DIR: undefined }));

/**
 * With the usual place squatted: the daemon starts in a private directory of its own, the Node
 * client and the curl client both reach it, doctor names the squatter and the new place, and a
 * stop clears it all away.
 */
async function startsElsewhere(env: NodeJS.ProcessEnv, sh: string, squatted: string): Promise<void> {
  const home = env.MEM_HOME!;
  // A budget a loaded machine keeps: this test is about where the daemon listens, not how fast it answers.
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.json"), JSON.stringify({ daemon: { clientBudgetMs: 3_000 } }));
  assert.equal((await mem(["index", docs, "-q"], env)).code, 0);
  const before = doctor(env);
  assert.equal(before?.status, "warn", JSON.stringify(before));
  assert.match(before!.detail, new RegExp(`${squatted.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is .* of uid \\d+, mode \\d+.*will listen in a private directory of its own`));

  const d = spawn(process.execPath, [BIN, "serve"], { env, stdio: ["ignore", "ignore", "pipe"] });
  children.push(d);
  let log = "";
  d.stderr!.on("data", (b: Buffer) => (log += b.toString()));
  await until(async () => (await status(env)).running === true, 60_000, "the daemon is running");
  const sock = String((await status(env)).socket);
  const own = dirname(sock);
  assert.equal(dirname(own), sh);
  assert.match(basename(own), new RegExp(`^mem-${UID}-.{6}$`), own);
  assert.equal(lstatSync(own).mode & 0o777, 0o700);
  assert.equal(lstatSync(own).uid, UID);
  assert.equal(lstatSync(sock).mode & 0o777, 0o600);
  assert.equal(readFileSync(join(home, "socket.path"), "utf8"), `${sock}\n`, "the clients are told where");
  assert.match(log, /is not safe .* listening in .* a private directory of mem's own, instead/);

  const after = doctor(env);
  assert.equal(after?.status, "warn");
  assert.ok(after!.detail.includes(`mem's daemon listens in ${own}`), after!.detail);

  // the Node client
  const asked = Number((await status(env)).requests);
  const r = await spawnHook("user-prompt-submit", QUESTION("node"), { ...env, MEM_NO_DAEMON: "0" });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /We chose SQLite over Postgres/);
  assert.ok(Number((await status(env)).requests) >= asked + 2, "the Node client asked the daemon");
  // the curl client, through bin/mem-hook.sh as installed (node being a spy that notes each run)
  if (!CURL) {
    const c = await runChild("/bin/sh", [SCRIPT, SPY, BIN, "hook", "user-prompt-submit"], { env, input: QUESTION("curl"), timeout: 60_000 });
    assert.equal(c.code, 0, c.stderr);
    assert.match(context(c.stdout), /We chose SQLite over Postgres/);
    assert.ok(!existsSync(env.SPY_LOG!), "node never ran: the curl client answered");
  }

  assert.equal((await mem(["serve", "--stop"], env)).code, 0);
  await until(() => !existsSync(sock) && !existsSync(own) && !existsSync(join(home, "socket.path")), 60_000, "cleared away");
}

describe("a squatted socket directory: the daemon listens in a private directory of its own", { skip: process.platform === "win32" ? "named pipes" : false }, () => {
  for (const kind of ["open to others", "a symlink", "a file"] as const) {
    test(`the usual directory is ${kind}: left alone; the daemon starts elsewhere, both hook clients reach it, doctor warns`, async (t) => {
      const name = kind.replace(/ /g, "-");
      const sh = shared(tmp, name);
      if (tooLong(sh)) return t.skip(tooLong(sh) as string);
      const env = envFor(longHome(tmp, name), sh);
      const dir = join(sh, `mem-${UID}`);
      let inside = dir;
      if (kind === "a symlink") {
        inside = join(tmp, `elsewhere-${name}`);
        mkdirSync(inside, { mode: 0o700 });
        symlinkSync(inside, dir);
      } else if (kind === "a file") {
        writeFileSync(dir, "not a directory\n");
      } else {
        mkdirSync(dir);
        chmodSync(dir, 0o755);
      }
      await startsElsewhere(env, sh, dir);
      if (kind !== "a file") assert.deepEqual(readdirSync(inside), [], "nothing was made inside the squatted place");
      assert.deepEqual(readdirSync(sh), [basename(dir)], "nothing left beside it");
    });
  }

  test("doctor says nothing is wrong with a private directory of the user's own, and nothing at all for a data home that holds its socket", () => {
    const sh = shared(tmp, "fine");
    const env = envFor(longHome(tmp, "fine"), sh);
    assert.equal(doctor(env)?.status, "ok");
    mkdirSync(join(sh, `mem-${UID}`), { mode: 0o700 });
    assert.equal(doctor(env)?.status, "ok");
    assert.equal(doctor(envFor(join(tmp, "short-home"), sh)), undefined);
  });
});

describe("another uid squatting the socket's place", { skip: UID !== 0 ? "needs root to run a second user (uid 65534)" : process.platform === "win32" ? "named pipes" : false }, () => {
  test("another user's directory and sockets in the shared temp directory get nothing; the daemon starts in a directory of its own and the hooks reach it", async (t) => {
    const sh = shared(tmp, "other-uid");
    if (tooLong(sh)) return t.skip(tooLong(sh) as string);
    const home = longHome(tmp, "other-uid");
    const env = envFor(home, sh);
    const dir = join(sh, `mem-${UID}`);
    const wouldBe = withEnv({ TMPDIR: sh, XDG_RUNTIME_DIR: undefined }, () => socketPath(home));
    const guessed = join(sh, oldGuessableName(home));
    const squatter = await squat([dir], [guessed, join(dir, basename(wouldBe))], children);
    await startsElsewhere(env, sh, dir);
    const seen = doctor(env)!;
    assert.match(seen.detail, new RegExp(`of uid ${OTHER}, mode 777`));
    assert.deepEqual(squatter.received(), [], "the squatter received nothing");
    for (const p of [guessed, join(dir, basename(wouldBe))]) assert.equal(lstatSync(p).uid, OTHER, `${p} is still the squatter's`);
  });
});
