/**
 * `mem doctor --repair` end to end: index notes and capture events, damage the SQLite file (a
 * table's pages, or the schema page) or a LanceDB data file, repair, and find it all again.
 * Spawned CLI and hook processes, a fake Ollama for the vectors.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { VectorStore } from "../../src/store/vectors.js";
import { checkpoint, damagePages, lanceDataFile, overwrite, pagesByName } from "../helpers/damage.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { BIN, cleanEnv, jsonOf, runMem, show, type Check } from "../helpers/mem-cli.js";
import { ask } from "../../src/daemon/client.cjs";
import { spawn } from "node:child_process";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-repair-")));
let ollama: FakeOllama;
before(async () => (ollama = await startFakeOllama({ dims: 64 })));
after(async () => {
  await ollama?.close();
  rmSync(tmp, { recursive: true, force: true });
});
const TABLE = "v_ollama_nomic_embed_text_64_p03aa22a9";

interface Report {
  ok: boolean;
  changed: boolean;
  daemon: string;
  backup?: string;
  sqlite: { status: string; reason?: string };
  vectorTables: { name: string; status: string }[];
  recovered: { events: number; sessions: number; markdownFiles: number; chunks: number; vectors: number };
  lost: { events: number | null; filesMissing: number };
  vectors: { status: string; detail: string };
}

/** A project whose memory folder is indexed as its own root (tiers depend on it), three captured tool calls, one note deleted afterwards. */
async function setUp(tag: string) {
  const home = join(tmp, `home-${tag}`);
  const proj = join(tmp, `proj-${tag}`);
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: ollama.url };
  const mem = join(proj, "memory");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(mem, "archive"), { recursive: true });
  mkdirSync(join(mem, "sessions"), { recursive: true });
  writeFileSync(join(mem, "state.md"), "# State\n\nThe payroll importer is being rewritten in Rust.\n");
  writeFileSync(join(mem, "archive", "2023.md"), "# 2023\n\nWe used a cron box named walrus for nightly payroll jobs.\n");
  writeFileSync(join(mem, "sessions", "s1.md"), "# Session\n\nPaired on the flamingo migration script.\n");
  writeFileSync(join(mem, "doomed.md"), "# Doomed\n\nThis note about the pelican cache disappears before the repair.\n");
  const idx = await runMem(["index", mem, "--json"], { env });
  assert.equal(idx.code, 0, show(idx));
  for (const [i, cmd] of ["cargo build --release -p importer-octopus", "pnpm test --filter narwhal", "make deploy-quokka"].entries()) {
    const r = await spawnHook("post-tool-use", JSON.stringify({ session_id: `sess-${tag}`, cwd: proj, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: `toolu_${tag}_${i}`, tool_input: { command: cmd }, tool_response: { stdout: "ok", stderr: "" } }), env);
    assert.equal(r.code, 0);
  }
  // Make the captured events chunks and vectors, as the daemon or the next index run would.
  assert.equal((await runMem(["index", mem], { env })).code, 0);
  rmSync(join(mem, "doomed.md"));
  checkpoint(join(home, "mem.sqlite"));
  return { home, proj, env };
}

async function query(env: NodeJS.ProcessEnv, proj: string, text: string, ...more: string[]) {
  const r = await runMem(["query", text, "--json", "--project", proj, ...more], { env, cwd: proj });
  assert.equal(r.code, 0, show(r));
  return jsonOf<{ legs: string[]; results: { text: string; path: string; tier: string }[]; cold?: { results: { text: string; path: string; tier: string }[] } }>(r);
}

async function repairAndCheck(home: string, proj: string, env: NodeJS.ProcessEnv): Promise<Report> {
  const r = await runMem(["doctor", "--repair", "--json"], { env });
  assert.equal(r.code, 0, show(r));
  const rep = jsonOf<Report>(r);
  assert.equal(rep.ok, true);
  assert.equal(rep.changed, true);
  assert.ok(rep.backup && existsSync(join(rep.backup, "mem.sqlite")), "the damaged file is kept in the backup");
  assert.equal(rep.recovered.events, 3, show(r));
  assert.equal(rep.recovered.sessions, 1, show(r));
  assert.equal(rep.recovered.markdownFiles, 3, show(r));
  assert.equal(rep.lost.filesMissing, 1, show(r));
  assert.equal(rep.recovered.chunks, 6, show(r)); // 3 notes + 3 events
  assert.equal(rep.recovered.vectors, 6, show(r));
  assert.equal(rep.vectors.status, "ok");

  const doctor = await runMem(["doctor", "--json"], { env });
  assert.equal(doctor.code, 0, show(doctor));
  const notes = await query(env, proj, "payroll importer Rust");
  assert.deepEqual(notes.legs, ["bm25", "vector"]);
  assert.equal(notes.results[0]?.path, join(proj, "memory", "state.md"));
  assert.equal(notes.results[0]?.tier, "hot", "tiers come from the recorded root");
  assert.equal((await query(env, proj, "walrus cron", "--cold")).cold?.results[0]?.tier, "cold", "the archived note is in the cold tier");
  assert.ok((await query(env, proj, "narwhal")).results.some((x) => x.text.includes("pnpm test --filter narwhal")), "a salvaged event is found");

  const again = await runMem(["doctor", "--repair", "--json"], { env });
  assert.equal(again.code, 0, show(again));
  assert.equal(jsonOf<Report>(again).changed, false, "a healthy store is left alone");
  assert.match((await runMem(["doctor", "--repair"], { env })).stdout, /nothing to repair/i);
  assert.equal(readdirSync(home).filter((n) => n.startsWith("backup-")).length, 1, "no second backup");
  return rep;
}

