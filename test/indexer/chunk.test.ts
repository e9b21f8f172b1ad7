import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { chunkMarkdown } from "../../indexer/chunk.js";
import { estimateTokens, type Chunk, type ChunkOptions } from "../../indexer/chunk-size.js";

/** A realistic memory file (no line longer than 100 characters). */
const MEMORY = [
  "# Storage decisions", // 1
  "", // 2
  "We keep all metadata in SQLite and vectors in LanceDB. Both are embedded, so nothing", // 3
  "runs as a server and the whole store fits in one directory under the data home.", // 4
  "", // 5
  "## Why SQLite", // 6
  "", // 7
  "SQLite in WAL mode lets capture hooks write events while the indexer reads. FTS5 gives", // 8
  "BM25 ranking without another service.", // 9
  "", // 10
  "- Decision: a busy timeout of five seconds covers the rare writer collision.", // 11
  "- Decision: migrations are append-only and recorded in PRAGMA user_version.", // 12
  "  Never edit a shipped migration; add a new one instead.", // 13
  "- Rejected: Postgres, because nobody wants a server on a laptop.", // 14
  "", // 15
  "```ts", // 16
  "// the FTS table follows chunks through triggers", // 17
  "# this line is a comment in a shell snippet, not a heading", // 18
  "db.exec(\"CREATE VIRTUAL TABLE chunks_fts USING fts5(heading, text)\");", // 19
  "```", // 20
  "", // 21
  "## Rejected options", // 22
  "", // 23
  "### Elasticsearch", // 24
  "A JVM on every developer machine is too heavy for a memory layer.", // 25
  "", // 26
  "### Plain JSON file", // 27
  "No concurrent writers and no full-text index.", // 28
  "", // 29
  "# Open questions", // 30
  "", // 31
  "1. Should archived notes be briefed at all?", // 32
  "2. How often should the weekly reindex run with --strict?", // 33
  "", // 34
].join("\n");

const BIG: ChunkOptions = { chunkTokens: 2_000, overlapTokens: 0 };

/** Every chunk made only of whole lines must equal the original lines it claims to cover. */
function assertRangesMatch(source: string, chunks: Chunk[], firstLine = 1): void {
  const lines = source.split(/\r?\n/);
  for (const c of chunks) {
    assert.ok(c.startLine >= firstLine && c.endLine >= c.startLine, `bad range ${c.startLine}-${c.endLine}`);
    const original = lines.slice(c.startLine - firstLine, c.endLine - firstLine + 1).join("\n");
    assert.equal(c.text, original, `chunk ${c.startLine}-${c.endLine} does not match its source lines`);
  }
}

function assertNoLineLost(source: string, chunks: Chunk[]): void {
  for (const line of source.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    assert.ok(
      chunks.some((c) => c.text.includes(line)),
      `line lost: ${JSON.stringify(line)}`,
    );
  }
}

describe("estimateTokens", () => {
  test("counts about four characters a token, rounding up", () => {
    assert.equal(estimateTokens(""), 0);
    assert.equal(estimateTokens("abcd"), 1);
    assert.equal(estimateTokens("abcde"), 2);
    assert.equal(estimateTokens("x".repeat(400)), 100);
  });
});

