import assert from "node:assert/strict";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { lockPath } from "../../src/daemon/paths.cjs";
import { hookLog } from "../../src/hooks/log.cjs";
import { openDb } from "../../src/store/db.js";
import { ensurePrivateDir } from "../../src/util/private-dir.cjs";
import { endProcessesUnder } from "../helpers/daemon.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { runChild } from "../helpers/run-child.js";
import { spawnHook } from "../hooks/helpers.js";
import { until } from "../helpers/until.js";

const BIN = join(fileURLToPath(new URL("../../../", import.meta.url)), "bin", "mem.cjs");
const tmp = mkdtempSync(join(tmpdir(), "mem-private-"));
// A process the hooks started (a daemon for next time, a capture's indexer) may still write in a
// home here: ended, and waited for, before the folder goes.
after(async () => {
  await endProcessesUnder(tmp);
  rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
});
const mode = (p: string) => statSync(p).mode & 0o777;

/** Every entry under `dir` (not following symlinks), with its mode. */
function walk(dir: string, out: { path: string; dir: boolean; mode: number }[] = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const s = lstatSync(path);
    out.push({ path, dir: s.isDirectory(), mode: s.mode & 0o777 });
    if (s.isDirectory()) walk(path, out);
  }
  return out;
}


describe("the data home is private to its owner", { skip: process.platform === "win32" ? "no POSIX modes" : false }, () => {
  test("created 0700 by whoever creates it first: the store, the hook log, the daemon's lock", () => {
    ensurePrivateDir(join(tmp, "a", "deep", "home"));
    assert.equal(mode(join(tmp, "a", "deep", "home")), 0o700);
    ensurePrivateDir(join(tmp, "a", "deep", "home")); // again: no error

    const db = openDb(join(tmp, "store-home", "mem.sqlite"));
    db.close();
    assert.equal(mode(join(tmp, "store-home")), 0o700);

    hookLog({ MEM_HOME: join(tmp, "log-home") }, "a line");
    assert.equal(mode(join(tmp, "log-home")), 0o700);
  });

  test("the store and the hook log are created 0600 whatever the process umask", () => {
    const umask = process.umask(0o022);
    try {
      const db = openDb(join(tmp, "umask-home", "mem.sqlite"));
      db.pragma("user_version"); // WAL files exist while it is open
      for (const f of ["mem.sqlite", "mem.sqlite-wal", "mem.sqlite-shm"]) assert.equal(mode(join(tmp, "umask-home", f)), 0o600, f);
      db.close();
      hookLog({ MEM_HOME: join(tmp, "umask-home") }, "a line");
      assert.equal(mode(join(tmp, "umask-home", "hooks.log")), 0o600);
    } finally {
      process.umask(umask);
    }
  });

  test("an existing directory of ours opened to others is closed again (700), and mem doctor names it", async () => {
    const home = join(tmp, "shared-home");
    mkdirSync(home);
    chmodSync(home, 0o755);
    ensurePrivateDir(home);
    assert.equal(mode(home), 0o700, "it holds what was captured: closed to its owner");

    const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, MEM_EMBED_ORDER: "none", CLAUDE_CONFIG_DIR: join(tmp, "claude") };
    // A store with a snapshot, then the data home and the snapshots opened to others.
    mkdirSync(join(tmp, "shared-notes"));
    writeFileSync(join(tmp, "shared-notes", "a.md"), "# A note\n\nThe heron.\n");
    assert.equal((await runChild(process.execPath, [BIN, "index", join(tmp, "shared-notes"), "-q"], { env })).code, 0);
    chmodSync(home, 0o755);
    chmodSync(join(home, "snapshots"), 0o777);
    const r = await runChild(process.execPath, [BIN, "doctor", "--json"], { env });
    const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string; fix?: string }[] }).checks;
    const check = checks.find((c) => c.name === "data home");
    assert.equal(mode(home), 0o700);
    assert.equal(mode(join(home, "snapshots")), 0o700);
    // The app closes the home as it opens it, before the checks run: doctor still says what it found.
    assert.equal(check?.status, "warn", JSON.stringify(check));
    assert.match(check!.detail, /was open to other users \(mode 755\).*closed it \(mode 700\)/);
    assert.ok(checks.some((c) => c.name === "snapshots" && c.status === "warn" && /snapshots was open to other users \(mode 777\).*mem closed it/.test(c.detail)), JSON.stringify(checks.filter((c) => c.name === "snapshots")));

    const ok = await runChild(process.execPath, [BIN, "doctor", "--json"], { env });
    assert.equal((JSON.parse(ok.stdout) as { checks: { name: string; status: string }[] }).checks.find((c) => c.name === "data home")?.status, "ok");
  });

  test("hooks, a daemon run and mem index in a fresh home create nothing others can open: files 0600 or stricter, directories 0700", async () => {
    const fake = await startFakeOllama({ models: ["nomic-embed-text:latest"], dims: 64 });
    try {
      const home = join(tmp, "fresh-home");
      const docs = join(tmp, "fresh-docs");
      mkdirSync(docs);
      writeFileSync(join(docs, "note.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server and FTS5 gives BM25.\n");
      const env = { HOME: tmp, MEM_HOME: home, MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: fake.url };
      const daemonEnv = { ...env, MEM_NO_DAEMON: "0" };
      assert.equal((await spawnHook("no-such-event", "{}", env)).code, 0); // logs to hooks.log
      await spawnHook("session-start", JSON.stringify({ session_id: "f", cwd: docs, hook_event_name: "SessionStart", source: "startup" }), env);
      assert.equal((await runChild(process.execPath, [BIN, "index", docs, "-q"], { env: { PATH: process.env.PATH, ...env } })).code, 0);
      const prompt = await spawnHook("user-prompt-submit", JSON.stringify({ session_id: "f", cwd: docs, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" }), daemonEnv);
      assert.match(prompt.stdout, /We chose SQLite/);
      await until(async () => (await ask(home, { op: "ping" }, 500)).kind === "reply"); // the hook started the daemon
      const tool = { session_id: "f", cwd: docs, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "toolu_f_1", tool_input: { command: "ls" }, tool_response: { stdout: "a", stderr: "" } };
      assert.equal((await spawnHook("post-tool-use", JSON.stringify(tool), daemonEnv)).code, 0);
      const check = (when: string) => {
        const entries = walk(home);
        for (const name of ["mem.sqlite", "hooks.log", "vectors"]) assert.ok(entries.some((e) => e.path === join(home, name)), `${name} exists ${when}`);
        const open = entries.filter((e) => (e.dir ? e.mode !== 0o700 : (e.mode & 0o077) !== 0));
        assert.deepEqual(open.map((e) => `${e.path.slice(home.length)} ${e.mode.toString(8)}`), [], `nothing open to others ${when}`);
      };
      assert.equal(mode(home), 0o700);
      assert.ok(existsSync(lockPath(home)));
      check("while the daemon runs");
      await ask(home, { op: "stop" }, 2_000);
      await until(() => !existsSync(lockPath(home)));
      check("after it stopped");
    } finally {
      await ask(join(tmp, "fresh-home"), { op: "stop" }, 2_000);
      await fake.close();
    }
  });
});
