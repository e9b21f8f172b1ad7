/**
 * The explorer's views in a real headless Chromium over a real `mem ui` child process (issue 25):
 * the injection view shows a real prompt hook run (its injected text and candidates), every view
 * of the header loads without a console error (a CSP violation is one) or a failed request and
 * has an h1, the links between views lead where they say, and adding a memory or closing a task
 * through their forms is stored. Screenshots of each view: test-output/screenshots/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { VIEWS } from "../../src/web/layout.js";
import { launchBrowser, SCREENSHOTS, screenshot, skipBrowser, startBed, submit, watchPage, type Bed } from "../helpers/browser.js";
import { jsonOf, show } from "../helpers/mem-cli.js";

const opts = { skip: skipBrowser, timeout: 120_000 };
const SESSION = "e2e-session-1";
const PROMPT = "why did we choose SQLite over Postgres for the ledger";
const DECISION = "We chose SQLite over Postgres for the ledger because it needs no server.";
const HOSTILE = `Escaping check: <script>alert("mem")</script> <img src=x onerror=alert(1)> "quoted" ] end`;
const TASK = "Write the browser tests for the explorer";

describe("mem ui in a browser: the views", () => {
  let bed: Bed;
  let browser: Browser;
  let context: BrowserContext;
  const ids: Record<string, string> = {};

  before(async () => {
    if (skipBrowser) return;
    bed = await startBed("views");
    ids.decision = await bed.remember(DECISION, "--kind", "decision", "--tags", "db");
    ids.hostile = await bed.remember(HOSTILE, "--kind", "note", "--tags", "risk");
    const task = await bed.mem(["task", "add", TASK]);
    assert.equal(task.code, 0, show(task));
    ({ browser, context } = await launchBrowser());
  });
  after(async () => {
    await browser?.close();
    await bed?.stop();
    if (!skipBrowser) console.log(`screenshots: ${SCREENSHOTS}`);
  });

  /** A page of the explorer; what it complains about (console errors, failed requests, HTTP errors, any dialog: the explorer opens none unasked) is collected. */
  async function open(): Promise<{ page: Page; problems: string[] }> {
    const page = await context.newPage();
    const problems = watchPage(page);
    page.on("dialog", (d) => {
      problems.push(`dialog: ${d.type()} ${d.message()}`);
      void d.dismiss();
    });
    return { page, problems };
  }

  /** Clicks the header's link to `label`; resolves to the page's HTTP status once it has loaded. */
  async function nav(page: Page, label: string, path: string): Promise<number> {
    const [resp] = await Promise.all([
      page.waitForResponse((r) => r.request().isNavigationRequest() && new URL(r.url()).pathname.endsWith(path)),
      page.locator("header nav").getByRole("link", { name: label, exact: true }).click(),
    ]);
    await page.waitForLoadState("load");
    return resp.status();
  }

  /** Follows the link `link` to a page whose path ends with `path`; its HTTP status. */
  async function follow(page: Page, link: ReturnType<Page["locator"]>, path: string): Promise<number> {
    const [resp] = await Promise.all([page.waitForResponse((r) => r.request().isNavigationRequest() && new URL(r.url()).pathname.endsWith(path)), link.click()]);
    await page.waitForLoadState("load");
    return resp.status();
  }

  test("d. the injection view shows a real hook run: its injected text, latency and candidates", opts, async () => {
    const payload = { session_id: SESSION, cwd: bed.proj, transcript_path: join(bed.tmp, "no-transcript.jsonl") };
    const start = await bed.mem(["hook", "session-start"], JSON.stringify({ ...payload, hook_event_name: "SessionStart", source: "startup" }));
    assert.equal(start.code, 0, show(start));
    const run = await bed.mem(["hook", "user-prompt-submit"], JSON.stringify({ ...payload, hook_event_name: "UserPromptSubmit", prompt: PROMPT }));
    assert.equal(run.code, 0, show(run));
    const recall = (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.ok(recall.includes(DECISION) && recall.includes(ids.decision!), `the hook injected the decision\n${recall}`);

    const { page, problems } = await open();
    await page.goto(bed.url);
    assert.equal(await nav(page, "Prompts", "/prompts"), 200);
    const runs = await page.$$eval("table.prompts > tbody > tr[data-run]", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.run ?? ""));
    assert.ok(runs.length >= 2, `the briefing and the prompt are listed: runs ${runs.join(", ")}`);
    await screenshot(page, "prompts");
    assert.ok(runs.every((id) => /^[0-9a-f]{12}$/.test(id)), `each run by its one id: ${runs.join(", ")}`);
    const last = runs[0]!; // newest first: the prompt
    const row = page.locator(`table.prompts > tbody > tr[data-run="${last}"]`);
    assert.match(await row.innerText(), /\d/, "the row gives the latency and the count injected");
    assert.equal(await follow(page, row.locator('a[href*="/prompt?id="]').first(), "/prompt"), 200);
    assert.equal(new URL(page.url()).searchParams.get("id"), last);

    const injected = await page.locator("section.injected pre").first().innerText();
    assert.ok(injected.includes(DECISION), `the injected text is shown as the hook printed it\n${injected}`);
    assert.ok(injected.includes(ids.decision!), "with the memory's id");
    assert.match(await page.locator("main").innerText(), /\d+(\.\d+)?\s?ms/, "the latency");
    const fates = await page.$$eval("table.candidates > tbody > tr[data-fate]", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.fate ?? ""));
    assert.ok(fates.includes("injected"), `the candidates and their fates: ${fates.join(", ")}`);
    assert.ok(fates.every((f) => ["injected", "floor", "budget", "excluded"].includes(f)), fates.join(", "));
    assert.equal(fates.filter((f) => f === "injected").length, (recall.match(/^- \[/gm) ?? []).length, "as many candidates injected as the hook's text holds items");
    await screenshot(page, "prompt");

    assert.equal(await nav(page, "Sessions", "/sessions"), 200);
    const item = page.locator(`ul.items > li.item[data-session="${SESSION}"]`);
    assert.equal(await item.count(), 1, "the session is listed");
    assert.equal(await follow(page, item.locator('a[href*="/session?id="]').first(), "/session"), 200);
    const types = await page.$$eval("ol.timeline > li[data-type]", (lis) => lis.map((li) => (li as HTMLElement).dataset.type ?? ""));
    assert.ok(types.includes("prompt"), `the session's timeline holds the prompt: ${types.join(", ")}`);
    assert.ok(types.includes("briefing"), `and the briefing it got: ${types.join(", ")}`);
    assert.ok(types.indexOf("briefing") < types.indexOf("prompt"), "in time order");
    await screenshot(page, "session");
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("f. every view of the header loads without a console error or failed request and has an h1", opts, async () => {
    const { page, problems } = await open();
    await page.goto(bed.url);
    assert.deepEqual(await page.locator("header nav a").allInnerTexts(), VIEWS.map((v) => v.label), "the header links every view");
    /** What each view must hold of the bed's data (the page contract, UI-BRIEF.md). */
    const holds: Record<string, () => Promise<string | undefined>> = {
      "/memories": async () => {
        if ((await page.locator(`ul.items > li.item[data-id="${ids.decision}"]`).count()) !== 1) return "the decision is not listed by its one id";
        const hostile = page.locator(`ul.items > li.item[data-id="${ids.hostile}"]`);
        if (!(await hostile.innerText()).includes(`<script>alert("mem")</script>`)) return "stored markup is not shown as text";
        if ((await page.getByRole("link", { name: "Add a memory" }).count()) !== 1) return 'no link "Add a memory"';
        return undefined;
      },
      "/tasks": async () => ((await page.locator("ul.items > li.item[data-task]", { hasText: TASK }).count()) === 1 ? undefined : "the open task is not listed"),
      "/sessions": async () => ((await page.locator(`ul.items > li.item[data-session="${SESSION}"]`).count()) === 1 ? undefined : "the session is not listed"),
      "/prompts": async () => ((await page.locator("table.prompts > tbody > tr[data-run]").count()) >= 2 ? undefined : "the hook runs are not listed"),
      "/sources": async () => ((await page.locator("ul.items > li.item[data-path]").count()) === 2 ? undefined : "not the two notes"),
      "/health": async () => {
        if ((await page.locator(".cards > .card").count()) === 0) return "no cards";
        return (await page.locator("svg.chart").count()) === 0 ? "no latency chart" : undefined;
      },
    };
    const failures: string[] = [];
    for (const v of VIEWS) {
      const seen = problems.length;
      const status = await nav(page, v.label, v.path);
      const h1 = await page.locator("h1").count();
      const current = await page.locator("header nav a[aria-current=page]").allInnerTexts();
      const wrong = status === 200 ? await holds[v.path]?.() : undefined;
      const trouble = [...(status === 200 ? [] : [`HTTP ${status}`]), ...(h1 === 0 ? ["no h1"] : []), ...(current.join() === v.label ? [] : [`the header marks ${current.join() || "nothing"}`]), ...(wrong ? [wrong] : []), ...problems.slice(seen)];
      if (trouble.length > 0) failures.push(`${v.path}: ${trouble.join("; ")}`);
      if (v.path !== "/search") await screenshot(page, v.path.slice(1)); // search.png: with results, by browser.test.ts
    }
    assert.equal(failures.length, 0, `views with trouble:\n${failures.join("\n")}`);
  });

  test("links between views: search → legs of the query, sources → a source's chunks, memories → add", opts, async () => {
    const { page, problems } = await open();
    await page.goto(bed.at(`/search?q=${encodeURIComponent(PROMPT)}`));
    assert.ok((await page.locator("ol.results > li.result").count()) >= 2, "the decision and the note");
    assert.equal(await follow(page, page.getByRole("link", { name: /how the legs weigh/ }), "/legs"), 200);
    assert.equal(new URL(page.url()).searchParams.get("q"), PROMPT, "the query carried over");
    assert.ok((await page.locator("table.legs > tbody > tr").count()) >= 2, `a row per candidate: ${await page.locator("main").innerText()}`);
    await screenshot(page, "legs");

    assert.equal(await nav(page, "Sources", "/sources"), 200);
    const note = page.locator("ul.items > li.item[data-path]").filter({ hasText: "storage.md" });
    assert.equal(await follow(page, note.locator('a[href*="/source?path="]').first(), "/source"), 200);
    const chunks = page.locator("ol.chunks > li[data-id]");
    assert.ok((await chunks.count()) >= 1, "the note's chunks");
    assert.match(await page.locator("main").innerText(), /online backup API/, "with their text");
    await screenshot(page, "source");

    assert.equal(await nav(page, "Memories", "/memories"), 200);
    assert.equal(await follow(page, page.getByRole("link", { name: "Add a memory" }), "/memories/new"), 200);
    const form = page.locator('form.add[method=post][action$="/memories/new"]');
    await form.locator("textarea[name=text]").fill("Prefer small focused modules; the lumenwick rule.");
    await form.locator("select[name=kind]").selectOption("preference");
    await form.locator("input[name=tags]").fill("style, modules");
    await submit(page, form.getByRole("button", { name: "Add" }), "/memories/new", (u) => u.pathname.endsWith("/memory") && u.searchParams.get("added") === "1");
    const added = new URL(page.url()).searchParams.get("id")!;
    assert.match(await page.locator("h1").innerText(), new RegExp(added));
    const stored = jsonOf<{ memory: { text: string; kind: string; tags: string[]; source: string } }>(await bed.mem(["get", added, "--json"])).memory;
    assert.deepEqual([stored.text, stored.kind, stored.tags, stored.source], ["Prefer small focused modules; the lumenwick rule.", "preference", ["style", "modules"], "explicit"]);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("a task is closed from the tasks view: gone from the open ones, done for mem task list", opts, async () => {
    const { page, problems } = await open();
    await page.goto(bed.url);
    assert.equal(await nav(page, "Tasks", "/tasks"), 200);
    const item = page.locator("ul.items > li.item[data-task]", { hasText: TASK });
    const done = item.locator('form.done[method=post][action$="/task/done"]');
    assert.equal(await done.locator("input[type=hidden][name=id]").count(), 1);
    await submit(page, done.getByRole("button", { name: "Done" }), "/task/done", (u) => u.pathname.endsWith("/tasks"));
    const listed = jsonOf<{ tasks: { content: string }[] }>(await bed.mem(["task", "list", "--json"])).tasks;
    assert.deepEqual(listed.filter((t) => t.content === TASK), [], "no longer open for mem task list");
    assert.equal(await page.locator("ul.items > li.item[data-task]", { hasText: TASK }).locator("form.done").count(), 0, "no Done button for it any more");
    assert.deepEqual(problems, []);
    await page.close();
  });
});
