/**
 * No secret is kept, whichever way it came in: the fake-secret corpus (both rounds) through every hook and index
 * channel (test/redact/channels.ts), then every byte of the data home and every hook output scanned.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { secretCases } from "../helpers/secrets.js";
import { hookChannels } from "./channels.js";
import { heldOutCases } from "./held-out-shapes.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-channels-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("no secret of the corpus is kept or shown, through any channel", { timeout: 900_000 }, async () => {
  const { leaks } = await hookChannels([...secretCases(), ...heldOutCases()], tmp);
  assert.deepEqual(leaks, []);
});
