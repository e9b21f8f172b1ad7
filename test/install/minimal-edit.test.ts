/**
 * `mem install` / `mem uninstall` change only the `hooks` of a hand-formatted settings.json: the
 * user's indentation, key order, inline arrays and every other key stay byte for byte; backups go
 * to the data home, never beside the file.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { installToFile, uninstallFromFile } from "../../src/install/files.js";
import type { HookTarget } from "../../src/install/hooks.js";
import { editTopLevel } from "../../src/install/json-edit.js";
import { findMemHooks } from "../../src/install/settings.js";
import { parseSettingsText } from "../../src/install/settings-json.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-install-minimal-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const TARGET: HookTarget = { node: "/usr/local/bin/node", bin: "/home/ann/src/mem/bin/mem.cjs" };
const NOW = new Date("2026-03-04T05:06:07.089Z");

let n = 0;
function sandbox(): { home: string; memHome: string; file: string; where: { cwd: string; env: NodeJS.ProcessEnv } } {
  const dir = join(tmp, `s${++n}`);
  const home = join(dir, "home");
  const memHome = join(dir, "mem-home");
  mkdirSync(join(home, ".claude"), { recursive: true });
  return { home, memHome, file: join(home, ".claude", "settings.json"), where: { cwd: dir, env: { HOME: home, MEM_HOME: memHome } } };
}

/** Hand-written files: the part before `hooks`, its value, the part after (`hooks` absent: PRE + POST). */
const FILES: { name: string; pre: string; hooks?: string; post: string }[] = [
  {
    name: "4-space indent, hooks in the middle holding a hook of the user's, inline arrays, keys in no usual order",
    pre: '{\n    "statusLine": {"type": "command", "command": "~/bin/line"},\n    "permissions": {\n        "deny": ["Read(./.env)"],   "allow": ["Bash(ls)", "Read"]\n    },\n    "hooks": ',
    hooks: '{\n        "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/bin/guard" } ] } ]\n    }',
    post: ',\n    "model": "opus",\n    "env": { "A": "1" }\n}\n',
  },
  {
    name: "tabs, CRLF, no final newline, no hooks yet",
    pre: '{\r\n\t"env": {"Z": "2", "A": "1"},\r\n\t"model": "sonnet"',
    post: "\r\n}",
  },
  {
    name: "all on one line",
    pre: '{"model": "opus", "permissions": {"allow": ["Read"]}',
    post: "}\n",
  },
];

describe("only the hooks change: everything else byte for byte, install and uninstall", () => {
  for (const f of FILES) {
    test(f.name, () => {
      const s = sandbox();
      const original = f.hooks === undefined ? f.pre + f.post : f.pre + f.hooks + f.post;
      writeFileSync(s.file, original);
      const r = installToFile({ scope: "user", where: s.where, target: TARGET, now: NOW });
      assert.equal(r.changed, true);
      const installed = readFileSync(s.file, "utf8");
      assert.ok(installed.startsWith(f.pre), `the text before hooks is untouched:\n${installed}`);
      assert.ok(installed.endsWith(f.post), `the text after hooks is untouched:\n${installed}`);
      const parsed = parseSettingsText(installed).settings;
      assert.equal(findMemHooks(parsed).length, 10);
      if (f.hooks !== undefined) assert.deepEqual(((parsed.hooks as Record<string, unknown[]>).PreToolUse ?? [])[0], ((JSON.parse(f.hooks) as Record<string, unknown[]>).PreToolUse ?? [])[0], "the user's hook kept, first");
      if (original.includes("\r\n")) assert.equal(installed.replace(/\r\n/g, "").includes("\n"), false, "CRLF only");
      assert.deepEqual(readdirSync(dirname(s.file)), ["settings.json"], "no backup beside the user's file");
      assert.ok(r.backup?.startsWith(join(s.memHome, "backups", "install")), String(r.backup));
      assert.equal(readFileSync(r.backup!, "utf8"), original);

      const u = uninstallFromFile({ scope: "user", where: s.where, now: new Date(NOW.getTime() + 1000) });
      assert.equal(u.changed, true);
      const back = readFileSync(s.file, "utf8");
      assert.ok(back.startsWith(f.pre) && back.endsWith(f.post), back);
      if (f.hooks === undefined) assert.equal(back, original, "no hooks before, none after: the file as it was");
      else assert.deepEqual(JSON.parse(back), JSON.parse(original));
      assert.deepEqual(readdirSync(dirname(s.file)), ["settings.json"], "no backup beside the user's file after uninstall either");
      assert.equal(readFileSync(u.backup!, "utf8"), installed);
    });
  }

  test("editTopLevel: a file it cannot edit member by member (duplicate keys) gives undefined, for the caller to write it whole", () => {
    const text = '{"a": 1, "a": 2}';
    assert.equal(editTopLevel(text, { a: 2 }, { a: 2, hooks: {} }, parseSettingsText(text).format), undefined);
  });

  test("mem install --scope user, spawned: the hand-formatted file keeps its style; the backup is in the data home", async () => {
    const s = sandbox();
    const f = FILES[0]!;
    writeFileSync(s.file, f.pre + f.hooks + f.post);
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, "install", "--scope", "user", "--no-mcp", "--json"], { cwd: s.where.cwd, env: { PATH: process.env.PATH, ...s.where.env }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    assert.equal(r.code, 0, r.stderr);
    const body = readFileSync(s.file, "utf8");
    assert.ok(body.startsWith(f.pre) && body.endsWith(f.post), body);
    assert.deepEqual(readdirSync(dirname(s.file)), ["settings.json"]);
    const backup = (JSON.parse(r.stdout) as { backup: string }).backup;
    assert.ok(backup.startsWith(join(s.memHome, "backups", "install")), backup);
  });
});