describe("mem doctor --repair", () => {
  test("garbage over the chunk and text-index pages: events, sessions and roots salvaged, notes re-indexed, vectors rebuilt", async () => {
    const { home, proj, env } = await setUp("pages");
    const file = join(home, "mem.sqlite");
    const pages = pagesByName(file);
    damagePages(file, [...pages.get("chunks")!, ...pages.get("chunks_fts_data")!, ...pages.get("sqlite_autoindex_chunks_1")!]);
    const rep = await repairAndCheck(home, proj, env);
    assert.equal(rep.sqlite.status, "damaged");
  });

  test("garbage over the schema page (SQLite cannot even open it): the pages are read directly and the same is recovered", async () => {
    const { home, proj, env } = await setUp("schema");
    damagePages(join(home, "mem.sqlite"), [1]);
    const rep = await repairAndCheck(home, proj, env);
    assert.match(rep.sqlite.reason ?? "", /malformed|not a SQLite/);
  });

  test("one damaged page of a large events table: the rest is salvaged, the loss is counted", async () => {
    const { home, proj, env } = await setUp("events");
    const file = join(home, "mem.sqlite");
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(file);
    const ins = db.prepare("INSERT INTO events (id, project, session, type, time, files, text, metadata) VALUES (?, ?, 'bulk', 'learned', ?, '[]', ?, '{}')");
    db.transaction(() => {
      for (let i = 0; i < 400; i++) ins.run(`bulk-${i}`, proj, new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(), `Bulk lesson number ${i}: ${"padding ".repeat(20)}`);
    })();
    db.close();
    checkpoint(file);
    const leaves = pagesByName(file).get("events")!;
    assert.ok(leaves.length > 5);
    damagePages(file, [leaves[Math.floor(leaves.length / 2)]!]);
    const r = await runMem(["doctor", "--repair", "--json"], { env });
    assert.equal(r.code, 0, show(r));
    const rep = jsonOf<Report>(r);
    assert.ok(rep.recovered.events >= 350 && rep.recovered.events < 403, show(r));
    assert.equal(rep.lost.events, 403 - rep.recovered.events, show(r));
    assert.equal((await runMem(["doctor", "--json"], { env })).code, 0);
  });

  test("a LanceDB table with garbage in a data file: the running daemon is stopped first, the table moved into the backup and rebuilt", async () => {
    const { home, proj, env } = await setUp("lance");
    const daemon = spawn(process.execPath, [BIN, "serve", "-q"], { env, stdio: "ignore", detached: true });
    daemon.unref();
    after(() => void ask(home, { op: "stop" }, 2_000));
    for (let i = 0; i < 100 && (await ask(home, { op: "ping" }, 500)).kind !== "reply"; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal((await ask(home, { op: "ping" }, 30_000)).kind, "reply", "the daemon is up");
    const store = await VectorStore.open(join(home, "vectors"));
    const [first] = (await (await store.table(TABLE)).query().limit(1).toArray()) as { vector: { toArray(): Float32Array } }[];
    store.close();
    const vec = Float32Array.from(first!.vector.toArray());
    const file = lanceDataFile(join(home, "vectors", `${TABLE}.lance`));
    const at = readFileSync(file).indexOf(Buffer.from(vec.buffer, vec.byteOffset, vec.byteLength));
    assert.ok(at > 0);
    overwrite(file, at + 64, 128);
    const doc = await runMem(["doctor", "--json"], { env });
    assert.equal(doc.code, 1, show(doc));
    assert.equal(jsonOf<{ checks: Check[] }>(doc).checks.find((c) => c.name === `lancedb ${TABLE}`)?.status, "error");
    const r = await runMem(["doctor", "--repair", "--json"], { env });
    assert.equal(r.code, 0, show(r));
    const rep = jsonOf<Report>(r);
    assert.equal(rep.daemon, "stopped");
    assert.equal((await ask(home, { op: "ping" }, 500)).kind, "absent", "no daemon holds the store any more");
    assert.equal(rep.sqlite.status, "ok");
    assert.deepEqual(rep.vectorTables.map((t) => [t.name, t.status]), [[TABLE, "damaged"]]);
    assert.ok(existsSync(join(rep.backup!, "vectors", `${TABLE}.lance`)), "the damaged table is in the backup");
    // SQLite was fine: its 7 chunks (doomed.md's too, until the next index run notices it is gone) are embedded again.
    assert.equal(rep.recovered.chunks, 7, show(r));
    assert.equal(rep.recovered.vectors, 7, show(r));
    assert.match(rep.vectors.detail, /^7 vector\(s\) embedded again/);
    assert.equal((await runMem(["doctor", "--json"], { env })).code, 0);
    assert.deepEqual((await query(env, proj, "flamingo migration")).legs, ["bm25", "vector"]);
  });
});