describe("chunkMarkdown: headings", () => {
  test("every heading starts a chunk that records the nested heading path", () => {
    const chunks = chunkMarkdown(MEMORY, BIG);
    assert.deepEqual(
      chunks.map((c) => [c.startLine, c.headingPath]),
      [
        [1, ["Storage decisions"]],
        [6, ["Storage decisions", "Why SQLite"]],
        // "## Rejected options" has nothing under it before "### Elasticsearch", so it is carried in.
        [22, ["Storage decisions", "Rejected options", "Elasticsearch"]],
        [27, ["Storage decisions", "Rejected options", "Plain JSON file"]],
        [30, ["Open questions"]],
      ],
    );
    assert.ok(chunks[2]!.text.startsWith("## Rejected options\n\n### Elasticsearch\n"));
  });

  test("a same-level or higher heading pops the path back before pushing itself", () => {
    const md = ["# A", "a", "## B", "b", "### C", "c", "## D", "d", "# E", "e", "### F", "f", "## G", "g"].join("\n");
    assert.deepEqual(
      chunkMarkdown(md, BIG).map((c) => c.headingPath),
      [["A"], ["A", "B"], ["A", "B", "C"], ["A", "D"], ["E"], ["E", "F"], ["E", "G"]],
    );
  });

  test("a top heading directly followed by a subheading gives one chunk under both", () => {
    const chunks = chunkMarkdown("# A\n## B\nthe body of B", BIG);
    assert.equal(chunks.length, 1);
    assert.deepEqual(chunks[0]!.headingPath, ["A", "B"]);
    assert.equal(chunks[0]!.text, "# A\n## B\nthe body of B");
    assert.equal(chunks[0]!.startLine, 1);
    assert.equal(chunks[0]!.endLine, 3);
  });

  test("closing hashes are not part of the title and '#hashtag' is not a heading", () => {
    const chunks = chunkMarkdown("## Decisions ##\n#hashtag in prose\n####### seven hashes", BIG);
    assert.equal(chunks.length, 1);
    assert.deepEqual(chunks[0]!.headingPath, ["Decisions"]);
    assert.ok(chunks[0]!.text.includes("#hashtag in prose"));
  });

  test("text before the first heading forms a chunk with an empty heading path", () => {
    const chunks = chunkMarkdown("Loose intro line.\n\n# Title\nbody", BIG);
    assert.deepEqual(chunks.map((c) => c.headingPath), [[], ["Title"]]);
    assert.equal(chunks[0]!.text, "Loose intro line.");
  });

  test("a heading at the end of a file with nothing under it is still kept", () => {
    const chunks = chunkMarkdown("# Notes\nsome text\n\n## Later", BIG);
    assert.equal(chunks.length, 2);
    assert.equal(chunks[1]!.text, "## Later");
    assert.deepEqual(chunks[1]!.headingPath, ["Notes", "Later"]);
  });
});

describe("chunkMarkdown: small sections", () => {
  /** The shape of a real architecture decision record: three one-line sections around two real ones. */
  const ADR = [
    "# 8. Postgres on the build host", // 1
    "", // 2
    "Date: 2017-07-04", // 3
    "", // 4
    "## Status", // 5
    "", // 6
    "Accepted", // 7
    "", // 8
    "## Context", // 9
    "", // 10
    "We need to decide whether to keep PostgreSQL on the build host or move it to a managed service.", // 11
    "Moving would remove the puppet code that configures it, and cost some Terraform work instead.", // 12
    "", // 13
    "## Decision", // 14
    "", // 15
    "The build host keeps its local PostgreSQL.", // 16
    "", // 17
    "## Consequences", // 18
    "", // 19
    "Fewer changes to existing code and less new Terraform work; the backup scripts stay as they are.", // 20
    "We cannot use the build host as a test bed for the managed service, and its disk must keep room", // 21
    "for a week of write-ahead log, which the monitoring now checks every hour.", // 22
  ].join("\n");
  const JOIN: ChunkOptions = { chunkTokens: 400, overlapTokens: 80, minChunkTokens: 64 };

  test("sections below minChunkTokens join their neighbours; the joined chunk's path is what they share", () => {
    const chunks = chunkMarkdown(ADR, JOIN);
    assert.deepEqual(chunks.map((c) => [c.startLine, c.endLine, c.headingPath]), [
      [1, 16, ["8. Postgres on the build host"]],
      [18, 22, ["8. Postgres on the build host", "Consequences"]],
    ]);
    assertRangesMatch(ADR, chunks);
    assertNoLineLost(ADR, chunks);
    assert.deepEqual(chunkMarkdown(ADR, { ...JOIN, minChunkTokens: 0 }).map((c) => c.startLine), [1, 5, 9, 14, 18], "0: every heading starts a chunk");
  });

  test("never across top-level headings, and never past chunkTokens", () => {
    const topics = "# Preferences\n\nUse pnpm.\n\n# Build\n\nRun make.\n";
    assert.deepEqual(chunkMarkdown(topics, JOIN).map((c) => c.headingPath), [["Preferences"], ["Build"]]);
    const small = chunkMarkdown(ADR, { chunkTokens: 60, overlapTokens: 0, minChunkTokens: 20 });
    for (const c of small) assert.ok(estimateTokens(c.text) <= 60, `${c.startLine}-${c.endLine} has ${estimateTokens(c.text)} tokens`);
    assert.ok(small.some((c) => c.startLine === 1 && c.endLine === 7), "the first three small pieces still join, as far as they fit");
    assertNoLineLost(ADR, small);
  });

  test("a long section cut with overlap stays cut: every chunk within chunkTokens and equal to its source lines", () => {
    const long = ["# Notes", "", ...Array.from({ length: 12 }, (_, i) => `Paragraph ${i} about the heron migration and its many stops.\n`), "## Tail", "", "End."].join("\n");
    const chunks = chunkMarkdown(long, { chunkTokens: 60, overlapTokens: 20, minChunkTokens: 16 });
    for (let i = 1; i < chunks.length; i++) {
      const [a, b] = [chunks[i - 1]!, chunks[i]!];
      assert.ok(estimateTokens(a.text) <= 60 && estimateTokens(b.text) <= 60);
    }
    assertRangesMatch(long, chunks);
    assertNoLineLost(long, chunks);
  });
});

