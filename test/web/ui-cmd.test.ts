/**
 * `mem ui` as a command: one explorer per data home (a second prints the first one's address,
 * refuses --new-token), and a page that cannot be made says why (a store damaged under a running
 * explorer), never a bare "internal error".
 */
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { startUiChild, uiHome } from "../helpers/ui-child.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-ui-cmd-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("a second mem ui on the same data home prints the running one's address and starts nothing; --new-token is refused while it runs", async () => {
  const { env, proj } = await uiHome(tmp, "one", { "a.md": "# A\n\nWe chose advisory locks.\n" });
  const first = await startUiChild(env, proj);
  try {
    const again = await runMem(["ui", "--no-open", "--json", "--port", "0"], { env, cwd: proj, timeoutMs: 20_000 });
    assert.equal(again.code, 0, show(again));
    const j = jsonOf<{ url: string; port: number; pid: number; running: boolean }>(again);
    assert.deepEqual([j.port, j.pid, j.running], [first.port, first.pid, true]);
    assert.equal(j.url, first.url);
    assert.equal((await fetch(`${j.url}search?q=advisory`)).status, 200);
    const rotate = await runMem(["ui", "--no-open", "--new-token"], { env, cwd: proj, timeoutMs: 20_000 });
    assert.equal(rotate.code, 1, show(rotate));
    assert.match(rotate.stderr, /runs already .* before --new-token/);
    assert.equal((await fetch(`${first.url}search?q=advisory`)).status, 200, "the running explorer's token still works");
  } finally {
    await first.stop();
  }
});

test("a store damaged under a running explorer: the page says what failed and points to mem doctor", async () => {
  const { env, proj, home } = await uiHome(tmp, "two", { "a.md": "# A\n\nWe chose advisory locks.\n" });
  const ui = await startUiChild(env, proj);
  try {
    assert.equal((await fetch(`${ui.url}prompts`)).status, 200);
    const db = new Database(join(home, "mem.sqlite"));
    db.exec("DROP TABLE prompt_runs");
    db.close();
    const r = await fetch(`${ui.url}prompts`);
    assert.equal(r.status, 500);
    const body = await r.text();
    assert.match(body, /this page could not be made: .*prompt_runs/);
    assert.match(body, /`mem doctor` checks the store/);
    assert.equal((await fetch(`${ui.url}search?q=advisory`)).status, 200, "the other pages still answer");
  } finally {
    await ui.stop();
  }
});
