import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pathFilter } from "../../src/retrieve/filters.js";

describe("pathFilter (pure)", () => {
  const rows = [
    { project: "/repo", path: "/repo/examples/memory/sessions/2026-11-18.md" },
    { project: "/repo", path: "/repo/examples/memory/reference/storage.md" },
    { project: "/repo", path: "/repo/sessions/top.md" },
  ];
  const bases = (p: string) => (p === "/repo" ? ["/repo", "/repo/examples/memory"] : []);
  const kept = (glob: string) => rows.filter(pathFilter(glob, bases)).map((r) => r.path);

  test("a glob is relative to the project root or to any folder indexed in it", () => {
    assert.deepEqual(kept("sessions/**"), ["/repo/examples/memory/sessions/2026-11-18.md", "/repo/sessions/top.md"]);
    assert.deepEqual(kept("examples/memory/reference/*.md"), ["/repo/examples/memory/reference/storage.md"]);
    assert.deepEqual(kept("reference/**"), ["/repo/examples/memory/reference/storage.md"]);
  });

  test("absolute globs match absolute paths; nothing outside a base matches a relative glob", () => {
    assert.deepEqual(kept("/repo/sessions/*"), ["/repo/sessions/top.md"]);
    assert.deepEqual(rows.filter(pathFilter("**/*.md", () => [])).length, 3, "** matches absolute paths too");
    assert.deepEqual(rows.filter(pathFilter("sessions/**", () => ["/elsewhere", undefined])), []);
  });

  test("no glob keeps everything", () => {
    assert.equal(rows.filter(pathFilter(undefined, bases)).length, 3);
  });
});
