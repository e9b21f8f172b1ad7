#!/usr/bin/env node
// `npm run prepare`: builds dist/ unless it is up to date. npm runs `prepare` on `npm install` in a
// checkout, and again when `npx mem` in that checkout installs it into npx's cache; the second
// build (~10 s of tsc and bundling, its output hidden by npx) was the wait of a first `npx mem`.
// The stamp dist/.built is written after a complete build (`--stamp`, the end of `npm run build`);
// a source, script, test or config newer than it means a build.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const STAMP = join("dist", ".built");
const INPUTS = ["src", "indexer", "scripts", "test", "bin", "tsconfig.json", "package.json", "package-lock.json"];

if (process.argv.includes("--stamp")) {
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  process.exit(0);
}

/** The newest mtime under `path` (a file, or a folder walked whole). */
function newest(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of readdirSync(path, { withFileTypes: true })) max = Math.max(max, newest(join(path, e.name)));
  return max;
}

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
if (built > 0 && Math.max(...INPUTS.map(newest)) <= built) {
  process.stderr.write("mem: dist/ is up to date with the sources; build skipped\n");
  process.exit(0);
}
process.stderr.write("mem: building dist/ (TypeScript and bundles, about 10 s; once after a clone or an update)…\n");
const npm = process.env.npm_execpath;
const r = npm ? spawnSync(process.execPath, [npm, "run", "build"], { stdio: "inherit" }) : spawnSync("npm", ["run", "build"], { stdio: "inherit", shell: process.platform === "win32" });
process.exit(r.status ?? 1);
