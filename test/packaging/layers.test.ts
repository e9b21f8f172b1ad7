/**
 * scripts/check-layers.mjs (run by `npm run lint`): no upward imports between the layers of src/
 * and indexer/. The pure check table-driven, then the script on fixtures, then on the repo itself.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/config/config.js";

const CHECKER = join(PACKAGE_ROOT, "scripts", "check-layers.mjs");
const tmp = mkdtempSync(join(tmpdir(), "mem-layers-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Layers {
  unitOf(rel: string): string | null;
  checkLayers(edges: [string, string][], layers?: string[][]): { upward: { from: string; to: string }[]; unplaced: string[] };
}
const load = async (): Promise<Layers> => (await import(CHECKER)) as Layers;

describe("layers (pure)", () => {
  const cases: [string, [string, string][], number, string[]][] = [
    ["down is fine", [["src/capture/a.ts", "src/store/b.ts"]], 0, []],
    ["same layer is fine", [["src/indexer/x.ts", "src/team/y.ts"]], 0, []],
    ["a folder in no layer is reported", [["src/newthing/x.ts", "src/store/y.ts"]], 0, ["newthing"]],
    ["up is refused", [["src/store/events.ts", "src/capture/types.ts"]], 1, []],
    ["src/app.ts is the app unit", [["src/service/s.ts", "src/app.ts"]], 0, []],
    ["indexer/ is a unit", [["indexer/pipeline.ts", "src/retrieve/bm25.ts"]], 0, []],
    ["indexer/ may not import capture", [["indexer/pipeline.ts", "src/capture/x.ts"]], 1, []],
    ["outside src and indexer is not checked", [["scripts/bench.ts", "src/cli/main.ts"]], 0, []],
  ];
  for (const [name, edges, upward, unplaced] of cases) {
    test(name, async () => {
      const { checkLayers } = await load();
      const r = checkLayers(edges);
      assert.equal(r.upward.length, upward);
      assert.deepEqual(r.unplaced, unplaced);
    });
  }
  test("unitOf", async () => {
    const { unitOf } = await load();
    assert.equal(unitOf("src/store/x.ts"), "store");
    assert.equal(unitOf("src/app.ts"), "app");
    assert.equal(unitOf("indexer/chunk.ts"), "indexer");
    assert.equal(unitOf("test/x.ts"), null);
  });
});

function fixture(name: string, files: Record<string, string>): string {
  const root = join(tmp, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const run = (root?: string) => spawnSync(process.execPath, [CHECKER, ...(root ? [root] : [])], { encoding: "utf8" });

test("an upward import and an unplaced folder: exit 1, each printed", () => {
  const root = fixture("up", {
    "src/store/events.ts": 'import type { E } from "../capture/types.js";\nexport type X = E;\n',
    "src/capture/types.ts": "export type E = string;\n",
    "src/newthing/a.ts": 'import { b } from "../store/events.js";\nexport const a = b;\n',
  });
  const r = run(root);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^src\/store\/events\.ts -> src\/capture\/types\.ts \(store imports capture, a layer above it\)$/m);
  assert.match(r.stdout, /^newthing: not placed in a layer/m);
  assert.match(r.stderr, /1 upward import\(s\), 1 unplaced folder/);
});

test("the repo's src and indexer have no upward import", () => {
  const r = run();
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /no upward imports/);
});
