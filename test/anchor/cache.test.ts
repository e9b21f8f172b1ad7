import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { AnchorCache } from "../../src/anchor/cache.js";
import { blobId } from "../../src/anchor/git.js";
import { staleFlags } from "../../src/anchor/staleness.js";
import { clean } from "../../src/redact/clean.cjs";
import { recordAnchors } from "../../src/store/anchors.js";
import { openDb } from "../../src/store/db.js";
import { makeRepo } from "./scenario.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-anchor-cache-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("staleness checks off the prompt's path", () => {
  test("hash: false judges only what the cache knows, leaves the rest for warm(); repeated checks hash nothing", () => {
    const repo = makeRepo(join(tmp, "repo"), { "src/a.c": "one\n" });
    const file = join(repo, "src/a.c");
    const db = openDb(join(tmp, "mem.sqlite"));
    try {
      const now = Date.now();
      assert.equal(recordAnchors(db, clean([{ memory: "m1", path: file, blob: blobId(readFileSync(file)), branch: "main", at: now }])), 1);
      assert.equal(recordAnchors(db, clean([{ memory: "m1", path: file, blob: "0".repeat(40), branch: "x", at: now }])), 0, "an anchor is recorded once");
      writeFileSync(file, "two\n");
      const cache = new AnchorCache();
      assert.equal(staleFlags(db, ["m1"], repo, now, { cache, hash: false }).size, 0, "not hashed yet: nothing said");
      assert.deepEqual([...cache.pending], [file]);
      assert.equal(cache.hashed, 0);
      assert.equal(cache.warm(), 1);
      assert.equal(cache.hashed, 1);
      const flags = staleFlags(db, ["m1"], repo, now, { cache, hash: false });
      assert.match(flags.get("m1")?.text ?? "", /^possibly outdated: src\/a\.c changed/);
      for (let i = 0; i < 5; i++) staleFlags(db, ["m1"], repo, now, { cache, hash: false });
      assert.equal(cache.hashed, 1, "a stat per check, no new hash while size and mtime hold");
      assert.equal(cache.pending.size, 0);
      assert.equal(staleFlags(db, ["nope"], repo, now, { cache }).size, 0, "a memory without anchors has no flag");
    } finally {
      db.close();
    }
  });
});
