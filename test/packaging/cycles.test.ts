/**
 * scripts/check-cycles.mjs (run by `npm run lint`): no import circles, type-only ones included.
 * Run on small fixtures in a temp directory, then on the repo itself.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/config/config.js";

const CHECKER = join(PACKAGE_ROOT, "scripts", "check-cycles.mjs");
const tmp = mkdtempSync(join(tmpdir(), "mem-cycles-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function fixture(name: string, files: Record<string, string>): string {
  const root = join(tmp, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root?: string) {
  const r = spawnSync(process.execPath, [CHECKER, ...(root ? [root] : [])], { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("a type-only import back into the dispatcher is a cycle: exit 1, the cycle printed", () => {
  const root = fixture("typed", {
    "main.ts": 'export interface Command { run(): void }\nexport const load = async () => (await import("./a-cmd.js")).a;\n',
    "a-cmd.ts": 'import type { Command } from "./main.js";\nexport const a: Command = { run() {} };\n',
  });
  const r = check(root);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^a-cmd\.ts > main\.ts > a-cmd\.ts$/m);
  assert.match(r.stderr, /1 import cycle/);
});

test("export-from, .cjs specifiers of .cts sources and require() are followed", () => {
  const root = fixture("cts", {
    "lib/a.cts": 'import b = require("./b.cjs");\nexport const a = b;\n',
    "lib/b.cts": 'export { c } from "../c.js";\n',
    "c.ts": '// import "./lib/a.cjs" (a comment: not an edge)\nexport const c = () => require("./lib/a.cjs");\n',
  });
  const r = check(root);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^c\.ts > lib\/a\.cts > lib\/b\.cts > c\.ts$/m);
});

test("without a cycle: exit 0 and a one-line summary", () => {
  const root = fixture("clean", {
    "command.ts": "export interface Command { run(): void }\n",
    "main.ts": 'import type { Command } from "./command.js";\nexport const load = async (): Promise<Command> => (await import("./a-cmd.js")).a;\n',
    "a-cmd.ts": 'import type { Command } from "./command.js";\nexport const a: Command = { run() {} };\n',
    // commented-out and non-relative imports are not edges
    "b.ts": '/* import { a } from "./a-cmd.js"; */\nimport { join } from "node:path";\nexport const b = join;\n',
  });
  const r = check(root);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(r.stdout.trim().split("\n").length, 1);
  assert.match(r.stdout, /no import cycles \(4 files, 3 relative imports\)/);
});

test("the repo's src, indexer and scripts have no import cycle", () => {
  const r = check();
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /no import cycles/);
});
