import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { normaliseMeta, parseFrontmatter } from "../../indexer/frontmatter.js";

const fm = (yaml: string, body = "# Storage decisions\n\nWe chose SQLite.") => `---\n${yaml}\n---\n${body}`;

describe("parseFrontmatter: metadata", () => {
  test("tags given as a YAML list are read, trimmed and de-duplicated", () => {
    const p = parseFrontmatter(fm("tags: [storage, sqlite, ' lancedb ', storage]"));
    assert.deepEqual(p.meta.tags, ["storage", "sqlite", "lancedb"]);
    assert.equal(p.warning, undefined);
  });

  test("tags given as a block list drop a leading '#' and keep numbers as strings", () => {
    const p = parseFrontmatter(fm("tags:\n  - '#retro'\n  - 2026\n  - {nested: object}\n  - ''"));
    assert.deepEqual(p.meta.tags, ["retro", "2026"]);
  });

  test("tags given as a comma or space separated string are split", () => {
    assert.deepEqual(parseFrontmatter(fm("tags: storage, sqlite  lancedb,#wal")).meta.tags, ["storage", "sqlite", "lancedb", "wal"]);
  });

  test("a single `tag:` key stands for `tags:`", () => {
    assert.deepEqual(parseFrontmatter(fm("tag: decision")).meta.tags, ["decision"]);
    assert.deepEqual(parseFrontmatter(fm("tags: [a]\ntag: b")).meta.tags, ["a"], "tags wins over tag");
  });

  test("no tags gives an empty list", () => {
    assert.deepEqual(parseFrontmatter(fm("kind: note")).meta.tags, []);
  });

  test("kind is read from `kind` or else `type`, lower-cased and trimmed", () => {
    assert.equal(parseFrontmatter(fm("kind: ' Decision '")).meta.kind, "decision");
    assert.equal(parseFrontmatter(fm("type: Session")).meta.kind, "session");
    assert.equal(parseFrontmatter(fm("kind: decision\ntype: session")).meta.kind, "decision");
    assert.equal(parseFrontmatter(fm("kind: 42")).meta.kind, undefined, "a non-string kind is ignored");
  });

  test("the date comes from `date`, else `updated`, else `created`", () => {
    assert.equal(parseFrontmatter(fm("date: 2026-10-02\nupdated: 2026-11-01\ncreated: 2026-01-01")).meta.date, "2026-10-02");
    assert.equal(parseFrontmatter(fm("updated: 2026-11-01\ncreated: 2026-01-01")).meta.date, "2026-11-01");
    assert.equal(parseFrontmatter(fm("created: 2026-01-01")).meta.date, "2026-01-01");
    assert.equal(parseFrontmatter(fm("date: 2026-11-20T09:15:00Z")).meta.date, "2026-11-20T09:15:00Z");
  });

  test("an unparseable date falls through to the next date key or is left out", () => {
    assert.equal(parseFrontmatter(fm("date: sometime soon\nupdated: 2026-11-01")).meta.date, "2026-11-01");
    assert.equal(parseFrontmatter(fm("date: not a date")).meta.date, undefined);
    assert.equal(parseFrontmatter(fm("date: [2026]")).meta.date, undefined);
  });

  test("YAML timestamps become ISO strings: a date alone, or date and time", () => {
    assert.equal(parseFrontmatter(fm("date: !!timestamp 2026-10-02")).meta.date, "2026-10-02");
    assert.equal(parseFrontmatter(fm("date: !!timestamp 2026-10-02T14:30:00Z")).meta.date, "2026-10-02T14:30:00");
  });

  test("a string title is kept as the title", () => {
    const p = parseFrontmatter(fm("title: Why we chose SQLite"));
    assert.equal(p.meta.title, "Why we chose SQLite");
    assert.deepEqual(p.meta.extra, {});
  });

  test("unknown keys are kept in extra, JSON-safe, and known keys are not", () => {
    const p = parseFrontmatter(fm("kind: decision\ntags: [a]\ndate: 2026-10-02\nowner: dana\nreviewers: [lee, kim]\nlinks: {pr: 42}\nwhen: !!timestamp 2026-10-02"));
    assert.deepEqual(p.meta.extra, { owner: "dana", reviewers: ["lee", "kim"], links: { pr: 42 }, when: "2026-10-02T00:00:00.000Z" });
  });

  test("normaliseMeta turns bigints into strings instead of failing", () => {
    const meta = normaliseMeta({ big: 12345678901234567890n, tags: "x" });
    assert.deepEqual(meta.extra, { big: "12345678901234567890" });
    assert.deepEqual(meta.tags, ["x"]);
  });
});

