/**
 * What an install of the package runs, read from package-lock.json (no network): npm applies this
 * package's `overrides` only when it is the root of the install, never for `npm install -g` of its
 * tarball, so whatever a production dependency's install script fetches is fetched there. The one
 * allowed is better-sqlite3's (prebuild-install, else a compile from source with the local
 * toolchain); a dependency like @xenova/transformers 2.17.2, which brings sharp 0.32 (its install
 * script downloads libvips from GitHub), must not come back.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT } from "../../src/config/config.js";

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  hasInstallScript?: boolean;
}

const read = (file: string) => JSON.parse(readFileSync(join(PACKAGE_ROOT, file), "utf8")) as Record<string, unknown>;

test("a production install runs no install script but better-sqlite3's (optional dependencies aside)", () => {
  const lock = read("package-lock.json") as { packages: Record<string, LockEntry> };
  const withScripts = Object.entries(lock.packages)
    .filter(([path, e]) => path !== "" && e.hasInstallScript && !e.dev && !e.optional && !e.devOptional)
    .map(([path]) => path);
  assert.deepEqual(withScripts, ["node_modules/better-sqlite3"]);
});

test("transformers.js is bundled, not a dependency: sharp is in no production dependency's tree", () => {
  const pkg = read("package.json") as Record<string, Record<string, string> | undefined>;
  const prod = { ...pkg.dependencies, ...pkg.optionalDependencies };
  assert.equal(prod["@xenova/transformers"], undefined);
  assert.equal(prod.sharp, undefined);
  assert.equal(pkg.optionalDependencies?.["onnxruntime-node"], "1.14.0", "the runtime the bundled transformers.js 2.17.2 was built against");
  assert.equal(pkg.devDependencies?.["@xenova/transformers"], "2.17.2", "what scripts/bundle-transformers.mjs bundles");
  const lock = read("package-lock.json") as { packages: Record<string, LockEntry> };
  const sharps = Object.entries(lock.packages).filter(([path]) => /(^|\/)node_modules\/sharp$/.test(path));
  for (const [path, e] of sharps) assert.ok(e.dev || e.optional || e.devOptional, `${path} ${e.version} is a production dependency`);
});
