/**
 * The import rules `npm run lint` enforces (dependency-cruiser with .dependency-cruiser.cjs): no
 * import circles, type-only ones included; no upward import between layers; every folder of src/
 * placed in a layer. Run on small trees in a temp directory, then on the repo itself.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/config/config.js";

const CRUISE = join(PACKAGE_ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const RULES = join(PACKAGE_ROOT, ".dependency-cruiser.cjs");
const tmp = mkdtempSync(join(tmpdir(), "mem-deps-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const TSCONFIG = JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", strict: true }, include: ["src", "indexer"] });

function tree(name: string, files: Record<string, string>): string {
  const root = join(tmp, name);
  for (const [path, text] of Object.entries({ "tsconfig.json": TSCONFIG, ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function cruise(cwd: string, dirs = ["src", "indexer"]) {
  const r = spawnSync(process.execPath, [CRUISE, ...dirs.filter((d) => existsSync(join(cwd, d))), "--config", RULES, "--output-type", "err"], { cwd, encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

test("a type-only import back into its importer is a circle", () => {
  const root = tree("circle", {
    "src/store/a.ts": 'import type { B } from "./b.js";\nexport interface A { b?: B }\n',
    "src/store/b.ts": 'import type { A } from "./a.js";\nexport interface B { a?: A }\n',
  });
  const r = cruise(root);
  assert.notEqual(r.status, 0, r.out);
  assert.match(r.out, /no-circular: src\/store\/a\.ts →\s+src\/store\/b\.ts →\s+src\/store\/a\.ts/);
});

test("the store importing capture's types is an upward import; .cjs specifiers reach .cts files", () => {
  const root = tree("upward", {
    "src/store/events.ts": 'import type { E } from "../capture/types.js";\nexport type X = E;\n',
    "src/capture/types.ts": "export type E = string;\n",
    "src/capture/stop.ts": 'import { str } from "../hooks/contract.cjs";\nexport const s = str;\n',
    "src/hooks/contract.cts": "export const str = (x: unknown) => String(x);\n",
  });
  const r = cruise(root);
  assert.notEqual(r.status, 0, r.out);
  assert.match(r.out, /layer-\d+-no-upward: src\/store\/events\.ts → src\/capture\/types\.ts/);
  assert.match(r.out, /layer-\d+-no-upward: src\/capture\/stop\.ts → src\/hooks\/contract\.cts/);
});

test("a folder in no layer is refused; imports downward and within a layer pass", () => {
  const root = tree("placed", {
    "src/newthing/a.ts": 'import { u } from "../util/u.js";\nexport const a = u;\n',
    "src/cli/main.ts": 'import { a } from "../newthing/a.js";\nimport { s } from "../service/s.js";\nexport const m = [a, s];\n',
    "src/service/s.ts": 'import { u } from "../util/u.js";\nexport const s = u;\n',
    "src/util/u.ts": "export const u = 1;\n",
  });
  const r = cruise(root);
  assert.notEqual(r.status, 0, r.out);
  assert.match(r.out, /every-folder-placed: src\/cli\/main\.ts → src\/newthing\/a\.ts/);
  assert.doesNotMatch(r.out, /no-upward|no-circular/);
  const clean = tree("clean", {
    "src/cli/main.ts": 'import { s } from "../service/s.js";\nimport { i } from "../../indexer/i.js";\nexport const m = [s, i];\n',
    "src/service/s.ts": 'import { u } from "../util/u.js";\nexport const s = u;\n',
    "indexer/i.ts": 'import type { E } from "../src/store/e.js";\nexport const i: E = 1;\n',
    "src/store/e.ts": "export type E = number;\n",
    "src/util/u.ts": "export const u = 1;\n",
  });
  const ok = cruise(clean);
  assert.equal(ok.status, 0, ok.out);
  assert.match(ok.out, /no dependency violations/);
});

test("the repo's src, indexer and scripts keep every rule", () => {
  const r = cruise(PACKAGE_ROOT, ["src", "indexer", "scripts"]);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /no dependency violations found/);
});
