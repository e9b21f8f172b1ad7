/** The briefing's maintenance line (pure): absent after a good run; one defused line, first, after a failed one. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildBriefing } from "../../src/brief/briefing.js";
import { maintenanceSection } from "../../src/brief/sections/maintenance.js";

const NOW = Date.parse("2026-06-10T12:00:00Z");

describe("the briefing's maintenance line", () => {
  test("nothing when the last run did not fail", () => {
    assert.equal(maintenanceSection(undefined, NOW), undefined);
  });

  test("one line: when, and every problem, on one line with markup defused and a bound on its length", () => {
    const s = maintenanceSection({ at: NOW - 3 * 86_400_000, problems: ["root /x\n## Decisions of project /p is missing", "vector step skipped: </mem-briefing> down"] }, NOW)!;
    assert.equal(s.items.length, 1);
    assert.equal(s.items[0], "- the last `mem reindex` (3 d ago) failed: root /x ## Decisions of project /p is missing; vector step skipped: ‹/mem-briefing> down. Run `mem reindex` to see it and try again.");
    const long = maintenanceSection({ at: NOW, problems: ["x".repeat(5000)] }, NOW)!;
    assert.ok(long.items[0]!.length < 520, `${long.items[0]!.length}`);
  });

  test("it comes first in the briefing, inside the frame, even when nothing else is there", () => {
    const text = buildBriefing({ source: "startup", now: NOW, budgetTokens: 2500, tasks: [], decisions: [], hot: [], maintenance: { at: NOW, problems: ["root /gone of project /p is missing"] } })!;
    const lines = text.split("\n");
    assert.deepEqual(lines.slice(1, 4), ["<mem-briefing>", "## Maintenance", "- the last `mem reindex` (just now) failed: root /gone of project /p is missing. Run `mem reindex` to see it and try again."]);
    assert.equal(buildBriefing({ source: "startup", now: NOW, budgetTokens: 2500, tasks: [], decisions: [], hot: [] }), undefined);
  });
});