describe("parseFrontmatter: body and line numbers", () => {
  test("the body excludes the frontmatter and bodyLine is the line where it starts", () => {
    const text = "---\nkind: decision\ntags: [storage]\n---\n# Storage decisions\n\nWe chose SQLite.";
    const p = parseFrontmatter(text);
    assert.equal(p.body, "# Storage decisions\n\nWe chose SQLite.");
    assert.equal(p.bodyLine, 5);
    assert.equal(text.split("\n")[p.bodyLine - 1], "# Storage decisions");
    assert.equal(p.meta.kind, "decision");
  });

  test("`...` also closes the frontmatter block", () => {
    const p = parseFrontmatter("---\nkind: state\n...\nbody line");
    assert.equal(p.body, "body line");
    assert.equal(p.bodyLine, 4);
    assert.equal(p.meta.kind, "state");
  });

  test("an empty frontmatter block gives empty metadata and no warning", () => {
    const p = parseFrontmatter("---\n---\nbody");
    assert.deepEqual(p, { body: "body", bodyLine: 3, meta: { tags: [], extra: {} } });
  });

  test("a byte-order mark before the frontmatter is ignored", () => {
    const p = parseFrontmatter("\uFEFF---\ntags: [bom]\n---\nbody");
    assert.deepEqual(p.meta.tags, ["bom"]);
    assert.equal(p.body, "body");
    assert.equal(p.bodyLine, 4);
  });

  test("a byte-order mark is stripped from a file without frontmatter", () => {
    const p = parseFrontmatter("\uFEFF# Title\ntext");
    assert.equal(p.body, "# Title\ntext");
    assert.equal(p.bodyLine, 1);
  });

  test("CRLF frontmatter is recognised and the body starts on the right line", () => {
    const p = parseFrontmatter("---\r\nkind: note\r\n---\r\n# Title\r\ntext");
    assert.equal(p.meta.kind, "note");
    assert.equal(p.bodyLine, 4);
    assert.equal(p.body, "# Title\ntext");
  });

  test("a file without frontmatter is all body from line 1 with empty metadata", () => {
    const text = "# Notes\n\n---\n\nA horizontal rule above is not frontmatter.";
    assert.deepEqual(parseFrontmatter(text), { body: text, bodyLine: 1, meta: { tags: [], extra: {} } });
  });

  test("an unclosed `---` is treated as body, not metadata", () => {
    const text = "---\nkind: decision\n# Title\nbody";
    const p = parseFrontmatter(text);
    assert.equal(p.body, text);
    assert.equal(p.bodyLine, 1);
    assert.deepEqual(p.meta, { tags: [], extra: {} });
    assert.equal(p.warning, undefined);
  });
});

describe("parseFrontmatter: broken and hostile YAML", () => {
  test("invalid YAML gives a warning and empty metadata, and the body comes back without the block", () => {
    const p = parseFrontmatter("---\ntags: [unclosed\nkind: : :\n---\n# Body\ntext");
    assert.match(p.warning ?? "", /not valid YAML/);
    assert.deepEqual(p.meta, { tags: [], extra: {} });
    assert.equal(p.body, "# Body\ntext");
    assert.equal(p.bodyLine, 5);
  });

  test("a YAML list instead of a mapping gives a warning", () => {
    const p = parseFrontmatter("---\n- storage\n- sqlite\n---\nbody");
    assert.match(p.warning ?? "", /not a YAML mapping/);
    assert.deepEqual(p.meta, { tags: [], extra: {} });
    assert.equal(p.body, "body");
  });

  test("a bare scalar instead of a mapping gives a warning", () => {
    const p = parseFrontmatter("---\njust a sentence\n---\nbody");
    assert.match(p.warning ?? "", /not a YAML mapping/);
    assert.equal(p.body, "body");
  });

  test("a billion-laughs alias bomb is refused quickly with a warning", () => {
    const lol = '["lol","lol","lol","lol","lol","lol","lol","lol","lol"]';
    const levels = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    const yaml = levels.map((name, i) => (i === 0 ? `${name}: &${name} ${lol}` : `${name}: &${name} [${Array(9).fill(`*${levels[i - 1]}`).join(",")}]`));
    const text = ["---", ...yaml, "---", "# Still indexed"].join("\n");
    const started = Date.now();
    const p = parseFrontmatter(text);
    assert.ok(Date.now() - started < 5_000, "parsing took too long");
    assert.match(p.warning ?? "", /not valid YAML/);
    assert.deepEqual(p.meta, { tags: [], extra: {} });
    assert.equal(p.body, "# Still indexed");
    assert.equal(p.bodyLine, levels.length + 3);
  });

  test("a few harmless aliases are still allowed", () => {
    const p = parseFrontmatter(fm("base: &b storage\ntags: [*b, sqlite]"));
    assert.equal(p.warning, undefined);
    assert.deepEqual(p.meta.tags, ["storage", "sqlite"]);
  });
});
