/**
 * A memory edited while an embedding run is embedding it: the run must not record the old text's
 * vector as the memory's. Real SQLite, real LanceDB, the real memory service; the embedder is the
 * deterministic hash model, which edits the memory from inside its own embed call.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { embedText } from "../../indexer/embed-step.js";
import { forgetMemory } from "../../src/service/forget.js";
import { MemoryService } from "../../src/service/memory.js";
import { HashEmbedder, hashVector } from "../helpers/hash-embedder.js";
import { assertVectorsMatch, lanceRows, makeEnv, tableOf, type IndexerEnv } from "../helpers/indexer-env.js";

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
