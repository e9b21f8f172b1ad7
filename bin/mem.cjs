#!/usr/bin/env node
"use strict";
// Entry point of the `mem` command: compiled code only, no TypeScript loader at run time.
// CommonJS, because hooks run on every prompt and tool call: they go straight to the hook entry
// (no ESM loader on the hot path); every other command loads the CLI.
// Whatever mem creates (the store, its WAL, logs, the lock, the socket, LanceDB's files) is the
// user's alone: what was captured from their sessions. Files 0600, directories 0700.
process.umask(0o077);
const [cmd, sub] = process.argv.slice(2);
if (cmd === "hook" && sub !== undefined && sub !== "--help" && sub !== "-h") {
  let entry;
  try {
    entry = require("../dist/src/hooks/entry.bundle.cjs"); // one file: see scripts/bundle-hook.mjs
  } catch {
    entry = require("../dist/src/hooks/entry.cjs");
  }
  entry.hookMain(sub, process.env, process.argv.slice(4)); // `--assistant codex|gemini|copilot`
} else {
  import("../dist/src/cli/main.js").then(
    ({ main }) => {
      process.stdout.on("error", (err) => {
        if (err.code === "EPIPE") process.exit(0); // `mem query ... | head` is fine
        throw err;
      });
      return main(process.argv.slice(2)).then((code) => (process.exitCode = code));
    },
    (err) => {
      if (err?.code !== "ERR_MODULE_NOT_FOUND" || !String(err.message).includes("dist/src/cli/main.js")) throw err;
      process.stderr.write("mem: the compiled code is missing; run `npm run build` in the mem package first\n");
      process.exit(1);
    },
  );
}
