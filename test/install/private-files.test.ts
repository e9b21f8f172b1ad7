/**
 * What `mem install` and `mem uninstall` write in the data home is private like the rest of it:
 * install's record of what it created (in MEM_HOME and in the default data home, where an
 * uninstall from another shell finds it) and the backups of the settings files (which can hold an
 * API key in their `env`) are 0600 in folders of 0700, whatever the umask, and ones an earlier
 * version left open are closed again. Real CLI runs on a temp HOME and data home, and install's
 * code in-process under umask 022.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, describe, test } from "node:test";
import { installToFile } from "../../src/install/files.js";
import { BIN } from "../helpers/mem-cli.js";

const TARGET = { node: "/usr/local/bin/node", bin: "/home/ann/src/mem/bin/mem.cjs" };

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-install-private-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const posix = process.platform !== "win32";

let n = 0;
function sandbox() {
  const dir = join(tmp, `p${++n}`);
  const home = join(dir, "home");
  const memHome = join(dir, "data");
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("MEM_") && !k.startsWith("CLAUDE") && !k.startsWith("XDG_") && k !== "NODE_TEST_CONTEXT" && k !== "NODE_OPTIONS") env[k] = v;
  Object.assign(env, { HOME: home, MEM_HOME: memHome, MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1", MEM_WATCH: "0" });
  /** `mem ARGS`, a real CLI run. */
  const mem = (args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env, stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, out }));
    });
  return { home, memHome, usual: join(home, ".local", "share", "mem"), settings: join(home, ".claude", "settings.json"), mem };
}

const mode = (p: string) => statSync(p).mode & 0o777;

/** Every folder and file under `dir` (itself included) with its mode, as `path 700`. */
function modes(dir: string): string[] {
  const out = [`${relative(dir, dir) || "."} ${mode(dir).toString(8)}`];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      out.push(`${relative(dir, p)} ${mode(p).toString(8)}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

const loose = (dir: string) => modes(dir).filter((l) => !/ (700|600)$/.test(l));

describe("install's files in the data home are private", { skip: !posix && "modes are POSIX" }, () => {
  test("install-created.json is 0600 in a 0700 folder, in MEM_HOME and in the default data home, whatever the umask", () => {
    // In-process (the CLI's bin sets umask 077; the MCP server, the explorer and tests call install's code without it).
    const s = sandbox();
    const was = process.umask(0o022);
    try {
      installToFile({ scope: "user", where: { cwd: s.home, env: { HOME: s.home, MEM_HOME: s.memHome } }, target: TARGET });
    } finally {
      process.umask(was);
    }
    for (const home of [s.memHome, s.usual]) {
      assert.ok(existsSync(join(home, "install-created.json")), home);
      assert.deepEqual(loose(home), [], home);
    }
  });

  test("the backups of install and uninstall: 0600 files in 0700 folders, from the data home down", async () => {
    const s = sandbox();
    mkdirSync(join(s.home, ".claude"), { recursive: true });
    writeFileSync(join(s.settings), `${JSON.stringify({ env: { API_KEY: "sk-not-for-others" } }, null, 2)}\n`, { mode: 0o644 });
    const i = await s.mem(["install", "--scope", "user"]);
    assert.equal(i.code, 0, i.out);
    const u = await s.mem(["uninstall", "--scope", "user"]);
    assert.equal(u.code, 0, u.out);
    const backups = join(s.memHome, "backups", "install");
    const files = modes(backups).filter((l) => l.includes(".bak-"));
    assert.ok(files.length >= 2, `a backup by install and by uninstall: ${modes(backups).join("\n")}`);
    assert.deepEqual(loose(s.memHome), [], "nothing in the data home open to others");
  });

  test("a record and backup folders an earlier version left open are closed again", async () => {
    const s = sandbox();
    const old = join(s.memHome, "backups", "install", "home-0000");
    mkdirSync(old, { recursive: true, mode: 0o755 });
    for (const d of [s.memHome, join(s.memHome, "backups"), join(s.memHome, "backups", "install"), old]) chmodSync(d, 0o755);
    writeFileSync(join(s.memHome, "install-created.json"), "[]\n", { mode: 0o644 });
    chmodSync(join(s.memHome, "install-created.json"), 0o644);
    mkdirSync(join(s.home, ".claude"), { recursive: true });
    writeFileSync(s.settings, "{}\n");
    const r = await s.mem(["install", "--scope", "user"]);
    assert.equal(r.code, 0, r.out);
    assert.deepEqual(
      loose(s.memHome).filter((l) => !l.startsWith("backups/install/home-0000 ")),
      [],
      "the record, the data home and the backup folders mem writes into are closed",
    );
  });
});
