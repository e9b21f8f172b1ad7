/** Which decision folders a SessionStart indexes in the background (pure): present, inside the root, not yet covered. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { foldersToIndex } from "../../src/freshness/decision-folders.js";

const R = "/repo";
const at = (path: string, real: string | null = path) => ({ path, state: { real: real ?? undefined } });
const cases: [string, ReturnType<typeof at>[], string[], string[]][] = [
  ["a present folder no root covers", [at("/repo/docs/adr")], [], ["/repo/docs/adr"]],
  ["a missing one", [at("/repo/docs/adr", null)], [], []],
  ["one the project's root already covers", [at("/repo/docs/adr")], ["/repo"], []],
  ["one under an indexed docs folder", [at("/repo/docs/adr")], ["/repo/docs"], []],
  ["one indexed itself", [at("/repo/docs/adr")], ["/repo/docs/adr"], []],
  ["a sibling root is no cover", [at("/repo/docs/adr")], ["/repo/docs/adr-old"], ["/repo/docs/adr"]],
  ["a link out of the repository", [at("/repo/doc/adr", "/etc")], [], []],
  ["a link to the root itself", [at("/repo/adr", "/repo")], [], []],
  ["a link inside the repository, once", [at("/repo/adr", "/repo/docs/adr"), at("/repo/docs/adr")], [], ["/repo/docs/adr"]],
];
for (const [name, folders, recorded, want] of cases) test(name, () => assert.deepEqual(foldersToIndex(R, folders, recorded), want));
