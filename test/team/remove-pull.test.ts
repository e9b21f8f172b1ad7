/**
 * Team memory, flow 3 (real git): A removes a shared record (`git rm`) and pushes; B pulls. B's
 * next prompts re-index the changed folder in the background (the prompt hook's stale check of
 * an indexed root, as when no daemon runs), and the record is then gone from B's list, briefing,
 * query and prompt hook.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { gitSkip, teamRepo, writeSharedRecord } from "../helpers/team-repo.js";
import { until } from "../helpers/until.js";

const TITLE = "Retry webhook deliveries with exponential backoff";
/** The record A shares, then removes. */
const RETRIES = {
  title: TITLE,
  text: "Webhook deliveries retry five times, doubling the wait from ten seconds; then the delivery is parked for an operator.",
  date: "2026-10-02",
  memId: "0c0ffee0babe",
  source: "session 12ab 2026-10-02: webhook retries",
};
const PROMPT = "how should the webhook deliveries retry when the receiver times out?";

test("A removes a shared record and pushes; after B pulls it is gone from B's list, briefing, query and hook", { skip: gitSkip }, async () => {
  const { a, b, cleanup } = teamRepo("remove");
  try {
    const rel = writeSharedRecord(a, "docs/decisions", RETRIES);
    // Another record stays: the folder itself remains (the next test removes the last one).
    writeSharedRecord(a, "docs/decisions", { title: "Sign webhook payloads with HMAC-SHA256", text: "Receivers check the signature header before parsing.", date: "2026-10-01", memId: "5e5e5e5e5e5e", source: "session 12aa 2026-10-01: webhook signatures" });
    a.commitPush("Share the webhook decisions");
    assert.equal(b.pull().code, 0);
    await b.sessionsUntil(async () => (await b.list()).length === 2, "the records in B's index");
    assert.match(await b.session("b-1"), /Retry webhook deliveries with exponential backoff \[team record .* by Ada Lovelace/);
    assert.match(await b.prompt(PROMPT, "b-p1"), /Retry webhook deliveries/);

    a.git("rm", "-q", rel);
    a.commitPush("Drop the webhook retry record");
    assert.equal(b.pull().code, 0);
    let n = 0;
    // What B gets: B's next prompt finds the folder changed and re-indexes it in the background.
    await until(
      async () => {
        await b.prompt(PROMPT, `b-catch-up-${++n}`);
        await b.settled();
        return !(await b.list()).some((m) => m.record?.title === TITLE);
      },
      60_000,
      "the record gone from B's index",
      500,
    );
    assert.deepEqual((await b.list()).map((m) => m.record?.title), ["Sign webhook payloads with HMAC-SHA256"]);
    const briefing = await b.session("b-2");
    assert.match(briefing, /Sign webhook payloads with HMAC-SHA256/);
    assert.doesNotMatch(briefing, /Retry webhook|backoff/i);
    const q = await b.mem(["query", "webhook deliveries retry backoff"]);
    assert.equal(q.code, 0, q.stderr);
    assert.doesNotMatch(q.stdout, /retry|backoff|five times/i);
    assert.doesNotMatch(await b.prompt(PROMPT, "b-p2"), /webhook deliveries retry five times/i);
  } finally {
    await cleanup();
  }
});

test("A removes the team folder's last record (git removes the folder with it); after B pulls it is gone for B", { skip: gitSkip }, async () => {
  const { a, b, cleanup } = teamRepo("remove-last");
  try {
    const rel = writeSharedRecord(a, "docs/decisions", RETRIES);
    a.commitPush("Share the webhook retry decision");
    assert.equal(b.pull().code, 0);
    await b.sessionsUntil(async () => (await b.list()).some((m) => m.record?.title === TITLE), "the record in B's index");

    a.git("rm", "-q", rel);
    a.commitPush("Drop the webhook retry record");
    assert.equal(b.pull().code, 0);
    assert.equal(existsSync(join(b.clone, "docs", "decisions")), false, "git removed the emptied folder");
    let n = 0;
    // What B gets: B's next prompt finds the record folder removed from the repository and re-indexes it in the background.
    await until(
      async () => {
        await b.prompt(PROMPT, `b-last-${++n}`);
        await b.settled();
        return (await b.list()).length === 0;
      },
      60_000,
      "the record gone from B's index",
      500,
    );
    assert.doesNotMatch(await b.session("b-3"), /webhook/i);
    assert.doesNotMatch(await b.prompt(PROMPT, "b-p3"), /five times/i);
    const again = await b.mem(["index", "--stale"]);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /missing/, "once its records are forgotten the folder is no longer re-indexed");
  } finally {
    await cleanup();
  }
});
