/**
 * A purged memory's vector leaves LanceDB's files, not only its table. LanceDB marks a deleted row
 * and rewrites its fragment only when a tenth of the fragment is deleted, so one memory forgotten
 * among many stayed in the data file; the purge now writes such fragments anew. A real store and
 * a real LanceDB table (a deterministic embedder), compacted into one fragment of 40 rows.
 */
import assert from "node:assert/strict";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { indexPaths } from "../../indexer/pipeline.js";
import { openApp } from "../../src/app.js";
import { resolveProject } from "../../src/project/identity.js";
import { forgetMemory, purge } from "../../src/service/forget.js";
import { MemoryService } from "../../src/service/memory.js";
import { eventChunkId } from "../../src/store/chunk-ids.js";
import { VecState } from "../../src/store/vec-state.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-purge-vectors-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return lstatSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test("one memory forgotten among 40 in one fragment: after the purge no LanceDB file holds its id; the other 39 stay", async () => {
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const app = openApp({ MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" });
  try {
    const project = resolveProject(proj);
    const svc = new MemoryService({ db: app.db, config: app.config, projectRoot: app.projectRoot });
    const ids = Array.from({ length: 40 }, (_, i) => svc.put({ project: project.id, text: `Decision ${i}: the service number ${i} keeps its own queue.`, kind: "decision" }).memory.id);
    mkdirSync(join(proj, "notes"), { recursive: true });
    const r = await indexPaths({ db: app.db, config: app.config, providers: [new HashEmbedder("hash-purge", 16)], vectors: app.vectors }, { roots: [join(proj, "notes")], project, full: false });
    assert.equal(r.vector.status, "ok");
    const table = new VecState(app.db).tables()[0]!.name;
    const store = await app.vectors();
    await store.optimize(table, new Date()); // one fragment, one version
    assert.equal(await store.count(table), 40);
    const lance = join(app.paths.lance, `${table}.lance`);
    const gone = eventChunkId(project.id, ids[7]!);
    const holding = (s: string) => filesUnder(lance).filter((f) => readFileSync(f).includes(s));
    assert.ok(holding(gone).length > 0, "the table's files hold the id before");

    forgetMemory(app.db, svc, ids[7]!, Date.now());
    const p = await purge(app.db, app.vectors);
    assert.equal(p.vectors, 1);
    assert.deepEqual(holding(gone), [], "no file of the table holds the forgotten chunk's id");
    assert.equal(await store.count(table), 39);
    assert.ok(holding(eventChunkId(project.id, ids[8]!)).length > 0, "the others are still there");
    assert.equal(await store.versions(table), 1, "old versions removed");
  } finally {
    await app.close();
  }
});
