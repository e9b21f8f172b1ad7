/**
 * The third corpus (test/redact/third-shapes.ts) through every channel: the hook and index channels
 * (test/redact/channels.ts) and the explicit ones (test/redact/explicit-harness.ts). Nothing may be stored or
 * shown; the tally of shapes stored and shown, by channel, is printed.
 */
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { hookChannels } from "./channels.js";
import { explicitChannels } from "./explicit-harness.js";
import { thirdCases } from "./third-shapes.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-third-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("no secret of the third corpus is kept or shown, through any channel", { timeout: 1_800_000 }, async (t) => {
  const cases = thirdCases();
  const hooks = await hookChannels(cases, join(tmp, "hooks"));
  const names = new Set(cases.map((c) => c.name));
  const count = (s: Set<string>) => [...s].filter((n) => names.has(n)).length;
  const explicit = await explicitChannels(cases, join(tmp, "explicit"));
  t.diagnostic(`hooks and index: ${cases.length} shapes, ${count(hooks.stored)} stored raw, ${count(hooks.shown)} shown raw; ${explicit.tally.join("; ")}`);
  assert.deepEqual([...hooks.leaks, ...explicit.leaks], []);
});
