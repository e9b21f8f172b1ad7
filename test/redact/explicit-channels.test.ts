/**
 * No secret of the corpus is kept or shown through the explicit channels (`mem remember`, MCP `remember`,
 * `mem import`, and what the model reads back: test/redact/explicit-harness.ts). The tally by channel is printed.
 */
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { secretCases } from "../helpers/secrets.js";
import { explicitChannels } from "./explicit-harness.js";
import { heldOutCases } from "./held-out-shapes.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-explicit-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("no secret of the corpus is kept or shown through remember, MCP remember and import", { timeout: 900_000 }, async (t) => {
  const { leaks, tally } = await explicitChannels([...secretCases(), ...heldOutCases()], tmp);
  t.diagnostic(tally.join("; "));
  assert.deepEqual(leaks, []);
});
