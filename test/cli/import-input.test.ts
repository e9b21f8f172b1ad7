/**
 * What `mem import FILE` (and `mem query --batch FILE`) reads: a regular file, or a pipe (`mem import <(...)`), each up to the
 * cap; a device (/dev/zero would be read until memory runs out), a directory or a socket is
 * refused at once with what it is, and nothing is imported. Spawned `mem` on a temp data home.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { hasCommand } from "../helpers/has-command.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-import-input-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const proj = join(tmp, "proj");
mkdirSync(join(proj, ".git"), { recursive: true });
const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp };

describe("mem import: what FILE may be", { skip: process.platform === "win32" ? "POSIX devices and FIFOs" : false }, () => {
  test("a device or a directory is refused at once with what it is", async () => {
    for (const [file, what] of [["/dev/zero", "a character device"], [tmp, "a directory"]] as const) {
      const r = await runMem(["import", file, "--project", proj], { env, timeoutMs: 20_000 });
      assert.equal(r.code, 1, show(r));
      assert.equal(r.stderr, `mem import: cannot read ${file}: not a regular file (${what})\n`);
      assert.ok(r.ms < 15_000, `at once (${r.ms} ms)`);
    }
  });

  test("mem query --batch: a device or a directory is refused at once, not read as one line without end", async () => {
    for (const [file, what] of [["/dev/zero", "a character device"], [tmp, "a directory"]] as const) {
      const r = await runMem(["query", "--batch", file, "--project", proj], { env, timeoutMs: 20_000 });
      assert.equal(r.code, 1, show(r));
      assert.match(r.stderr, new RegExp(`cannot read batch file ${file}: not a regular file \\(${what}\\)`));
    }
  });

  test("a pipe, as `mem import <(...)` gives it, is read to its end", { skip: hasCommand("mkfifo") ? false : "no mkfifo" }, async () => {
    const fifo = join(tmp, "lines.fifo");
    await new Promise<void>((resolve, reject) => spawn("mkfifo", [fifo]).on("exit", (c) => (c === 0 ? resolve() : reject(new Error(`mkfifo ${c}`)))));
    const writer = spawn("/bin/sh", ["-c", `printf '%s\\n' '{"text": "Imported through a pipe."}' > '${fifo}'`]);
    const r = await runMem(["import", fifo, "--project", proj, "--json"], { env });
    assert.equal(r.code, 0, show(r));
    assert.equal(jsonOf<{ imported: number }>(r).imported, 1);
    writer.kill();
  });
});
