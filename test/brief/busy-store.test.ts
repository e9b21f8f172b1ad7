import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildBriefing, NOTES_SHARE, type BriefingInput } from "../../src/brief/briefing.js";
import type { BriefDecision } from "../../src/brief/sections/decisions.js";
import { openTasksSection } from "../../src/brief/sections/tasks.js";
import { BRIEFING } from "../../src/render/frame.js";

// The briefing of a busy store: hot notes first, within their budgets; then tasks, the files in
// play and the last session; decisions and lessons after, with what had no room counted.
const NOW = Date.parse("2026-11-22T12:00:00Z");
const DAY = 86_400_000;
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();
const dec = (type: string, i: number): BriefDecision => ({ type, text: `${type} number ${i}: use ${Array.from({ length: 12 }, (_, j) => `w${i}y${j}`).join(" ")} because it is simpler`, time: iso((i + 1) * DAY), session: "sess-1234abcd" });
const note = (path: string, title: string, lines: number) => ({ path: `/home/u/proj/memory/${path}`, text: `# ${title}\n\n${Array.from({ length: lines }, (_, i) => `- ${title} line ${i}: ${"detail ".repeat(6)}`).join("\n")}` });
const headings = (text: string) => text.split("\n").filter((l) => l.startsWith("## "));

function busy(over: Partial<BriefingInput> = {}): BriefingInput {
  return {
    source: "startup",
    now: NOW,
    budgetTokens: 2_500,
    root: "/home/u/proj",
    hot: [note("identity.md", "Identity", 8), note("references.md", "References", 6), note("state.md", "State", 10)],
    tasks: [],
    // As gather.ts makes it, from the task registry.
    taskSection: openTasksSection(Array.from({ length: 100 }, (_, i) => ({ content: `task ${i}: ${"finish the thing ".repeat(3)}`, status: "pending", createdSession: "s", createdAt: NOW - DAY - i, updatedAt: NOW - DAY })), NOW),
    decisions: [...Array.from({ length: 500 }, (_, i) => dec("decision", i)), ...Array.from({ length: 300 }, (_, i) => dec("learned", i))],
    inPlay: { branch: "main", files: ["/home/u/proj/src/db.ts"], memories: [{ type: "decision", text: "Keep WAL mode for the store.", time: iso(2 * DAY), files: ["/home/u/proj/src/db.ts"] }] },
    ...over,
  };
}

