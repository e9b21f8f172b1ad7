/**
 * A memory edited while an embedding run is embedding it, or after a run died between LanceDB's
 * write and SQLite's record, or an event edited in an event log under its id: the memory's vector
 * is always its current text's, never the old text's. Real SQLite, real LanceDB, the real memory service; the embedder is the
 * deterministic hash model, which edits the memory from inside its own embed call.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { after, test } from "node:test";
import { embedText } from "../../indexer/embed-step.js";
import { forgetMemory } from "../../src/service/forget.js";
import { MemoryService } from "../../src/service/memory.js";
import { HashEmbedder, hashVector } from "../helpers/hash-embedder.js";
import type { VectorStore } from "../../src/store/vectors.js";
import { assertVectorsMatch, bumpMtime, lanceRows, makeEnv, tableOf, type IndexerEnv } from "../helpers/indexer-env.js";

const envs: IndexerEnv[] = [];
after(async () => Promise.all(envs.map((e) => e.close())));

/** Runs `during` once, from inside the first embed call that holds `word`. */
class EditingEmbedder extends HashEmbedder {
  constructor(
    private readonly word: RegExp,
    private during: (() => void) | undefined,
  ) {
    super();
  }
  override async embed(texts: string[]): Promise<Float32Array[]> {
    const out = await super.embed(texts); // computed from the text as it was read
    if (this.during && texts.some((t) => this.word.test(t))) {
      const edit = this.during;
      this.during = undefined;
      edit();
    }
    return out;
  }
}

async function setup(tag: string, edit: (svc: MemoryService, id: string) => void) {
  const e = makeEnv(tag);
  envs.push(e);
  e.write("mem/notes.md", "# Notes\n\nThe build uses esbuild.\n");
  const svc = new MemoryService({ db: e.db, config: e.config, projectRoot: () => undefined });
  const id = svc.put({ project: "p1", session: "s1", text: "the staging database lives on port 5433" }).memory.id;
  const embedder = new EditingEmbedder(/5433/, () => edit(svc, id));
  const summary = await e.run({ roots: ["mem"], providers: [embedder] });
  const table = tableOf(embedder, embedder.dims);
  return { e, svc, id, embedder, summary, table };
}

/** The vector LanceDB holds for each chunk, against the one its current text embeds as. */
async function vectorsOfCurrentText(e: IndexerEnv, table: string): Promise<{ text: string; cos: number }[]> {
  const chunks = e.db.prepare("SELECT id, heading, text FROM chunks WHERE project = 'p1'").all() as { id: string; heading: string; text: string }[];
  const rows = new Map((await lanceRows(await e.vectors(), table)).map((r) => [r.id, r.vector]));
  return chunks.map((c) => {
    const want = hashVector(embedText(c), 64);
    const got = rows.get(c.id) ?? [];
    return { text: c.text, cos: got.reduce((s, x, i) => s + x * want[i]!, 0) };
  });
}

test("a memory edited while its old text is being embedded gets the new text's vector in the same run", async () => {
  const { e, table, summary, embedder } = await setup("editmid", (svc, id) => svc.patch(id, { text: "the staging database moved to port 6543" }));
  assert.deepEqual(summary.warnings, [], "no repair, and no re-chunking for a project whose captured memories came before its files");
  const seen = await vectorsOfCurrentText(e, table);
  const edited = seen.find((s) => /6543/.test(s.text));
  assert.ok(edited, "the memory holds its new text");
  for (const s of seen) assert.ok(s.cos > 0.999, `vector of "${s.text}" is its current text's (cos ${s.cos.toFixed(3)})`);
  await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
  assert.equal(e.db.prepare("SELECT count(*) FROM vec_redo").pluck().get(), 0, "nothing left to redo");

  // The next run finds nothing to do and nothing to repair.
  const calls = embedder.calls;
  const again = await e.run({ roots: ["mem"], providers: [embedder] });
  assert.equal(embedder.calls, calls, "no embedding on the next run");
  assert.deepEqual(again.warnings, []);
});

test("a memory forgotten while it is being embedded leaves no vector behind", async () => {
  const { e, table, summary } = await setup("forgetmid", (svc, id) => forgetMemory(envs.at(-1)!.db, svc, id, Date.now()));
  assert.deepEqual(summary.warnings, []);
  const rows = await lanceRows(await e.vectors(), table);
  assert.equal(rows.length, 1, "only the markdown note's vector is left");
  await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
});

