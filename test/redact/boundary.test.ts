/**
 * The redaction boundary holds by construction: store writes take only `Clean` values (checked by
 * the compiler below), SQL and LanceDB writes live only in src/store, and the brand is minted only
 * by src/redact/clean.cts (or by a store reading back what it wrote).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import type { CapturedEvent } from "../../src/store/event-types.js";
import { clean, cleanText, fromClean } from "../../src/redact/clean.cjs";
import type { ChunkStore, NewChunk } from "../../src/store/chunks.js";
import type { EventStore } from "../../src/store/events.js";
import type { SessionStore } from "../../src/store/sessions.js";
import { emptyTaskState } from "../../src/tasks/state.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((n) => {
    const p = join(ROOT, dir, n);
    if (statSync(p).isDirectory()) return sources(relative(ROOT, p));
    return /\.c?ts$/.test(n) && !n.endsWith(".d.ts") ? [relative(ROOT, p).split(sep).join("/")] : [];
  });
}
const code = [...sources("src"), ...sources("indexer")].map((f) => ({ f, text: readFileSync(join(ROOT, f), "utf8") }));
const outside = (prefix: string) => code.filter((c) => !c.f.startsWith(prefix));

describe("the redaction boundary cannot be bypassed", () => {
  test("the source tree was found", () => {
    assert.ok(code.some((c) => c.f === "src/redact/clean.cts"));
    assert.ok(code.length > 50, `${code.length} files`);
  });

  test("no module outside src/store writes to SQLite", () => {
    const writes = /["'`][^"'`]*\b(?:INSERT|UPDATE|DELETE\s+FROM|REPLACE\s+INTO|DROP\s+TABLE|ALTER\s+TABLE)\b/;
    const found = outside("src/store/").filter((c) => writes.test(c.text)).map((c) => c.f);
    assert.deepEqual(found, []);
  });

  test("no module outside src/store opens SQLite or writes to LanceDB", () => {
    const found = outside("src/store/").filter((c) => /new Database\(|\.mergeInsert\(|createTable\(|createEmptyTable\(|\.dropTable\(/.test(c.text)).map((c) => c.f);
    assert.deepEqual(found, []);
  });

  test("only the redaction module mints Clean values; stores may brand what they read back", () => {
    const forged = outside("src/redact/").filter((c) => /as (?:unknown as )?Clean(?:Fields)?</.test(c.text)).map((c) => c.f);
    assert.deepEqual(forged, []);
    const readBack = outside("src/store/").filter((c) => !c.f.startsWith("src/redact/") && /\basStored(?:Row)?\b/.test(c.text)).map((c) => c.f);
    assert.deepEqual(readBack, []);
  });

  test("the store write API rejects unredacted values at compile time", () => {
    // Never called: these lines only have to compile (or fail to, where marked).
    const typeChecks = (events: EventStore, sessions: SessionStore, chunks: ChunkStore) => {
      const raw: CapturedEvent = { id: "e", type: "decision", time: "", session: "s", files: [], text: "DB_PASSWORD=hunter2hunter2", metadata: {} };
      // @ts-expect-error raw events are not accepted
      events.insert("p", [raw]);
      // @ts-expect-error a clean list under a raw project is not accepted either
      events.insert("p", clean([raw]));
      events.insert(cleanText("p"), clean([raw]));
      // @ts-expect-error a raw task list is not accepted
      sessions.saveTasks(cleanText("s"), emptyTaskState(), 0);
      sessions.saveTasks(cleanText("s"), clean(emptyTaskState()), 0);
      // @ts-expect-error a raw transcript path is not accepted
      sessions.touch(cleanText("s"), cleanText("p"), 0, "/tmp/t.jsonl");
      const chunk: NewChunk = { id: "c", kind: "note", tier: null, heading: "", startLine: 1, endLine: 1, text: "t", tags: [], date: null, metadata: {} };
      const src = { project: "p", path: "/x.md", kind: "markdown", tier: null, size: 1, mtimeMs: 1, hash: "h", metadata: {} };
      // @ts-expect-error raw sources and chunks are not accepted
      chunks.replaceSource(src, [chunk], 0);
      chunks.replaceSource(clean(src), clean([chunk]), 0);
      // @ts-expect-error an object assembled from raw parts is not clean
      fromClean<{ text: string }>({ text: "raw" });
      fromClean<{ text: string }>({ text: cleanText("raw") });
    };
    assert.equal(typeof typeChecks, "function");
  });
});
