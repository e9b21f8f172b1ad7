/**
 * Migration 11: client keys an older mem stored as a redaction mark (the field's name sounded
 * like a secret's) are cleared, so the project takes keyed memories again; real keys stay.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { defaultConfig } from "../../src/config/config.js";
import { MemoryService } from "../../src/service/memory.js";
import { openDb, SCHEMA_VERSION } from "../../src/store/db.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-client-keys-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("a store whose keys were stored as [REDACTED:secret]: the marks are cleared, real keys kept, and keyed puts work again", () => {
  const file = join(tmp, "v10.sqlite");
  const db = openDb(file);
  const svc = new MemoryService({ db, config: defaultConfig(), projectRoot: () => undefined });
  const marked = svc.put({ project: "/a", text: "Put under a key an older mem redacted.", clientKey: "first-key" }).memory.id;
  const kept = svc.put({ project: "/a", text: "Put under a plain key.", clientKey: "plain" }).memory.id;
  const partial = svc.put({ project: "/b", text: "A key with a mark inside.", clientKey: "deploy" }).memory.id;
  // As an older mem left them.
  db.prepare("UPDATE events SET client_key = '[REDACTED:secret]' WHERE id = ?").run(marked);
  db.prepare("UPDATE events SET client_key = 'deploy-[REDACTED:github-token]' WHERE id = ?").run(partial);
  db.pragma("user_version = 10"); // before migration 11 (the later ones run again too: they may)
  db.close();
  const again = openDb(file);
  after(() => again.close());
  assert.equal(again.pragma("user_version", { simple: true }), SCHEMA_VERSION);
  const key = (id: string) => again.prepare("SELECT client_key FROM events WHERE id = ?").pluck().get(id);
  assert.deepEqual([key(marked), key(kept), key(partial)], [null, "plain", "deploy-[REDACTED:github-token]"]);
  const svc2 = new MemoryService({ db: again, config: defaultConfig(), projectRoot: () => undefined });
  const next = svc2.put({ project: "/a", text: "A new keyed memory in the same project.", clientKey: "0d3f5c1e-7a2b-4c9d" });
  assert.equal(next.created, true);
  assert.equal(svc2.get(next.memory.id).text, "A new keyed memory in the same project.");
  assert.equal(svc2.put({ project: "/a", text: "retry", clientKey: "plain" }).memory.id, kept);
});
