/**
 * Decision records are decisions (pure): which notes are records (a decision-like frontmatter
 * kind, or a file directly in a decision folder), and what their status, date, authors and
 * successor say, in MADR's frontmatter and in Nygard's and adr-tools' body form. Then the two real
 * ADR folders of ../shared, read as a repository's records: counts by kind.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { SHARED } from "../capture/shared-data.js";
import { CONFLICT_STATUS, decisionRecord, hasConflictMarkers, inDecisionFolder, kindOfStatus, type RecordInput } from "../../indexer/decision-record.js";
import { parseFrontmatter } from "../../indexer/frontmatter.js";
import { DECISION_FOLDERS } from "../../src/config/config.js";

const note = (path: string, text: string): RecordInput => {
  const fm = parseFrontmatter(text);
  return { path, ...(fm.meta.kind ? { kind: fm.meta.kind } : {}), ...(fm.meta.date ? { date: fm.meta.date } : {}), extra: fm.meta.extra, body: fm.body };
};

describe("the kind a status gives", () => {
  const cases: [string | undefined, string][] = [
    ["accepted", "decision"],
    ["Accepted", "decision"],
    ["approved", "decision"],
    ["accepted; supersedes ADR-0045", "decision"],
    ["partly superseded", "decision"],
    [undefined, "decision"],
    ["", "decision"],
    ["rejected", "rejected"],
    ["Declined", "rejected"],
    ["superseded by ADR-0057", "superseded"],
    ["Deprecated", "superseded"],
    ["**Superseded** by [5](0005-x.md)", "superseded"],
    ["proposed", "proposed"],
    ["Pending", "proposed"],
    ["draft", "proposed"],
    ["in review", "proposed"],
  ];
  for (const [status, kind] of cases) test(`${JSON.stringify(status)} → ${kind}`, () => assert.equal(kindOfStatus(status), kind));
});

describe("which files are in a decision folder", () => {
  const cases: [string, boolean][] = [
    ["/repo/docs/adr/0001-use-x.md", true],
    ["/repo/docs/decisions/0001-use-x.md", true],
    ["/repo/doc/adr/0001-use-x.md", true],
    ["/repo/docs/architecture/decisions/0001-x.md", true],
    ["/repo/DOCS/ADR/0001-x.md", true],
    ["/repo/docs/adr/README.md", false],
    ["/repo/docs/adr/template.md", false],
    ["/repo/docs/adr/adr-template.md", false],
    ["/repo/docs/adr/index.md", false],
    ["/repo/docs/adr/old/0001-x.md", false],
    ["/repo/docs/adr-notes.md", false],
    ["/repo/docs/guide/setup.md", false],
    ["/home/me/adr/notes/x.md", false],
  ];
  for (const [path, want] of cases) test(`${path}: ${want}`, () => assert.equal(inDecisionFolder(path, DECISION_FOLDERS), want));
  test("the folders are configurable", () => {
    assert.equal(inDecisionFolder("/repo/rfcs/0001-x.md", ["rfcs"]), true);
    assert.equal(inDecisionFolder("/repo/docs/adr/0001-x.md", ["rfcs"]), false);
  });
});

describe("what a record says", () => {
  test("MADR 4 frontmatter: status, date, decision-makers; the title is the first heading", () => {
    const r = decisionRecord(note("/r/docs/decisions/0003-pg.md", "---\nstatus: accepted\ndate: 2025-03-01\ndecision-makers: Alice Smith, Bob\n---\n# Use PostgreSQL\n\n## Context\nx\n"), DECISION_FOLDERS);
    assert.deepEqual(r, { kind: "decision", status: "accepted", date: "2025-03-01", authors: ["Alice Smith", "Bob"], title: "Use PostgreSQL" });
  });
  test("MADR 2 deciders as a list; a superseded record names its successor", () => {
    const r = decisionRecord(note("/r/docs/adr/0045-x.md", '---\nstatus: "superseded by ADR-0057"\ndeciders: [Carol, Dan]\n---\n# Use --input\n'), DECISION_FOLDERS);
    assert.deepEqual(r, { kind: "superseded", status: "superseded by adr-0057", authors: ["Carol", "Dan"], supersededBy: "ADR-0057", title: "Use --input" });
  });
  test("adr-tools: a Date line and a Status section, the successor a link", () => {
    const text = "# 4. DNS definitions\n\nDate: 2017-07-14\n\n## Status\n\nSuperseded by [DNS Infrastructure](0015-dns-infrastructure.md)\n\n## Context\nx\n";
    assert.deepEqual(decisionRecord(note("/r/doc/adr/0004-dns.md", text), DECISION_FOLDERS), {
      kind: "superseded",
      status: "superseded by dns infrastructure",
      date: "2017-07-14",
      authors: [],
      supersededBy: "0015-dns-infrastructure.md",
      title: "4. DNS definitions",
    });
  });
  test("an inline Status line, in bold", () => {
    assert.equal(decisionRecord(note("/r/docs/adr/0002-x.md", "# X\n\n**Status:** Rejected\n"), DECISION_FOLDERS)?.kind, "rejected");
  });
  test("a note anywhere whose frontmatter says kind: decision (or rejected, learned) is one; a status can still reject it", () => {
    assert.deepEqual(decisionRecord(note("/r/notes/tabs.md", "---\nkind: decision\n---\n# Tabs\n"), DECISION_FOLDERS), { kind: "decision", authors: [], title: "Tabs" });
    assert.equal(decisionRecord(note("/r/notes/x.md", "---\nkind: learned\nstatus: accepted\n---\n# Flaky test\n"), DECISION_FOLDERS)?.kind, "learned");
    assert.equal(decisionRecord(note("/r/notes/x.md", "---\nkind: decision\nstatus: rejected\n---\n# X\n"), DECISION_FOLDERS)?.kind, "rejected");
  });
  test("other notes are none: no decision folder, no decision-like kind", () => {
    assert.equal(decisionRecord(note("/r/notes/setup.md", "---\nkind: guide\nstatus: accepted\n---\n# Setup\n"), DECISION_FOLDERS), undefined);
    assert.equal(decisionRecord(note("/r/docs/adr/README.md", "# Index\n"), DECISION_FOLDERS), undefined);
  });
  test("hostile values stay bounded: a huge status, authors of every type", () => {
    const r = decisionRecord({ path: "/r/docs/adr/1.md", extra: { status: `accepted ${"x".repeat(10_000)}`, "decision-makers": [1, null, { a: 1 }, "Eve", "Eve", "y".repeat(500)] }, body: "" }, DECISION_FOLDERS)!;
    assert.equal(r.kind, "decision");
    assert.ok(r.status!.length <= 80);
    assert.deepEqual(r.authors, ["1", "Eve", "y".repeat(80)]);
  });
});

describe("a record with merge conflict markers", () => {
  const CONFLICTED = "---\n<<<<<<< HEAD\nstatus: accepted\n=======\nstatus: rejected\n>>>>>>> 1a2b3c4 (Reject it)\n---\n# Cache pages\n\nCached.\n";
  const cases: [string, string, boolean][] = [
    ["a conflict in the front matter", CONFLICTED, true],
    ["a conflict in the body, CRLF", "# X\r\n<<<<<<< ours\r\na\r\n=======\r\nb\r\n>>>>>>> theirs\r\n", true],
    ["markers with no space after them are no markers", "<<<<<<<HEAD\n=======\n>>>>>>>x\n", false],
    ["only a separator (a setext heading's rule)", "Title\n=======\n", false],
    ["markers in the wrong order", ">>>>>>> a\n=======\n<<<<<<< b\n", false],
    ["markers inside a line", "see <<<<<<< and\n=======\nthen >>>>>>> here\n", false],
    ["bare markers (nothing after them)", "<<<<<<<\n=======\n>>>>>>>\n", true],
    ["openings and separators again and again, never closed", "<<<<<<< a\n=======\n".repeat(50), false],
    ["a closing one after many openings", `${"<<<<<<< a\n".repeat(50)}=======\n>>>>>>> b\n`, true],
  ];
  for (const [name, text, want] of cases) test(`${name}: ${want}`, () => assert.equal(hasConflictMarkers(text), want));
  test("is listed under its first title, marked unresolved, and not in force (proposed, never briefed)", () => {
    const n = { ...note("/r/docs/decisions/cache-pages.md", CONFLICTED), conflicted: true };
    assert.deepEqual(decisionRecord(n, DECISION_FOLDERS), { kind: "proposed", status: CONFLICT_STATUS, authors: [], title: "Cache pages" });
  });
  test("a note outside the record folders stays no record", () => {
    assert.equal(decisionRecord({ ...note("/r/notes/x.md", CONFLICTED), conflicted: true }, DECISION_FOLDERS), undefined);
  });
});

const DATA = join(SHARED, "data");
describe("the real ADR folders of ../shared, read as a repository's records", { skip: !existsSync(DATA) && `no shared data at ${DATA}` }, () => {
  const read = (dir: string) => {
    const counts: Record<string, number> = {};
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".md"))) {
      const r = decisionRecord(note(join("/repo/docs/adr", f), readFileSync(join(dir, f), "utf8")), DECISION_FOLDERS);
      counts[r?.kind ?? "none"] = (counts[r?.kind ?? "none"] ?? 0) + 1;
    }
    return counts;
  };
  test("adr (adr-tools): 28 accepted, 1 approved and 1 partly superseded in force; 6 pending and 1 proposed; 1 superseded", () => {
    assert.deepEqual(read(join(DATA, "adr")), { decision: 30, proposed: 7, superseded: 1 });
  });
  test("adr-2 (MADR): every record in force but the one superseded by ADR-0057", () => {
    assert.deepEqual(read(join(DATA, "adr-2", "corpus")), { decision: 69, superseded: 1 });
  });
});

describe("a record's title: its first `# ` heading", () => {
  const cases: [string, string, string | undefined][] = [
    ["closing hashes dropped", "# Use Kafka ##\n", "Use Kafka"],
    ["a later heading when the first line is text", "Intro.\n\n# Second\n", "Second"],
    ["no space after the hash: no heading", "#Tag\n# Real one\n", "Real one"],
    ["CRLF", "# Windows line\r\nText\r\n", "Windows line"],
    ["a line separator ends it", "# Before\u2028after\n", "Before"],
    ["many spaces before the last word (once minutes of backtracking)", `# a${" ".repeat(5_000)}b\n`, `a${" ".repeat(5_000)}b`.slice(0, 200)],
    ["none", "Just text.\n", undefined],
  ];
  for (const [name, body, want] of cases) test(`${name}`, () => assert.equal(decisionRecord(note("/r/docs/adr/0001-x.md", body), DECISION_FOLDERS)?.title, want));
});
