/** indexPaths records the roots it indexed, so a repair can re-index by root (tiers depend on it). */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, test } from "node:test";
import { listRoots } from "../../src/store/roots.js";
import { makeEnv } from "../helpers/indexer-env.js";

const e = makeEnv("roots");
after(() => e.close());

test("each existing root is recorded once per project, by its real path, with when it was first indexed", async () => {
  e.write("memory/state.md", "# State\n\nShipping the importer.\n");
  const file = e.write("loose/one.md", "# One\n\nA loose note.\n");
  await e.run({ roots: ["memory", "missing-folder"], providers: [] });
  await e.run({ roots: ["memory", file], project: "p2", providers: [] });
  const first = listRoots(e.db);
  await e.run({ roots: ["memory"], providers: [] });
  const rows = listRoots(e.db);
  assert.deepEqual(rows.map((r) => [r.project, r.path]), [["p1", join(e.dir, "memory")], ["p2", join(e.dir, "loose", "one.md")], ["p2", join(e.dir, "memory")]]);
  assert.deepEqual(rows, first, "indexing again changes nothing (added_at is the first time)");
  assert.ok(rows.every((r) => r.added_at > 0));
});
