/**
 * The memory service on a real store: put (idempotent under a client key), get, list with filters,
 * patch (history kept), forget (a tombstone invisible at once to search, list and the briefing),
 * purge (the text gone from every file of the data home); markdown memories are edited in their
 * files; bad arguments and a 10 MB text are clear errors.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { indexPaths } from "../../indexer/pipeline.js";
import { openApp } from "../../src/app.js";
import { buildBriefing } from "../../src/brief/briefing.js";
import { gatherBriefing } from "../../src/brief/gather.js";
import { resolveProject } from "../../src/project/identity.js";
import { search } from "../../src/retrieve/search.js";
import { forgetMemory, forgetSession, purge } from "../../src/service/forget.js";
import { importLines } from "../../src/service/import.js";
import { MemoryService } from "../../src/service/memory.js";
import { MIN_ID_PREFIX } from "../../src/service/memory-input.js";
import { idOf } from "../../src/service/convert.js";
import { eventChunkId } from "../../src/store/chunk-ids.js";
import { MemoryError } from "../../src/util/memory-error.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-service-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

function bytesUnder(dir: string): Buffer[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? bytesUnder(join(dir, n)) : [readFileSync(join(dir, n))]));
}
const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof MemoryError ? e.code : `not a MemoryError: ${(e as Error).message}`;
  }
  return "no error";
};

describe("the memory service", () => {
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, "notes"));
  writeFileSync(join(proj, "notes", "db.md"), "# Database\n\nWe keep WAL mode so hooks can write while the indexer reads.\n");
  const env = { MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" };
  const app = openApp(env);
  after(() => app.close());
  const project = resolveProject(proj).id;
  const svc = new MemoryService({ db: app.db, config: app.config, projectRoot: app.projectRoot });
  const bm25 = async (text: string) => (await search({ db: app.db, vectors: app.vectors, projectRoot: app.projectRoot, pickProvider: async () => ({ unhealthy: [] }) }, { text, k: 10, mode: "bm25", filters: { projects: [project] }, candidates: 50, rrfK: 60, weights: { bm25: 1, vector: 1 }, dedupeThreshold: 0.9 })).results;

  test("client keys that look random (a UUID, a hash) are kept as given: each its own memory, each idempotent", () => {
    const keys = ["db-choice", "0d3f5c1e-7a2b-4c9d-8e6f-1a2b3c4d5e6f", "sha256:9f86d081884c7d65", "Zq7WmX2pLk9RtY4v"];
    const ids = keys.map((k, i) => svc.put({ project, text: `Keyed memory number ${i}.`, clientKey: k }));
    assert.deepEqual(ids.map((r) => r.created), [true, true, true, true]);
    assert.equal(new Set(ids.map((r) => r.memory.id)).size, 4, "four memories, not one");
    for (const [i, k] of keys.entries()) {
      const again = svc.put({ project, text: "a retry", clientKey: k });
      assert.deepEqual([again.created, again.memory.id], [false, ids[i]!.memory.id], k);
    }
    const stored = app.db.prepare("SELECT client_key FROM events WHERE id IN (?, ?, ?, ?) ORDER BY time, id").pluck().all(...ids.map((r) => r.memory.id)) as string[];
    assert.deepEqual(new Set(stored), new Set(keys));
  });

  test("put, get, list, patch with history; idempotent under a client key", async () => {
    const { memory: m, created } = svc.put({ project, text: "Chose SQLite over Postgres for the metadata store: no server to run.", kind: "decision", tags: ["storage", "db"], files: ["src/db.ts"], clientKey: "k1" });
    assert.equal(created, true);
    assert.match(m.id, /^mem:[0-9a-f]{24}$/);
    assert.deepEqual([m.kind, m.source, m.tags, m.files, m.project], ["decision", "explicit", ["storage", "db"], ["src/db.ts"], project]);
    const again = svc.put({ project, text: "something else entirely", clientKey: "k1" });
    assert.deepEqual([again.created, again.memory.id, again.memory.text], [false, m.id, m.text], "the same key: the same memory");
    assert.ok((await bm25("SQLite metadata store")).some((r) => r.text.includes("Chose SQLite over Postgres")), "searchable by BM25 as soon as put returns");
    svc.put({ project, text: "The busy timeout must stay at five seconds.", kind: "learned", tags: ["db"], session: "s-9" });
    assert.deepEqual(svc.list({ project, kinds: ["decision"] }).memories.map((x) => x.id), [m.id]);
    assert.equal(svc.list({ project, tags: ["db"] }).total, 2);
    assert.equal(svc.list({ project, session: "s-9" }).memories[0]!.kind, "learned");
    assert.equal(svc.list({ project, text: "busy TIMEOUT" }).total, 1);
    assert.equal(svc.list({ project, sources: ["explicit"], limit: 1 }).memories.length, 1);
    const edited = svc.patch(m.id, { text: "Chose SQLite over Postgres: one file, no server.", tags: ["storage"] });
    assert.equal(edited.text, "Chose SQLite over Postgres: one file, no server.");
    assert.deepEqual(edited.history?.map((h) => [h.version, h.text, h.tags]), [[1, m.text, ["storage", "db"]]]);
    assert.ok(Date.parse(edited.updatedAt) >= Date.parse(edited.createdAt));
    const found = await bm25("one file no server");
    assert.ok(found.some((r) => r.text.includes("one file, no server")) && !found.some((r) => r.text.includes("no server to run")), "the search sees the new text, not the old");
  });

  test("markdown memories are edited in their files; bad arguments and a 10 MB text are clear errors", async () => {
    await indexPaths({ db: app.db, config: app.config, providers: [], vectors: app.vectors }, { roots: [join(proj, "notes")], project: resolveProject(proj), full: false });
    const chunk = (await bm25("WAL mode indexer"))[0]!;
    const md = svc.get(chunk.id);
    assert.deepEqual([md.source, md.path, md.startLine], ["markdown", join(proj, "notes", "db.md"), 1]);
    assert.equal(code(() => svc.patch(chunk.id, { text: "x" })), "markdown");
    assert.equal(code(() => forgetMemory(app.db, svc, chunk.id, Date.now())), "markdown");
    assert.equal(code(() => svc.get("mem:nope")), "not_found");
    assert.equal(code(() => svc.put({ project, text: "   " })), "bad_argument");
    assert.equal(code(() => svc.put({ project, text: "x", kind: "opinion" })), "bad_argument");
    assert.equal(code(() => svc.put({ project, text: "x", tags: ["has space"] })), "bad_argument");
    assert.equal(code(() => svc.put({ project, text: "x".repeat(10 * 1024 * 1024) })), "too_large");
    assert.equal(code(() => svc.list({ project, limit: 0 })), "bad_argument");
  });

  test("a secret or a <private> span in a put is never stored", () => {
    const token = "gh" + "p_" + "Zq7WmX2pLk9RtY4vBn8Cs3Dd6Fg1Hj5Kl0Qa";
    const m = svc.put({ project, text: `Rotate the deploy token ${token} monthly <private>call Bob 555-0199</private>`, kind: "task" }).memory;
    assert.equal(m.text, "Rotate the deploy token [REDACTED:github-token] monthly");
    app.db.pragma("wal_checkpoint(TRUNCATE)");
    for (const b of bytesUnder(env.MEM_HOME)) assert.ok(!b.includes(token) && !b.includes("555-0199"));
  });

  test("forget: invisible at once to get, list, search and the briefing; purge: its text in no file of the data home", async () => {
    const secretish = "Zebra-crossing-quokka policy for the staging cluster";
    const m = svc.put({ project, text: `Decided the ${secretish}.`, kind: "decision", session: "s-forget" }).memory;
    const briefed = () => buildBriefing(gatherBriefing(app.db, app.config, { project, root: proj, session: "x", source: "startup", now: Date.now(), budgetTokens: 2_500 })) ?? "";
    assert.match(briefed(), /Zebra-crossing-quokka/);
    forgetMemory(app.db, svc, m.id, Date.now());
    assert.equal(code(() => svc.get(m.id)), "not_found");
    assert.ok(!svc.list({ project }).memories.some((x) => x.id === m.id));
    assert.deepEqual((await bm25("zebra quokka staging")).filter((r) => r.text.includes("quokka")), []);
    assert.doesNotMatch(briefed(), /quokka/);
    const p = await purge(app.db, app.vectors);
    assert.ok(p.memories >= 1);
    for (const b of bytesUnder(env.MEM_HOME)) assert.ok(!b.includes("quokka"), "purged from every file");
    assert.equal(code(() => svc.put({ project, text: "again", clientKey: "k-gone" })), "no error");
  });

  test("forget a session: its memories and its records", () => {
    svc.put({ project, text: "A lesson from the session to forget.", kind: "learned", session: "s-gone" });
    assert.equal(forgetSession(app.db, project, "s-gone", Date.now()), 1);
    assert.equal(svc.list({ project, session: "s-gone" }).total, 0);
  });

  test("a short id (the start of a memory's or of its chunk's id) works in get, patch and forget; an ambiguous or too short one does not", async () => {
    const m = svc.put({ project, text: "Feature flags live in the flags table, never in env vars.", kind: "decision" }).memory;
    const chunk = eventChunkId(project, m.id);
    const short = chunk.slice(0, 12); // the one id every output shows
    assert.equal(svc.get(short).id, m.id);
    assert.equal(svc.get(chunk.slice(0, 8)).id, m.id, "the 8-character short id earlier prompts showed");
    assert.equal(svc.get(chunk).id, m.id, "the whole chunk id too");
    assert.equal(svc.get(m.id.slice(0, MIN_ID_PREFIX + 4)).id, m.id, "the start of the memory's own id");
    assert.ok(m.id.startsWith("mem:"));
    assert.equal(svc.get(m.id.slice(4)).id, m.id, "its id without the mem: prefix, as a person copies it");
    assert.equal(svc.get(m.id.slice(4, 10)).id, m.id, "and a start of that");
    assert.equal(svc.patch(short, { tags: ["flags"] }).tags[0], "flags");
    const note = (await bm25("WAL mode indexer"))[0]!;
    assert.equal(svc.get(note.id.slice(0, 8)).source, "markdown");
    assert.equal(code(() => svc.get(short.slice(0, MIN_ID_PREFIX - 1))), "bad_argument", "too short to stand for one memory: said so (issue 34), not \"no memory\"");
    importLines({ db: app.db, config: app.config, projectRoot: app.projectRoot }, ['{"id": "toolu_twin_1", "kind": "learned", "text": "One twin."}', '{"id": "toolu_twin_2", "kind": "learned", "text": "Other twin."}'], { project });
    assert.equal(code(() => svc.get("toolu_twin_")), "bad_argument");
    const twins = ["toolu_twin_1", "toolu_twin_2"].map((id) => idOf({ id, project, source: "captured" }));
    assert.throws(() => svc.get("toolu_twin_"), new RegExp(`ambiguous: it starts 2 memories' ids: (${twins[0]}, ${twins[1]}|${twins[1]}, ${twins[0]}); give more of it`), "the candidates, by the id every output shows");
    assert.equal(svc.get("toolu_twin_2").text, "Other twin.", "a whole id is never taken for a prefix");
    forgetMemory(app.db, svc, "toolu_twin_1", Date.now());
    assert.equal(svc.get("toolu_twin_").id, "toolu_twin_2", "a forgotten memory leaves the prefix to the live one, to read");
    assert.throws(() => svc.patch("toolu_twin_", { tags: ["x"] }), /ambiguous: it starts 2 memories' ids/, "not to change it: a prefix typed again must not reach another memory");
    assert.throws(() => forgetMemory(app.db, svc, "toolu_twin_", Date.now()), /ambiguous/, "nor to forget it");
    forgetMemory(app.db, svc, "toolu_twin_2", Date.now());
    assert.throws(() => svc.get("toolu_twin_"), /ambiguous: it starts 2 memories' ids/, "two forgotten ones: still two");
    assert.deepEqual(forgetMemory(app.db, svc, short, Date.now()), { id: chunk.slice(0, 12) }, "said by its one id");
    assert.equal(code(() => svc.get(m.id)), "not_found");
  });

  test("vectors follow: a put gets its vector at the next vector step (hash embedder)", async () => {
    const r = await indexPaths({ db: app.db, config: app.config, providers: [new HashEmbedder("hash-svc", 32)], vectors: app.vectors }, { roots: [join(proj, "notes")], project: resolveProject(proj), full: false });
    assert.equal(r.vector.status, "ok");
    const missing = app.db.prepare("SELECT count(*) FROM chunks c WHERE project = ? AND NOT EXISTS (SELECT 1 FROM vec_rows v WHERE v.chunk_id = c.id)").pluck().get(project);
    assert.equal(missing, 0);
  });
});
