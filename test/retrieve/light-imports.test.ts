/**
 * What only searches by BM25 never loads LanceDB or apache-arrow (about 130 ms of a `mem query`,
 * and of the prompt hook without a daemon): those load when a vector is read or written. A module
 * hook in a child process lists what each entry point resolves.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const tmp = mkdtempSync(join(tmpdir(), "mem-light-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const DIST = fileURLToPath(new URL("../../", import.meta.url));

function heavyLoadedBy(modules: string[]): string[] {
  const hooks = join(tmp, "hooks.mjs");
  writeFileSync(hooks, `export async function resolve(s, c, next) { const r = await next(s, c); if (/apache-arrow|@lancedb/.test(r.url)) process.stderr.write("HEAVY " + r.url + "\\n"); return r; }\n`);
  const reg = join(tmp, "register.mjs");
  writeFileSync(reg, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const code = modules.map((m) => `await import(${JSON.stringify(pathToFileURL(join(DIST, m)).href)});`).join("\n");
  const r = spawnSync(process.execPath, ["--import", pathToFileURL(reg).href, "--input-type=module", "-e", code], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stderr.split("\n").filter((l) => l.startsWith("HEAVY "));
}

test("mem query, mem why and the prompt hook without a daemon load neither LanceDB nor apache-arrow until a vector is needed", () => {
  assert.deepEqual(heavyLoadedBy(["src/cli/query-cmd.js", "src/cli/why-cmd.js", "src/hooks/user-prompt-local.js", "src/retrieve/search.js"]), []);
  assert.ok(heavyLoadedBy(["src/store/vectors.js"]).length > 0, "the check sees them when they load");
});
