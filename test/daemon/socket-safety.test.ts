import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { ask, Dial } from "../../src/daemon/client.cjs";
import { socketPath } from "../../src/daemon/paths.cjs";
import { runChild } from "../helpers/run-child.js";
import { spawnHook } from "../hooks/helpers.js";
import { until } from "../helpers/until.js";

const BIN = join(fileURLToPath(new URL("../../../", import.meta.url)), "bin", "mem.cjs");
const UID = process.getuid?.() ?? -1;
const OTHER = 65534; // nobody
const tmp = mkdtempSync(join(tmpdir(), "mem-socket-"));
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
const PROMPT = JSON.stringify({ session_id: "s", cwd: docs, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" });

/** A directory anyone may create entries in, like /tmp (mode 1777). */
function shared(name: string): string {
  const d = join(tmp, name);
  mkdirSync(d);
  chmodSync(d, 0o1777);
  return d;
}

/** A data home whose path is too long for a socket (sun_path is ~104 bytes). */
const longHome = (name: string) => join(tmp, `home-${name}-${"x".repeat(110)}`);

/** The environment of a mem process for data home `home` whose temp directory is `tmpDir`. */
function envFor(home: string, tmpDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, TMPDIR: tmpDir, MEM_EMBED_ORDER: "none", ...extra };
  envs.push(env);
  return env;
}

const mem = (args: string[], env: NodeJS.ProcessEnv, timeout = 30_000) => runChild(process.execPath, [BIN, ...args], { env, timeout });
const status = async (env: NodeJS.ProcessEnv) => JSON.parse((await mem(["serve", "--status", "--json"], env)).stdout) as Record<string, unknown>;


/** Runs `fn` with these process environment variables (undefined: unset). */
function withEnv<T>(vars: Record<string, string | undefined>, fn: () => T): T {
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
function oldGuessableName(home: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < home.length; i++) h = Math.imul(h ^ home.charCodeAt(i), 0x01000193) >>> 0;
  return `mem-${h.toString(16).padStart(8, "0")}.sock`;
}

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
async function squat(dirs: string[], socks: string[]): Promise<{ received: () => string[] }> {
  const child = spawn(process.execPath, ["-e", SQUATTER, JSON.stringify({ dirs, socks })], { uid: OTHER, gid: OTHER, cwd: "/", env: {}, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  await until(() => out.includes("ready\n") || child.exitCode !== null, 10_000);
  assert.ok(out.includes("ready\n"), "the squatter is listening");
  return { received: () => out.split("\n").filter((l) => l.startsWith("{")) };
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

  for (const kind of ["open to others", "a symlink"] as const) {
    test(`a private temp directory that is ${kind} is never reused: the daemon refuses to listen and the prompt hook answers in-process`, async () => {
      const name = kind === "a symlink" ? "symlink" : "open";
      const sh = shared(`refused-${name}`);
      const home = longHome(`refused-${name}`);
      const env = envFor(home, sh);
      const dir = join(sh, `mem-${UID}`);
      let inside = dir;
      if (kind === "a symlink") {
        inside = join(tmp, `elsewhere-${name}`);
        mkdirSync(inside, { mode: 0o700 });
        symlinkSync(inside, dir);
      } else {
        mkdirSync(dir);
        chmodSync(dir, 0o755);
      }
      assert.equal((await mem(["index", docs, "-q"], env)).code, 0);
      const served = await mem(["serve"], env, 15_000);
      assert.equal(served.code, 1, served.stderr);
      assert.match(served.stderr, new RegExp(`refusing to listen.*${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
      assert.deepEqual(readdirSync(inside), [], "nothing was made inside");
      assert.deepEqual(readdirSync(sh), [basename(dir)], "nor beside it");
      const r = await spawnHook("user-prompt-submit", PROMPT, { ...env, MEM_NO_DAEMON: "0" });
      assert.equal(r.code, 0);
      assert.match(r.stdout, /We chose SQLite over Postgres/, "the in-process fallback answered");
    });
  }

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
  test("another user's directory and sockets in the shared temp directory get nothing: the daemon refuses them, the prompt hook answers in-process", async () => {
    const sh = shared("squatted");
    const home = longHome("squatted");
    const env = envFor(home, sh);
    const dir = join(sh, `mem-${UID}`);
    const wouldBe = withEnv({ TMPDIR: sh, XDG_RUNTIME_DIR: undefined }, () => socketPath(home));
    const guessed = join(sh, oldGuessableName(home));
    const squatter = await squat([dir], [guessed, join(dir, basename(wouldBe))]);
    assert.equal((await mem(["index", docs, "-q"], env)).code, 0);

    const r = await spawnHook("user-prompt-submit", PROMPT, { ...env, MEM_NO_DAEMON: "0" });
    assert.equal(r.code, 0);
    assert.doesNotMatch(r.stdout, /SQUATTED/);
    assert.match(r.stdout, /We chose SQLite over Postgres/, "the in-process fallback answered");
    const served = await mem(["serve"], env, 15_000);
    assert.equal(served.code, 1, served.stderr);
    assert.match(served.stderr, /refusing to listen/);
    assert.doesNotMatch(served.stderr, /listening on/);
    await new Promise((res) => setTimeout(res, 500)); // the daemon the hook started has had its chance too
    assert.deepEqual(squatter.received(), [], "the squatter received nothing");
    for (const p of [guessed, join(dir, basename(wouldBe))]) assert.equal(lstatSync(p).uid, OTHER, `${p} is still the squatter's`);
  });

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
