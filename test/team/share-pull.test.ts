/**
 * Team memory, flow 1 (real git, two teammates): A decides (`mem remember`) and shares
 * (`mem share`: the file in the team folder, A's git name as its decision-maker), commits and
 * pushes; B pulls. A token in what A remembered reaches neither the file nor B.
 * B's next sessions index the team folder in the background (SessionStart: a decision folder no
 * root covers yet), and from then on B's briefing and prompt hook carry A's decision.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gitSkip, teamRepo } from "../helpers/team-repo.js";

const TITLE = "Sign session tokens with ES256";
/** A token in what A remembers: it must reach neither the shared file nor B. */
const SECRET = `ghp_${"Zx8".repeat(12)}`;

test("A shares a decision and pushes; after B pulls, B's briefing and prompt hook show it with A's name", { skip: gitSkip }, async () => {
  const { a, b, cleanup } = teamRepo("share");
  try {
    // B has worked in the repository before: no team decision in B's briefing yet.
    assert.doesNotMatch(await b.session("b-before"), /ES256/);

    // A decides, then shares: no decision folder exists yet, so the team folder is docs/decisions.
    const told = await a.mem(["remember", `${TITLE}. Verifying services hold only the public key, so a leak of a verifier cannot mint tokens. HS256 would spread the signing secret to every service. The staging verifier used ${SECRET} until today.`, "--kind", "decision", "--files", "src/auth/jwt.ts", "--json"]);
    assert.equal(told.code, 0, told.stderr);
    const id = (JSON.parse(told.stdout) as { memory: { id: string } }).memory.id;
    const shared = await a.mem(["share", id]);
    assert.equal(shared.code, 0, shared.stderr);
    const rel = "docs/decisions/sign-session-tokens-with-es256.md";
    const file = readFileSync(join(a.clone, rel), "utf8");
    assert.match(file, /^decision-makers: "Ada Lovelace <ada@example\.com>"$/m, "the author from A's git config");
    assert.match(file, /^files: \["src\/auth\/jwt\.ts"\]$/m);
    assert.ok(!file.includes(SECRET) && file.includes("[REDACTED:"), `the secret never reaches the file:\n${file}`);
    const date = /^date: (\d{4}-\d{2}-\d{2})$/m.exec(file)?.[1];
    assert.ok(date, file);
    a.commitPush("Share the token signing decision");
    assert.equal(a.git("log", "-1", "--format=%an <%ae>", "--", rel), "Ada Lovelace <ada@example.com>", "the shared file arrives as A's commit");

    const pulled = b.pull();
    assert.equal(pulled.code, 0, pulled.out);
    // What B gets: a SessionStart finds docs/decisions uncovered and indexes it in the background.
    await b.sessionsUntil(async () => (await b.list()).some((m) => m.record?.title === TITLE), "A's shared record in B's index");
    const listed = (await b.list()).find((m) => m.record?.title === TITLE)!;
    assert.equal(listed.kind, "decision");
    assert.deepEqual([listed.record?.status, listed.record?.date, listed.record?.authors], ["accepted", date, ["Ada Lovelace <ada@example.com>"]]);

    const briefing = await b.session("b-next");
    assert.match(briefing, new RegExp(`## Decisions\\n(- .*\\n)*- Sign session tokens with ES256 \\[team record docs/decisions/sign-session-tokens-with-es256\\.md · accepted · ${date} · by Ada Lovelace ‹ada@example\\.com>\\]`));
    assert.ok(!briefing.includes(SECRET));
    assert.doesNotMatch(briefing, /mem-id|session [0-9a-f]{8}/, "provenance stays in the file, not in the briefing");

    const injected = await b.prompt("should the payment service verify session tokens with HS256 or ES256?", "b-work");
    assert.match(injected, new RegExp(`\\[[0-9a-f]+ · decision · accepted · ${date} · by Ada Lovelace ‹ada@example\\.com> · team · docs/decisions/sign-session-tokens-with-es256\\.md:\\d+\\] Sign session tokens with ES256\\. Verifying services hold only the public key`), "the hook names A, and the title once");
    assert.ok(!injected.includes(SECRET));
  } finally {
    await cleanup();
  }
});
