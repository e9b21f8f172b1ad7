/**
 * A session's injected set follows its context window: a prompt never gets a memory the session
 * was already shown, until a compaction (or /clear) takes it out of the context; then it may come
 * again. Other sessions keep theirs.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { cleanEnv, runMem } from "../helpers/mem-cli.js";
import { hook } from "./helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-reset-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("after a compaction or /clear the session may be shown again what it was shown before; other sessions are unaffected", async () => {
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, "memory"));
  writeFileSync(join(proj, "memory", "storage.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server and FTS5 gives BM25.\n");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" };
  assert.equal((await runMem(["index", join(proj, "memory"), "-q"], { env })).code, 0);
  const prompt = async (session: string) => (await hook("user-prompt-submit", { session_id: session, cwd: proj, hook_event_name: "UserPromptSubmit", prompt: "why did we choose SQLite over Postgres" }, env)).stdout;
  const start = async (session: string, source: string) => assert.equal((await hook("session-start", { session_id: session, cwd: proj, hook_event_name: "SessionStart", source }, env)).code, 0);

  assert.match(await prompt("s1"), /We chose SQLite over Postgres/);
  assert.match(await prompt("s2"), /We chose SQLite over Postgres/);
  assert.equal(await prompt("s1"), "", "not twice in one context window");
  await start("s1", "resume");
  assert.equal(await prompt("s1"), "", "a resume keeps the context: still not again");
  await start("s1", "compact");
  assert.match(await prompt("s1"), /We chose SQLite over Postgres/, "after the compaction it may come again");
  assert.equal(await prompt("s1"), "", "and then not twice in the new window");
  assert.equal(await prompt("s2"), "", "the other session keeps its set");
  await start("s2", "clear");
  assert.match(await prompt("s2"), /We chose SQLite over Postgres/, "after /clear too");
});
