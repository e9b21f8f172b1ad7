/**
 * "Forget" means gone from disk. A real data home (CLI processes, hooks, an Ollama-speaking
 * embedder, LanceDB, the snapshots `mem index` and `mem reindex` take) holds a unique marker in a
 * memory, its chunk, its vector, the prompt log and every snapshot; after `mem forget ID` and
 * `mem forget --purge --yes`, and after `mem forget --project --yes`, every byte of the data home
 * is scanned: no marker, and no id of a forgotten chunk in LanceDB's files.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-purge-disk-")));
let fake: FakeOllama;
before(async () => {
  fake = await startFakeOllama({ models: ["nomic-embed-text:latest"], dims: 32 });
});
after(async () => {
  await fake.close();
  rmSync(tmp, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Every file of `dir` holding `needle` (as UTF-8 bytes), by path below `dir`. */
const holding = (dir: string, needle: string) => filesUnder(dir).filter((f) => readFileSync(f).includes(Buffer.from(needle))).map((f) => f.slice(dir.length + 1)).sort();

/** A world: a project with a note, a data home, the CLI and hooks against both. */
function world(name: string) {
  const home = join(tmp, name, "home");
  const project = join(tmp, name, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, "notes"), { recursive: true });
  const env = { ...cleanEnv(join(tmp, name, "claude")), HOME: join(tmp, name), MEM_HOME: home, MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: fake.url };
  const mem = async (...args: string[]) => {
    const r = await runMem(args, { env, cwd: project });
    assert.equal(r.code, 0, `mem ${args.join(" ")}\n${show(r)}`);
    return r;
  };
  const prompt = (session: string, text: string) =>
    spawnHook("user-prompt-submit", JSON.stringify({ session_id: session, cwd: project, hook_event_name: "UserPromptSubmit", prompt: text, transcript_path: join(tmp, "none.jsonl") }), env);
  const sql = <T>(q: string, ...args: unknown[]) => {
    const db = new Database(join(home, "mem.sqlite"), { readonly: true });
    try {
      return db.prepare(q).all(...args) as T[];
    } finally {
      db.close();
    }
  };
  return { home, project, env, mem, prompt, sql };
}

const marker = () => `zqx${randomBytes(8).toString("hex")}vk`;

