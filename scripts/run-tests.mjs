#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with node's built-in test runner.
// Usage: node scripts/run-tests.mjs [substring-filter...]
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawnSync } from "node:child_process";

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith(".test.js")) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = walk("dist/test")
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort()
  .map((f) => resolve(f)); // as the test runner names them in its events
if (files.length === 0) {
  console.error("no test files found under dist/test (did the build run?)");
  process.exit(1);
}
// TAP as it runs; the failures again, after it, where a log that keeps only its tail shows them.
function run(list, concurrency) {
  const dir = mkdtempSync(join(tmpdir(), "mem-test-report-"));
  const report = join(dir, "failures.txt");
  const reporters = ["--test-reporter=tap", "--test-reporter-destination=stdout"];
  reporters.push("--test-reporter=./scripts/failures-reporter.mjs", `--test-reporter-destination=${report}`);
  const r = spawnSync(process.execPath, ["--test", `--test-concurrency=${concurrency}`, ...reporters, ...list], { stdio: "inherit" });
  let failures = "";
  try {
    failures = readFileSync(report, "utf8");
  } catch {}
  rmSync(dir, { recursive: true, force: true });
  // The files named in the failures block ("✖ <file>"), each once.
  const failed = [...new Set([...failures.matchAll(/^✖ (.+)$/gm)].map((m) => m[1]))];
  return { status: r.status ?? 1, failures, failed };
}

// The exit status is set, not forced: the last lines reach a pipe before the process ends.
process.exitCode = finish();

function finish() {
  const first = run(files, 2);
  if (first.status === 0) return 0;
  // A file that failed is run once more, alone, when at most RETRY_FILES failed and each is one of
  // ours: a test that fails only beside another (two run at once) or on a busy moment is named as
  // flaky, loudly, with its first failure; one that fails again fails the run.
  const RETRY_FILES = 3;
  const again = first.failed.filter((f) => files.includes(f));
  if (again.length === 0 || again.length !== first.failed.length || again.length > RETRY_FILES) {
    process.stdout.write(first.failures);
    return first.status;
  }
  process.stdout.write(`\n# ${again.length} file(s) failed; running them again, alone:\n`);
  const second = run(again, 1);
  process.stdout.write(first.failures);
  if (second.status !== 0) {
    process.stdout.write(`\n# failed again when run alone:${second.failures || " (see above)"}\n`);
    return second.status;
  }
  process.stdout.write(`\n# FLAKY: failed in the full run, passed when run again alone (the failure is above; fix it):\n${again.map((f) => `#   ${f}`).join("\n")}\n`);
  return 0;
}
