/**
 * Convergence end to end, through hooks spawned as Claude Code spawns them: an explicit memory and
 * an edit of the file it is about, in the same session within 10 minutes, are linked and both
 * reinforced, and `mem query --json` marks them convergent; a command, a read, an edit 11 minutes
 * away and an edit in another session are not.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { eventChunkId } from "../../indexer/captured.js";
import { SALIENCE_DEFAULTS } from "../../src/memory/salience.js";
import { resolveProject } from "../../src/project/identity.js";
import { edit, makeRepo, query, say, toolUse, withDb, type Session } from "../anchor/scenario.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-converge-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const MIN = 60_000;

describe("an explicit memory and the edit it describes converge", () => {
  test("linked, both reinforced once, shown convergent; the negative cases are not", async () => {
    const repo = makeRepo(join(tmp, "repo"), { "src/auth.c": "int a;\n", "docs/login.md": "# login\n" });
    const s = (id: string): Session => ({ home: tmp, repo, id, transcript: join(tmp, `${id}.jsonl`) });
    const t0 = Date.now();

    // A: the edit, then the tag 3 minutes later in the same session.
    await edit(s("A"), "toolu_A", "src/auth.c");
    await say(s("A"), [{ text: "[MEMORY: learned] Fixed the authentication bug in the login flow", time: t0 + 3 * MIN }]);
    // B: a command that shares a keyword.
    await toolUse(s("B"), "toolu_B", "Bash", { command: "npm run login-tests" });
    await say(s("B"), [{ text: "[MEMORY: learned] Fixed the authentication bug in the login flow, case bravo command", time: t0 + MIN }]);
    // C: a read of the very file.
    await toolUse(s("C"), "toolu_C", "Read", { file_path: join(repo, "src/auth.c") });
    await say(s("C"), [{ text: "[MEMORY: learned] Fixed the authentication bug in the login flow, case charlie read", time: t0 + MIN }]);
    // D: the edit, and the tag 11 minutes later.
    await edit(s("D"), "toolu_D", "src/auth.c");
    await say(s("D"), [{ text: "[MEMORY: learned] Fixed the authentication bug in the login flow, case delta late", time: t0 + 11 * MIN + 5_000 }]);
    // E and F: the tag in one session, an edit of docs/login.md in another.
    await say(s("E"), [{ text: "[MEMORY: learned] Fixed the authentication bug in the login flow, case echo session", time: t0 + MIN }]);
    await edit(s("F"), "toolu_F", "docs/login.md");

    const project = resolveProject(repo).id;
    const links = withDb(s("A"), (db) => db.prepare("SELECT a, b, kind FROM links").all() as { a: string; b: string; kind: string }[]);
    assert.equal(links.length, 1, JSON.stringify(links));
    const tagId = withDb(s("A"), (db) => db.prepare("SELECT id FROM events WHERE session = 'A' AND type = 'learned'").pluck().get() as string);
    assert.deepEqual(links[0], { a: tagId, b: "toolu_A", kind: "convergent" });

    const salience = () =>
      withDb(s("A"), (db) => new Map((db.prepare("SELECT chunk_id, salience, uses FROM salience").all() as { chunk_id: string; salience: number; uses: number }[]).map((r) => [r.chunk_id, r])));
    let rows = salience();
    assert.equal(rows.size, 2, "only the two convergent memories were reinforced");
    const tagRow = rows.get(eventChunkId(project, tagId));
    const editRow = rows.get(eventChunkId(project, "toolu_A"));
    assert.ok(tagRow && tagRow.salience > SALIENCE_DEFAULTS.learned! && tagRow.uses === 1, JSON.stringify(tagRow));
    assert.ok(editRow && editRow.salience > SALIENCE_DEFAULTS.file_modified! && editRow.uses === 1, JSON.stringify(editRow));

    // The same edit delivered again converges with nothing new: no second reinforcement.
    await edit(s("A"), "toolu_A", "src/auth.c");
    rows = salience();
    assert.equal(rows.get(eventChunkId(project, tagId))?.uses, 1);
    assert.equal(rows.get(eventChunkId(project, "toolu_A"))?.uses, 1);

    const rs = await query(s("A"), "authentication bug login flow");
    const learned = rs.filter((r) => r.kind === "learned");
    assert.equal(learned.length, 5, JSON.stringify(rs.map((r) => r.text)));
    assert.equal(learned.filter((r) => r.convergent).length, 1);
    assert.ok(!learned.find((r) => r.convergent)!.text.includes("case"), "the convergent one is session A's");
    // Session D's edit has the same text as A's and is collapsed into it as a near-duplicate; the read is apart.
    // Asked for the captured events: in a plain search the explicit memory stands for the edit it converged with.
    const auth = await query(s("A"), "auth", ["--kind", "file_modified", "--kind", "file_explored"]);
    assert.equal(auth.find((r) => r.kind === "file_modified")?.convergent, true, "session A's edit");
    assert.equal(auth.find((r) => r.kind === "file_explored")?.convergent, false, "the read");
  });
});