describe("a purge leaves no forgotten text on disk", () => {
  test("mem forget ID, then mem forget --purge --yes: the store, its WAL, every snapshot, LanceDB and the prompt log", { timeout: 240_000 }, async () => {
    const w = world("one");
    const MARK = marker();
    writeFileSync(join(w.project, "notes", "build.md"), "# Build\n\nThe build uses esbuild for the hook bundle and tsc for the rest.\n");
    // Captured from a session: the memory, and the session's summary listing the decision.
    const transcript = join(tmp, "one", "t.jsonl");
    const said = `[MEMORY: decision] We chose the frobnicator ${MARK} for the staging credential rotation.`;
    writeFileSync(transcript, `${JSON.stringify({ type: "assistant", sessionId: "s0", timestamp: "2026-11-20T10:00:00Z", message: { role: "assistant", content: [{ type: "text", text: said }] } })}\n`);
    const stop = await spawnHook("stop", JSON.stringify({ session_id: "s0", cwd: w.project, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false }), w.env);
    assert.equal(stop.code, 0);
    const id = jsonOf<{ memories: { id: string; text: string }[] }>(await w.mem("list", "--json")).memories.find((m) => m.text.includes(MARK))?.id;
    assert.ok(id, "the decision was captured");
    assert.equal(w.sql<{ n: number }>("SELECT count(*) AS n FROM sessions WHERE summary LIKE ?", `%${MARK}%`)[0]!.n, 1, "the session's summary lists it");
    await w.mem("remember", "The staging credential rotation runs every Monday morning.");
    await w.mem("index", "notes", "-q"); // chunks, vectors, and the store's first snapshot
    const shown = await w.prompt("s1", "which frobnicator did we choose for the staging credential rotation");
    assert.match(shown.stdout, new RegExp(MARK), "the memory was put before the prompt");
    await w.prompt("s2", `Is "We chose the frobnicator ${MARK} for the staging credential rotation." still true?`); // a prompt quoting it
    await w.mem("reindex", "-q"); // a reindex snapshot
    const chunk = w.sql<{ id: string }>("SELECT id FROM chunks WHERE text LIKE ?", `%${MARK}%`)[0]?.id;
    assert.ok(chunk, "the memory is a chunk");
    assert.equal(w.sql<{ n: number }>("SELECT count(*) AS n FROM prompt_runs WHERE injected LIKE ?", `%${MARK}%`)[0]!.n, 2, "the prompt log holds what was shown");
    assert.equal(w.sql<{ n: number }>("SELECT count(*) AS n FROM prompt_runs WHERE prompt LIKE ?", `%${MARK}%`)[0]!.n, 1, "and the prompt that quoted it");
    const snaps = readdirSync(join(w.home, "snapshots")).filter((n) => n.endsWith(".sqlite"));
    assert.ok(snaps.some((n) => n.endsWith("-auto.sqlite")) && snaps.some((n) => n.endsWith("-reindex.sqlite")), snaps.join(", "));
    const before = holding(w.home, MARK);
    for (const s of snaps) assert.ok(before.includes(`snapshots/${s}`), `${s} holds the marker before the purge (${before.join(", ")})`);
    assert.ok(holding(join(w.home, "vectors"), chunk).length > 0, "LanceDB holds the chunk's id before the purge");

    await w.mem("forget", id);
    const purged = jsonOf<{ purged: { memories: number; copies: { file: string; action: string; why?: string }[] } }>(await w.mem("forget", "--purge", "--yes", "--json")).purged;
    assert.deepEqual(holding(w.home, MARK), [], "no file of the data home holds the marker");
    assert.deepEqual(holding(join(w.home, "vectors"), chunk), [], "no LanceDB file holds the forgotten chunk's id");
    assert.equal(purged.memories, 1);
    for (const s of snaps) assert.ok(purged.copies.some((c) => c.file === `snapshots/${s}` && c.action === "scrubbed"), `${s} scrubbed: ${JSON.stringify(purged.copies)}`);
    // Scrubbed, not emptied: the snapshots still hold the memory that was not forgotten.
    for (const s of snaps) assert.ok(readFileSync(join(w.home, "snapshots", s)).includes("every Monday morning"), `${s} keeps the rest`);
    const text = await w.mem("forget", "--purge", "--yes");
    assert.match(text.stdout, /purged 0 forgotten memories/);
  });

  test("mem forget --project --yes: the project's memories, notes, vectors and prompt log leave every file", { timeout: 240_000 }, async () => {
    const w = world("project");
    const MARK = marker();
    writeFileSync(join(w.project, "notes", "vault.md"), `# Vault\n\nThe vault unseal share is kept by ${MARK} in the safe.\n`);
    await w.mem("remember", `The quarterly audit reviewer is ${MARK} from compliance.`);
    await w.mem("index", "notes", "-q");
    const shown = await w.prompt("s1", "who is the quarterly audit reviewer from compliance");
    assert.match(shown.stdout, new RegExp(MARK));
    await w.mem("reindex", "-q");
    const chunks = w.sql<{ id: string }>("SELECT id FROM chunks WHERE text LIKE ?", `%${MARK}%`).map((r) => r.id);
    assert.equal(chunks.length, 2, "the note's chunk and the memory's");
    assert.ok(holding(w.home, MARK).some((f) => f.startsWith("snapshots/")), "a snapshot holds the marker before");

    const r = jsonOf<{ forgotten: { memories: number }; purged: { copies: { file: string; action: string }[] } }>(await w.mem("forget", "--project", "--yes", "--json"));
    assert.deepEqual(holding(w.home, MARK), [], "no file of the data home holds the marker");
    for (const c of chunks) assert.deepEqual(holding(join(w.home, "vectors"), c), [], `no LanceDB file holds chunk ${c}`);
    assert.equal(r.forgotten.memories, 1);
    assert.ok(r.purged.copies.length >= 2, JSON.stringify(r.purged));
  });

  test("the weekly mem reindex purges the snapshots too, the one it has just taken included", { timeout: 240_000 }, async () => {
    const w = world("weekly");
    const MARK = marker();
    writeFileSync(join(w.project, "notes", "ops.md"), "# Ops\n\nDeploys go out on Tuesdays after the standup.\n");
    const id = (await w.mem("remember", `The pager rotation spreadsheet is named ${MARK} in the shared drive.`)).stdout.trim();
    await w.mem("index", "notes", "-q");
    await w.mem("forget", id);
    const r = jsonOf<{ purge: { memories: number; copies: { file: string; action: string }[] }; snapshot: { id: string } }>(await w.mem("reindex", "--json"));
    assert.deepEqual(holding(w.home, MARK), [], "no file of the data home holds the marker");
    assert.equal(r.purge.memories, 1);
    assert.ok(r.purge.copies.some((c) => c.file === `snapshots/${r.snapshot.id}.sqlite` && c.action === "scrubbed"), JSON.stringify(r.purge.copies));
  });
});
