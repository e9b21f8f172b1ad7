/**
 * The explorer in a real headless Chromium (issue 25), over a real `mem ui` child process: search
 * finds a memory, an edit is saved and searchable, forget removes it everywhere, and a request
 * without the token, from another host name or from another site's page is refused. Everything
 * goes through the page as a person uses it: typing, clicking, following links, the confirm
 * dialog. Skips (with the message) where no Chromium is installed; MEM_CHROMIUM=/nonexistent
 * forces that. Screenshots: test-output/screenshots/.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, SCREENSHOTS, screenshot, skipBrowser, startBed, submit, watchPage, type Bed } from "../helpers/browser.js";
import { jsonOf } from "../helpers/mem-cli.js";
import { rawRequest } from "../helpers/ui-child.js";

const opts = { skip: skipBrowser, timeout: 120_000 };

describe("mem ui in a browser: search, edit, forget, refusals", () => {
  let bed: Bed;
  let browser: Browser;
  let context: BrowserContext;
  /** Memories by the test that uses them; each holds a word no other text has. */
  const ids: Record<string, string> = {};
  const TEXTS = {
    found: "We keep the ledger in SQLite: zephyrine tables need no server.",
    edited: "The retry budget is three attempts with quokkaflux backoff.",
    forgotten: "Deploys switch traffic through the pelicanvault gateway.",
  };

  before(async () => {
    if (skipBrowser) return;
    bed = await startBed("core");
    ids.found = await bed.remember(TEXTS.found, "--kind", "decision", "--tags", "db");
    ids.edited = await bed.remember(TEXTS.edited, "--kind", "learned");
    ids.forgotten = await bed.remember(TEXTS.forgotten, "--kind", "note");
    ({ browser, context } = await launchBrowser());
  });
  after(async () => {
    await browser?.close();
    await bed?.stop();
    if (!skipBrowser) console.log(`screenshots: ${SCREENSHOTS}`);
  });

  /** A page of the explorer, its console errors, failed requests and HTTP errors collected. */
  async function open(): Promise<{ page: Page; problems: string[] }> {
    const page = await context.newPage();
    return { page, problems: watchPage(page) };
  }

  /** Types `words` in the search box of the page shown and submits it; resolves once the results are shown. */
  async function search(page: Page, words: string): Promise<void> {
    await page.fill("input[type=search][name=q]", words);
    await Promise.all([page.waitForURL((u) => u.pathname.endsWith("/search") && u.searchParams.get("q") === words), page.press("input[type=search][name=q]", "Enter")]);
    await page.waitForLoadState("load");
  }

  /** The memory each result stands for: its data-id resolved by `mem get` (any accepted id form) to the one id. */
  async function resultMemories(page: Page): Promise<string[]> {
    const dataIds = await page.$$eval("ol.results > li.result", (els) => els.map((e) => (e as HTMLElement).dataset.id ?? ""));
    const out: string[] = [];
    for (const d of dataIds) {
      const r = await bed.mem(["get", d, "--json"]);
      out.push(r.code === 0 ? jsonOf<{ memory: { id: string } }>(r).memory.id : `unresolved:${d}`);
    }
    return out;
  }

  /** From a search for `word`, follows the result's id link of memory `id` to its page. */
  async function openFromSearch(page: Page, word: string, id: string): Promise<void> {
    await page.goto(bed.url);
    await search(page, word);
    const memories = await resultMemories(page);
    const i = memories.indexOf(id);
    assert.ok(i >= 0, `a search for ${word} lists memory ${id}; it lists ${memories.join(", ") || "nothing"}`);
    await Promise.all([page.waitForURL((u) => u.pathname.endsWith("/memory")), page.locator("ol.results > li.result").nth(i).locator("a.id").click()]);
    await page.waitForLoadState("load");
    assert.match(await page.locator("h1").innerText(), new RegExp(id), "the memory page's h1 holds its one id");
  }

  test("a. search finds a memory: typed in the search box, the result list holds it, the address has ?q=", opts, async () => {
    const { page, problems } = await open();
    const resp = await page.goto(bed.url);
    assert.equal(resp?.status(), 200);
    assert.ok(new URL(page.url()).pathname.endsWith("/search"), `the token's root opens search: ${page.url()}`);
    await search(page, "zephyrine");
    assert.equal(new URL(page.url()).searchParams.get("q"), "zephyrine", "the search is in the address (bookmarkable)");
    assert.deepEqual(await resultMemories(page), [ids.found], "the one memory holding the word, by the id mem remember printed");
    const li = page.locator("ol.results > li.result").first();
    assert.match(await li.locator(".text").innerText(), /ledger in SQLite: zephyrine tables need no server/, "the memory's text is shown");
    assert.equal(await li.locator(".text mark").first().innerText(), "zephyrine", "the word searched for is marked");
    await screenshot(page, "search");

    // The address alone (a bookmark) shows the same results.
    const again = await open();
    await again.page.goto(page.url());
    assert.deepEqual(await resultMemories(again.page), [ids.found]);
    assert.deepEqual([...problems, ...again.problems], [], "no console error, failed request or HTTP error");
    await again.page.close();
    await page.close();
  });

  test("b. an edit is saved and searchable: edited on its page, found by its new words, no longer by its old one", opts, async () => {
    const { page, problems } = await open();
    await openFromSearch(page, "quokkaflux", ids.edited!);
    assert.match(await page.locator(".text").first().innerText(), /quokkaflux backoff/);
    await screenshot(page, "memory");
    const form = page.locator('form.edit[method=post][action$="/memory/edit"]');
    assert.equal(await form.locator("input[type=hidden][name=id]").count(), 1, "the form names the memory");
    await form.locator("textarea[name=text]").fill("The retry budget is five attempts with marmalite jitter.");
    await submit(page, form.getByRole("button", { name: "Save" }), "/memory/edit", (u) => u.pathname.endsWith("/memory") && u.searchParams.get("saved") === "1");
    assert.match(await page.locator(".notice").first().innerText(), /Saved/);
    assert.match(await page.locator(".text").first().innerText(), /marmalite jitter/, "the page shows the new text");

    const stored = jsonOf<{ memory: { text: string; kind: string } }>(await bed.mem(["get", ids.edited!, "--json"])).memory;
    assert.deepEqual([stored.text, stored.kind], ["The retry budget is five attempts with marmalite jitter.", "learned"], "stored as the CLI reads it, the kind kept");

    await page.locator("header nav a", { hasText: "Search" }).click();
    await page.waitForLoadState("load");
    await search(page, "marmalite");
    assert.deepEqual(await resultMemories(page), [ids.edited], "found by its new words");
    await search(page, "quokkaflux");
    assert.deepEqual(await resultMemories(page), [], "its old word finds nothing");
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("c. forget removes it everywhere: asked first (no when dismissed), then gone from search, the list and mem get", opts, async () => {
    const { page, problems } = await open();
    await openFromSearch(page, "pelicanvault", ids.forgotten!);
    const memoryPage = page.url();
    const form = page.locator('form.forget[method=post][action$="/memory/forget"][data-confirm]');
    assert.equal(await form.locator("input[type=hidden][name=id]").count(), 1);

    const dialogs: string[] = [];
    page.once("dialog", (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    await form.getByRole("button", { name: "Forget" }).click();
    await page.waitForTimeout(300);
    assert.equal(dialogs.length, 1, "the browser asked before forgetting");
    assert.match(dialogs[0]!, /^confirm: \S/);
    assert.equal(page.url(), memoryPage, "dismissed: still on the memory's page");
    assert.equal((await bed.mem(["get", ids.forgotten!])).code, 0, "dismissed: nothing forgotten");

    page.once("dialog", (d) => void d.accept());
    await submit(page, form.getByRole("button", { name: "Forget" }), "/memory/forget", (u) => u.pathname.endsWith("/memories") && u.searchParams.get("forgot") !== null);
    assert.match(await page.locator(".notice").first().innerText(), /forg[eo]t/i, "the page says it was forgotten");

    const cli = await bed.mem(["get", ids.forgotten!]);
    assert.notEqual(cli.code, 0, `mem get no longer finds it: ${cli.stdout}`);

    await page.locator("header nav a", { hasText: "Search" }).click();
    await search(page, "pelicanvault");
    assert.equal(await page.locator("ol.results > li.result").count(), 0, "search no longer finds it");
    assert.doesNotMatch(await page.locator("main").innerText(), /pelicanvault gateway/);

    await Promise.all([page.waitForURL((u) => u.pathname.endsWith("/memories")), page.locator("header nav a", { hasText: "Memories" }).click()]);
    await page.waitForLoadState("load");
    assert.equal(await page.locator(`ul.items > li.item[data-id="${ids.forgotten}"]`).count(), 0, "the memories list no longer holds it");
    assert.ok((await page.locator("ul.items > li.item").count()) >= 2, "the others are still listed");
    assert.doesNotMatch(await page.locator("main").innerText(), /pelicanvault/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("e. refused: no token (403, no memory text), another Host (421), another site's form POST (the memory stays)", opts, async () => {
    const { page } = await open();
    for (const path of ["/search?q=zephyrine", `/memory?id=${ids.found}`, "/", "/static/app.js"]) {
      const resp = await page.goto(`http://127.0.0.1:${bed.port}${path}`);
      assert.equal(resp?.status(), 403, `${path} without the token`);
      const body = await page.content();
      assert.doesNotMatch(body, /zephyrine|ledger/i, `${path} without the token shows no memory text`);
    }
    const wrong = `${"A".repeat(42)}B`;
    const bad = await page.goto(`http://127.0.0.1:${bed.port}/${wrong}/search?q=zephyrine`);
    assert.equal(bad?.status(), 403, "a wrong token of the right shape");
    assert.doesNotMatch(await page.content(), /zephyrine tables/);

    for (const host of ["evil.example", `evil.example:${bed.port}`, `127.0.0.1.evil.example:${bed.port}`, `127.0.0.1:${bed.port + 1}`]) {
      const r = await rawRequest(bed.port, `/${bed.token}/search?q=zephyrine`, { Host: host });
      assert.equal(r.status, 421, `Host: ${host}`);
      assert.doesNotMatch(r.body, /zephyrine tables/);
    }
    assert.equal((await rawRequest(bed.port, `/${bed.token}/search?q=zephyrine`, { Host: `127.0.0.1:${bed.port}` })).status, 200, "the right Host and token: answered");

    // Another site in the same browser knows the address (token and all): it can neither read a page nor post a forget.
    const forgetUrl = bed.at("/memory/forget");
    const evil = await serve(`<!doctype html><title>cats</title>
<form id="f" method="post" action="${forgetUrl}"><input type="hidden" name="id" value="${ids.found}"></form>
<script>document.getElementById("f").submit();</script>`);
    try {
      await page.goto(`http://127.0.0.1:${evil.port}/read`);
      const read = await page.evaluate(async (u) => {
        try {
          return `read ${(await (await fetch(u)).text()).length} characters`;
        } catch {
          return "blocked";
        }
      }, bed.at("/search?q=zephyrine"));
      assert.equal(read, "blocked", "another site's script cannot read a page (no CORS)");

      const posted = page.waitForResponse((r) => r.url() === forgetUrl && r.request().method() === "POST");
      await page.goto(`http://127.0.0.1:${evil.port}/`);
      const resp = await posted;
      assert.equal(await resp.request().headerValue("origin"), `http://127.0.0.1:${evil.port}`, "the browser said where the form came from");
      assert.equal(resp.status(), 403, "a change from another site's page is refused");
      assert.equal((await bed.mem(["get", ids.found!])).code, 0, "the memory is still there");
      const check = await open();
      await check.page.goto(bed.at("/search?q=zephyrine"));
      assert.deepEqual(await resultMemories(check.page), [ids.found], "and still found by search");
      await check.page.close();
    } finally {
      await evil.close();
    }
    await page.close();
  });
});

/** Another site: `page` at / of another port of 127.0.0.1, an empty page at any other path. */
async function serve(page: string): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(req.url === "/" ? page : "<!doctype html><title>cats</title><p>cats");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const addr = server.address();
  return {
    port: typeof addr === "object" && addr ? addr.port : 0,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
