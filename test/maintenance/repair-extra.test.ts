/**
 * A repair keeps what lives in the smaller tables when SQLite can read them: tasks (also those added
 * by hand, kept once, not rebuilt twice from the sessions' lists), an explicit memory's earlier
 * versions, salience, a forgotten memory's tombstone.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openApp } from "../../src/app.js";
import { resolveProject } from "../../src/project/identity.js";
import { forgetMemory } from "../../src/service/forget.js";
import { MemoryService } from "../../src/service/memory.js";
import { eventChunkId } from "../../src/store/chunk-ids.js";
import { reinforceChunks } from "../../src/store/salience.js";
import { checkpoint, damagePages, pagesByName } from "../helpers/damage.js";
import { cleanEnv, jsonOf, runMem } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-repair-extra-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("mem doctor --repair keeps the smaller tables", () => {
  test("tasks, history, salience and tombstones survive a repair of damaged chunk pages", async () => {
    const proj = join(tmp, "proj");
    mkdirSync(join(proj, ".git"), { recursive: true });
    writeFileSync(join(proj, "notes.md"), "# Notes\n\nThe nightly export runs at two.\n");
    const home = join(tmp, "home");
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp };
    assert.equal((await runMem(["index", proj, "-q"], { env })).code, 0);
    assert.equal((await runMem(["task", "add", "Rotate the export credentials", "--project", proj], { env })).code, 0);
    const app = openApp(env);
    const svc = new MemoryService({ db: app.db, config: app.config, projectRoot: app.projectRoot });
    const project = resolveProject(proj).id;
    const m = svc.put({ project, text: "The export runs at one.", kind: "learned" }).memory;
    svc.patch(m.id, { text: "The export runs at two." });
    const gone = svc.put({ project, text: "A memory to forget about the quokka cluster.", kind: "note" }).memory;
    forgetMemory(app.db, svc, gone.id, Date.now());
    // Used (reinforced) as a confirmation would: the salience row repair must keep.
    reinforceChunks(app.db, [eventChunkId(project, m.id)], Date.now());
    await app.close();

    const file = join(home, "mem.sqlite");
    checkpoint(file);
    damagePages(file, pagesByName(file).get("chunks")!);
    const r = await runMem(["doctor", "--repair", "--json"], { env });
    assert.equal(r.code, 0, r.stderr);
    const rep = jsonOf<{ changed: boolean; notes: string[] }>(r);
    assert.equal(rep.changed, true);
    assert.ok(rep.notes.some((n) => /^tasks: 1 of 1 rows kept$/.test(n)), rep.notes.join("\n"));

    const tasks = jsonOf<{ tasks: { content: string }[] }>(await runMem(["task", "list", "--json", "--project", proj], { env }));
    assert.deepEqual(tasks.tasks.map((t) => t.content), ["Rotate the export credentials"], "kept once");
    const after = openApp(env);
    const svc2 = new MemoryService({ db: after.db, config: after.config, projectRoot: after.projectRoot });
    assert.deepEqual(svc2.get(m.id, { history: true }).history?.map((h) => h.text), ["The export runs at one."]);
    assert.ok((svc2.get(m.id).uses ?? 0) >= 1, "its salience kept");
    assert.throws(() => svc2.get(gone.id), /forgotten/);
    await after.close();
  });
});
