/**
 * The team tier's rules, pure: which records are the team's (a file in a record folder inside the
 * repository), the `mem-id` a record names, and when a local memory converges with a team record
 * (named by its mem-id, or stated by the record's title or text: same-memory's rule).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decisionRecord, teamRecord } from "../../indexer/decision-record.js";
import { parseFrontmatter } from "../../indexer/frontmatter.js";
import { convergeTeam, recordKeys, statementKey, teamStatements, type LocalSide, type TeamSide } from "../../src/memory/team-converge.js";
import { recordNoteParts } from "../../src/team/view.js";

const FOLDERS = ["docs/decisions", "docs/adr"];

describe("which records are the team's", () => {
  const cases: [string, string | undefined, boolean][] = [
    ["/r/docs/decisions/use-x.md", "/r", true],
    ["/r/docs/adr/0001-x.md", "/r", true],
    ["/r/sub/docs/adr/0001-x.md", "/r", false], // deeper in the repository (a vendored library's ADRs): a record, not the team's
    ["/r/docs/decisions/README.md", "/r", false],
    ["/r/docs/decisions/old/x.md", "/r", false],
    ["/r/memory/decision.md", "/r", false],
    ["/r/docs/decisions/x.md", undefined, false],
    ["/r/docs/decisions/x.md", "", false],
    ["/other/docs/decisions/x.md", "/r", false],
    ["/rr/docs/decisions/x.md", "/r", false],
    ["/r/docs/decisions/x.md", "/r/", true],
  ];
  for (const [path, repo, want] of cases) test(`${path} in ${JSON.stringify(repo)}: ${want}`, () => assert.equal(teamRecord(path, FOLDERS, repo), want));

  const rec = (path: string, text: string, repo?: string) => {
    const fm = parseFrontmatter(text);
    return decisionRecord({ path, ...(fm.meta.kind ? { kind: fm.meta.kind } : {}), ...(fm.meta.date ? { date: fm.meta.date } : {}), extra: fm.meta.extra, body: fm.body }, FOLDERS, repo);
  };
  test("a shared file is a team record with its mem-id", () => {
    const r = rec("/r/docs/decisions/use-x.md", "---\nstatus: accepted\ndate: 2026-11-28\ndecision-makers: Ada Lovelace <ada@example.com>\nkind: decision\nmem-id: mem:0123abcd\n---\n# Use X\n\nUse X.\n", "/r");
    assert.deepEqual(r, { kind: "decision", status: "accepted", date: "2026-11-28", authors: ["Ada Lovelace <ada@example.com>"], title: "Use X", team: true, memId: "mem:0123abcd" });
  });
  test("a note with a kind in the user's memory folder is a personal record", () => {
    const r = rec("/r/memory/x.md", "---\nkind: decision\n---\n# Use X\n", "/r");
    assert.equal(r?.team, undefined);
  });
  const ids: [unknown, string | undefined][] = [["mem:ab12", "mem:ab12"], ["3f0c9a1b7d2e", "3f0c9a1b7d2e"], ["a b", undefined], ["x\ny", undefined], ["<script>", undefined], ["x".repeat(101), undefined], [12, "12"]];
  for (const [v, want] of ids) {
    test(`mem-id ${JSON.stringify(v)} → ${JSON.stringify(want)}`, () => {
      const r = decisionRecord({ path: "/r/docs/adr/x.md", extra: { "mem-id": v }, body: "# X\n" }, FOLDERS, "/r");
      assert.equal(r?.memId, want);
    });
  }
});

describe("a record's statements", () => {
  const cases: [string | undefined, string, string[]][] = [
    ["Use X", "# Use X\n\nUse X for the queue.\n", ["Use X", "Use X for the queue."]],
    ["Use X", "# Use X\n", ["Use X"]],
    [undefined, "Body only.", ["Body only."]],
    ["Same", "# Same\n\nSame", ["Same"]],
  ];
  for (const [title, body, want] of cases) test(`${JSON.stringify(body)}`, () => assert.deepEqual(teamStatements(title, body), want));
});

/** A record as the indexer keys it: its kind and statements. */
const side = (id: string, kind: string, statements: string[], memId?: string): TeamSide => ({ id, ...(memId ? { memId } : {}), keys: statements.flatMap((s) => statementKey(kind, s) ?? []) });

