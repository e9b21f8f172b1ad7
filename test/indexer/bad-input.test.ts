import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { assertFtsConsistent, assertVectorsMatch, bumpMtime, chunkRows, chunksOfPath, makeEnv, sourceRows, tableOf, type IndexerEnv } from "../helpers/indexer-env.js";

const envs: IndexerEnv[] = [];
const restore: (() => void)[] = [];
after(async () => {
  for (const r of restore) r(); // give permissions back so the temp dirs can be removed
  await Promise.all(envs.map((e) => e.close()));
});
function env(tag: string, configure?: Parameters<typeof makeEnv>[1]): IndexerEnv {
  const e = makeEnv(tag, configure);
  envs.push(e);
  return e;
}

const isRoot = process.getuid?.() === 0;
const bm25 = (e: IndexerEnv, q: string) => bm25Leg(e.db, q, { projects: ["p1"] }, 20).map((h) => h.id);
/** The one warning naming `path` (fails when there is none or more than one). */
function warningFor(warnings: string[], path: string): string {
  const hits = warnings.filter((w) => w.includes(path));
  assert.equal(hits.length, 1, `expected one warning naming ${path}, got:\n${warnings.join("\n")}`);
  return hits[0]!;
}
const noWarningFor = (warnings: string[], path: string) =>
  assert.deepEqual(warnings.filter((w) => w.includes(path)), [], `no warning expected for ${path}`);

