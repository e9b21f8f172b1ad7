#!/usr/bin/env node
// Bundles transformers.js (@xenova/transformers 2.17.2, a devDependency) into dist/vendor/, so the
// package does not depend on it. Its package.json requires sharp ^0.32, whose install script
// downloads libvips from GitHub: a global install (where this package's `overrides` do not apply)
// would then need more than the npm registry. transformers.js imports sharp statically, for images
// only, which mem never embeds; the bundle gets a stub in its place (scripts/vendor/sharp-stub.mjs).
// onnxruntime-web (its browser backend, 66 MB) is stubbed the same way: in Node transformers.js runs
// on onnxruntime-node, which stays outside the bundle (native binaries) as an optional dependency.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve("@xenova/transformers/package.json"));
const version = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).version;
if (version !== "2.17.2") throw new Error(`bundle-transformers: expected @xenova/transformers 2.17.2, found ${version}`);

mkdirSync("dist/vendor", { recursive: true });
await build({
  entryPoints: [join(pkgDir, "src", "transformers.js")],
  outfile: "dist/vendor/transformers.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["onnxruntime-node"],
  alias: {
    sharp: join(here, "vendor", "sharp-stub.mjs"),
    "onnxruntime-web": join(here, "vendor", "onnxruntime-web-stub.mjs"),
  },
  legalComments: "inline",
  logLevel: "warning",
});
// The licences of what the bundle holds: transformers.js (Apache-2.0) and its template engine (MIT).
copyFileSync(join(pkgDir, "LICENSE"), "dist/vendor/transformers.LICENSE");
copyFileSync(join(packageDir("@huggingface/jinja", pkgDir), "LICENSE"), "dist/vendor/huggingface-jinja.LICENSE");

/** The directory of package `name` as `from` resolves it (its exports may hide its package.json). */
function packageDir(name, from) {
  let dir = dirname(createRequire(join(from, "package.json")).resolve(name));
  while (!existsSync(join(dir, "package.json")) || JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name !== name) {
    if (dirname(dir) === dir) throw new Error(`bundle-transformers: cannot find the package directory of ${name}`);
    dir = dirname(dir);
  }
  return dir;
}
