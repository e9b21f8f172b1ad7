/**
 * Team memory, flow 2 (real git): B edits a shared record (its text and its status) and pushes;
 * A pulls. A's next sessions re-index the changed folder in the background (SessionStart's
 * stale check of an indexed root), and A's list, briefing and query then show B's edit, never the
 * old text.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { gitSkip, teamRepo, writeSharedRecord } from "../helpers/team-repo.js";

const TITLE = "Keep the session cache in Redis";
const OLD = "Sessions live in Redis with a one hour expiry, shared by every web node.";
const NEW = "After the load test we keep sessions in the signed cookie: Redis added a network hop to every request.";

test("B edits a shared record and pushes; after A pulls, A's list, briefing and query show the edit", { skip: gitSkip }, async () => {
  const { a, b, cleanup } = teamRepo("edit");
  try {
    const rel = writeSharedRecord(a, "docs/decisions", { title: TITLE, text: OLD, date: "2026-11-20", memId: "9d0e11aa22bb", source: "session 77aa 2026-11-20: session storage" });
    a.commitPush("Share the session cache decision");
    // A's own sessions index the folder A shared into.
    await a.sessionsUntil(async () => (await a.list()).some((m) => m.record?.title === TITLE), "the record in A's index");
    assert.match(await a.session("a-1"), /## Decisions\n(- .*\n)*- Keep the session cache in Redis \[team record .* · accepted · 2026-11-20 · by Ada Lovelace/);

    assert.equal(b.pull().code, 0);
    const file = join(b.clone, rel);
    const before = readFileSync(file, "utf8");
    const edited = before
      .replace("status: accepted", "status: rejected")
      .replace("date: 2026-11-20", "date: 2026-11-27")
      .replace(/decision-makers: .*/, 'decision-makers: "Ada Lovelace <ada@example.com>, Bob Barker <bob@example.com>"')
      .replace(OLD, NEW);
    assert.notEqual(edited, before);
    writeFileSync(file, edited);
    b.commitPush("Reject the Redis session cache after the load test");

    assert.equal(a.pull().code, 0);
    await a.sessionsUntil(async () => (await a.list()).some((m) => m.record?.status === "rejected"), "B's edit in A's index");
    const mine = (await a.list()).filter((m) => m.record?.title === TITLE);
    assert.equal(mine.length, 1, "one record, edited in place");
    assert.equal(mine[0]!.kind, "rejected");
    assert.deepEqual([mine[0]!.record?.date, mine[0]!.record?.authors], ["2026-11-27", ["Ada Lovelace <ada@example.com>", "Bob Barker <bob@example.com>"]]);
    assert.match(mine[0]!.text, /signed cookie/);
    assert.doesNotMatch(mine[0]!.text, /one hour expiry/);

    const briefing = await a.session("a-2");
    assert.match(briefing, /## Rejected approaches\n(- .*\n)*- Keep the session cache in Redis \[team record docs\/decisions\/keep-the-session-cache-in-redis\.md · rejected · 2026-11-27 · by Ada Lovelace ‹ada@example\.com>, Bob Barker ‹bob@example\.com>\]/);
    assert.doesNotMatch(briefing, /## Decisions\n(- .*\n)*- Keep the session cache/, "no longer briefed as a decision");

    const q = await a.mem(["query", "session cache Redis signed cookie"]);
    assert.equal(q.code, 0, q.stderr);
    assert.match(q.stdout, /signed cookie/);
    assert.doesNotMatch(q.stdout, /one hour expiry/);
  } finally {
    await cleanup();
  }
});