describe("chunkMarkdown: line ranges", () => {
  test("line ranges are 1-based, inclusive and reproduce the original lines", () => {
    for (const chunkTokens of [30, 60, 2_000]) {
      const chunks = chunkMarkdown(MEMORY, { chunkTokens, overlapTokens: Math.floor(chunkTokens / 4) });
      assert.ok(chunks.length > 0);
      assertRangesMatch(MEMORY, chunks);
    }
    const first = chunkMarkdown(MEMORY, BIG)[0]!;
    assert.equal(first.startLine, 1);
    assert.equal(first.endLine, 4);
  });

  test("firstLine shifts every range so it points into the whole file", () => {
    const file = ["---", "kind: decision", "tags: [storage]", "---", MEMORY].join("\n");
    const body = MEMORY;
    const plain = chunkMarkdown(body, BIG);
    const shifted = chunkMarkdown(body, BIG, 5);
    assert.equal(shifted.length, plain.length);
    shifted.forEach((c, i) => {
      assert.equal(c.startLine, plain[i]!.startLine + 4);
      assert.equal(c.endLine, plain[i]!.endLine + 4);
    });
    const fileLines = file.split("\n");
    for (const c of shifted) assert.equal(fileLines.slice(c.startLine - 1, c.endLine).join("\n"), c.text);
  });
});

describe("chunkMarkdown: size limit and overlap", () => {
  // Twelve paragraphs of exactly 79 characters (20 tokens) each under one heading.
  const paras = Array.from({ length: 12 }, (_, i) =>
    `Decision ${String(i).padStart(2, "0")}: we keep the embedding batch size at 32 to bound memory use.`.padEnd(79, "."),
  );
  const section = ["# Embedding batches", "", ...paras.flatMap((p) => [p, ""])].join("\n");

  test("a long section is cut into several chunks of at most about chunkTokens", () => {
    const opts = { chunkTokens: 60, overlapTokens: 25 };
    const chunks = chunkMarkdown(section, opts);
    assert.ok(chunks.length >= 4, `expected the section to be cut, got ${chunks.length} chunk(s)`);
    for (const c of chunks) {
      // Units are packed up to chunkTokens; the blank lines between them add a few characters.
      assert.ok(estimateTokens(c.text) <= opts.chunkTokens + 3, `chunk of ${estimateTokens(c.text)} tokens`);
      assert.deepEqual(c.headingPath, ["Embedding batches"]);
    }
    assertRangesMatch(section, chunks);
    assertNoLineLost(section, chunks);
  });

  test("the next chunk starts with trailing text of the previous one, no more than overlapTokens", () => {
    const opts = { chunkTokens: 60, overlapTokens: 25 };
    const chunks = chunkMarkdown(section, opts);
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!;
      const next = chunks[i]!;
      const lastPara = prev.text.split("\n\n").at(-1)!;
      assert.ok(next.text.startsWith(lastPara), `chunk ${i} does not repeat the tail of chunk ${i - 1}`);
      assert.ok(estimateTokens(lastPara) <= opts.overlapTokens);
      assert.ok(next.startLine <= prev.endLine, "overlapping chunks share lines");
      // Only one 20-token paragraph fits in 25 overlap tokens: the one before it is not repeated.
      const beforeLast = prev.text.split("\n\n").at(-2);
      if (beforeLast?.startsWith("Decision")) assert.ok(!next.text.includes(beforeLast));
    }
  });

  test("with zero overlap no paragraph is repeated", () => {
    const chunks = chunkMarkdown(section, { chunkTokens: 60, overlapTokens: 0 });
    for (const p of paras) assert.equal(chunks.filter((c) => c.text.includes(p)).length, 1, p);
    for (let i = 1; i < chunks.length; i++) assert.ok(chunks[i]!.startLine > chunks[i - 1]!.endLine);
  });
});

