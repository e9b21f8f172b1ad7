/**
 * The pure parts of sharing, table by table: the slug and the title, the file name a memory gets,
 * YAML quoting that nothing in a memory can break out of (the rendered file read back by the
 * indexer's own frontmatter and record parsers), the status a kind is shared with, which memories
 * are refused, the files and the provenance line, tombstones, and the proposal and its line.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parse as parseYaml } from "yaml";
import { decisionRecord, inDecisionFolder } from "../../indexer/decision-record.js";
import { parseFrontmatter } from "../../indexer/frontmatter.js";
import { counted, shareSection } from "../../src/brief/sections/share.js";
import { clip, fileNameFor, memIdIn, renderMadr, slugOf, statusOf, titleOf, yamlString, type MadrInput } from "../../src/team/madr-file.js";
import { proposalOf } from "../../src/team/propose.js";
import { refusal, repoFiles, sessionLine } from "../../src/service/share.js";
import { parseTombstones, tombstoneLine } from "../../src/team/tombstones.js";

describe("slug and title", () => {
  const slugs: [string, string][] = [
    ["Use SQLite WAL mode for the store", "use-sqlite-wal-mode-for-the-store"],
    ["  Ünïcödé — café déjà vu!  ", "unicode-cafe-deja-vu"],
    ["README", "readme-memory"],
    ["Forgotten", "forgotten-memory"],
    ["日本語だけ", "memory"],
    ["../../etc/passwd", "etc-passwd"],
    ["a".repeat(70), "a".repeat(60)],
    [`${"word ".repeat(20)}end`, `${"word-".repeat(11)}word`],
  ];
  for (const [title, want] of slugs) test(`slug of ${JSON.stringify(title.slice(0, 30))}`, () => assert.equal(slugOf(title), want));
  test("a slug never passes 60 characters nor ends with a dash", () => {
    for (const [title] of slugs) {
      const s = slugOf(title);
      assert.ok(s.length <= 60 && !s.endsWith("-") && /^[a-z0-9-]+$/.test(s), s);
    }
  });

  const titles: [string, string][] = [
    ["Use WAL mode. Readers never block the writer.", "Use WAL mode"],
    ["## Heading line\nbody", "Heading line"],
    ["\n\n- first item\n- second", "first item"],
    ["Short. But more follows here.", "Short. But more follows here"],
    ["", "Shared memory"],
    [`${"long ".repeat(40)}`, `${"long ".repeat(19).trim()}…`],
  ];
  for (const [text, want] of titles) test(`title of ${JSON.stringify(text.slice(0, 30))}`, () => assert.equal(titleOf(text), want));
  test("clip cuts at a word", () => assert.equal(clip("alpha beta gamma delta", 12), "alpha beta…"));
});

describe("file names", () => {
  const byMemId = new Map([["mem:a", "chosen.md"]]);
  const taken = new Set(["chosen.md", "use-wal.md", "use-wal-2.md", "readme.md"]);
  const cases: [string, string, string, string][] = [
    ["its file found by mem-id, whatever the slug", "other-title", "mem:a", "chosen.md"],
    ["a new slug", "fresh", "mem:b", "fresh.md"],
    ["a taken slug gets the next number", "use-wal", "mem:c", "use-wal-3.md"],
  ];
  for (const [name, slug, id, want] of cases) test(name, () => assert.equal(fileNameFor(slug, id, byMemId, taken), want));
});

describe("status by kind", () => {
  for (const [kind, want] of [["decision", "accepted"], ["rejected", "rejected"], ["learned", "accepted"], ["preference", "accepted"], ["note", "accepted"]] as const) {
    test(`${kind} → ${want}`, () => assert.equal(statusOf(kind), want));
  }
});

describe("YAML safety: nothing in a value ends the frontmatter or adds a key", () => {
  const hostile = ['plain', 'say "hi"', "back\\slash", "line\nbreak\r\nand\rmore", "---", "a\n---\nstatus: rejected", "key: value # comment", "[1, 2]", "{a: b}", "&anchor *alias", "!!binary x", "\u0000\u001b[31mred\u007f\u0085\u2028\u2029\ufeff", "lone \ud800 surrogate", "tab\there", "'single'", "@at `tick`", "%TAG ! x", "- dash", "? q", "|", ">"];
  for (const s of hostile) {
    test(`yamlString(${JSON.stringify(s)}) reads back as itself on one line`, () => {
      const q = yamlString(s);
      assert.ok(!/[\n\r]/.test(q), q);
      const back = (parseYaml(`k: ${q}`) as { k: string }).k;
      assert.equal(back, s.replace(/[\ud800-\udbff](?![\udc00-\udfff])/g, "\ufffd"));
    });
  }

  const base: MadrInput = { kind: "decision", date: "2026-11-28", author: "Ada Lovelace <ada@example.com>", memId: "mem:0123456789abcdef01234567", files: ["src/a.ts", "src/b c.ts"], source: "session s1 2026-11-27: changed src/a.ts", title: "Use WAL mode", text: "Use WAL mode.\n\nReaders never block." };
  const rendered: [string, Partial<MadrInput>][] = [
    ["plain", {}],
    ["a rejected approach", { kind: "rejected" }],
    ["a learned fact", { kind: "learned" }],
    ["newlines and a closing fence in every value", { author: "Eve\n---\nstatus: rejected", memId: "mem:x\nkind: rejected", source: "s\n---\n", title: "T\n---\nstatus: rejected", files: ["a\n---", "b"] }],
    ["a body that looks like frontmatter", { text: "---\nstatus: rejected\nkind: rejected\n---\n# Other title\n## Status\nRejected" }],
    ["no files, no source", { files: [], source: "" }],
  ];
  for (const [name, over] of rendered) {
    test(`rendered file read back by the indexer: ${name}`, () => {
      const m = { ...base, ...over };
      const text = renderMadr(m);
      const fm = parseFrontmatter(text);
      assert.equal(fm.warning, undefined);
      const lines = text.split("\n");
      assert.equal(lines[0], "---");
      const close = lines.indexOf("---", 1);
      assert.ok(close > 0 && lines.slice(1, close).every((l) => /^[a-z-]+: /.test(l)), `each frontmatter line one key:\n${text}`);
      assert.deepEqual(Object.keys(parseYaml(lines.slice(1, close).join("\n")) as object).sort(), ["date", "decision-makers", "kind", "mem-id", "status", ...(m.files.length ? ["files"] : []), ...(m.source ? ["source"] : [])].sort());
      assert.equal(fm.meta.kind, m.kind);
      assert.equal(fm.meta.extra.status, statusOf(m.kind));
      assert.equal(fm.meta.extra["mem-id"], m.memId.replace(/\s+/g, " "));
      assert.equal(memIdIn(text), m.memId.replace(/\s+/g, " "));
      const rec = decisionRecord({ path: "/r/docs/decisions/x.md", kind: fm.meta.kind!, ...(fm.meta.date ? { date: fm.meta.date } : {}), extra: fm.meta.extra, body: fm.body }, ["docs/decisions"]);
      assert.equal(rec?.kind, m.kind);
      assert.equal(rec?.status, statusOf(m.kind));
      assert.equal(rec?.date, "2026-11-28");
      assert.deepEqual(rec?.authors, [m.author.replace(/\s+/g, " ")]);
      assert.equal(rec?.title, m.title.replace(/\s+/g, " "));
      assert.ok(fm.body.includes(m.text.trim()), "the text is the body");
    });
  }
  test("a date that is no date is never written as given", () => assert.match(renderMadr({ ...base, date: "2026-11-28\nstatus: x" }), /^date: 1970-01-01$/m));
  test("memIdIn: none without frontmatter, none for a non-string or an id with control characters", () => {
    assert.equal(memIdIn("# no frontmatter\nmem-id: x"), undefined);
    assert.equal(memIdIn("---\nmem-id: [a, b]\n---\n"), undefined);
    assert.equal(memIdIn('---\nmem-id: "a\\u0007b"\n---\n'), undefined);
    assert.equal(memIdIn("---\nmem-id: mem:abc\n---\n"), "mem:abc");
    const forms: [string, string | undefined][] = [
      ['"mem:a\\"b"  # note', 'mem:a"b'],
      ['"\\x41\\u0042"', "AB"],
      ["'it''s'", "it's"],
      ["plain-id # comment", "plain-id"],
      ["[a, b]", undefined],
      ["{a: b}", undefined],
      ["12345", "12345"],
      ["|\n  block", "block"],
    ];
    for (const [raw, want] of forms) assert.equal(memIdIn(`---\nstatus: accepted\nmem-id: ${raw}\n---\n# T\n`), want, raw);
  });
});

describe("which memories are shared", () => {
  const m = (kind: string, source: string, extra: Record<string, unknown> = {}) => ({ kind, source: source as "explicit", project: "/p", ...extra });
  const cases: [string, ReturnType<typeof m>, boolean, RegExp | undefined][] = [
    ["an explicit decision", m("decision", "explicit"), false, undefined],
    ["a tagged learned fact", m("learned", "tag"), false, undefined],
    ["a keyword rejected approach", m("rejected", "keyword"), false, undefined],
    ["a note", m("note", "explicit"), false, undefined],
    ["a tool event", m("command_run", "captured"), false, /raw tool event \(command_run\)/],
    ["a file edit", m("file_modified", "captured"), false, /raw tool event/],
    ["a prompt", m("prompt", "captured"), false, /prompts are never shared/],
    ["a task", m("task", "explicit"), false, /a task/],
    ["a team record", m("decision", "markdown", { record: { kind: "decision", authors: [] }, path: "/p/docs/adr/1.md" }), false, /already a record/],
    ["a note's passage", m("note", "markdown", { path: "/p/n.md" }), false, /markdown note/],
    ["another project's", m("decision", "explicit", { project: "/q" }), false, /another project/],
    ["a tombstoned decision", m("decision", "explicit"), true, /FORGOTTEN\.md/],
  ];
  for (const [name, mem, dead, want] of cases) {
    test(name, () => {
      const why = refusal(mem, "/p", dead);
      if (want === undefined) assert.equal(why, undefined);
      else assert.match(why ?? "", want);
    });
  }
  test("files: repository-relative, outside ones left out", () => {
    assert.deepEqual(repoFiles(["/r/src/a.ts", "src/b.ts", "/home/ada/secret.txt", "../up.ts", "./src//c.ts", "/r/src/a.ts"], ["/r"]), ["src/a.ts", "src/b.ts", "src/c.ts"]);
  });
  test("the session line: id, day, what it did; never its goal (a prompt)", () => {
    assert.equal(sessionLine("s1", "2026-11-27", { filesChanged: ["/r/a.ts", "/r/b.ts", "/r/c.ts", "/r/d.ts", "/elsewhere/x"], fixed: ["npm test"], decisions: ["x", "y"] }, ["/r"]), "session s1 2026-11-27: changed a.ts, b.ts, c.ts and 1 more; fixed 1 failing command(s); 2 decision(s)");
    assert.equal(sessionLine("s2", undefined, undefined, ["/r"]), "session s2");
  });
});

describe("tombstones", () => {
  const cases: [string, string, string[]][] = [
    ["lines written by mem", "# Forgotten\n\n- mem:abc · 2026-11-28 · Use WAL\n- tag:def · 2026-11-29 · x\n", ["mem:abc", "tag:def"]],
    ["other list marks, backticks", "* `mem:q` · d · t\n+ mem:r\n", ["mem:q", "mem:r"]],
    ["prose and headings are no tombstones", "mem:abc is not listed\n# - heading\n  text - mem:x\n", []],
    ["conflict markers", "<<<<<<< HEAD\n- mem:a · d · t\n=======\n- mem:b · d · t\n>>>>>>> x\n", ["mem:a", "mem:b"]],
    ["CRLF", "- mem:c · d · t\r\n", ["mem:c"]],
  ];
  for (const [name, text, want] of cases) test(name, () => assert.deepEqual([...parseTombstones(text)].sort(), want.sort()));
  test("a line mem writes is read back, title on one line", () => {
    const line = tombstoneLine("mem:abc", "2026-11-28", "Title\nwith - mem:evil · x");
    assert.equal(line.split("\n").length, 1);
    assert.deepEqual([...parseTombstones(line)], ["mem:abc"]);
  });
});

describe("the proposal", () => {
  const c = (memId: string, kind: string) => ({ memId, shown: memId.replace("mem:", "").padEnd(12, "0"), kind });
  test("what is neither shared nor tombstoned, counted by kind", () => {
    const p = proposalOf([c("mem:a", "decision"), c("mem:b", "decision"), c("mem:c", "learned"), c("mem:d", "rejected"), c("mem:e", "preference")], new Set(["mem:b"]), new Set(["mem:d"]));
    assert.deepEqual(p, { ids: ["a00000000000", "c00000000000"], counts: { decision: 1, learned: 1 } });
  });
  test("nothing left: no proposal", () => assert.equal(proposalOf([c("mem:a", "decision")], new Set(["mem:a"]), new Set()), undefined));
  test("the line", () => {
    assert.equal(counted({ decision: 3 }), "3 decisions");
    assert.equal(counted({ decision: 1, rejected: 2, learned: 1 }), "1 decision, 2 rejected approaches and 1 learned fact");
    const s = shareSection({ ids: ["aaa", "bbb", "ccc"], counts: { decision: 3 } });
    assert.deepEqual(s?.items, ["- 3 decisions of the last session could be shared: `mem share aaa bbb ccc`"]);
    assert.match(shareSection({ ids: ["a"], counts: { decision: 12 } })!.items[0]!, /\(the first 1 of 12\)$/);
    assert.equal(shareSection(undefined), undefined);
  });
});

describe("the tombstone file is never a record", () => {
  for (const name of ["FORGOTTEN.md", "forgotten.md"]) test(name, () => assert.equal(inDecisionFolder(`/r/docs/decisions/${name}`, ["docs/decisions"]), false));
  test("a shared file beside it is", () => assert.equal(inDecisionFolder("/r/docs/decisions/use-wal.md", ["docs/decisions"]), true));
});
