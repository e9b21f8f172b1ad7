/**
 * A hook never makes a long migration (the text index made again: about 11 s at 100k chunks) on
 * the user's time: it leaves the store as it is, spools its capture, and the daemon or the next
 * command upgrades the store; the next capture then replays the spool. Real stores, the real hook.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import Database from "better-sqlite3";
import { spoolCheck } from "../../src/health/spool.js";
import { SPOOL_FILE } from "../../src/maintenance/flags.js";
import { REDACTION_VERSION } from "../../src/redact/redact.cjs";
import { isStoreUnavailable, MigrationDeferredError } from "../../src/store/damage.js";
import { openDb, SCHEMA_VERSION } from "../../src/store/db.js";
import { HEAVY_MIGRATIONS, MIGRATIONS } from "../../src/store/migrations.js";
import { hook } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-heavy-migration-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The last version before the newest heavy migration. */
const before = Math.max(...MIGRATIONS.map((m, i) => (HEAVY_MIGRATIONS.has(m) ? i : -1)));

/** A data home whose store was made by an older mem: every migration before the heavy one. */
function olderHome(name: string): string {
  const home = join(tmp, name);
  mkdirSync(home, { recursive: true });
  const raw = new Database(join(home, "mem.sqlite"));
  for (const m of MIGRATIONS.slice(0, before)) typeof m === "string" ? raw.exec(m) : m(raw);
  raw.pragma(`user_version = ${before}`);
  raw.prepare("INSERT INTO meta (key, value) VALUES ('redaction-version', ?)").run(String(REDACTION_VERSION));
  raw.close();
  return home;
}

const version = (home: string) => {
  const raw = new Database(join(home, "mem.sqlite"), { readonly: true });
  try {
    return raw.pragma("user_version", { simple: true }) as number;
  } finally {
    raw.close();
  }
};

const bash = (id: string, command: string) => ({
  session_id: "s-upgrade",
  cwd: tmp,
  hook_event_name: "PostToolUse",
  tool_name: "Bash",
  tool_use_id: id,
  tool_input: { command },
  tool_response: { stdout: "ok", stderr: "", interrupted: false },
});

describe("a long migration is never made by a hook", () => {
  test("the heavy migration is known and pending on an older store", () => {
    assert.ok(before > 0, "a heavy migration exists past the first");
    assert.ok(before < SCHEMA_VERSION);
  });

  test("openDb with deferHeavyMigrations leaves an older store untouched and says why", () => {
    const home = olderHome("direct");
    assert.throws(
      () => openDb(join(home, "mem.sqlite"), { deferHeavyMigrations: true }),
      (e: unknown) => e instanceof MigrationDeferredError && e.from === before && e.to === SCHEMA_VERSION && isStoreUnavailable(e),
    );
    assert.equal(version(home), before, "not migrated");
    const db = openDb(join(home, "mem.sqlite"));
    assert.equal(db.pragma("user_version", { simple: true }), SCHEMA_VERSION, "an ordinary open migrates");
    db.close();
    const again = openDb(join(home, "mem.sqlite"), { deferHeavyMigrations: true });
    again.close();
  });

  test("a capture hook spools on an older store; after the upgrade the next capture writes both", async () => {
    const home = olderHome("hook");
    const env = { MEM_HOME: home, MEM_EMBED_ORDER: "none", HOME: tmp };
    assert.deepEqual(await hook("post-tool-use", bash("t1", "make deploy-staging"), env), { code: 0, stdout: "" });
    assert.equal(version(home), before, "the hook did not migrate");
    assert.ok(existsSync(join(home, SPOOL_FILE)), "the capture waits in the spool");
    const waiting = spoolCheck(home);
    assert.equal(waiting?.status, "warn", "mem doctor says captures wait");
    assert.match(waiting!.detail, /^1 capture\(s\) wait in the spool/);

    openDb(join(home, "mem.sqlite")).close(); // what the daemon or the next mem command does
    assert.equal(version(home), SCHEMA_VERSION);

    assert.deepEqual(await hook("post-tool-use", bash("t2", "make test-integration"), env), { code: 0, stdout: "" });
    assert.ok(!existsSync(join(home, SPOOL_FILE)), "the spool was replayed");
    assert.equal(spoolCheck(home), undefined, "nothing waits: no spool line in mem doctor");
    const db = openDb(join(home, "mem.sqlite"));
    const commands = db.prepare("SELECT text FROM events ORDER BY time").pluck().all() as string[];
    db.close();
    assert.ok(commands.some((c) => c.includes("make deploy-staging")), "the spooled capture is in the store");
    assert.ok(commands.some((c) => c.includes("make test-integration")));
  });

  test("the prompt hook on an older store answers nothing, quickly, and leaves it as it is", async () => {
    const home = olderHome("prompt");
    const r = await hook("user-prompt-submit", { session_id: "s-p", cwd: tmp, hook_event_name: "UserPromptSubmit", prompt: "how do we deploy staging" }, { MEM_HOME: home, MEM_EMBED_ORDER: "none", HOME: tmp });
    assert.deepEqual(r, { code: 0, stdout: "" });
    assert.equal(version(home), before);
  });
});
