/**
 * A missing record folder is a removal for real only inside a repository that is still there
 * (pure, `exists` injected): then its records are forgotten; any other missing root is kept as
 * it was indexed (an unmounted disk, a folder moved for a moment).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { removedRecordFolder } from "../../indexer/removed-folder.js";

const FOLDERS = ["docs/adr", "docs/decisions", "team/memory"];
const cases: [string, string, string[], boolean][] = [
  ["a decision folder git removed from a repository", "/r/docs/decisions", ["/", "/r", "/r/.git", "/r/docs"], true],
  ["its parent gone too (docs/ held nothing else)", "/r/docs/decisions", ["/", "/r", "/r/.git"], true],
  ["a repository inside a larger one: a .git higher up counts", "/w/r/docs/adr", ["/", "/w", "/w/.git", "/w/r"], true],
  ["a configured team folder", "/r/team/memory", ["/", "/r", "/r/.git"], true],
  ["case and a trailing slash do not matter", "/r/Docs/ADR/", ["/", "/r", "/r/.git"], true],
  ["the folder is still there", "/r/docs/decisions", ["/", "/r", "/r/.git", "/r/docs", "/r/docs/decisions"], false],
  ["no repository: an unmounted disk's folder", "/mnt/usb/docs/decisions", ["/", "/mnt", "/mnt/usb"], false],
  ["the repository itself gone", "/r/docs/decisions", ["/"], false],
  ["not a record folder", "/r/notes", ["/", "/r", "/r/.git"], false],
  ["a folder whose name only ends like one", "/r/mydocs/decisions-old", ["/", "/r", "/r/.git"], false],
];
for (const [name, path, present, want] of cases) test(name, () => assert.equal(removedRecordFolder(path, FOLDERS, (p) => present.includes(p)), want));
