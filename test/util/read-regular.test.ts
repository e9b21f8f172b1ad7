import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { openRegular, readRegular } from "../../src/util/read-regular.cjs";
import { runChild } from "../helpers/run-child.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-read-regular-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const unix = process.platform !== "win32";
const MODULE = fileURLToPath(new URL("../../src/util/read-regular.cjs", import.meta.url));

describe("readRegular: only regular files are read, and never past the cap", () => {
  test("a regular file, and a symlink to one, are read whole", () => {
    const file = join(tmp, "note.md");
    writeFileSync(file, "# Note\n\nbody\n");
    const link = join(tmp, "link.md");
    symlinkSync(file, link);
    for (const p of [file, link]) {
      const r = readRegular(p, 1024);
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.data.toString(), "# Note\n\nbody\n");
    }
    const empty = join(tmp, "empty");
    writeFileSync(empty, "");
    const e = readRegular(empty, 10);
    assert.ok(e.ok && e.data.length === 0);
  });

  test("a file at the cap is read; one byte over is refused with its size", () => {
    const file = join(tmp, "eleven");
    writeFileSync(file, "0123456789A");
    const at = readRegular(file, 11);
    assert.ok(at.ok && at.data.toString() === "0123456789A");
    const over = readRegular(file, 10);
    assert.deepEqual(over, { ok: false, why: "too-large", reason: "too large (11 bytes, limit 10)", size: 11 });
  });

  test("a 16 GiB sparse file over the cap is refused at once, not read", { skip: !unix && "no sparse files" }, () => {
    const file = join(tmp, "sparse");
    closeSync(openSync(file, "w"));
    execFileSync("truncate", ["-s", "16G", file]);
    const started = Date.now();
    const r = readRegular(file, 1024 * 1024);
    assert.equal(r.ok, false);
    assert.match(r.ok ? "" : r.reason, /too large \(17179869184 bytes, limit 1048576\)/);
    assert.ok(Date.now() - started < 1_000);
  });

  test("missing paths are 'absent'; a directory, a device and a symlink to one are 'special', saying what they are", { skip: !unix && "no devices" }, () => {
    assert.equal((readRegular(join(tmp, "nope"), 10) as { why: string }).why, "absent");
    const file = join(tmp, "plain");
    writeFileSync(file, "x");
    assert.equal((readRegular(join(file, "under-a-file"), 10) as { why: string }).why, "absent");
    const dir = join(tmp, "dir");
    mkdirSync(dir);
    const zero = join(tmp, "zero.md");
    symlinkSync("/dev/zero", zero);
    const cases: [string, string][] = [
      [dir, "a directory"],
      ["/dev/null", "a character device"],
      [zero, "a character device"],
    ];
    for (const [path, what] of cases) {
      assert.deepEqual(readRegular(path, 1 << 30), { ok: false, why: "special", reason: `not a regular file (${what})` }, path);
      assert.equal(openRegular(path).ok, false);
    }
  });

  test("a FIFO with no writer is refused at once: neither the open nor the read waits", { skip: !unix && "no FIFOs" }, async () => {
    const fifo = join(tmp, "pipe");
    execFileSync("mkfifo", [fifo]);
    // In a child: were the open to block, it would block this whole test process.
    const script = `const m = require(${JSON.stringify(MODULE)}); process.stdout.write(JSON.stringify([m.readRegular(process.argv[1], 1024), m.openRegular(process.argv[1])]));`;
    const r = await runChild(process.execPath, ["-e", script, fifo], { timeout: 10_000 });
    assert.equal(r.signal, null, "the child blocked on the FIFO");
    const [read, opened] = JSON.parse(r.stdout) as [unknown, unknown];
    assert.deepEqual(read, { ok: false, why: "special", reason: "not a regular file (a FIFO)" });
    assert.deepEqual(opened, { ok: false, why: "special", reason: "not a regular file (a FIFO)" });
  });

  test("no descriptor is left open, whatever the outcome", { skip: !existsSync("/proc/self/fd") && "no /proc" }, () => {
    const big = join(tmp, "big");
    writeFileSync(big, "y".repeat(5000));
    const fds = () => readdirSync("/proc/self/fd").length;
    const before = fds();
    for (let i = 0; i < 50; i++) {
      readRegular(big, 100);
      readRegular(big, 10_000);
      readRegular("/dev/null", 10);
      readRegular(join(tmp, "nope"), 10);
    }
    assert.equal(fds(), before);
  });
});