describe("a statement's key", () => {
  test("kind and words, hashed to one length", () => {
    assert.equal(statementKey("decision", "We decided to use the Kafka bus"), statementKey("decision", "use Kafka bus"));
    assert.match(statementKey("decision", "Use X")!, /^[0-9a-f]{24}$/);
    assert.notEqual(statementKey("decision", "Use X"), statementKey("learned", "Use X"));
  });
  test("kinds that never converge, texts with no word: none", () => {
    assert.equal(statementKey("superseded", "Use X"), undefined);
    assert.equal(statementKey("task", "Use X"), undefined);
    assert.equal(statementKey("decision", "— … —"), undefined);
  });
  test("a record's keys: its title's and its text's, once", () => {
    assert.deepEqual(recordKeys("decision", "Use X", "# Use X\n\nUse X for the queue.\n"), [statementKey("decision", "Use X"), statementKey("decision", "Use X for the queue.")]);
    assert.deepEqual(recordKeys("decision", "Same", "# Same\n\nthe same"), [statementKey("decision", "Same")]);
    assert.deepEqual(recordKeys("proposed", "Use X", "Use X"), []);
  });
});

describe("when a local memory is a team record", () => {
  const team: TeamSide[] = [
    side("T1", "decision", ["Use Postgres for orders"], "mem:aaa"),
    side("T2", "decision", ["Queue choice", "We decided to use Kafka for the event bus."]),
    side("T3", "rejected", ["Run our own Kubernetes"]),
    side("T4", "superseded", ["Use MongoDB for events"]),
    side("T5", "decision", ["Something else"], "3f0c9a1b7d2e"),
  ];
  const cases: [string, LocalSide, string | undefined][] = [
    ["named by its stored id", { id: "mem:aaa", oneId: "111111111111", kind: "note", text: "unrelated" }, "T1"],
    ["named by its one id", { id: "tag:zzz", oneId: "3f0c9a1b7d2e", kind: "learned", text: "unrelated" }, "T5"],
    ["stated by the record's text", { id: "e1", oneId: "e1", kind: "decision", text: "Use Kafka for the event bus" }, "T2"],
    ["stated by the record's title", { id: "e2", oneId: "e2", kind: "decision", text: "decision: use postgres for orders" }, "T1"],
    ["another kind is not the same statement", { id: "e3", oneId: "e3", kind: "learned", text: "Use Postgres for orders" }, undefined],
    ["a negation is another statement", { id: "e4", oneId: "e4", kind: "decision", text: "Don't use Postgres for orders" }, undefined],
    ["rejected matches rejected", { id: "e5", oneId: "e5", kind: "rejected", text: "Run our own Kubernetes." }, "T3"],
    ["a superseded record states nothing current", { id: "e6", oneId: "e6", kind: "superseded", text: "Use MongoDB for events" }, undefined],
    ["a task never converges by text", { id: "e7", oneId: "e7", kind: "task", text: "Use Postgres for orders" }, undefined],
    ["other words", { id: "e8", oneId: "e8", kind: "decision", text: "Use Postgres 16 for orders" }, undefined],
  ];
  for (const [name, local, want] of cases) test(name, () => assert.equal(convergeTeam(team, [local]).get(local.id), want));
  test("the first record that names it wins over one that states it", () => {
    const both: TeamSide[] = [side("A", "decision", ["Use X"]), side("B", "decision", ["Other"], "m1")];
    assert.equal(convergeTeam(both, [{ id: "m1", oneId: "o", kind: "decision", text: "Use X" }]).get("m1"), "B");
  });
  test("nothing to converge with", () => {
    assert.equal(convergeTeam([], [{ id: "a", oneId: "a", kind: "decision", text: "x" }]).size, 0);
    assert.equal(convergeTeam(team, []).size, 0);
  });
});

describe("what a result says of its record", () => {
  const cases: [Parameters<typeof recordNoteParts>, string[]][] = [
    [[{ kind: "decision", status: "accepted", date: "2026-11-28T10:00:00Z", authors: ["Ada", "Bob", "Cy"], team: true }, 2, false], ["accepted", "2026-11-28", "by Ada, Bob, …", "team"]],
    [[{ kind: "decision", status: "accepted", authors: ["Ada"], team: true }, 2, true], ["accepted", "by Ada", "team, also local"]],
    [[{ kind: "superseded", status: "deprecated", authors: [], supersededBy: "ADR-7" }, 2, false], ["deprecated", "superseded by ADR-7"]],
    [[{ kind: "superseded", status: "superseded by adr-7", authors: [], supersededBy: "ADR-7" }, 2, false], ["superseded by adr-7"]],
    [[{ kind: "decision", authors: [] }, 2, false], []],
  ];
  for (const [args, want] of cases) test(want.join(" · ") || "nothing known", () => assert.deepEqual(recordNoteParts(...args), want));
});
