#!/usr/bin/env node
// Entry point of the `mem` command: compiled code only, no TypeScript loader at run time.
// Hooks run on every prompt and tool call: they go straight to the hook runner, whose handlers
// load only what their event needs (the prompt and tool-capture hooks talk to the warm daemon).
const [cmd, sub] = process.argv.slice(2);
if (cmd === "hook" && sub !== undefined && sub !== "--help" && sub !== "-h") {
  const { runHook } = await import("../dist/src/hooks/run.js");
  process.exitCode = await runHook(sub, { stdin: process.stdin, stdout: process.stdout, env: process.env });
} else {
  let main;
  try {
    ({ main } = await import("../dist/src/cli/main.js"));
  } catch (err) {
    if (err?.code !== "ERR_MODULE_NOT_FOUND" || !String(err.message).includes("dist/src/cli/main.js")) throw err;
    process.stderr.write("mem: the compiled code is missing; run `npm run build` in the mem package first\n");
    process.exit(1);
  }
  process.stdout.on("error", (err) => {
    if (err.code === "EPIPE") process.exit(0); // `mem query ... | head` is fine
    throw err;
  });
  process.exitCode = await main(process.argv.slice(2));
}
