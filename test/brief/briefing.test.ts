import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildBriefing, type BriefEvent, type BriefingInput } from "../../src/brief/briefing.js";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const ev = (type: string, text: string, over: Partial<BriefEvent> = {}): BriefEvent => ({ type, text, time: "2026-11-21T10:00:00Z", session: "sess-1234abcd", files: [], ...over });
const base = (over: Partial<BriefingInput> = {}): BriefingInput => ({ source: "startup", now: NOW, tasks: [], events: [], hot: [], budgetTokens: 2_500, ...over });

describe("the SessionStart briefing", () => {
  test("nothing stored: no briefing at all", () => {
    assert.equal(buildBriefing(base()), undefined);
  });

  test("open tasks, decisions, rejected approaches and recent work, each with provenance, after a one-line preamble", () => {
    const text = buildBriefing(
      base({
        tasks: [
          { content: "Ship the prompt hook", status: "in_progress", session: "sess-1234abcd", updatedAt: "2026-11-21T09:00:00Z" },
          { content: "Write the README", status: "completed", session: "sess-1234abcd", updatedAt: "2026-11-21T09:00:00Z" },
        ],
        events: [
          ev("decision", "Chose SQLite over Postgres because it needs no server.", { confidence: 0.9 }),
          ev("decision", "Decided to read the file.", { confidence: 0.3 }),
          ev("rejected", "Rejected Elasticsearch because of the JVM.", { confidence: 1 }),
          ev("file_modified", "Edit src/a.ts", { files: ["src/a.ts"], time: "2026-11-22T10:00:00Z" }),
          ev("error", "npm test failed: Exit code 1"),
        ],
      }),
    )!;
    const lines = text.split("\n");
    assert.match(lines[0]!, /may be outdated, so verify/);
    assert.match(text, /## Open tasks\n- \[in_progress\] Ship the prompt hook \(session sess-123, 2026-11-21\)/);
    assert.ok(!text.includes("Write the README"), "completed tasks are not open tasks");
    assert.match(text, /## Decisions\n- Chose SQLite over Postgres because it needs no server\. \(2026-11-21, session sess-123\)/);
    assert.ok(!text.includes("Decided to read the file"), "low-confidence markers stay out");
    assert.match(text, /## Rejected approaches\n- Rejected Elasticsearch/);
    assert.match(text, /## Recent work\n- Last activity 2 h ago \(session sess-123\)\n- Files modified: src\/a\.ts\n- Error: npm test failed/);
  });

  test("the budget is respected, highest-priority sections first", () => {
    const tasks = Array.from({ length: 200 }, (_, i) => ({ content: `task number ${i} ${"with a long description ".repeat(5)}`, status: "pending", session: "s", updatedAt: "2026-11-21T00:00:00Z" }));
    const text = buildBriefing(base({ tasks, events: [ev("decision", "Chose X over Y because Z.", { confidence: 0.9 })], budgetTokens: 500 }))!;
    assert.ok(text.length <= 2_000, `${text.length}`);
    assert.match(text, /## Open tasks/);
    const big = buildBriefing(base({ tasks, budgetTokens: 100_000 }))!;
    assert.ok(big.length <= 9_000, "never above Claude Code's 10,000-character hook output cap");
  });

  test("paths under the project's directory are shown relative to it; a repeated error once, with its count", () => {
    const events = [
      ev("file_modified", "edited", { files: ["/home/u/proj/src/db.ts", "/elsewhere/notes.md"] }),
      ev("error", "$ git push failed: no upstream branch", { time: "2026-11-21T11:00:00Z" }),
      ev("error", "$ npm test failed: 3 failing", { time: "2026-11-21T10:30:00Z" }),
      ev("error", "$ git push failed: no upstream branch", { time: "2026-11-21T11:00:00Z" }),
    ];
    const text = buildBriefing(base({ events, root: "/home/u/proj", hot: [{ layout: "state", path: "/home/u/proj/memory/state.md", text: "Migrating to WAL." }] }))!;
    assert.match(text, /- Files modified: src\/db\.ts, \/elsewhere\/notes\.md\n/);
    assert.match(text, /## From memory\/state\.md\n/);
    assert.equal(text.match(/git push failed/g)?.length, 1);
    assert.match(text, /- Error: \$ git push failed: no upstream branch \(2026-11-21\) \(×2\)\n- Error: \$ npm test failed/);
    assert.match(buildBriefing(base({ events }))!, /- Files modified: \/home\/u\/proj\/src\/db\.ts/, "no root: as stored");
  });

  test("the same input gives the same briefing (pure, clock injected)", () => {
    const input = base({ events: [ev("decision", "Chose A over B because C.", { confidence: 0.9 })] });
    assert.equal(buildBriefing(input), buildBriefing(input));
  });
});
