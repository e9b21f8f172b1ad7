/**
 * Every `--json` the CLI prints is escaped for a terminal: stored text and file names with
 * escape sequences, C1 controls or bidi overrides come out as `\uXXXX`, the same JSON to a parser.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { cleanEnv, runMem } from "../helpers/mem-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-json-safe-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

test("--json of query, get and list: no raw control, C1 or bidi character from stored text or a file name reaches the terminal", { timeout: 120_000 }, async () => {
  const docs = join(tmp, "docs");
  mkdirSync(docs, { recursive: true });
  const name = "ledger\u202etxt.md";
  writeFileSync(join(docs, name), "# Ledger\n\nThe zanzibar ledger keeps \u001b[2J\u009b31m totals \u202e reversed in Postgres.\n");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home") };
  const idx = await runMem(["index", docs], { env });
  assert.equal(idx.code, 0, idx.stderr);
  const q = await runMem(["query", "zanzibar ledger", "--json", "--all-projects"], { env, cwd: docs });
  assert.equal(q.code, 0, q.stderr);
  assert.doesNotMatch(q.stdout, RAW);
  const parsed = JSON.parse(q.stdout) as { results: { path: string; text: string }[] };
  assert.ok(parsed.results.length > 0, q.stdout);
  assert.ok(parsed.results.some((r) => r.path.includes("\u202e")), "the file name is the same once parsed");
  assert.ok(parsed.results.some((r) => r.text.includes("\u202e")), "the text is the same once parsed");

  const put = await runMem(["remember", "--kind", "decision", "--json", "Keep the zanzibar \u009b31m ledger \u202e in Postgres"], { env, cwd: docs });
  assert.equal(put.code, 0, put.stderr);
  assert.doesNotMatch(put.stdout, RAW);
  const id = (JSON.parse(put.stdout) as { memory: { id: string; text: string } }).memory.id;
  const got = await runMem(["get", id, "--json"], { env, cwd: docs });
  assert.equal(got.code, 0, got.stderr);
  assert.doesNotMatch(got.stdout, RAW);
  assert.match((JSON.parse(got.stdout) as { memory: { text: string } }).memory.text, /\u202e/);
  const list = await runMem(["list", "--json"], { env, cwd: docs });
  assert.equal(list.code, 0, list.stderr);
  assert.doesNotMatch(list.stdout, RAW);
  assert.ok((JSON.parse(list.stdout) as { memories: unknown[] }).memories.length > 0);
});
