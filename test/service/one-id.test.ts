/**
 * The one id through the memory service, on a real store: every form of an id reaches the same
 * memory, an ambiguous start is refused with the candidates listed by their one id, a missing or
 * forgotten one says so, and a memory of another project is answered exactly as a missing id.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { indexPaths } from "../../indexer/pipeline.js";
import { openApp } from "../../src/app.js";
import { resolveProject } from "../../src/project/identity.js";
import { idOf } from "../../src/service/convert.js";
import { forgetMemory } from "../../src/service/forget.js";
import { importLines } from "../../src/service/import.js";
import { MemoryService } from "../../src/service/memory.js";
import { MemoryError } from "../../src/util/memory-error.js";
import { eventChunkId } from "../../src/store/chunk-ids.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-one-id-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const failure = (f: () => unknown): { code: string; message: string } => {
  try {
    f();
  } catch (e) {
    if (e instanceof MemoryError) return { code: e.code, message: e.message };
    throw e;
  }
  return { code: "no error", message: "" };
};

/** Two tool ids of `project` whose chunk ids share their first `n` characters (found by trying). */
function twinsSharing(project: string, n: number): [string, string] {
  const seen = new Map<string, string>();
  for (let i = 0; ; i++) {
    const id = `toolu_twin_${i}`;
    const start = eventChunkId(project, id).slice(0, n);
    const other = seen.get(start);
    if (other !== undefined) return [other, id];
    seen.set(start, id);
  }
}

describe("the one id, resolved by the memory service", () => {
  const proj = join(tmp, "proj");
  const other = join(tmp, "other");
  for (const p of [proj, other]) mkdirSync(join(p, ".git"), { recursive: true });
  mkdirSync(join(proj, "notes"));
  writeFileSync(join(proj, "notes", "db.md"), "# Database\n\nWe keep WAL mode so hooks can write while the indexer reads.\n");
  const app = openApp({ MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" });
  after(() => app.close());
  const project = resolveProject(proj).id;
  const otherProject = resolveProject(other).id;
  const ctx = { db: app.db, config: app.config, projectRoot: app.projectRoot };
  const svc = new MemoryService(ctx);
  const m = svc.put({ project, text: "Feature flags live in the flags table.", kind: "decision" }).memory;
  const theId = idOf(m);
  const chunk = eventChunkId(project, m.id);

  test("every form of an id reaches the same memory", () => {
    assert.match(theId, /^[0-9a-f]{12}$/);
    assert.equal(theId, chunk.slice(0, 12), "the start of its chunk's id");
    const forms: [string, string][] = [
      ["the one id", theId],
      ["with mem: before it", `mem:${theId}`],
      ["in capitals", theId.toUpperCase()],
      ["with spaces around", ` ${theId} `],
      ["a start of it (6 characters)", theId.slice(0, 6)],
      ["the 8-character short id earlier prompts showed", chunk.slice(0, 8)],
      ["the whole chunk id", chunk],
      ["the stored id", m.id],
      ["the stored id without mem:", m.id.slice(4)],
      ["a start of the stored id without mem:", m.id.slice(4, 12)],
    ];
    for (const [what, form] of forms) assert.equal(idOf(svc.get(form)), theId, what);
  });

  test("a markdown chunk and a captured memory have one too", async () => {
    await indexPaths({ db: app.db, config: app.config, providers: [], vectors: app.vectors }, { roots: [join(proj, "notes")], project: resolveProject(proj), full: false });
    const note = svc.list({ project, sources: ["markdown"] }).memories[0]!;
    assert.equal(idOf(note), note.id.slice(0, 12));
    assert.equal(svc.get(idOf(note)).source, "markdown");
    assert.equal(svc.get(`mem:${idOf(note)}`).source, "markdown", "mem: before any one id");
    importLines(ctx, ['{"id": "toolu_solo_1", "kind": "command_run", "text": "npm test"}'], { project });
    const tool = svc.get("toolu_solo_1");
    assert.equal(idOf(tool), eventChunkId(project, "toolu_solo_1").slice(0, 12));
    assert.equal(svc.get(idOf(tool)).id, "toolu_solo_1");
  });

  test("an ambiguous start lists the candidates by their one id; more of it picks one", () => {
    const [a, b] = twinsSharing(project, 7);
    importLines(ctx, [JSON.stringify({ id: a, kind: "learned", text: "One twin." }), JSON.stringify({ id: b, kind: "learned", text: "Other twin." })], { project });
    const shared = eventChunkId(project, a).slice(0, 7);
    const f = failure(() => svc.get(shared));
    assert.equal(f.code, "bad_argument");
    const ids = [a, b].map((id) => idOf({ id, project, source: "captured" }));
    assert.match(f.message, new RegExp(`^id "${shared}" is ambiguous: it starts 2 memories' ids: (${ids[0]}, ${ids[1]}|${ids[1]}, ${ids[0]}); give more of it$`));
    assert.equal(svc.get(ids[1]!).text, "Other twin.", "the one id of each, as listed, reaches it");
    assert.equal(failure(() => svc.patch(shared, { tags: ["x"] })).code, "bad_argument", "nor changed by an ambiguous start");
  });

  test("a missing id, a too short one, a forgotten one: clear errors", () => {
    assert.deepEqual(failure(() => svc.get("000000000000")), { code: "not_found", message: "no memory 000000000000" });
    assert.deepEqual(failure(() => svc.get(theId.slice(0, 5))), { code: "bad_argument", message: `id "${theId.slice(0, 5)}" is too short: give at least 6 characters of the id` }, "5 characters stand for nothing, and it says so");
    assert.equal(failure(() => svc.get("mem:")).code, "bad_argument");
    assert.equal(failure(() => svc.get("3f0c\u001b[2J")).code, "bad_argument");
    const gone = svc.put({ project, text: "A memory to forget by its one id.", kind: "note" }).memory;
    assert.deepEqual(forgetMemory(app.db, svc, idOf(gone), Date.now()), { id: idOf(gone) });
    assert.deepEqual(failure(() => svc.get(idOf(gone))), { code: "not_found", message: `memory ${idOf(gone)} was forgotten` }, "its chunk is gone, its id is still known as forgotten");
  });

  test("another project's memory is answered exactly as a missing id, by every form of its id", () => {
    const theirs = svc.put({ project: otherProject, text: "Another project's secret plan.", kind: "decision" }).memory;
    const bound = new MemoryService({ ...ctx, scope: { read: [project], write: [project] } });
    for (const form of [idOf(theirs), `mem:${idOf(theirs)}`, idOf(theirs).slice(0, 6), theirs.id, theirs.id.slice(4), eventChunkId(otherProject, theirs.id)]) {
      assert.deepEqual(failure(() => bound.get(form)), { code: "not_found", message: `no memory ${form}` }, form);
      assert.deepEqual(failure(() => forgetMemory(app.db, bound, form, Date.now())), { code: "not_found", message: `no memory ${form}` }, form);
    }
    forgetMemory(app.db, svc, idOf(theirs), Date.now());
    assert.deepEqual(failure(() => bound.get(idOf(theirs))), { code: "not_found", message: `no memory ${idOf(theirs)}` }, "forgotten there: still unknown here");
  });
});
