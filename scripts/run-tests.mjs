#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with node's built-in test runner.
// Usage: node scripts/run-tests.mjs [substring-filter...]
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  .sort();
if (files.length === 0) {
  console.error("no test files found under dist/test (did the build run?)");
  process.exit(1);
}
// TAP as it runs; the failures again, after it, where a log that keeps only its tail shows them.
const dir = mkdtempSync(join(tmpdir(), "mem-test-report-"));
const report = join(dir, "failures.txt");
const reporters = ["--test-reporter=tap", "--test-reporter-destination=stdout"];
reporters.push("--test-reporter=./scripts/failures-reporter.mjs", `--test-reporter-destination=${report}`);
const r = spawnSync(process.execPath, ["--test", "--test-concurrency=2", ...reporters, ...files], { stdio: "inherit" });
let failures = "";
try {
  failures = readFileSync(report, "utf8");
} catch {}
rmSync(dir, { recursive: true, force: true });
if (failures) process.stdout.write(failures);
process.exit(r.status ?? 1);