/** The store, but the first upsert dies once LanceDB has the rows and before SQLite records them (a run killed there). */
function dyingAfterUpsert(real: VectorStore): VectorStore {
  let died = false;
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "upsert") {
        return async (table: string, rows: Parameters<VectorStore["upsert"]>[1]) => {
          await target.upsert(table, rows);
          if (!died) {
            died = true;
            throw new Error("killed after the upsert");
          }
        };
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

test("a run killed between LanceDB's write and SQLite's record, then an edit: the next run embeds the new text, it does not adopt the old row", async () => {
  const e = makeEnv("adopt-event");
  envs.push(e);
  e.write("mem/notes.md", "# Notes\n\nThe build uses esbuild.\n");
  const svc = new MemoryService({ db: e.db, config: e.config, projectRoot: () => undefined });
  const id = svc.put({ project: "p1", session: "s1", text: "the staging database lives on port 5433" }).memory.id;
  const embedder = new HashEmbedder();
  const table = tableOf(embedder, embedder.dims);
  const real = await e.vectors();
  const killed = await e.run({ roots: ["mem"], providers: [embedder], vectors: async () => dyingAfterUpsert(real) });
  assert.equal(killed.vector.status, "skipped");
  assert.equal(e.state.count(table), 0, "LanceDB holds rows SQLite never recorded");
  svc.patch(id, { text: "the staging database moved to port 6543" });

  const next = await e.run({ roots: ["mem"], providers: [embedder] });
  assert.ok(next.warnings.some((w) => /out of step with SQLite: 1 rows recorded, 1 stray rows deleted/.test(w)), `the note's row is adopted (its id is its content's), the memory's deleted: ${next.warnings.join("\n")}`);
  for (const s of await vectorsOfCurrentText(e, table)) assert.ok(s.cos > 0.999, `vector of "${s.text}" is its current text's (cos ${s.cos.toFixed(3)})`);
  await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
});

test("a memory edited in every round: the run stops after three, counts only the vectors it kept, and the next run finishes", async () => {
  const e = makeEnv("rounds");
  envs.push(e);
  e.write("mem/notes.md", "# Notes\n\nThe build uses esbuild.\n");
  const svc = new MemoryService({ db: e.db, config: e.config, projectRoot: () => undefined });
  const id = svc.put({ project: "p1", session: "s1", text: "the service listens on port 1000" }).memory.id;
  let edits = 0;
  class EditsEveryTime extends HashEmbedder {
    override async embed(texts: string[]): Promise<Float32Array[]> {
      const out = await super.embed(texts);
      if (edits < 3 && texts.some((t) => /port/.test(t))) svc.patch(id, { text: `the service listens on port ${1001 + edits++}` });
      return out;
    }
  }
  const embedder = new EditsEveryTime();
  const table = tableOf(embedder, embedder.dims);
  const first = await e.run({ roots: ["mem"], providers: [embedder] });
  assert.equal(edits, 3);
  assert.equal(first.vector.embedded, e.state.count(table), "embedded: the vectors kept");
  assert.equal(e.state.count(table), 1, "the note's; the memory is left to the next run");
  const next = await e.run({ roots: ["mem"], providers: [embedder] });
  assert.equal(next.vector.embedded, 1);
  for (const s of await vectorsOfCurrentText(e, table)) assert.ok(s.cos > 0.999, `vector of "${s.text}" is its current text's (cos ${s.cos.toFixed(3)})`);
  await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
});

test("an event edited in an event log under the same id: its chunk is written again and embedded again", async () => {
  const e = makeEnv("eventlog-edit");
  envs.push(e);
  const line = (text: string) => `${JSON.stringify({ type: "decision", text, time: "2026-03-01T10:00:00Z", id: "ev-1" })}\n`;
  const log = e.write("mem/events/log.jsonl", line("Use the pelican queue for jobs"));
  const embedder = new HashEmbedder();
  const table = tableOf(embedder, embedder.dims);
  await e.run({ roots: ["mem"], providers: [embedder] });
  writeFileSync(log, line("Use the heron queue for jobs, not the pelican one"));
  bumpMtime(log);
  const r = await e.run({ roots: ["mem"], providers: [embedder] });
  assert.deepEqual(r.warnings, []);
  const texts = e.db.prepare("SELECT text FROM chunks WHERE project = 'p1'").pluck().all() as string[];
  assert.equal(texts.length, 1);
  assert.match(texts[0]!, /heron/, "the chunk holds the edited text");
  assert.equal(e.db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'heron'").pluck().get(), 1, "the text index follows");
  for (const s of await vectorsOfCurrentText(e, table)) assert.ok(s.cos > 0.999, `vector of "${s.text}" is its current text's (cos ${s.cos.toFixed(3)})`);
  await assertVectorsMatch(e, table, { complete: true, projects: ["p1"] });
});
