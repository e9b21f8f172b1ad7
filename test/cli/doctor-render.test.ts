/** `mem doctor`'s human output: one line a check, whatever a path in it holds (control characters, a newline). */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { cleanEnv, runMem } from "../helpers/mem-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-doc-render-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("a data home named with an escape sequence and a newline: shown escaped, each check on its own line", async () => {
  const home = join(tmp, "h\u001b[31mred\nfake-check: all fine");
  mkdirSync(home, { mode: 0o700 });
  const r = await runMem(["doctor"], { env: { ...cleanEnv(join(tmp, ".claude")), HOME: tmp, MEM_HOME: home, MEM_EMBED_ORDER: "none" }, cwd: tmp });
  assert.ok(!r.stdout.includes("\u001b"), "no raw escape reaches the terminal");
  assert.ok(r.stdout.includes("\\u{1b}[31m") || r.stdout.includes("\\u001b[31m"), r.stdout);
  assert.ok(!r.stdout.split("\n").some((l) => l.startsWith("fake-check")), "the newline did not start a line of its own");
});
