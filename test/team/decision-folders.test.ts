/** Which decision folders a SessionStart indexes in the background (pure): present, inside the root, not yet covered. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { foldersToIndex } from "../../src/team/decision-folders.js";

const R = "/repo";
const at = (path: string, real: string | null = path, trusted = true) => ({ path, state: { real: real ?? undefined, trusted } });
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
  ["a folder another account owns or may write", [at("/repo/docs/adr", "/repo/docs/adr", false)], [], []],
];
for (const [name, folders, recorded, want] of cases) test(name, () => assert.deepEqual(foldersToIndex({ real: R, trusted: true }, folders, recorded), want));
test("a root others may write (/tmp as the project): nothing", () => assert.deepEqual(foldersToIndex({ real: "/tmp", trusted: false }, [at("/tmp/decisions")], []), []));
