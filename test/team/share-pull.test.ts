/**
 * Team memory, flow 1 (real git, two teammates): A decides and shares (the file `mem share`
 * writes, in the team folder, A's git name as its decision-maker), commits and pushes; B pulls.
 * B's next sessions index the team folder in the background (SessionStart: a decision folder no
 * root covers yet), and from then on B's briefing and prompt hook carry A's decision.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { gitSkip, teamRepo, writeSharedRecord } from "../helpers/team-repo.js";

const TITLE = "Sign session tokens with ES256";

test("A shares a decision and pushes; after B pulls, B's briefing and prompt hook show it with A's name", { skip: gitSkip }, async () => {
  const { a, b, cleanup } = teamRepo("share");
  try {
    // B has worked in the repository before: no team decision in B's briefing yet.
    assert.doesNotMatch(await b.session("b-before"), /ES256/);

    // A shares: no decision folder exists yet, so the team folder is docs/decisions.
    const rel = writeSharedRecord(a, "docs/decisions", {
      title: TITLE,
      text: "Verifying services hold only the public key, so a leak of a verifier cannot mint tokens. HS256 would spread the signing secret to every service.",
      date: "2026-11-28",
      memId: "4f1c2a9e0b7d",
      files: ["src/auth/jwt.ts"],
      source: "session 3f2a9c1e 2026-11-28: moved token signing to ES256",
    });
    assert.equal(rel, "docs/decisions/sign-session-tokens-with-es256.md");
    a.commitPush("Share the token signing decision");
    assert.equal(a.git("log", "-1", "--format=%an <%ae>", "--", rel), "Ada Lovelace <ada@example.com>", "the shared file arrives as A's commit");

    const pulled = b.pull();
    assert.equal(pulled.code, 0, pulled.out);
    // What B gets: a SessionStart finds docs/decisions uncovered and indexes it in the background.
    await b.sessionsUntil(async () => (await b.list()).some((m) => m.record?.title === TITLE), "A's shared record in B's index");
    const listed = (await b.list()).find((m) => m.record?.title === TITLE)!;
    assert.equal(listed.kind, "decision");
    assert.deepEqual([listed.record?.status, listed.record?.date, listed.record?.authors], ["accepted", "2026-11-28", ["Ada Lovelace <ada@example.com>"]]);

    const briefing = await b.session("b-next");
    assert.match(briefing, /## Decisions\n(- .*\n)*- Sign session tokens with ES256 \[record docs\/decisions\/sign-session-tokens-with-es256\.md · accepted · 2026-11-28 · by Ada Lovelace ‹ada@example\.com>\]/);
    assert.doesNotMatch(briefing, /3f2a9c1e|mem-id/, "provenance stays in the file, not in the briefing");

    const injected = await b.prompt("should the payment service verify session tokens with HS256 or ES256?", "b-work");
    assert.match(injected, /\[[0-9a-f]+ · decision · docs\/decisions\/sign-session-tokens-with-es256\.md:\d+ · 2026-11-28\] Sign session tokens with ES256: Verifying services hold only the public key/);
  } finally {
    await cleanup();
  }
});
