/**
 * An id stored in one project never stands in for another project's memory: a bound service
 * (mem mcp, the explorer) answers its own memory by its one id even when another project holds a
 * memory whose stored id spells that one id; and `mem import` never keeps a line's id when it is
 * another project's (the line was skipped as "present") or when it could pass for a one id (it
 * would answer for the memory that shows it). On a real store.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openApp } from "../../src/app.js";
import { clean } from "../../src/redact/clean.cjs";
import { resolveProject } from "../../src/project/identity.js";
import { idOf } from "../../src/service/convert.js";
import { importLines, passesForOneId } from "../../src/service/import.js";
import { MemoryService } from "../../src/service/memory.js";
import { insertMemory, memoryById } from "../../src/store/memories.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-id-shadow-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("ids across projects", () => {
  const [a, b] = ["alpha", "beta"].map((n) => {
    mkdirSync(join(tmp, n, ".git"), { recursive: true });
    return resolveProject(join(tmp, n)).id as string;
  }) as [string, string];
  const app = openApp({ MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" });
  after(() => app.close());
  const ctx = { db: app.db, config: app.config, projectRoot: app.projectRoot };
  const all = new MemoryService(ctx);
  const bound = (p: string) => new MemoryService({ ...ctx, scope: { read: [p], write: [p] } });

  test("another project's stored id that spells this project's one id does not hide this project's memory", () => {
    const mine = all.put({ project: b, text: "Beta keeps its ledger in Postgres.", kind: "decision" }).memory;
    const shown = idOf(mine);
    // A row of alpha whose stored id is beta's one id (bare, and with mem: before it).
    for (const id of [shown, `mem:${shown.slice(0, 10)}`]) assert.ok(insertMemory(app.db, clean({ id, project: a, session: null, kind: "note", time: new Date().toISOString(), text: `alpha row ${id}`, files: [], metadata: {}, idempotencyKey: null })));
    assert.equal(bound(b).get(shown).text, "Beta keeps its ledger in Postgres.", "beta's one id reaches beta's memory");
    assert.equal(bound(b).get(shown.slice(0, 10)).text, "Beta keeps its ledger in Postgres.", "and a start of it");
    assert.equal(bound(a).get(shown).text, `alpha row ${shown}`, "alpha's own row, for alpha");
  });

  test("import: a line's id that another project holds, or that could pass for a one id, is replaced; twice changes nothing; the other memory is untouched", () => {
    const theirs = all.put({ project: b, text: "Beta's deploy runs on Fridays.", kind: "learned" }).memory;
    const shown = idOf(theirs);
    const lines = [
      { text: "Alpha line with beta's stored id.", id: theirs.id },
      { text: "Alpha line with beta's one id.", id: shown },
      { text: "Alpha line with mem: and beta's one id.", id: `mem:${shown}` },
      { text: "Alpha line with an id of its own.", id: "toolu_alpha_1" },
    ].map((l) => JSON.stringify(l));
    const t = importLines(ctx, lines, { project: a });
    assert.deepEqual([t.imported, t.skipped.present], [4, 0], "none skipped as present: the memories were not in alpha");
    assert.deepEqual([importLines(ctx, lines, { project: a }).imported, importLines(ctx, lines, { project: a }).skipped.present], [0, 4], "idempotent");
    const alpha = all.list({ project: a, text: "Alpha line" }).memories;
    assert.equal(alpha.length, 4);
    assert.ok(alpha.every((m) => m.project === a));
    assert.equal(alpha.find((m) => m.text.includes("own"))!.id, "toolu_alpha_1", "an id no one else holds is kept");
    for (const m of alpha.filter((x) => !x.text.includes("own"))) assert.match(m.id, /^mem:[0-9a-f]{24}$/);
    assert.equal(memoryById(app.db, theirs.id)!.project, b);
    assert.equal(all.get(shown).text, "Beta's deploy runs on Fridays.", "beta's one id still reaches beta's memory, unbound too");
    assert.equal(bound(b).get(shown).text, "Beta's deploy runs on Fridays.");
  });

  test("which ids could pass for a one id", () => {
    const table: [string, boolean][] = [
      ["3f0c9a1b7d2e", true],
      ["mem:3f0c9a1b7d2e", true],
      ["MEM:3F0C9A1B7D2E", true],
      ["mem:0123456789abcdef01234567", false],
      ["toolu_01ABC", false],
      ["kw:3f0c9a1b", false],
      ["tag:abc", false],
    ];
    for (const [id, expected] of table) assert.equal(passesForOneId(id), expected, id);
  });
});
