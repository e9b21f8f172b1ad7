#!/usr/bin/env node
// Entry point of the `mem` command: compiled code only, no TypeScript loader at run time.
// The prompt and tool-capture hooks run on every prompt and tool call: they go straight to
// their own small module graphs and talk to the warm daemon.
const [cmd, sub] = process.argv.slice(2);
if (cmd === "hook" && sub === "user-prompt-submit") {
  const { promptHook } = await import("../dist/src/hooks/prompt-client.js");
  process.exitCode = await promptHook();
} else if (cmd === "hook" && (sub === "post-tool-use" || sub === "post-tool-use-failure")) {
  const { captureHook } = await import("../dist/src/hooks/capture-client.js");
  process.exitCode = await captureHook(sub);
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
