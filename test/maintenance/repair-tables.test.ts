/**
 * A repair salvages the tasks, their session ids, salience and anchors when their tables cannot be
 * read, as it does events: a damaged interior page makes SQLite refuse the whole table, yet every
 * row is still on its leaf pages; a damaged leaf page loses only its own rows.
 */
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openApp } from "../../src/app.js";
import { captureToolPayload } from "../../src/capture/record.js";
import { resolveProject } from "../../src/project/identity.js";
import { clean } from "../../src/redact/clean.cjs";
import { recordAnchors } from "../../src/store/anchors.js";
import { reinforceChunks } from "../../src/store/salience.js";
import { blockTask } from "../../src/store/task-block.js";
import { TaskStore } from "../../src/store/tasks.js";
import { checkpoint, damagePages } from "../helpers/damage.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { todoWrite } from "../helpers/task-payloads.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-repair-tables-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const TABLES = { tasks: "id", task_refs: "session, local_id", salience: "chunk_id", anchors: "memory, path" } as const;
type Table = keyof typeof TABLES;

function rowsOf(file: string): Record<Table, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(Object.entries(TABLES).map(([t, key]) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY ${key}`).all()])) as Record<Table, unknown[]>;
  } finally {
    db.close();
  }
}

/** The pages of a b-tree of the given type ('internal' or 'leaf') and the entries each holds, from SQLite's dbstat. */
function pagesOf(file: string, name: string, type: "internal" | "leaf"): { page: number; cells: number }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT pageno AS page, ncell AS cells FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno").all(name, type) as { page: number; cells: number }[];
  } finally {
    db.close();
  }
}

async function filledStore(name: string) {
  const proj = join(tmp, name, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, "notes"));
  for (let i = 0; i < 150; i++) writeFileSync(join(proj, "notes", `n${i}.md`), `# Note ${i}\n\nThe service number ${i} restarts nightly at ${i % 24}:00 after the backup.\n`);
  const home = join(tmp, name, "home");
  const env = { ...cleanEnv(join(tmp, name, "claude")), MEM_HOME: home, HOME: tmp };
  const idx = await runMem(["index", proj, "-q"], { env });
  assert.equal(idx.code, 0, show(idx));
  const app = openApp(env);
  const project = resolveProject(proj).id;
  const now = Date.now();
  // 200 tasks from a session's list (with their session ids), 50 by hand, one blocked.
  captureToolPayload(app.db, project, { ...todoWrite("sess-repair", Array.from({ length: 200 }, (_, i) => ({ content: `Migrate shard ${i} of the billing ledger to the new cluster`, status: i % 3 === 0 ? "in_progress" : "pending" }))), cwd: proj }, now);
  const store = new TaskStore(app.db);
  for (let i = 0; i < 50; i++) store.add(project, clean(`Review the runbook page ${i} for the on-call rotation`), now + i);
  const first = store.open(project).at(-1)!;
  blockTask(app.db, first.id, clean("waiting for the DBA's maintenance window"), now + 100);
  // Salience of every chunk (as a real use would reinforce it), anchors of 200 memories.
  reinforceChunks(app.db, app.db.prepare("SELECT id FROM chunks").pluck().all() as string[], now);
  recordAnchors(app.db, clean(Array.from({ length: 200 }, (_, i) => ({ memory: `kw:${"0".repeat(8)}${i}`, path: join(proj, "src", `module${i}.ts`), blob: i % 5 === 0 ? null : (i * 7919).toString(16).padStart(40, "a"), branch: i % 2 ? "main" : null, at: now + i }))));
  await app.close();
  const file = join(home, "mem.sqlite");
  checkpoint(file);
  return { env, file, proj };
}

describe("mem doctor --repair salvages tasks, their refs, salience and anchors", () => {
  test("the task table's interior pages and a leaf of each other table damaged: every row on a readable page comes back, as it was", async () => {
    const { env, file, proj } = await filledStore("interior");
    const before = rowsOf(file);
    assert.ok(before.tasks.length === 250 && before.task_refs.length === 200 && before.salience.length >= 150 && before.anchors.length === 200);
    // The task table's interior pages hold only keys: every task is still on a leaf.
    const interior = pagesOf(file, "tasks", "internal");
    assert.ok(interior.length > 0, "tasks spans more than one page");
    // task_refs, salience and anchors are index b-trees: each entry lives on one page, leaf or interior; one leaf of each is lost.
    const leaves = (["task_refs", "salience", "anchors"] as const).map((t) => {
      const l = pagesOf(file, t, "leaf");
      assert.ok(l.length >= 2, `${t} spans more than one page`);
      return [t, l[0]!] as const;
    });
    damagePages(file, [...interior.map((p) => p.page), ...leaves.map(([, l]) => l.page)]);
    assert.throws(() => rowsOf(file), "SQLite can no longer read them");
    const r = await runMem(["doctor", "--repair", "--json"], { env });
    assert.equal(r.code, 0, show(r));
    const rep = jsonOf<{ changed: boolean; notes: string[] }>(r);
    assert.equal(rep.changed, true);
    const now = rowsOf(file);
    assert.deepEqual(now.tasks, before.tasks, "every task as it was");
    for (const [t, leaf] of leaves) {
      assert.equal(now[t].length, before[t].length - leaf.cells, `${t}: all but the damaged leaf's ${leaf.cells}`);
      const was = new Set(before[t].map((x) => JSON.stringify(x)));
      for (const x of now[t]) assert.ok(was.has(JSON.stringify(x)), `${t}: ${JSON.stringify(x)} is a row as it was`);
      assert.ok(rep.notes.some((x) => new RegExp(`^${t}: unreadable \\(.*\\); ${now[t].length} row\\(s\\) salvaged from its readable pages$`).test(x)), `${t}\n${rep.notes.join("\n")}`);
    }
    const listed = jsonOf<{ tasks: { status: string; blockedReason: string | null }[] }>(await runMem(["task", "list", "--json", "--project", proj], { env }));
    assert.equal(listed.tasks.length, 250);
    assert.deepEqual(listed.tasks.filter((t) => t.status === "blocked").map((t) => t.blockedReason), ["waiting for the DBA's maintenance window"]);
  });

  test("a leaf page of the task table damaged: the other leaves' tasks come back, and the report says how many", async () => {
    const { env, file } = await filledStore("leaf");
    const before = rowsOf(file).tasks as { id: number }[];
    const leaves = pagesOf(file, "tasks", "leaf");
    assert.ok(leaves.length >= 3);
    damagePages(file, [leaves[1]!.page]);
    const r = await runMem(["doctor", "--repair", "--json"], { env });
    assert.equal(r.code, 0, show(r));
    const after = rowsOf(file).tasks as { id: number }[];
    assert.ok(after.length > 0 && after.length < before.length, `${after.length} of ${before.length}`);
    const kept = new Map(before.map((t) => [t.id, t]));
    for (const t of after) assert.deepEqual(t, kept.get(t.id), "a salvaged task is the task as it was");
    const note = jsonOf<{ notes: string[] }>(r).notes.find((n) => n.startsWith("tasks: unreadable"));
    assert.match(note ?? "", new RegExp(`; ${after.length} row\\(s\\) salvaged`));
  });
});
