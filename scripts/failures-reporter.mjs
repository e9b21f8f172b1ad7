// A node:test reporter that writes nothing while the tests run and, at the end, one block per
// failed test: its file, its name (with the suites above it) and its error. run-tests.mjs prints
// the block after the TAP stream, so a CI log that keeps only its tail still names what failed.
import { inspect } from "node:util";

export default async function* failures(source) {
  const paths = new Map(); // file → the names of the tests open at each depth
  const failed = [];
  for await (const event of source) {
    const d = event.data ?? {};
    const path = paths.get(d.file) ?? [];
    paths.set(d.file, path);
    if (event.type === "test:start") {
      path[d.nesting] = d.name;
      path.length = d.nesting + 1;
    } else if (event.type === "test:fail") {
      const err = d.details?.error;
      // A suite fails when a test inside it does; the test itself names the failure.
      if (err?.failureType === "subtestsFailed") continue;
      const names = path.slice(0, d.nesting).concat(d.name);
      const cause = err?.cause ?? err;
      const text = cause instanceof Error ? cause.stack ?? String(cause) : inspect(cause, { depth: 4 });
      failed.push(`✖ ${d.file ?? "?"}\n  ${names.join(" › ")}\n${indent(String(text).slice(0, 4000))}`);
    }
  }
  if (failed.length > 0) yield `\n# ${failed.length} failed:\n\n${failed.join("\n\n")}\n`;
}

function indent(text) {
  return text
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
}
