/**
 * Confirmation finds a decision's twin through the text index, among thousands of decisions that
 * share its common words: the twin is reinforced, a merely similar one is not. The words it looks
 * twins up by are chosen so that no twin can be missed (src/retrieve/twins.ts).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { confirmByCapture, statementWords } from "../../src/capture/confirm.js";
import { probeSize, rarest } from "../../src/retrieve/twins.js";
import { CONFIRM_THRESHOLD, contentWords, jaccard } from "../../src/capture/extract/same.js";
import { openApp } from "../../src/app.js";
import { clean, cleanText } from "../../src/redact/clean.cjs";
import { MemoryService } from "../../src/service/memory.js";
import { eventChunkId } from "../../src/store/chunk-ids.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-confirm-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("twins are looked up by the rarest ⌊0.3·n⌋+1 words, so a twin keeps at least one of them", () => {
  assert.deepEqual(statementWords("We chose the metadata store over Postgres; the store needs no server"), ["chose", "metadata", "store", "postgres", "needs", "server"]);
  assert.deepEqual(statementWords("the and for"), [], "only stop words: nothing to look up");
  const df: Record<string, number> = { chose: 900, metadata: 40, store: 2000, postgres: 3, needs: 700, server: 60, build: 5000 };
  const words = Object.keys(df);
  assert.equal(probeSize(words.length, CONFIRM_THRESHOLD), 3, "7 words: a twin lacks at most 2");
  assert.deepEqual(rarest(words, 3, (w) => df[w]!), ["postgres", "metadata", "server"]);
  for (let n = 1; n <= 40; n++) {
    const k = probeSize(n, CONFIRM_THRESHOLD);
    // The most a twin can lack: its Jaccard with the statement stays at or above the threshold.
    const lacks = k - 1;
    assert.ok((n - lacks) / n >= CONFIRM_THRESHOLD - 1e-9 && (n - lacks - 1) / n < CONFIRM_THRESHOLD, `n=${n}`);
  }
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
