import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { bm25Leg, fastRankingSql } from "../../src/retrieve/bm25.js";
import { sqlWhere } from "../../src/retrieve/filters.js";
import { openDb } from "../../src/store/db.js";

const dir = mkdtempSync(join(tmpdir(), "mem-bm25-plan-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("the BM25 leg's fast path walks FTS5's top rows and looks their chunks up by rowid, not every chunk of the projects searched", () => {
  const db = openDb(join(dir, "plan.sqlite"));
  db.prepare("INSERT INTO sources (id, project, path, kind, size, mtime_ms, content_hash, indexed_at) VALUES (1, 'p', 'a.md', 'markdown', 0, 0, '', 0)").run();
  const insert = db.prepare("INSERT INTO chunks (id, source_id, project, path, kind, heading, start_line, end_line, text, seq) VALUES (?, 1, ?, 'a.md', 'markdown', '', ?, ?, ?, ?)");
  const words = ["journal", "flush", "disk", "cache", "token", "queue", "retry", "shard"];
  db.transaction(() => {
    for (let i = 0; i < 3_000; i++) insert.run(`c${i}`, i % 10 === 0 ? "q" : "p", i, i, `${words[i % 8]} ${words[(i * 3) % 8]} ${words[(i * 5) % 8]} note ${i}`, i);
  })();
  for (const projects of [["p"], ["p", "q"]]) {
    const where = sqlWhere({ projects, tier: "all" });
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${fastRankingSql("bm25(chunks_fts)", where.sql)}`).all('"journal"', 200, ...where.params) as { detail: string }[]).map((r) => r.detail);
    assert.ok(!plan.some((d) => d.includes("chunks_project")), `${projects}: ${plan.join(" | ")}`);
    assert.ok(plan.some((d) => /SEARCH c USING INTEGER PRIMARY KEY/.test(d)), `${projects}: ${plan.join(" | ")}`);
  }
  // bounded to a set of rowids (src/retrieve/bm25-bound.ts): the set is read once (a list subquery,
  // not one per row) and FTS5 streams its matches past it, with no rowid lookup into FTS5 (each would
  // count every phrase's matches again for bm25())
  for (const projects of [["p"], ["p", "q"]]) {
    const where = sqlWhere({ projects, tier: "all" });
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${fastRankingSql("bm25(chunks_fts)", where.sql, true)}`).all('"journal"', "[1, 2, 3]", 200, ...where.params) as { detail: string }[]).map((r) => r.detail);
    const fts = plan.filter((d) => d.includes("chunks_fts"));
    assert.deepEqual(fts.length, 1, plan.join(" | "));
    assert.match(fts[0]!, /^SCAN chunks_fts VIRTUAL TABLE INDEX 0:M\d+$/, `a MATCH scan, no rowid constraint: ${plan.join(" | ")}`);
    assert.ok(plan.some((d) => /^LIST SUBQUERY/.test(d)) && !plan.some((d) => /CORRELATED/.test(d)), plan.join(" | "));
    assert.ok(!plan.some((d) => d.includes("chunks_project")), `${projects}: ${plan.join(" | ")}`);
    assert.ok(plan.some((d) => /SEARCH c USING INTEGER PRIMARY KEY/.test(d)), `${projects}: ${plan.join(" | ")}`);
  }
  // and it answers: the journal chunks of project p, best first
  const hits = bm25Leg(db, "journal flush", { projects: ["p"] }, 20);
  assert.equal(hits.length, 20);
  for (const h of hits) assert.notEqual(Number(h.id.slice(1)) % 10, 0, "only project p's chunks");
  for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
  db.close();
});
