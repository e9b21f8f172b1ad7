/**
 * Files that are not regular files (FIFOs, devices) or are absurdly large, where `mem index`
 * expects a note or an ignore file: skipped with a warning naming them, never read to the end,
 * never waited on. Each run is a real `mem index` process, so a regression hangs one child (killed
 * at its timeout), not the test runner.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { runChild } from "../helpers/run-child.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-special-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const canFifo = process.platform !== "win32";

let n = 0;
/** A fresh directory with one ordinary note in it. */
function notes(): string {
  const dir = join(tmp, `case-${n++}`);
  mkdirSync(join(dir, "mem"), { recursive: true });
  writeFileSync(join(dir, "mem", "good.md"), "# Good\n\nThe albatross glides over the waves.\n");
  return dir;
}

const mkfifo = (path: string) => execFileSync("mkfifo", [path]);

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  summary: { files: { seen: number; indexed: number; skipped: number }; warnings: string[]; unmatched: { path: string; reason: string }[] };
}

/** `mem index ROOTS --json` in its own data home; killed after 20 s. */
async function index(dir: string, roots: string[]): Promise<Run> {
  const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: join(dir, "home"), MEM_EMBED_ORDER: "none" };
  const r = await runChild(process.execPath, [BIN, "index", ...roots, "--json", "--project", "p"], { env, cwd: dir, timeout: 20_000 });
  assert.equal(r.signal, null, `mem index was killed after ${r.ms} ms (it hung)`);
  return { code: r.code, signal: r.signal, ms: r.ms, summary: JSON.parse(r.stdout) as Run["summary"] };
}

function warningFor(warnings: string[], path: string): string {
  const hits = warnings.filter((w) => w.includes(path));
  assert.equal(hits.length, 1, `expected one warning naming ${path}, got:\n${warnings.join("\n")}`);
  return hits[0]!;
}

describe("ignore files that are not ordinary files are skipped with a warning; the notes are still indexed", () => {
  test("a .gitignore that is a symlink to /dev/zero is not read (it would never end)", { skip: !canFifo && "no /dev/zero" }, async () => {
    const dir = notes();
    symlinkSync("/dev/zero", join(dir, "mem", ".gitignore"));
    const r = await index(dir, ["mem"]);
    assert.equal(r.code, 0);
    assert.match(warningFor(r.summary.warnings, join(dir, "mem", ".gitignore")), /not a regular file \(a character device\).*not applied/);
    assert.equal(r.summary.files.indexed, 1);
  });

  test("a FIFO .gitignore does not make the run wait for a writer", { skip: !canFifo && "no FIFOs" }, async () => {
    const dir = notes();
    mkfifo(join(dir, "mem", ".gitignore"));
    const r = await index(dir, ["mem"]);
    assert.equal(r.code, 0);
    assert.match(warningFor(r.summary.warnings, join(dir, "mem", ".gitignore")), /not a regular file \(a FIFO\).*not applied/);
    assert.equal(r.summary.files.indexed, 1);
  });

  test("a .gitignore over 1 MiB is skipped, not parsed", async () => {
    const dir = notes();
    writeFileSync(join(dir, "mem", ".gitignore"), `good.md\n${"#".repeat(2 * 1024 * 1024)}\n`);
    const r = await index(dir, ["mem"]);
    assert.equal(r.code, 0);
    assert.match(warningFor(r.summary.warnings, join(dir, "mem", ".gitignore")), /too large .*limit 1048576.*not applied/);
    assert.equal(r.summary.files.indexed, 1, "its rules (good.md) were not applied");
  });
});

describe("notes that are not ordinary files are skipped with a warning naming them", () => {
  test("a FIFO and a /dev/zero symlink named on the command line are refused at once (exit 1: they name nothing to index)", { skip: !canFifo && "no FIFOs" }, async () => {
    const dir = notes();
    mkfifo(join(dir, "pipe.md"));
    symlinkSync("/dev/zero", join(dir, "zero.md"));
    const r = await index(dir, ["pipe.md", "zero.md", "mem"]);
    assert.equal(r.code, 1);
    assert.deepEqual(r.summary.unmatched, [
      { path: "pipe.md", reason: "not a regular file (a FIFO)" },
      { path: "zero.md", reason: "not a regular file (a character device)" },
    ]);
    assert.match(warningFor(r.summary.warnings, join(dir, "pipe.md")), /not a regular file \(a FIFO\).*skipped/);
    assert.match(warningFor(r.summary.warnings, join(dir, "zero.md")), /not a regular file \(a character device\).*skipped/);
    assert.equal(r.summary.files.indexed, 1, "the ordinary note still is");
  });

  test("a FIFO and a device met in a walk are skipped with a warning", { skip: !canFifo && "no FIFOs" }, async () => {
    const dir = notes();
    mkfifo(join(dir, "mem", "pipe.md"));
    symlinkSync("/dev/null", join(dir, "mem", "null.md"));
    const r = await index(dir, ["mem"]);
    assert.equal(r.code, 0);
    assert.match(warningFor(r.summary.warnings, join(dir, "mem", "pipe.md")), /not a regular file \(a FIFO\).*skipped/);
    assert.match(warningFor(r.summary.warnings, join(dir, "mem", "null.md")), /not a regular file \(a character device\).*skipped/);
    assert.equal(r.summary.files.indexed, 1);
  });
});