describe("the briefing of a busy store", () => {
  test("500 decisions, 300 lessons, 100 tasks: every hot note whole and first, then tasks and the files in play, decisions after", () => {
    const text = buildBriefing(busy())!;
    const h = headings(text);
    assert.deepEqual(h.slice(0, 5), ["## From memory/identity.md", "## From memory/references.md", "## From memory/state.md", "## Open tasks", "## About the files in play (branch main, 1 changed file(s))"]);
    for (const [title, n] of [["Identity", 8], ["References", 6], ["State", 10]] as const) {
      assert.ok(text.includes(`> - ${title} line ${n - 1}:`), `${title}: its last line is there (not shrunk to its title)`);
    }
    assert.match(text, /Keep WAL mode for the store/);
    assert.ok(h.indexOf("## Decisions") > h.indexOf("## Open tasks"), "decisions after tasks");
    assert.ok(text.length <= 9_000 + 200);
  });

  test("what had no room at all is counted, with where to see it", () => {
    const text = buildBriefing(busy())!;
    const shownOrCounted = (kind: string, plural: string) => {
      const shown = text.split("\n").filter((l) => l.startsWith(`- ${kind} number`)).length;
      const counted = [...text.matchAll(new RegExp(`- (\\d+) (older )?${plural}: \`mem list --kind ${kind}\``, "g"))].reduce((n, m) => n + Number(m[1]), 0);
      return shown + counted;
    };
    assert.equal(shownOrCounted("decision", "decisions"), 500);
    assert.equal(shownOrCounted("learned", "learned facts"), 300);
  });

  test("hot notes cannot crowd out the tasks: together they take at most their share", () => {
    const huge = [1, 2, 3, 4, 5, 6].map((i) => note(`n${i}.md`, `Note${i}`, 24));
    const text = buildBriefing(busy({ hot: huge }))!;
    const body = text.split("\n");
    const start = body.indexOf("## Open tasks");
    assert.ok(start > 0, "tasks are shown");
    const notesChars = body.slice(0, start).filter((l) => l.startsWith("> ") || l.startsWith("## From")).reduce((n, l) => n + l.length + 1, 0);
    assert.ok(notesChars <= 9_000 * NOTES_SHARE, `${notesChars}`);
    assert.ok(body.slice(start).some((l) => l.startsWith("- [pending] task 0")));
    assert.ok(body.some((l) => l.startsWith("## About the files in play")), "and the files in play");
  });

  test("preferences go beside the user's profile, not under Decisions", () => {
    const text = buildBriefing(
      busy({
        hot: [{ path: "/home/u/proj/memory/users/alice/profile.md", user: "alice", text: "# Profile\n\nShort answers." }, note("state.md", "State", 2)],
        decisions: [dec("decision", 1), { type: "preference", text: "Prefers tabs over spaces.", time: iso(DAY), session: "s" }],
      }),
    )!;
    const h = headings(text);
    assert.equal(h[0], "## The current user's profile (alice), from memory/users/alice/profile.md");
    assert.equal(h[1], "## The user's preferences");
    const decisions = text.slice(text.indexOf("## Decisions"));
    assert.doesNotMatch(decisions, /Prefers tabs/);
    assert.match(text, /## The user's preferences\n- Prefers tabs over spaces\./);
  });

  test("a small store keeps every section it has, framed once", () => {
    const text = buildBriefing(busy({ taskSection: undefined, tasks: [{ content: "one task", status: "pending", session: "s", updatedAt: iso(DAY) }], decisions: [dec("decision", 1), dec("learned", 2)] }))!;
    assert.deepEqual(headings(text).map((l) => l.replace(/ \(.*$/, "")), ["## From memory/identity.md", "## From memory/references.md", "## From memory/state.md", "## Open tasks", "## About the files in play", "## Decisions", "## Learned"]);
    assert.doesNotMatch(text, /lack of room/);
    assert.equal(text.match(new RegExp(`</${BRIEFING.tag}>`, "g"))?.length, 1);
  });

  test("a share binds only when others need the room: 40 tasks alone are all listed with their summary lines", () => {
    const tasks = Array.from({ length: 40 }, (_, i) => ({ content: `task ${i}: ${"finish the thing ".repeat(3)}`, status: "pending", createdSession: "s", createdAt: NOW - i * 1000 - (i >= 35 ? 60 * DAY : 0), updatedAt: NOW - (i >= 35 ? 60 * DAY : DAY) }));
    const text = buildBriefing({ source: "startup", now: NOW, budgetTokens: 2_500, tasks: [], taskSection: openTasksSection(tasks, NOW), decisions: [], hot: [] })!;
    assert.equal(text.split("\n").filter((l) => /^- \[pending\] task \d+/.test(l)).length, 25);
    assert.match(text, /- … and 10 more open tasks \(mem task list\)/);
    assert.match(text, /- Stale tasks \(untouched 30\+ days\): 5/);
  });

  test("a small budget: what had no room is named, notes and tasks included, never dropped in silence", () => {
    const text = buildBriefing(busy({ budgetTokens: 600 }))!;
    const tail = text.slice(text.indexOf("## Not shown for lack of room"));
    assert.ok(text.includes("## Not shown for lack of room"), text);
    const shown = headings(text);
    for (const [name, line] of [["## From memory/state.md", "- the note memory/state.md"], ["## Open tasks", "- the open tasks: `mem task list`"], ["## Decisions", "- 500 decisions: `mem list --kind decision`"]] as const) {
      assert.ok(shown.includes(name) || tail.includes(line), `${name}: shown or named`);
    }
    assert.ok(text.length <= 2_400 + 200);
  });
});
