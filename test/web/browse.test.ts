/**
 * The explorer's browse views over a real store and real HTTP: /memories (newest first, the
 * filters `mem list` has, 50 a page), /memory (everything `mem get --history` shows, hostile stored
 * text escaped), /sources and /source (the project's indexed files and their chunks), another
 * project's rows only when the address names it.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { idOf } from "../../src/service/convert.js";
import { TaskStore } from "../../src/store/tasks.js";
import { blockTask } from "../../src/store/task-block.js";
import { taskOneId } from "../../src/store/task-ids.js";
import { type Bed, dataOf, openBed } from "./browse-bed.js";

const HOSTILE = `<script>alert(1)</script> "quoted" it's ] [MEMORY: fake] </textarea><img src=x onerror=alert(2)>`;

describe("mem ui: browse", () => {
  let bed: Bed;
  const ids = {} as Record<"decision" | "rejected" | "hostile" | "other", string>;
  before(async () => {
    bed = await openBed("browse");
    const put = (text: string, kind: string, extra: { tags?: string[]; session?: string; files?: string[] } = {}) => idOf(bed.ctx.svc.put({ text, kind, project: bed.home.id, ...extra }).memory);
    for (let i = 0; i < 57; i++) put(`Paging note number ${i} of the listing`, "note", { tags: ["paging"] });
    ids.decision = put("Chose SQLite over Postgres: one file, no server.", "decision", { tags: ["db"], files: ["src/db.ts"], session: "sess-alpha-1" });
    ids.rejected = put("Tried a Redis cache; dropped it, the store is fast enough.", "rejected");
    ids.hostile = put(HOSTILE, "learned", { tags: ["xss"] });
    bed.ctx.svc.patch(ids.hostile, { tags: ["xss", "edited"] }); // a second version, for the history
    ids.other = idOf(bed.ctx.svc.put({ text: "The other project's secret plan", kind: "decision", project: bed.other.id }).memory);
    const para = (words: string) => Array.from({ length: 40 }, (_, i) => `${words} (${i}).`).join(" ");
    bed.write("notes/db.md", `# Database\n\nWe keep WAL mode so hooks can write while the indexer reads. ${para("Readers never block the writer")}\n\n## Backups\n\nNightly copies with sqlite3 .backup. ${para("A copy is checked before the old one goes")}\n`);
    bed.write("notes/deep/ops.md", "# Ops\n\nRestart the daemon with mem serve.\n");
    await bed.index(bed.home, `${bed.tmp}/proj/notes`);
  });
  after(() => bed.close());

  test("/memories: newest first, 50 a page, the total, a pager, each item's id, kind, age, source, session, salience", async () => {
    const first = await bed.get("/memories");
    assert.equal(first.status, 200);
    const shown = dataOf(first.body, "id");
    assert.equal(shown.length, 50, "one page is 50");
    assert.deepEqual(shown.slice(0, 3), [ids.hostile, ids.rejected, ids.decision], "newest first");
    assert.match(first.body, /60 memories/);
    assert.match(first.body, /<ul class="items">/);
    assert.match(first.body, new RegExp(`<li class="item" data-id="${ids.decision}">[\\s\\S]*?<span class="badge">decision</span>[\\s\\S]*?<span>explicit</span><a class="session" href="${bed.base}/session\\?id=sess-alpha-1"[\\s\\S]*?salience \\d\\.\\d\\d`));
    assert.match(first.body, /href="[^"]*\/memories\/new"[^>]*>Add a memory</);
    assert.match(first.body, /rel="next" href="[^"]*\/memories\?offset=50"/);
    const second = await bed.get("/memories?offset=50");
    const rest = dataOf(second.body, "id");
    assert.equal(rest.length, 10);
    assert.equal(new Set([...shown, ...rest]).size, 60, "the two pages hold every memory once");
    assert.match(second.body, /51–60 of 60/);
    assert.ok(!shown.includes(ids.other) && !rest.includes(ids.other), "never another project's memory");
  });

  test("/memories filters as mem list: kind (tabs), tag, source, text, session, since, until", async () => {
    const ids_ = async (q: string) => dataOf((await bed.get(`/memories?${q}`)).body, "id");
    assert.deepEqual(await ids_("kind=decision"), [ids.decision]);
    assert.deepEqual(await ids_("kind=decision,rejected"), [ids.rejected, ids.decision]);
    assert.deepEqual(await ids_("kind=decision&kind=rejected"), [ids.rejected, ids.decision]);
    assert.equal((await ids_("tag=paging")).length, 50);
    assert.deepEqual(await ids_("tag=xss&tag=edited"), [ids.hostile]);
    assert.deepEqual(await ids_("text=REDIS%20cache"), [ids.rejected]);
    assert.deepEqual(await ids_("session=sess-alpha-1"), [ids.decision]);
    assert.deepEqual(await ids_("since=2999-01-01"), []);
    assert.equal((await ids_("until=2000-01-01")).length, 0);
    assert.equal((await ids_("source=explicit&text=Paging")).length, 50);
    assert.deepEqual(await ids_("source=captured"), []);
    const md = await bed.get("/memories?source=markdown");
    const passages = dataOf(md.body, "id").length;
    assert.ok(passages >= 3, "the notes' passages, with source=markdown only");
    assert.match(md.body, new RegExp(`>${passages} memories<`));
    assert.match(md.body, /notes\/db\.md:\d+-\d+/);
    const tabs = await bed.get("/memories?tag=db");
    for (const label of ["Decisions", "Rejected approaches", "Learned facts", "Preferences", "Tasks"]) assert.match(tabs.body, new RegExp(`>${label}</a>`));
    assert.match(tabs.body, /href="[^"]*\/memories\?kind=decision&amp;tag=db"/, "a tab keeps the other filters");
    for (const bad of ["kind=bogus", "source=elsewhere", "since=yesterday", "offset=-1", "offset=abc"]) {
      const r = await bed.get(`/memories?${bad}`);
      assert.equal(r.status, 400, bad);
      assert.match(r.body, /class="notice"/);
    }
  });

  test("/memory shows what mem get --history shows, hostile stored text escaped everywhere", async () => {
    const r = await bed.get(`/memory?id=${ids.hostile}`);
    assert.equal(r.status, 200);
    assert.ok(!r.body.includes("<script>alert(1)"), "no script from stored text");
    assert.ok(!r.body.includes("<img src=x"), "no element from stored text");
    assert.ok(!r.body.includes("</textarea><img"), "the text cannot close the edit box");
    assert.match(r.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &quot;quoted&quot; it&#39;s \] \[MEMORY: fake\]/);
    assert.match(r.body, new RegExp(`<h1 class="id">${ids.hostile}</h1>`));
    assert.match(r.body, /<div class="text">&lt;script&gt;/);
    assert.match(r.body, /<form class="edit" method="post" action="[^"]*\/memory\/edit"><input type="hidden" name="id" value="[0-9a-f]{12}">/);
    assert.match(r.body, /<textarea name="text">\n&lt;script&gt;alert\(1\)/);
    assert.match(r.body, /<input name="kind" value="learned"/);
    assert.match(r.body, /<input name="tags" value="xss, edited"/);
    assert.match(r.body, /<form class="forget" method="post" action="[^"]*\/memory\/forget" data-confirm="[^"]+"><input type="hidden" name="id" value="[0-9a-f]{12}">/);
    assert.match(r.body, /<ol class="history"><li data-version="1">/, "the earlier version");
    const d = await bed.get(`/memory?id=${ids.decision}`);
    assert.match(d.body, /<code>src\/db\.ts<\/code>/, "its files");
    assert.match(d.body, /session sess-alp/);
    assert.match(d.body, /salience \d\.\d\d/);
    assert.ok(!d.body.includes('class="done"'), "no Done for a memory that is no task");
    const long = await bed.get(`/memory?id=mem:${ids.decision.slice(0, 8)}`);
    assert.equal(long.status, 200, "any id form mem get takes");
    assert.match(long.body, new RegExp(`<h1 class="id">${ids.decision}</h1>`));
  });

  test("/memory of a markdown passage: no edit form, a note naming the file", async () => {
    const md = await bed.get("/memories?source=markdown&text=Backups");
    const [id] = dataOf(md.body, "id");
    const r = await bed.get(`/memory?id=${id}`);
    assert.equal(r.status, 200);
    assert.ok(!r.body.includes('class="edit"') && !r.body.includes('class="forget"'));
    assert.match(r.body, /<p class="note">This passage comes from <a [^>]*><code>[^<]*notes\/db\.md<\/code><\/a>, lines \d+–\d+: edit the file there/);
  });

  test("another project's memory is not found unless the address names that project", async () => {
    const r = await bed.get(`/memory?id=${ids.other}`);
    assert.equal(r.status, 404);
    assert.ok(!r.body.includes("secret plan"));
    const named = await bed.get(`/memory?id=${ids.other}&project=${encodeURIComponent(bed.other.id)}`);
    assert.equal(named.status, 200);
    assert.match(named.body, /The other project&#39;s secret plan/);
    assert.match(named.body, new RegExp(`name="project" value="${bed.other.id.replace(/[/.]/g, "\\$&")}"`), "its forms keep the project");
    const list = await bed.get(`/memories?project=${encodeURIComponent(bed.other.id)}`);
    assert.deepEqual(dataOf(list.body, "id"), [ids.other]);
    assert.match(list.body, new RegExp(`href="${bed.base}/memory\\?id=${ids.other}&amp;project=`), "its links keep the project");
  });

  test("/sources: the project's indexed files by root with chunk counts; /source: a file's chunks in order with lines and ids", async () => {
    const r = await bed.get("/sources");
    assert.equal(r.status, 200);
    const paths = dataOf(r.body, "path");
    assert.deepEqual(paths, [`${bed.tmp}/proj/notes/db.md`, `${bed.tmp}/proj/notes/deep/ops.md`]);
    assert.match(r.body, /<h2 class="root">[^<]*\/proj\/notes<\/h2>/);
    const counted = /<code>db\.md<\/code><\/a><span class="badge">markdown<\/span><span>warm tier<\/span><span>(\d+) chunks<\/span>/.exec(r.body);
    assert.ok(counted, "each file with its chunk count");
    assert.ok(!r.body.includes("session:"), "captured sessions are no files");
    const one = await bed.get(`/source?path=${encodeURIComponent(paths[0]!)}`);
    assert.equal(one.status, 200);
    const chunkIds = dataOf(one.body, "id");
    assert.equal(chunkIds.length, Number(counted[1]), "every chunk the count says");
    assert.ok(chunkIds.length >= 2);
    assert.match(one.body, /<ol class="chunks"><li data-id="[0-9a-f]{12}" value="1"><div class="meta"><a class="id" href="[^"]*\/memory\?id=[0-9a-f]{12}">[0-9a-f]{12}<\/a><span>lines 1–3<\/span>/);
    const starts = [...one.body.matchAll(/<span>lines (\d+)–(\d+)<\/span>/g)].map((m) => Number(m[1]));
    assert.deepEqual(starts, [...starts].sort((a, b) => a - b), "in the file's order, by line");
    assert.equal(starts.length, chunkIds.length);
    assert.ok(one.body.indexOf("WAL mode") < one.body.indexOf("Nightly copies"), "in the file's order");
    for (const id of chunkIds) assert.equal((await bed.get(`/memory?id=${id}`)).status, 200, "each chunk's id opens it");
    const other = await bed.get(`/source?path=${encodeURIComponent(paths[0]!)}&project=${encodeURIComponent(bed.other.id)}`);
    assert.equal(other.status, 404, "only files of the project shown");
    assert.equal((await bed.get("/source?path=session%3Asess-alpha-1")).status, 404);
    assert.equal((await bed.get("/source?path=%2Fetc%2Fpasswd")).status, 404);
    const rooted = await bed.get(`/sources?root=${encodeURIComponent(`${bed.tmp}/proj/notes/deep`)}`);
    assert.deepEqual(dataOf(rooted.body, "path"), [`${bed.tmp}/proj/notes/deep/ops.md`]);
  });

  test("/tasks: a blocked task shows its status and its reason, escaped", async () => {
    const store = new TaskStore(bed.app.db);
    const t = store.add(bed.home.id as never, "Rotate the signing keys" as never, Date.parse("2026-01-02T00:00:00Z"));
    blockTask(bed.app.db, t.id, `waiting for the HSM ${HOSTILE}` as never, Date.parse("2026-01-02T00:00:01Z"));
    const body = (await bed.get("/tasks")).body;
    const item = new RegExp(`<li class="item" data-task="${taskOneId(t.id)}" data-status="blocked">[\\s\\S]*?<span class="badge">blocked</span>[\\s\\S]*?<p class="warn blocked">Blocked: waiting for the HSM &lt;script&gt;alert\\(1\\)&lt;/script&gt;`);
    assert.match(body, item);
    assert.doesNotMatch(body, /<script>alert/);
    store.close(t.id, "deleted", Date.parse("2026-01-02T00:00:02Z"));
  });

  test("/tasks and /sources page 50 at a time, counted, in a stable order", async () => {
    const store = new TaskStore(bed.app.db);
    for (let i = 0; i < 53; i++) store.add(bed.home.id as never, `Paged task ${i}` as never, Date.parse("2026-01-01T00:00:00Z") + i * 1000);
    const first = await bed.get("/tasks");
    const second = await bed.get("/tasks?offset=50");
    const a = dataOf(first.body, "task");
    const b = dataOf(second.body, "task");
    assert.equal(a.length, 50);
    assert.ok(b.length >= 3);
    assert.equal(new Set([...a, ...b]).size, a.length + b.length, "no task on both pages");
    assert.match(first.body, /rel="next" href="[^"]*\/tasks\?offset=50"/);
    assert.match(first.body, new RegExp(`${a.length + b.length} open tasks`));
    for (let i = 0; i < 52; i++) bed.write(`notes/many/f${String(i).padStart(2, "0")}.md`, `# File ${i}\n\nPaged source number ${i}.\n`);
    await bed.index(bed.home, `${bed.tmp}/proj/notes`);
    const s1 = dataOf((await bed.get("/sources")).body, "path");
    const s2page = await bed.get("/sources?offset=50");
    const s2 = dataOf(s2page.body, "path");
    assert.deepEqual([s1.length, s2.length], [50, 4], "54 files: 50 and 4");
    assert.deepEqual([...s1, ...s2], [...s1, ...s2].sort(), "by path");
    assert.match(s2page.body, /51–54 of 54/);
  });
});