describe("bad input is skipped or degraded with a warning naming the file; the rest of the run completes", () => {
  test("binary, non-UTF-8, oversized, broken-frontmatter and malformed-event files in one run", async () => {
    const e = env("bad", (c) => (c.index.maxFileBytes = 4096));
    const good = e.write("mem/good.md", "# Good\n\nThe albatross glides.\n");
    const binary = e.write("mem/image.md", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    const latin1 = e.write("mem/latin1.md", Buffer.from("# Caf\xe9\n\nLe cormoran mange une cr\xe8me br\xfbl\xe9e.\n", "latin1"));
    const huge = e.write("mem/huge.md", `# Huge\n\n${"The gannet dives. ".repeat(400)}\n`);
    const yaml = e.write("mem/broken-yaml.md", "---\ntitle: [unclosed\ntags: [a, b\n---\n# Broken\n\nThe puffin still gets indexed.\n");
    const notMap = e.write("mem/list-yaml.md", "---\n- just\n- a list\n---\n# Listed\n\nThe shearwater too.\n");
    const events = e.write(
      "mem/events/log.jsonl",
      [
        JSON.stringify({ type: "decision", text: "Adopt the petrel scheduler", time: "2026-04-01T09:00:00Z" }),
        "{not json at all",
        "[1, 2, 3]",
        JSON.stringify({ type: "note" }),
        JSON.stringify({ type: "note", text: "The skua note survives" }),
        "",
      ].join("\n"),
    );
    const embedder = new HashEmbedder();
    const s = await e.run({ roots: ["mem"], providers: [embedder] });

    assert.equal(s.files.seen, 7);
    assert.equal(s.files.skipped, 3, "binary, non-UTF-8 and huge are skipped");
    assert.equal(s.files.indexed, 4);
    assert.match(warningFor(s.warnings, binary), /binary content.*skipped/);
    assert.match(warningFor(s.warnings, latin1), /not valid UTF-8.*skipped/);
    assert.match(warningFor(s.warnings, huge), /too large \(\d+ bytes, limit 4096.*maxFileBytes.*skipped/);
    assert.match(warningFor(s.warnings, yaml), /frontmatter is not valid YAML.*indexed without metadata/);
    assert.match(warningFor(s.warnings, notMap), /not a YAML mapping/);
    assert.match(warningFor(s.warnings, events), /3 malformed event line\(s\) skipped \(first: line 2, not JSON\)/);
    noWarningFor(s.warnings, good);
    assert.equal(s.warnings.length, 6);

    // Skipped files leave no trace; degraded ones are indexed from their body.
    const paths = sourceRows(e.db, "p1").map((r) => r.path);
    assert.deepEqual(paths, [yaml, events, good, notMap].sort());
    for (const p of [binary, latin1, huge]) assert.deepEqual(chunksOfPath(e.db, "p1", p), []);
    const [broken] = chunksOfPath(e.db, "p1", yaml);
    assert.equal(broken?.heading, "Broken");
    assert.equal(broken?.start_line, 5, "the dropped frontmatter still counts for line numbers");
    assert.deepEqual(JSON.parse(broken!.tags), []);
    assert.equal(broken?.kind, "note");
    assert.ok(!broken!.text.includes("unclosed"), "the broken frontmatter is not indexed as text");
    assert.equal(bm25(e, "puffin").length, 1);
    assert.equal(bm25(e, "shearwater").length, 1);
    assert.equal(bm25(e, "albatross").length, 1);
    assert.deepEqual(bm25(e, "gannet"), []);
    assert.deepEqual(bm25(e, "cormoran"), []);
    const ev = chunksOfPath(e.db, "p1", events);
    assert.deepEqual(ev.map((c) => [c.kind, c.start_line]), [["decision", 1], ["note", 5]]);
    assert.equal(bm25(e, "skua").length, 1);

    // The vector step ran for what was indexed.
    assert.equal(s.vector.status, "ok");
    assert.equal(s.vector.embedded, chunkRows(e.db, "p1").length);
    await assertVectorsMatch(e, tableOf(embedder, 64), { complete: true, projects: ["p1"] });
    assertFtsConsistent(e.db);

    // Skipped files are looked at again next time (still skipped, still named), the rest is unchanged.
    const again = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.equal(again.files.skipped, 3);
    assert.equal(again.files.unchanged, 4);
    for (const p of [binary, latin1, huge]) warningFor(again.warnings, p);
    assert.equal(again.vector.embedded, 0);

    // Fixed files are picked up.
    writeFileSync(latin1, "# Café\n\nLe cormoran mange une crème brûlée.\n");
    bumpMtime(latin1);
    const fixed = await e.run({ roots: ["mem"], providers: [embedder] });
    noWarningFor(fixed.warnings, latin1);
    assert.equal(fixed.files.indexed, 1);
    assert.equal(bm25(e, "cormoran").length, 1);
    assert.equal(fixed.vector.embedded, 1);
  });

  test("an unreadable file (chmod 000) is skipped with a warning; the others are indexed", async (t) => {
    const e = env("unreadable");
    e.write("mem/ok.md", "# Ok\n\nThe flamingo wades.\n");
    const locked = e.write("mem/locked.md", "# Locked\n\nThe cassowary hides.\n");
    chmodSync(locked, 0o000);
    restore.push(() => chmodSync(locked, 0o644));
    const s = await e.run({ roots: ["mem"], providers: [] });
    assert.equal(bm25(e, "flamingo").length, 1, "the run completes for the readable file");
    if (isRoot) {
      t.skip("running as root: chmod 000 does not stop root from reading");
      return;
    }
    assert.equal(s.files.skipped, 1);
    assert.match(warningFor(s.warnings, locked), /unreadable \(EACCES\); skipped/);
    assert.deepEqual(bm25(e, "cassowary"), []);
  });

  test("an unreadable directory is skipped with a warning naming it", async (t) => {
    const e = env("unreadable-dir");
    e.write("mem/ok.md", "# Ok\n\nThe toucan calls.\n");
    e.write("mem/closed/inside.md", "# Inside\n\nThe hoatzin is hidden.\n");
    const closed = join(e.dir, "mem", "closed");
    chmodSync(closed, 0o000);
    restore.push(() => chmodSync(closed, 0o755));
    const s = await e.run({ roots: ["mem"], providers: [] });
    assert.equal(bm25(e, "toucan").length, 1);
    if (isRoot) {
      t.skip("running as root: chmod 000 does not stop root from listing");
      return;
    }
    assert.ok(s.warnings.includes(`${closed}: unreadable (EACCES); skipped`), s.warnings.join("\n"));
    assert.deepEqual(bm25(e, "hoatzin"), []);
  });

  test("a previously indexed file that becomes binary (or too large) keeps its old chunks and vectors", async () => {
    const e = env("became-binary", (c) => (c.index.maxFileBytes = 2048));
    const path = e.write("mem/notes.md", "# Notes\n\nThe heron waits.\n\n# More\n\nThe egret fishes.\n");
    e.write("mem/other.md", "# Other\n\nThe bittern booms.\n");
    const embedder = new HashEmbedder();
    await e.run({ roots: ["mem"], providers: [embedder] });
    const table = tableOf(embedder, 64);
    const before = chunksOfPath(e.db, "p1", path);
    assert.equal(before.length, 2);
    const src = sourceRows(e.db, "p1").find((r) => r.path === path)!;

    writeFileSync(path, Buffer.concat([Buffer.from("# Notes\n"), Buffer.alloc(64), Buffer.from("garbage")]));
    bumpMtime(path);
    e.write("mem/new.md", "# New\n\nThe stork arrives.\n");
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.match(warningFor(s.warnings, path), /binary content.*skipped \(its previously indexed chunks are kept\)/);
    assert.equal(s.files.skipped, 1);
    assert.equal(s.files.indexed, 1, "the rest of the run goes on");
    assert.equal(s.files.deleted, 0);
    assert.deepEqual(chunksOfPath(e.db, "p1", path), before);
    const kept = sourceRows(e.db, "p1").find((r) => r.path === path)!;
    assert.deepEqual(kept, src, "the source row still describes the last good version");
    assert.equal(bm25(e, "egret").length, 1);
    assert.equal(bm25(e, "stork").length, 1);
    const ids = await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
    for (const c of before) assert.ok(ids.includes(c.id));

    // Too large now: same treatment.
    writeFileSync(path, `# Notes\n\n${"The heron waits. ".repeat(200)}\n`);
    bumpMtime(path, 20);
    const big = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.match(warningFor(big.warnings, path), /too large.*previously indexed chunks are kept/);
    assert.deepEqual(chunksOfPath(e.db, "p1", path), before);

    // Good again: re-indexed normally.
    writeFileSync(path, "# Notes\n\nThe heron waits.\n\n# More\n\nThe egret has left.\n");
    bumpMtime(path, 40);
    const texts = embedder.texts;
    const good = await e.run({ roots: ["mem"], providers: [embedder] });
    noWarningFor(good.warnings, path);
    assert.deepEqual(good.chunks, { added: 1, removed: 1, kept: 1, total: 4 });
    assert.equal(embedder.texts - texts, 1);
    assert.equal(chunksOfPath(e.db, "p1", path)[0]?.id, before[0]?.id);
    await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
  });

  test("explicit paths: a non-source file is named and skipped; a .jsonl given by name is read as events", async () => {
    const e = env("explicit");
    const txt = e.write("notes.txt", "The plover runs.\n");
    const jsonl = e.write("session.jsonl", `${JSON.stringify({ type: "decision", text: "Pick the avocet plan" })}\n`);
    const md = e.write("one.md", "# One\n\nThe curlew calls.\n");
    const missing = join(e.dir, "missing.md");
    const s = await e.run({ roots: [txt, jsonl, md, missing], providers: [] });
    assert.match(warningFor(s.warnings, txt), /not a markdown .* file; skipped/);
    assert.match(warningFor(s.warnings, missing), /no such file or directory; skipped/);
    assert.deepEqual(sourceRows(e.db, "p1").map((r) => [r.path, r.kind]), [[md, "markdown"], [jsonl, "events"]]);
    assert.equal(bm25(e, "avocet").length, 1);
    assert.equal(bm25(e, "curlew").length, 1);
    assert.deepEqual(bm25(e, "plover"), []);
  });

  test("an event log repeating an event id keeps the first, warns naming the file, and the run completes", async () => {
    const e = env("dup-event-id");
    const log = e.write(
      "mem/events/log.jsonl",
      [
        JSON.stringify({ type: "decision", text: "Adopt the gadwall plan", id: "tool-1" }),
        JSON.stringify({ type: "note", text: "Something about the teal", id: "tool-2" }),
        JSON.stringify({ type: "decision", text: "Adopt the gadwall plan (captured twice)", id: "tool-1" }),
        "",
      ].join("\n"),
    );
    const other = e.write("mem/zz-after.md", "# After\n\nThe wigeon is indexed after the log.\n");
    const embedder = new HashEmbedder();
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.match(warningFor(s.warnings, log), /1 event line\(s\) repeating an earlier event id skipped \(first: line 3, id tool-1\)/);
    const ev = chunksOfPath(e.db, "p1", log);
    assert.deepEqual(ev.map((c) => [c.start_line, c.text]), [[1, "decision: Adopt the gadwall plan"], [2, "note: Something about the teal"]]);
    assert.equal(JSON.parse(sourceRows(e.db, "p1").find((r) => r.path === log)!.metadata).events, 2);
    assert.equal(chunksOfPath(e.db, "p1", other).length, 1);
    assert.equal(s.vector.status, "ok");
    await assertVectorsMatch(e, tableOf(embedder, 64), { complete: true, projects: ["p1"] });
  });

  test("empty and whitespace-only files are indexed as sources with no chunks", async () => {
    const e = env("empty");
    const empty = e.write("mem/empty.md", "");
    const blank = e.write("mem/blank.md", "\n\n   \n");
    const fmOnly = e.write("mem/fm-only.md", "---\ntags: [x]\n---\n");
    const emptyLog = e.write("mem/events/empty.jsonl", "");
    const embedder = new HashEmbedder();
    const s = await e.run({ roots: ["mem"], providers: [embedder] });
    assert.deepEqual(s.warnings, []);
    assert.equal(s.files.indexed, 4);
    assert.equal(s.chunks.total, 0);
    assert.equal(sourceRows(e.db, "p1").length, 4);
    for (const p of [empty, blank, fmOnly, emptyLog]) assert.deepEqual(chunksOfPath(e.db, "p1", p), []);
    assert.equal(s.vector.status, "ok");
    assert.equal(s.vector.embedded, 0);
    assert.equal(embedder.calls, 0);
  });
});
