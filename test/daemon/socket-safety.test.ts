import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { ask, Dial } from "../../src/daemon/client.cjs";
import { socketPath } from "../../src/daemon/paths.cjs";
import { runChild } from "../helpers/run-child.js";
import { spawnHook } from "../hooks/helpers.js";
import { until } from "../helpers/until.js";
import { longHome as longHomeIn, shared as sharedIn, squat as squatAs, UID, withEnv } from "../helpers/socket-bed.js";

const BIN = join(fileURLToPath(new URL("../../../", import.meta.url)), "bin", "mem.cjs");
const tmp = mkdtempSync(join(tmpdir(), "mem-socket-"));
chmodSync(tmp, 0o755); // another uid must reach the shared directories below
const children: ChildProcess[] = [];
const envs: NodeJS.ProcessEnv[] = [];
after(async () => {
  for (const env of envs) await runChild(process.execPath, [BIN, "serve", "--stop", "-q"], { env, timeout: 5_000 });
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

const shared = (name: string) => sharedIn(tmp, name);
const longHome = (name: string) => longHomeIn(tmp, name);
const squat = (dirs: string[], socks: string[]) => squatAs(dirs, socks, children);

const docs = join(tmp, "docs");
mkdirSync(docs);
writeFileSync(join(docs, "note.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server and FTS5 gives BM25.\n");
const PROMPT = JSON.stringify({ session_id: "s", cwd: docs, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" });

/** The environment of a mem process for data home `home` whose temp directory is `tmpDir`. */
function envFor(home: string, tmpDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, TMPDIR: tmpDir, MEM_EMBED_ORDER: "none", ...extra };
  envs.push(env);
  return env;
}

const mem = (args: string[], env: NodeJS.ProcessEnv, timeout = 30_000) => runChild(process.execPath, [BIN, ...args], { env, timeout });
const status = async (env: NodeJS.ProcessEnv) => JSON.parse((await mem(["serve", "--status", "--json"], env)).stdout) as Record<string, unknown>;


/** Our own listener on `path` that records every line it is sent and answers each one. */
async function listener(path: string): Promise<{ lines: string[]; close: () => void }> {
  const lines: string[] = [];
  const server = createServer((c) => {
    c.on("error", () => undefined);
    c.on("data", (d) => {
      lines.push(String(d));
      c.end('{"ok":true,"text":"context of the listener\'s choosing"}\n');
    });
  });
  await new Promise<void>((r) => server.listen(path, r));
  return { lines, close: () => server.close() };
}

describe("the daemon's socket is reachable by its owner only", { skip: process.platform === "win32" ? "named pipes" : false }, () => {
  test("a data home whose path fits holds its socket; a longer one never gets a guessable name in the shared temp directory", () => {
    const sh = shared("pure");
    const short = join(tmp, "short");
    assert.equal(socketPath(short), join(short, "mem.sock"));
    const home = longHome("pure");
    const run = join(tmp, "run");
    mkdirSync(run, { mode: 0o700 });
    withEnv({ TMPDIR: sh, XDG_RUNTIME_DIR: undefined }, () => {
      const p = socketPath(home);
      assert.notEqual(dirname(p), sh, p);
      assert.equal(dirname(p), join(sh, `mem-${UID}`));
      assert.ok(Buffer.byteLength(p) < 100, p);
    });
    withEnv({ TMPDIR: sh, XDG_RUNTIME_DIR: run }, () => assert.equal(dirname(socketPath(home)), run, "a private runtime directory comes first"));
    withEnv({ TMPDIR: sh, XDG_RUNTIME_DIR: "relative/run" }, () => assert.equal(dirname(socketPath(home)), join(sh, `mem-${UID}`)));
    chmodSync(run, 0o755);
    withEnv({ TMPDIR: sh, XDG_RUNTIME_DIR: run }, () => assert.equal(dirname(socketPath(home)), join(sh, `mem-${UID}`), "a runtime directory others can enter is not used"));
  });

  test("the daemon for a long data home listens in a private directory it makes under the temp directory, on a socket only its owner can use; the prompt hook reaches it", async () => {
    const sh = shared("made");
    const env = envFor(longHome("made"), sh);
    assert.equal((await mem(["index", docs, "-q"], env)).code, 0);
    const d = spawn(process.execPath, [BIN, "serve"], { env, stdio: ["ignore", "ignore", "pipe"] });
    children.push(d);
    await until(async () => (await status(env)).running === true);
    const sock = String((await status(env)).socket);
    assert.equal(dirname(sock), join(sh, `mem-${UID}`));
    assert.ok(lstatSync(dirname(sock)).isDirectory());
    assert.equal(lstatSync(dirname(sock)).mode & 0o777, 0o700);
    assert.ok(lstatSync(sock).isSocket());
    assert.equal(lstatSync(sock).mode & 0o777, 0o600);
    const r = await spawnHook("user-prompt-submit", PROMPT, { ...env, MEM_NO_DAEMON: "0" });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /We chose SQLite over Postgres/);
    assert.ok(Number((await status(env)).requests) >= 2, "the hook asked the daemon");
    assert.equal((await mem(["serve", "--stop"], env)).code, 0);
    await until(() => !existsSync(sock));
  });

  test("the client refuses a socket in a directory others can write to, and sends it nothing", async () => {
    const home = join(tmp, "open-home");
    mkdirSync(home);
    chmodSync(home, 0o777);
    const l = await listener(socketPath(home));
    const early = await ask(home, { op: "prompt", prompt: "a secret prompt" }, 1_000, new Dial(home));
    const late = await ask(home, { op: "prompt", prompt: "a secret prompt" }, 1_000);
    l.close();
    for (const r of [early, late]) assert.equal(r.kind, "refused", JSON.stringify(r));
    assert.deepEqual(l.lines, [], "the listener got nothing");
    const r = await spawnHook("user-prompt-submit", PROMPT, envFor(home, tmp, { MEM_NO_DAEMON: "0" }));
    assert.equal(r.code, 0);
    assert.deepEqual(l.lines, []);
    assert.match(readFileSync(join(home, "hooks.log"), "utf8"), /refused the daemon's socket .*writable by others/);
  });

  test("a data home of ours that others could write to is closed (0700) by the daemon, which then serves", async () => {
    const home = join(tmp, "group-writable-home");
    mkdirSync(home);
    chmodSync(home, 0o775); // made under umask 002 by an older mem
    const env = envFor(home, tmp, { MEM_NO_DAEMON: "0" });
    const r = await spawnHook("user-prompt-submit", PROMPT, env); // starts the daemon
    assert.equal(r.code, 0);
    await until(async () => (await status(env)).running === true);
    assert.equal(lstatSync(home).mode & 0o777, 0o700);
    assert.equal((await status(env)).running, true);
  });
});

describe("two local users: another uid squatting the socket's place", { skip: UID !== 0 ? "needs root to run a second user (uid 65534)" : process.platform === "win32" ? "named pipes" : false }, () => {
  test("the client refuses a socket another user owns, in our own directory or in theirs, and sends it nothing", async () => {
    const ours = join(tmp, "our-home");
    mkdirSync(ours);
    chmodSync(ours, 0o777); // for the squatter to bind in; ours again below
    const sh = shared("their-homes");
    const theirs = join(sh, "their-home");
    const squatter = await squat([theirs], [socketPath(ours), socketPath(theirs)]);
    chmodSync(ours, 0o755);
    for (const home of [ours, theirs]) {
      const r = await ask(home, { op: "prompt", prompt: "a secret prompt" }, 1_000);
      assert.equal(r.kind, "refused", JSON.stringify(r));
    }
    assert.deepEqual(squatter.received(), [], "the squatter received nothing");
  });
});
