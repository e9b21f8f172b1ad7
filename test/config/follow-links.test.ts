import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/load.js";
import { defaultConfig } from "../../src/config/config.js";

const dir = mkdtempSync(join(tmpdir(), "mem-config-links-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const load = (index: unknown) => {
  const path = join(dir, `c${n++}.json`);
  writeFileSync(path, JSON.stringify({ index }));
  return loadConfig(path, {}).config.index.followExternalLinks;
};

test("index.followExternalLinks is off by default", () => {
  assert.deepEqual(defaultConfig().index.followExternalLinks, []);
});

test("index.followExternalLinks takes absolute paths and ~/ paths; anything else is a clear error", () => {
  assert.deepEqual(load({ followExternalLinks: ["/home/u/notes", "~/work/notes"] }), ["/home/u/notes", "~/work/notes"]);
  for (const bad of [["notes"], ["./notes"], [""], ["~user/notes"]]) {
    assert.throws(() => load({ followExternalLinks: bad }), (err: Error) => err instanceof ConfigError && /"index\.followExternalLinks" takes absolute paths/.test(err.message), JSON.stringify(bad));
  }
  assert.throws(() => load({ followExternalLinks: true }), /must be a list of strings/);
});