describe("chunkMarkdown: fenced code", () => {
  const intro = "We run the migration inside one transaction so a crash leaves the old schema.".padEnd(150, " x");
  const code = [
    "```ts",
    "export function migrate(db: Db): void {",
    "  const version = db.pragma(\"user_version\", { simple: true }) as number;",
    "  for (let v = version; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);",
    "}",
    "```",
  ].join("\n");

  test("a code block that fits is never cut, even when it straddles the size limit", () => {
    const md = ["## Migrations", "", intro, "", code, "", "After the block."].join("\n");
    const opts = { chunkTokens: 80, overlapTokens: 10 };
    assert.ok(estimateTokens(code) <= opts.chunkTokens);
    assert.ok(estimateTokens(`## Migrations\n\n${intro}\n\n${code}`) > opts.chunkTokens, "the block must straddle the limit");
    const chunks = chunkMarkdown(md, opts);
    const holders = chunks.filter((c) => c.text.includes("export function migrate"));
    assert.ok(holders.length >= 1);
    for (const h of holders) assert.ok(h.text.includes(code), "a chunk holds part of the code block only");
    assertRangesMatch(md, chunks);
    assertNoLineLost(md, chunks);
  });

  test("tilde fences are kept whole too, and backtick lines inside them do not close them", () => {
    const tilde = ["~~~markdown", "```", "# Not a heading either", "```", "~~~"].join("\n");
    const md = ["# Docs", "", intro, "", tilde, "", "tail"].join("\n");
    const opts = { chunkTokens: 45, overlapTokens: 0 };
    assert.ok(estimateTokens(`# Docs\n\n${intro}\n\n${tilde}`) > opts.chunkTokens, "the block must straddle the limit");
    const chunks = chunkMarkdown(md, opts);
    assert.ok(chunks.length >= 2);
    const holders = chunks.filter((c) => c.text.includes("Not a heading either"));
    assert.equal(holders.length, 1);
    assert.ok(holders[0]!.text.includes(tilde));
    for (const c of chunks) assert.deepEqual(c.headingPath, ["Docs"]);
  });

  test("a '#' line inside a fence is not a heading", () => {
    const chunks = chunkMarkdown(MEMORY, BIG);
    const why = chunks.find((c) => c.text.includes("# this line is a comment"))!;
    assert.deepEqual(why.headingPath, ["Storage decisions", "Why SQLite"]);
    assert.ok(!chunks.some((c) => c.headingPath.some((h) => h.includes("comment in a shell snippet"))));
  });

  test("an unclosed fence runs to the end of the file and swallows later headings", () => {
    const md = "# Setup\n\n```bash\nnpm ci\n# Next\nnpm test";
    const chunks = chunkMarkdown(md, BIG);
    assert.equal(chunks.length, 1);
    assert.deepEqual(chunks[0]!.headingPath, ["Setup"]);
    assert.equal(chunks[0]!.text, md);
  });

  test("a code block larger than a chunk is cut at line boundaries", () => {
    const body = Array.from({ length: 60 }, (_, i) => `  const value${i} = compute(${i}); // step ${i}`);
    const md = ["# Big snippet", "", "```ts", ...body, "```"].join("\n");
    const opts = { chunkTokens: 50, overlapTokens: 10 };
    const chunks = chunkMarkdown(md, opts);
    assert.ok(chunks.length > 3);
    assertRangesMatch(md, chunks); // whole lines only
    for (const c of chunks) assert.ok(estimateTokens(c.text) <= opts.chunkTokens + 5, `chunk of ${estimateTokens(c.text)} tokens`);
    assertNoLineLost(md, chunks);
  });
});

