#!/usr/bin/env node
// Settings files written by earlier builds run `bin/mem.js hook …`. This keeps them working (at the
// cost of the ESM loader) until `mem install` rewrites them to bin/mem.cjs, the real entry point.
import { createRequire } from "node:module";

createRequire(import.meta.url)("./mem.cjs");
