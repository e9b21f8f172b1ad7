/**
 * Showing a result is not using it: `mem query`, the search service (MCP's search) and a delivered
 * injection leave salience as it was, so the same query gives the same answer tomorrow.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openApp } from "../../src/app.js";
import { recordDelivered } from "../../src/inject/for-prompt.js";
import { resolveProject } from "../../src/project/identity.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { searchMemories } from "../../src/service/search.js";
import { usesOf } from "../../src/store/salience.js";
import { cleanEnv, runMem } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-reads-only-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("reading reinforces nothing", () => {
  test("mem query, the search service and a delivered injection leave salience as it was", async () => {
    const proj = join(tmp, "proj");
    mkdirSync(proj, { recursive: true });
    writeFileSync(join(proj, "queue.md"), "# Job queue\n\nWe use advisory locks for the job queue.\n");
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" };
    assert.equal((await runMem(["index", proj, "-q"], { env })).code, 0);
    const ids = () => {
      const app = openApp(env);
      try {
        return (app.db.prepare("SELECT id FROM chunks").pluck().all() as string[]);
      } finally {
        void app.close();
      }
    };
    const all = ids();
    assert.ok(all.length > 0);
    const q = await runMem(["query", "advisory locks job queue", "--project", proj], { env });
    assert.equal(q.code, 0, q.stderr);
    assert.match(q.stdout, /queue\.md/);
    const app = openApp(env);
    try {
      assert.deepEqual([...usesOf(app.db, all).keys()], [], "mem query reinforced what it showed");
      const found = await searchMemories(app, { text: "advisory locks", project: resolveProject(proj), mode: "bm25" });
      assert.ok(found.results.length > 0);
      recordDelivered(app.db, cleanText("s1"), all, Date.now());
      assert.deepEqual([...usesOf(app.db, all).keys()], [], "search or injection reinforced what it showed");
    } finally {
      await app.close();
    }
  });
});