describe("chunkMarkdown: long lines and lists", () => {
  test("a single huge line without spaces is cut into pieces that together are the line", () => {
    const huge = Array.from({ length: 20_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
    const opts = { chunkTokens: 100, overlapTokens: 20 };
    const chunks = chunkMarkdown(huge, opts);
    assert.ok(chunks.length >= 50);
    assert.equal(chunks.map((c) => c.text).join(""), huge);
    for (const c of chunks) {
      assert.ok(c.text.length <= opts.chunkTokens * 4);
      assert.equal(c.startLine, 1);
      assert.equal(c.endLine, 1);
    }
  });

  test("a huge line of words is cut at word boundaries and nothing is lost", () => {
    const words = Array.from({ length: 3_000 }, (_, i) => `word${i}`);
    const line = words.join(" ");
    const md = `# Log\n\nbefore\n\n${line}\n\nafter`;
    const chunks = chunkMarkdown(md, { chunkTokens: 100, overlapTokens: 20 });
    const pieces = chunks.filter((c) => c.startLine === 5 && c.endLine === 5).map((c) => c.text);
    assert.ok(pieces.length > 10);
    assert.equal(pieces.join(" "), line);
    for (const p of pieces) for (const w of p.split(" ")) assert.match(w, /^word\d+$/, "a word was cut");
    assert.ok(chunks.some((c) => c.text.includes("before")));
    assert.equal(chunks.at(-1)!.text, "after");
  });

  test("list items are cut between items, never inside one", () => {
    const items = Array.from({ length: 20 }, (_, i) => [
      `- Task ${String(i).padStart(2, "0")}: move the embedding step behind the queue`,
      `  so that a slow provider never blocks the BM25 index (item ${i}).`,
    ]);
    const md = ["# Open tasks", "", ...items.flat()].join("\n");
    const chunks = chunkMarkdown(md, { chunkTokens: 60, overlapTokens: 0 });
    assert.ok(chunks.length > 3);
    for (const item of items) {
      const [head, cont] = item as [string, string];
      const withHead = chunks.filter((c) => c.text.includes(head));
      const withCont = chunks.filter((c) => c.text.includes(cont));
      assert.equal(withHead.length, 1);
      assert.deepEqual(withCont, withHead, `item split: ${head}`);
    }
    for (const c of chunks.slice(1)) assert.match(c.text, /^- Task/);
    assertRangesMatch(md, chunks);
  });
});

describe("chunkMarkdown: input shapes", () => {
  test("empty or whitespace-only input gives no chunks", () => {
    assert.deepEqual(chunkMarkdown("", BIG), []);
    assert.deepEqual(chunkMarkdown("   \n\t\n  \n", BIG), []);
    assert.deepEqual(chunkMarkdown("\r\n\r\n", BIG), []);
  });

  test("CRLF input gives the same chunks as LF input, with no carriage returns", () => {
    const crlf = MEMORY.replace(/\n/g, "\r\n");
    for (const opts of [BIG, { chunkTokens: 40, overlapTokens: 10 }]) {
      const a = chunkMarkdown(crlf, opts);
      assert.deepEqual(a, chunkMarkdown(MEMORY, opts));
      for (const c of a) assert.ok(!c.text.includes("\r"));
    }
  });

  test("no text is lost: every non-blank line appears in some chunk at any chunk size", () => {
    assert.ok(MEMORY.split("\n").every((l) => l.length <= 100));
    for (const chunkTokens of [30, 45, 80, 400]) {
      for (const overlapTokens of [0, Math.floor(chunkTokens / 3)]) {
        const chunks = chunkMarkdown(MEMORY, { chunkTokens, overlapTokens });
        assertNoLineLost(MEMORY, chunks);
        for (const c of chunks) assert.notEqual(c.text.trim(), "");
      }
    }
  });

  test("chunks come out in file order", () => {
    const chunks = chunkMarkdown(MEMORY, { chunkTokens: 40, overlapTokens: 10 });
    for (let i = 1; i < chunks.length; i++) assert.ok(chunks[i]!.startLine >= chunks[i - 1]!.startLine);
  });
});
