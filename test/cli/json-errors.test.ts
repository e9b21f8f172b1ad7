/**
 * Under `--json` a failure is a JSON error on stdout (exit 1), from whichever command it comes:
 * the README's promise for scripts that read stdout. The reason is on stderr too, without the
 * error's class name.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { cleanEnv, runMem, show } from "../helpers/mem-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-json-errors-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function home(tag: string, config?: string): NodeJS.ProcessEnv {
  const h = join(tmp, tag);
  mkdirSync(h, { recursive: true });
  if (config !== undefined) writeFileSync(join(h, "config.json"), config);
  return { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: h };
}

test("a failure under --json prints {error: {code, message}} on stdout, whatever the command", async () => {
  const cases: [string, string[], NodeJS.ProcessEnv, string, RegExp][] = [
    ["no model for a vector search", ["query", "x", "--mode", "vector", "--json"], home("vector"), "search", /vector search unavailable/],
    ["a config that is not JSON", ["status", "--json"], home("config", "{ not json"), "config", /config\.json/],
    ["a file to import that is not there", ["import", join(tmp, "none.jsonl"), "--json"], home("import"), "unreadable", /cannot read .*none\.jsonl/],
    ["an export into a folder that is not there", ["export", "--output", join(tmp, "no-dir", "x.jsonl"), "--json"], home("export"), "failure", /cannot write .*x\.jsonl: its folder does not exist/],
    ["a task that is not there", ["task", "done", "999", "--json"], home("task"), "not_found", /no task 999/],
  ];
  for (const [what, args, env, code, message] of cases) {
    const r = await runMem(args, { env, cwd: tmp });
    assert.equal(r.code, 1, `${what}: ${show(r)}`);
    const out = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    assert.equal(out.error.code, code, `${what}: ${r.stdout}`);
    assert.match(out.error.message, message, what);
    assert.doesNotMatch(r.stderr, /\b\w+Error: /, `${what}: no class name on stderr: ${r.stderr}`);
  }
});

test("without --json, or with --json only after --, stdout stays empty", async () => {
  const env = home("plain");
  const r = await runMem(["query", "--mode", "vector", "--", "--json"], { env, cwd: tmp });
  assert.equal(r.code, 1, show(r));
  assert.equal(r.stdout, "");
});
