/**
 * The explorer's changes over a real store and real HTTP, each read back the way the CLI reads it:
 * edit (then found by search), forget (gone from /memories, /search and `mem get`), a task done,
 * a memory added; refused input shown on its form with nothing lost; another project's memory or
 * task untouched unless the address names that project; a change from another origin refused, a
 * GET on a change's path refused; a running daemon told after a write.
 */
import assert from "node:assert/strict";
import { chmodSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { after, before, describe, test } from "node:test";
import { socketPath } from "../../src/daemon/paths.cjs";
import { idOf } from "../../src/service/convert.js";
import { searchMemories } from "../../src/service/search.js";
import { MAX_MEMORY_CHARS } from "../../src/service/types.js";
import { taskOneId } from "../../src/store/task-ids.js";
import { TaskStore } from "../../src/store/tasks.js";
import { runMem, show } from "../helpers/mem-cli.js";
import { type Bed, dataOf, openBed, redirected } from "./browse-bed.js";

describe("mem ui: correct", () => {
  let bed: Bed;
  const put = (text: string, kind = "decision", project?: string) => idOf(bed.ctx.svc.put({ text, kind, project: project ?? bed.home.id }).memory);
  const found = async (words: string) => (await searchMemories(bed.app, { text: words, project: bed.home, mode: "bm25" })).results.map((r) => r.id.slice(0, 12)); // a result's chunk id starts with the one id
  before(async () => {
    bed = await openBed("correct");
  });
  after(() => bed.close());

  test("edit: saved through the service, the old version kept, found by search and /search with the new words", async () => {
    const id = put("Logs rotate weekly by cron.");
    const r = await bed.post("/memory/edit", { id, text: "Logs rotate daily\r\nby logrotate, kept fourteen days.", kind: "learned", tags: "ops, logs" });
    assert.equal(redirected(bed, r), `/memory?id=${id}&saved=1`);
    const m = bed.ctx.svc.get(id, { history: true });
    assert.deepEqual([m.text, m.kind, m.tags], ["Logs rotate daily\nby logrotate, kept fourteen days.", "learned", ["ops", "logs"]], "a textarea's CRLF stored as LF");
    assert.deepEqual(m.history?.map((h) => h.text), ["Logs rotate weekly by cron."]);
    const page = await bed.get(`/memory?id=${id}&saved=1`);
    assert.match(page.body, /<p class="notice ok">Saved\.<\/p>/);
    assert.match(page.body, /<div class="text">Logs rotate daily\nby logrotate/);
    assert.ok((await found("logrotate fourteen")).includes(id), "searchMemories finds the new text");
    assert.deepEqual(await found("cron weekly"), [], "and no longer the old");
    assert.ok(dataOf((await bed.get("/search?q=logrotate")).body, "id").includes(id), "/search finds it (its results carry the one id)");
    const same = await bed.post("/memory/edit", { id, text: m.text, kind: "learned", tags: "ops,logs" });
    assert.equal(redirected(bed, same), `/memory?id=${id}&unchanged=1`, "nothing changed: nothing written");
    assert.equal(bed.ctx.svc.get(id, { history: true }).history?.length, 1);
  });

  test("edit refused (empty, too long, a bad kind): the form again, the reason, what was typed kept, nothing stored", async () => {
    const id = put("Ports below 1024 need root.", "learned");
    const cases: [{ text: string; kind: string; tags: string }, RegExp][] = [
      [{ text: "   ", kind: "learned", tags: "" }, /text must be a non-empty string/],
      [{ text: `Long <b>typed</b> ${"x".repeat(MAX_MEMORY_CHARS)}`, kind: "learned", tags: "" }, /at most 5,000/],
      [{ text: "Ports below 1024 need root or CAP_NET_BIND_SERVICE.", kind: "gossip", tags: "net" }, /kind must be one of decision, rejected, learned, preference, task, note/],
      [{ text: "Ports below 1024 need root.", kind: "learned", tags: "bad tag!" }, /bad tag/],
    ];
    for (const [fields, why] of cases) {
      const r = await bed.post("/memory/edit", { id, ...fields });
      assert.equal(r.status, 400, fields.text.slice(0, 30));
      assert.match(r.body, /<p class="notice bad" role="alert">Not saved: /);
      assert.match(r.body, why);
      assert.match(r.body, /<form class="edit" method="post"/);
      const escaped = fields.text.replace(/</g, "&lt;").replace(/>/g, "&gt;");
      assert.ok(r.body.includes(`<textarea name="text">\n${escaped}</textarea>`), "the typed text, escaped, still in the box");
      assert.ok(r.body.includes(`name="kind" value="${fields.kind}"`) && r.body.includes(`name="tags" value="${fields.tags}"`));
    }
    const m = bed.ctx.svc.get(id, { history: true });
    assert.deepEqual([m.text, m.kind, m.history?.length ?? 0], ["Ports below 1024 need root.", "learned", 0], "nothing stored");
  });

  test("forget: gone from /memories, /search, searchMemories and mem get", async () => {
    const id = put("Feature flags live in flags.toml, read at start.");
    assert.ok(dataOf((await bed.get("/memories")).body, "id").includes(id));
    assert.ok((await found("flags.toml")).includes(id));
    assert.ok(dataOf((await bed.get("/search?q=flags.toml")).body, "id").includes(id), "in /search before");
    const page = await bed.get(`/memory?id=${id}`);
    assert.match(page.body, /<form class="forget" method="post" action="[^"]*\/memory\/forget" data-confirm="Forget memory [0-9a-f]{12}\?/);
    const r = await bed.post("/memory/forget", { id });
    assert.equal(redirected(bed, r), `/memories?forgot=${id}`);
    const list = await bed.get(`/memories?forgot=${id}`);
    assert.match(list.body, new RegExp(`<p class="notice ok">Forgot memory <code>${id}</code>`));
    assert.ok(!dataOf(list.body, "id").includes(id), "not in /memories");
    assert.ok(!dataOf((await bed.get("/search?q=flags.toml")).body, "id").includes(id), "not in /search");
    assert.deepEqual(await found("flags.toml"), []);
    assert.equal((await bed.get(`/memory?id=${id}`)).status, 404);
    const cli = await runMem(["get", id], { env: bed.env, cwd: bed.tmp });
    assert.equal(cli.code, 1, show(cli));
    assert.match(cli.stderr, /was forgotten/);
    assert.equal((await bed.post("/memory/forget", { id })).status, 404, "twice: not found");
  });

  test("a task: Done on /tasks and on its memory's page closes it as mem task done does", async () => {
    const a = put("Write the explorer's browser tests", "task");
    const b = put("Measure page load at 100k chunks", "task");
    const store = new TaskStore(bed.app.db);
    const open = store.list({ project: bed.home.id });
    const taskA = open.find((t) => t.content.startsWith("Write the explorer"))!;
    const taskB = open.find((t) => t.content.startsWith("Measure page load"))!;
    const [A, B] = [taskOneId(taskA.id), taskOneId(taskB.id)]; // shown by their one id
    const list = await bed.get("/tasks");
    assert.equal(list.status, 200);
    assert.deepEqual(dataOf(list.body, "task"), [B, A], "open tasks, newest first");
    assert.match(list.body, new RegExp(`<li class="item" data-task="${A}"[^>]*>[\\s\\S]*?<form class="done" method="post" action="[^"]*/task/done"><input type="hidden" name="id" value="${A}"><button type="submit">Done</button>`));
    const r = await bed.post("/task/done", { id: A });
    assert.equal(redirected(bed, r), `/tasks?done=${A}`);
    assert.deepEqual([store.get(taskA.id)?.status, store.get(taskA.id)?.closedAt !== null], ["completed", true]);
    const after_ = await bed.get(`/tasks?done=${A}`);
    assert.match(after_.body, new RegExp(`Task ${A} is done`));
    assert.deepEqual(dataOf(after_.body, "task"), [B], "gone from the open tasks");
    const closed = await bed.get("/tasks?closed=1");
    assert.match(closed.body, new RegExp(`<h2>Recently closed</h2><ul class="items closed"><li class="item" data-task="${A}" data-status="completed">`));
    assert.ok(!/<ul class="items closed">[\s\S]*class="done"/.test(closed.body), "no Done for a closed task");
    assert.ok(!(await bed.get(`/memory?id=${a}`)).body.includes('class="done"'), "nor on its memory");
    const page = await bed.get(`/memory?id=${b}`);
    assert.match(page.body, new RegExp(`<form class="done" method="post" action="[^"]*/task/done"><input type="hidden" name="id" value="${B}"><input type="hidden" name="memory" value="${b}">`));
    const viaMemory = await bed.post("/task/done", { id: String(taskB.id), memory: b }); // its older number: an alias
    assert.equal(redirected(bed, viaMemory), `/memory?id=${b}&done=1`);
    assert.equal(store.get(taskB.id)?.status, "completed");
    const cli = await runMem(["task", "list", "--json", "--project", bed.home.id], { env: bed.env, cwd: bed.tmp });
    assert.deepEqual((JSON.parse(cli.stdout) as { tasks: unknown[] }).tasks, [], "mem task list: none open");
    assert.equal((await bed.post("/task/done", { id: "99999" })).status, 404);
    assert.equal((await bed.post("/task/done", { id: "1; DROP" })).status, 400);
    assert.equal((await bed.post("/task/done", { id: "abcdef123456" })).status, 404);
    assert.match((await bed.post("/task/done", { id: "3c" })).body, /give at least 6 characters of the id/);
  });

  test("add: stored through the service into the project, then its page; refused input back on the form, nothing lost", async () => {
    const form = await bed.get("/memories/new");
    assert.equal(form.status, 200);
    assert.match(form.body, /<form class="add" method="post" action="[^"]*\/memories\/new">/);
    assert.match(form.body, /<select name="kind">(<option value="\w+"( selected)?>\w+<\/option>){6}<\/select>/);
    const r = await bed.post("/memories/new", { text: "Releases are cut on Tuesdays, never on Fridays.", kind: "decision", tags: "release, process" });
    const to = redirected(bed, r);
    const id = /^\/memory\?id=([0-9a-f]{12})&added=1$/.exec(to)?.[1];
    assert.ok(id, to);
    const m = bed.ctx.svc.get(id);
    assert.deepEqual([m.text, m.kind, m.tags, m.project, m.source], ["Releases are cut on Tuesdays, never on Fridays.", "decision", ["release", "process"], bed.home.id, "explicit"]);
    assert.match((await bed.get(to)).body, /<p class="notice ok">Added\.<\/p>/);
    assert.ok((await found("Tuesdays Fridays")).includes(id), "searchable at once");
    const secret = await bed.post("/memories/new", { text: "Deploy key is AKIAIOSFODNN7EXAMPLE for staging.", kind: "learned" });
    const sid = /id=([0-9a-f]{12})/.exec(redirected(bed, secret))![1]!;
    assert.ok(!bed.ctx.svc.get(sid).text.includes("AKIAIOSFODNN7EXAMPLE"), "redacted before it is stored");
    const refused: [Record<string, string>, RegExp][] = [
      [{ text: "", kind: "note", tags: "" }, /text must be a non-empty string/],
      [{ text: `Too long ${"y".repeat(MAX_MEMORY_CHARS)}`, kind: "note", tags: "keep-me" }, /at most 5,000/],
      [{ text: "A fine text with a bad kind", kind: "rumour", tags: "" }, /kind must be one of/],
    ];
    for (const [fields, why] of refused) {
      const bad = await bed.post("/memories/new", fields);
      assert.equal(bad.status, 400);
      assert.match(bad.body, /<p class="notice bad" role="alert">Not added: /);
      assert.match(bad.body, why);
      assert.ok(bad.body.includes(`<textarea name="text" placeholder="We chose … because …">\n${fields.text}</textarea>`), "the typed text kept");
      assert.ok(bad.body.includes(`name="tags" value="${fields.tags}"`));
    }
    const typo = await bed.post("/memories/new", { text: "Into a project that is not there", kind: "note", project: "no-such-project" });
    assert.equal(typo.status, 400);
    assert.match(typo.body, /no project &quot;no-such-project&quot; is stored/);
  });

  test("another project's memory and task: not found (and untouched) unless the form names that project", async () => {
    const id = put("The other project's deploy checklist", "decision", bed.other.id);
    const enc = encodeURIComponent(bed.other.id);
    assert.equal((await bed.get(`/memory?id=${id}`)).status, 404);
    assert.equal((await bed.post("/memory/edit", { id, text: "overwritten", kind: "decision", tags: "" })).status, 404);
    assert.equal((await bed.post("/memory/forget", { id })).status, 404);
    assert.equal(bed.ctx.svc.get(id).text, "The other project's deploy checklist", "untouched");
    const task = new TaskStore(bed.app.db).add(bed.other.id as never, "Their task" as never, Date.now());
    assert.equal((await bed.post("/task/done", { id: String(task.id) })).status, 404);
    assert.equal(new TaskStore(bed.app.db).get(task.id)?.closedAt, null);
    assert.ok(!dataOf((await bed.get("/tasks")).body, "task").includes(taskOneId(task.id)));
    // Named: the user's own choice.
    const edited = await bed.post("/memory/edit", { id, text: "The other project's deploy checklist, reviewed", kind: "decision", tags: "", project: bed.other.id });
    assert.equal(redirected(bed, edited), `/memory?id=${id}&saved=1&project=${enc}`);
    assert.equal(bed.ctx.svc.get(id).text, "The other project's deploy checklist, reviewed");
    assert.equal(redirected(bed, await bed.post("/task/done", { id: String(task.id), project: bed.other.id })), `/tasks?done=${taskOneId(task.id)}&project=${enc}`);
    const added = await bed.post("/memories/new", { text: "Filed under the other project", kind: "note", project: bed.other.id });
    const nid = /id=([0-9a-f]{12})/.exec(redirected(bed, added))![1]!;
    assert.equal(bed.ctx.svc.get(nid).project, bed.other.id);
    assert.equal(redirected(bed, await bed.post("/memory/forget", { id, project: bed.other.id })), `/memories?forgot=${id}&project=${enc}`);
  });

  test("a change from another origin, or a GET on a change's path, is refused and changes nothing", async () => {
    const id = put("Origin checks guard every change.");
    for (const origin of ["http://evil.example", "null", `http://127.0.0.1:${bed.server.port + 1}`]) {
      const r = await bed.post("/memory/forget", { id }, { origin });
      assert.equal(r.status, 403, origin);
    }
    assert.equal((await bed.post("/memory/edit", { id, text: "changed", kind: "decision", tags: "" }, { origin: bed.origin, "sec-fetch-site": "cross-site" })).status, 403);
    assert.equal((await bed.post("/memories/new", { text: "planted", kind: "note" }, { origin: "http://evil.example" })).status, 403);
    assert.equal(bed.ctx.svc.get(id).text, "Origin checks guard every change.");
    assert.equal(dataOf((await bed.get("/memories?text=planted")).body, "id").length, 0);
    for (const path of ["/memory/edit", "/memory/forget", "/task/done"]) {
      const r = await fetch(`${bed.origin}${bed.base}${path}?id=${id}`, { redirect: "manual" });
      assert.equal(r.status, 405, path);
      assert.equal(r.headers.get("allow"), "POST");
    }
    assert.equal((await fetch(`${bed.origin}/wrong-token/memories`)).status, 403);
    assert.ok(bed.ctx.svc.get(id));
  });

  test("after an add or an edit, a running daemon is told the project has chunks to embed", async () => {
    const seen: Record<string, unknown>[] = [];
    const sock = socketPath(bed.app.paths.home);
    chmodSync(bed.app.paths.home, 0o700);
    const fake: Server = createServer((c) => {
      let buf = "";
      c.setEncoding("utf8").on("data", (d: string) => {
        buf += d;
        const nl = buf.indexOf("\n");
        if (nl < 0) return;
        seen.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
        c.end(`${JSON.stringify({ ok: true })}\n`);
      });
    });
    await new Promise<void>((resolve) => fake.listen(sock, resolve));
    const saved = process.env.MEM_NO_DAEMON;
    delete process.env.MEM_NO_DAEMON;
    try {
      const r = await bed.post("/memories/new", { text: "The daemon embeds what the explorer adds.", kind: "learned" });
      const id = /id=([0-9a-f]{12})/.exec(redirected(bed, r))![1]!;
      assert.deepEqual(seen.map((s) => [s.op, s.project]), [["sync", bed.home.id]]);
      redirected(bed, await bed.post("/memory/edit", { id, text: "The daemon embeds what the explorer adds or edits.", kind: "learned", tags: "" }));
      assert.deepEqual(seen.map((s) => [s.op, s.project]), [["sync", bed.home.id], ["sync", bed.home.id]]);
    } finally {
      if (saved !== undefined) process.env.MEM_NO_DAEMON = saved;
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  });
});
