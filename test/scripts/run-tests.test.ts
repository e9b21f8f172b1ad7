/**
 * scripts/run-tests.mjs, the runner `npm test` ends with: the failed tests named again after the
 * TAP stream (a CI log that keeps only its tail still says what failed), and a file that failed
 * run once more alone: one that passes then is named FLAKY and the run passes; one that fails
 * again fails the run. Run for real on a folder of small test files.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { REPO } from "../helpers/mem-cli.js";
import { runChild } from "../helpers/run-child.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-run-tests-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A checkout-like folder (`scripts` → the repo's) holding these compiled test files. */
function bed(name: string, files: Record<string, string>): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, "dist", "test"), { recursive: true });
  symlinkSync(join(REPO, "scripts"), join(dir, "scripts"));
  for (const [f, body] of Object.entries(files)) writeFileSync(join(dir, "dist", "test", f), `import { test } from "node:test";\nimport assert from "node:assert";\nimport { existsSync, writeFileSync } from "node:fs";\n${body}\n`);
  return dir;
}

async function runTests(dir: string) {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT; // this file's own runner's: the runner under test is a top-level one
  return runChild(process.execPath, [join(dir, "scripts", "run-tests.mjs")], { cwd: dir, env, timeout: 120_000 });
}

test("a test that fails once and passes alone: its failure named after the TAP stream, the file named FLAKY, the run passes", { timeout: 180_000 }, async () => {
  const mark = join(tmp, "failed-once");
  const dir = bed("flaky", {
    "a.test.js": `test("fails the first time", () => { if (!existsSync(${JSON.stringify(mark)})) { writeFileSync(${JSON.stringify(mark)}, "1"); assert.fail("the first time only"); } });`,
    "b.test.js": `test("fine", () => {});`,
  });
  const r = await runTests(dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const tail = r.stdout.slice(r.stdout.lastIndexOf("# 1 failed:"));
  assert.match(tail, /✖ .*a\.test\.js\n {2}fails the first time\n {4}AssertionError.*the first time only/);
  assert.match(tail, /# FLAKY: failed in the full run, passed when run again alone .*\n# {3}.*a\.test\.js\n$/);
  assert.match(r.stdout, /# 1 file\(s\) failed; running them again, alone:/);
});

test("a test that fails again alone fails the run, and the last lines name it, with the suites above it", { timeout: 180_000 }, async () => {
  const dir = bed("broken", {
    "a.test.js": `import { describe } from "node:test";\ndescribe("outer", () => { test("never", () => assert.equal(1, 2)); });`,
    "b.test.js": `test("fine", () => {});`,
  });
  const r = await runTests(dir);
  assert.equal(r.code, 1);
  const tail = r.stdout.slice(r.stdout.lastIndexOf("# failed again when run alone:"));
  assert.match(tail, /# 1 failed:\n\n✖ .*a\.test\.js\n {2}outer › never\n {4}AssertionError/);
  assert.doesNotMatch(r.stdout, /FLAKY/);
});

test("more files failing than a retry covers: no second run, the failures named at the end", { timeout: 180_000 }, async () => {
  const files: Record<string, string> = {};
  for (const n of ["a", "b", "c", "d"]) files[`${n}.test.js`] = `test("${n} breaks", () => assert.fail("${n}"));`;
  const r = await runTests(bed("many", files));
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stdout, /running them again/);
  const tail = r.stdout.slice(r.stdout.lastIndexOf("# 4 failed:"));
  for (const n of ["a", "b", "c", "d"]) assert.match(tail, new RegExp(`✖ .*${n}\\.test\\.js\\n {2}${n} breaks`));
});
