/**
 * The per-search lookups of the vector leg's bookkeeping look each candidate up by its key and
 * never scan their tables: at 100k chunks a scan of vec_hub and vec_rows made every search take
 * half a second (`npm run bench:prompt`): without statistics (mem never runs ANALYZE) SQLite
 * chose to walk every row of the table for the table name and probe the candidates inside that.
 * Checked on SQLite's own plan for the exact statements.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { EMBEDDED_SQL } from "../../src/retrieve/search.js";
import { openDb } from "../../src/store/db.js";
import { HUBS_SQL } from "../../src/store/fusion-calibration.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-plans-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("hub and embedded lookups search their tables by key, never scan them", () => {
  const db = openDb(join(tmp, "mem.sqlite"));
  try {
    const hub = db.prepare("INSERT INTO vec_hub (table_name, chunk_id, hub) VALUES (?, ?, ?)");
    const row = db.prepare("INSERT INTO vec_rows (table_name, chunk_id, project) VALUES (?, ?, ?)");
    db.transaction(() => {
      for (let i = 0; i < 5_000; i++) {
        hub.run("t", `c${i}`, 0.1);
        row.run("t", `c${i}`, "/p");
      }
    })();
    for (const [name, sql] of [["hubs", HUBS_SQL], ["embedded", EMBEDDED_SQL]] as const) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(JSON.stringify(["c1", "c2"]), "t") as { detail: string }[]).map((r) => r.detail);
      assert.match(plan[0] ?? "", /^SCAN j\b/, `${name}: the candidates are the outer loop: ${plan.join(" | ")}`);
      assert.ok(plan.some((d) => /^SEARCH v USING .*chunk_id=\?/.test(d)), `${name}: each looked up by its chunk id: ${plan.join(" | ")}`);
    }
    // And they answer: the candidates that have rows, and only those.
    assert.deepEqual(db.prepare(EMBEDDED_SQL).pluck().all(JSON.stringify(["c1", "nope", "c4999"]), "t"), ["c1", "c4999"]);
    assert.equal((db.prepare(HUBS_SQL).all(JSON.stringify(["c7"]), "t") as unknown[]).length, 1);
  } finally {
    db.close();
  }
});
