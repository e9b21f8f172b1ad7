/**
 * A hook whose log cannot be written (the data home is not a directory that can be made) says what
 * it would have logged on its stderr, redacted, instead of losing it; it still exits 0 and prints
 * nothing on stdout.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { spawnHook } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-log-fallback-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("hooks.log unwritable: the line goes to the hook's stderr, redacted", async () => {
  writeFileSync(join(tmp, "file"), "");
  const env = { HOME: tmp, MEM_HOME: join(tmp, "file", "home"), MEM_EMBED_ORDER: "none" };
  const r = await spawnHook("no-such-event-AKIAIOSFODNN7EXAMPLE", "{}", env);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^mem: unknown hook "no-such-event-/m);
  assert.ok(!r.stderr.includes("AKIAIOSFODNN7EXAMPLE"), r.stderr);
});
