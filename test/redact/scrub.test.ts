/**
 * What an older mem stored under older redaction rules (task lists kept raw, say) is redacted again:
 * by `mem index`, by the daemon, by `mem doctor --repair`; `mem doctor` says when it is due. The
 * old bytes are gone from the files too, not only from the rows (free pages, the WAL, FTS5).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { REDACTION_VERSION } from "../../src/redact/redact.cjs";
import { openDb } from "../../src/store/db.js";
import { needsScrub, scrubStore, scrubbedVersion } from "../../src/store/scrub.js";
import { runChild } from "../helpers/run-child.js";
import { rand } from "../helpers/secrets.js";

const BIN = join(fileURLToPath(new URL("../../../", import.meta.url)), "bin", "mem.cjs");
const tmp = mkdtempSync(join(tmpdir(), "mem-scrub-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A store as an older mem left it: rows written raw, with SQL, as the old task-state path did. */
function oldStore(home: string): { token: string; password: string } {
  const token = `ghp_${rand(36)}`;
  const password = rand(16);
  const db = openDb(join(home, "mem.sqlite"));
  db.prepare("DELETE FROM meta WHERE key = 'redaction-version'").run(); // as before this version recorded it
  const task = { tasks: { "1": { id: "1", content: `Rotate ${token}`, description: `mysql -uroot -p${password} shop`, status: "pending", source: "TaskTool", updatedAt: "2026-11-01T00:00:00Z" } }, todos: null, pending: {}, applied: {} };
  db.prepare("INSERT INTO sessions (session, project, task_state, updated_at) VALUES ('s1', '/p', ?, 1)").run(JSON.stringify(task));
  db.prepare("INSERT INTO events (id, project, session, type, time, files, text, metadata) VALUES ('e1', '/p', 's1', 'command_run', '2026-11-01T00:00:00Z', '[]', ?, ?)").run(`$ sshpass -p '${password}' ssh deploy@host`, JSON.stringify({ tool: "Bash", note: `token ${token}` }));
  db.prepare("INSERT INTO sources (project, path, kind, size, mtime_ms, content_hash, metadata, indexed_at) VALUES ('/p', '/p/n.md', 'markdown', 1, 1, 'h', ?, 1)").run(JSON.stringify({ owner: `see ${token}` }));
  db.prepare("INSERT INTO tasks (project, content, status, source, created_at, updated_at) VALUES ('/p', ?, 'pending', 'TaskTool', 1, 1)").run(`Rotate ${token}`);
  db.prepare("INSERT INTO chunks (id, source_id, project, path, kind, heading, start_line, end_line, text, seq) VALUES ('c1', 1, '/p', '/p/n.md', 'note', 'Deploy', 1, 2, ?, 0)").run(`Deploy with mysql -uroot -p${password} and ${token}`);
  // Its vector, made from the raw text.
  db.prepare("INSERT INTO vec_tables (name, provider, model, dims, created_at) VALUES ('v_t', 'ollama', 'm', 8, 1)").run();
  db.prepare("INSERT INTO vec_rows (table_name, chunk_id, project) VALUES ('v_t', 'c1', '/p')").run();
  db.close();
  return { token, password };
}

function bytesUnder(dir: string): Buffer[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? bytesUnder(join(dir, e.name)) : [readFileSync(join(dir, e.name))]));
}

describe("stored data is redacted again when the rules change", () => {
  test("a new store records the current rules: nothing in it needs redacting again", () => {
    const db = openDb(join(tmp, "fresh.sqlite"));
    db.prepare("INSERT INTO events (id, project, type, time, text) VALUES ('e', 'p', 'decision', '', 'x')").run();
    assert.equal(scrubbedVersion(db), REDACTION_VERSION);
    assert.ok(!needsScrub(db));
    db.close();
  });

  test("scrubStore rewrites task lists, events, metadata and chunks (FTS5 follows), records the version, and is idempotent", () => {
    const home = join(tmp, "unit");
    mkdirSync(home);
    const { token, password } = oldStore(home);
    const db = openDb(join(home, "mem.sqlite"));
    assert.equal(scrubbedVersion(db), 0);
    assert.ok(needsScrub(db));
    const r = scrubStore(db)!;
    assert.deepEqual(r.rewritten, { events: 1, sessions: 1, chunks: 1, sources: 1, runs: 0, tasks: 1, prompt_runs: 0 });
    assert.equal(scrubbedVersion(db), REDACTION_VERSION);
    assert.ok(!needsScrub(db));
    assert.equal(scrubStore(db), undefined, "nothing to do the second time");
    const all = JSON.stringify([db.prepare("SELECT * FROM sessions").all(), db.prepare("SELECT * FROM events").all(), db.prepare("SELECT * FROM chunks").all(), db.prepare("SELECT * FROM sources").all(), db.prepare("SELECT * FROM tasks").all()]);
    assert.ok(!all.includes(token) && !all.includes(password));
    assert.match(all, /Rotate \[REDACTED:github-token\]/);
    assert.match(all, /-p\[REDACTED:password\] shop/);
    assert.equal(db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?").pluck().get(`"${token}"`), 0, "the text index forgot the token");
    assert.equal(db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'deploy'").pluck().get(), 1);
    assert.deepEqual(db.prepare("SELECT table_name, chunk_id FROM vec_redo").all(), [{ table_name: "v_t", chunk_id: "c1" }], "the vector of the raw text is deleted and made again");
    assert.equal(db.prepare("SELECT count(*) FROM vec_rows").pluck().get(), 0);
    db.close();
    for (const b of bytesUnder(home)) assert.ok(!b.includes(token) && !b.includes(password), "no old bytes left in the files");
  });

  test("mem doctor warns; mem index redacts it again and says so; mem doctor is then content", async () => {
    const home = join(tmp, "cli");
    mkdirSync(home);
    const { token } = oldStore(home);
    const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, MEM_EMBED_ORDER: "none" };
    const notes = join(tmp, "notes");
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, "a.md"), "# A\n\nA note.\n");
    const before = await runChild(process.execPath, [BIN, "doctor", "--json"], { env, timeout: 30_000 });
    const check = (out: string) => (JSON.parse(out) as { checks: { name: string; status: string }[] }).checks.find((c) => c.name === "redaction");
    assert.equal(check(before.stdout)?.status, "warn");
    const index = await runChild(process.execPath, [BIN, "index", notes], { env, timeout: 30_000 });
    assert.equal(index.code, 0, index.stderr);
    assert.match(index.stderr, /redacted again what was stored under older rules: 5 row\(s\) changed/);
    const after = await runChild(process.execPath, [BIN, "doctor", "--json"], { env, timeout: 30_000 });
    assert.equal(check(after.stdout)?.status, "ok");
    for (const b of bytesUnder(home)) assert.ok(!b.includes(token));
  });
});
