/**
 * Confirmation finds a decision's twin through the text index, among thousands of decisions that
 * share its common words: the twin is reinforced, a merely similar one is not. The words it looks
 * twins up by are chosen so that no twin can be missed (probeWords).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { confirmByCapture, probeWords } from "../../src/capture/confirm.js";
import { CONFIRM_THRESHOLD, contentWords, jaccard } from "../../src/capture/extract/same.js";
import { openApp } from "../../src/app.js";
import { clean, cleanText } from "../../src/redact/clean.cjs";
import { MemoryService } from "../../src/service/memory.js";
import { eventChunkId } from "../../src/store/chunk-ids.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-confirm-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("probeWords: the longest ⌊0.3·n⌋+1 content words, one per word, so a twin keeps at least one", () => {
  assert.equal(probeWords("We chose the metadata store over Postgres because SQLite needs no server"), "Postgres metadata because");
  assert.equal(probeWords("the and for"), "", "only stop words: nothing to look up");
  const text = "Keep the busy timeout at five seconds for hooks writing while the indexer reads";
  const n = contentWords(text).size;
  const probe = contentWords(probeWords(text));
  // A twin lacks at most ⌊0.3·n⌋ of the n words; one more than that is probed.
  assert.equal(probe.size, Math.floor((1 - CONFIRM_THRESHOLD) * n) + 1);
  assert.ok([...probe].every((w) => contentWords(text).has(w)));
});

test("a decision captured again is found among 3,000 look-alikes and reinforced; a similar one is not", () => {
  const app = openApp({ MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" });
  after(() => app.close());
  let clock = Date.parse("2026-10-01T00:00:00Z");
  const svc = new MemoryService({ db: app.db, config: app.config, projectRoot: () => undefined, now: () => (clock += 1000) });
  const project = "/p";
  for (let i = 0; i < 3000; i++) svc.put({ project, session: `s${i % 30}`, kind: "decision", text: `We decided the service should use the cache layer for module ${i} requests` });
  const target = svc.put({ project, session: "s-old", kind: "decision", text: "We decided the parser should stream tokens instead of buffering whole files" }).memory;
  const near = svc.put({ project, session: "s-old", kind: "decision", text: "We decided the parser should buffer whole files before tokenizing anything" }).memory;
  const again = "We decided: the parser should stream tokens instead of buffering the whole files";
  assert.ok(jaccard(contentWords(again), contentWords(target.text)) >= CONFIRM_THRESHOLD);
  assert.ok(jaccard(contentWords(again), contentWords(near.text)) < CONFIRM_THRESHOLD);
  const n = confirmByCapture(app.db, { project: cleanText(project), session: cleanText("s-new"), now: clock, events: clean([{ id: "e-new", type: "decision", time: new Date(clock).toISOString(), session: "s-new", files: [], text: again, confidence: 1, metadata: {} }]), taskChanges: clean([]) });
  assert.equal(n, 1);
  const uses = (id: string) => app.db.prepare("SELECT uses FROM salience WHERE chunk_id = ?").pluck().get(eventChunkId(project, id)) as number | undefined;
  assert.equal(uses(target.id), 1, "the twin is reinforced");
  assert.equal(uses(near.id), undefined, "the merely similar one is not");
});
