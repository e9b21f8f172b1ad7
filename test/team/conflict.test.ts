/**
 * Team memory, flow 5 (real git): A and B edit the same shared record differently; B's pull is a
 * real merge conflict. The file with conflict markers is indexed without harm (`mem index`,
 * SessionStart and `mem list` work) and the record is listed once, marked as an unresolved merge,
 * never briefed as a decision in force. Once B resolves and commits, what mem shows is the
 * resolved text. Indexing here is the user's own `mem index docs/decisions` after the pull and
 * after the resolution.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { show } from "../helpers/mem-cli.js";
import { gitSkip, teamRepo, writeSharedRecord, type Mate } from "../helpers/team-repo.js";

const TITLE = "Cache product pages for five minutes";

const edit = (m: Mate, rel: string, pairs: [string | RegExp, string][]) => {
  const file = join(m.clone, rel);
  let text = readFileSync(file, "utf8");
  for (const [from, to] of pairs) {
    const next = text.replace(from, to);
    assert.notEqual(next, text, `${String(from)} in ${rel}`);
    text = next;
  }
  writeFileSync(file, text);
};

test("a conflicted record is indexed without harm, marked as unresolved; the resolution is what mem shows", { skip: gitSkip }, async () => {
  const { a, b, cleanup } = teamRepo("conflict");
  try {
    const rel = writeSharedRecord(a, "docs/decisions", { title: TITLE, text: "Product pages are cached at the edge for five minutes.", date: "2026-11-01", memId: "ca5ec0de0001", source: "session 99ff 2026-11-01: page cache" });
    a.commitPush("Share the page cache decision");
    assert.equal(b.pull().code, 0);
    const index = async () => {
      const r = await b.mem(["index", "docs/decisions"]);
      assert.equal(r.code, 0, show(r));
      return r;
    };
    await index();
    assert.equal((await b.list()).find((m) => m.record?.title === TITLE)?.record?.status, "accepted");

    // A rejects it; B shortens the cache instead. Both touch the status block and the text.
    edit(a, rel, [["status: accepted", "status: rejected"], ["date: 2026-11-01", "date: 2026-11-20"], ["cached at the edge for five minutes.", "not cached: prices change by the minute."]]);
    a.commitPush("Reject the page cache");
    edit(b, rel, [["date: 2026-11-01", "date: 2026-11-21"], ["cached at the edge for five minutes.", "cached at the edge for one minute."]]);
    b.git("commit", "-q", "-am", "Shorten the page cache");
    const pull = b.pull();
    assert.notEqual(pull.code, 0, "a real merge conflict");
    assert.match(pull.out, /CONFLICT \(content\)/);
    const conflicted = readFileSync(join(b.clone, rel), "utf8");
    assert.match(conflicted, /^<<<<<<< /m);
    assert.match(conflicted, /^>>>>>>> /m);

    const r = await index();
    assert.doesNotMatch(r.stderr, /error|TypeError|at .*\.js/i);
    const listed = (await b.list()).filter((m) => m.path.endsWith(rel));
    assert.ok(listed.length >= 1, "the record is still listed");
    assert.deepEqual([...new Set(listed.map((m) => m.record?.title))], [TITLE], "with its title");
    assert.deepEqual([...new Set(listed.map((m) => m.record?.status))], ["unresolved merge conflict"], "clearly marked");
    const briefing = await b.session("b-conflict");
    assert.doesNotMatch(briefing, /Cache product pages|<<<<<<<|>>>>>>>/, "an unresolved record is no decision in force");
    const q = await b.mem(["query", "product pages cached edge"]);
    assert.equal(q.code, 0, show(q));

    // B resolves: one minute, accepted, and commits the merge.
    const resolved = conflicted
      .replace(/<<<<<<< [^\n]*\n([\s\S]*?)=======\n[\s\S]*?>>>>>>> [^\n]*\n/g, "$1")
      .replace("date: 2026-11-21", "date: 2026-11-22")
      .replace("cached at the edge for one minute.", "cached at the edge for one minute and purged when a price changes.");
    assert.doesNotMatch(resolved, /<<<<<<<|=======|>>>>>>>/);
    writeFileSync(join(b.clone, rel), resolved);
    b.git("add", rel);
    b.git("commit", "-q", "--no-edit");
    await index();
    const after = (await b.list()).filter((m) => m.path.endsWith(rel));
    assert.equal(after.length, 1);
    assert.deepEqual([after[0]!.kind, after[0]!.record?.status, after[0]!.record?.date], ["decision", "accepted", "2026-11-22"]);
    assert.match(after[0]!.text, /one minute and purged when a price changes/);
    assert.doesNotMatch(after[0]!.text, /<<<<<<<|prices change by the minute|five minutes\./);
    assert.match(await b.session("b-resolved"), /- Cache product pages for five minutes \[team record docs\/decisions\/cache-product-pages-for-five-minutes\.md · accepted · 2026-11-22 · by Ada Lovelace/);
  } finally {
    await cleanup();
  }
});
