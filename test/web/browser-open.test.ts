/**
 * The opening page in a real headless Chromium (issue 29): the browser is given only the private
 * page's file:// address, and it lands on the explorer's search page (the explorer's strict CSP
 * holds there: no console error); the same page opened again leads to a refusal, never to the
 * token. Skips (with the message) where no Chromium is installed.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext } from "playwright-core";
import { openLink } from "../../src/web/guard.js";
import { writeOpenPage } from "../../src/web/open-page.js";
import { launchBrowser, skipBrowser, startBed, watchPage, type Bed } from "../helpers/browser.js";

const opts = { skip: skipBrowser, timeout: 120_000 };

describe("the opening page in a browser", () => {
  let bed: Bed;
  let browser: Browser;
  let context: BrowserContext;
  before(async () => {
    if (skipBrowser) return;
    bed = await startBed("open-page");
    ({ browser, context } = await launchBrowser());
  });
  after(async () => {
    await browser?.close();
    await bed?.stop();
  });

  test("file:// page → the search page once; opened again → refused, and no address the browser visits holds the token", opts, async () => {
    const fileUrl = writeOpenPage(bed.home, openLink(bed.token, bed.port, "/search?q=SQLite", Date.now()));
    assert.ok(!fileUrl.includes(bed.token));
    const page = await context.newPage();
    const problems = watchPage(page);
    await Promise.all([page.waitForURL((u) => u.pathname === `/${bed.token}/search`), page.goto(fileUrl)]);
    await page.waitForLoadState("load");
    assert.equal(new URL(page.url()).searchParams.get("q"), "SQLite");
    assert.ok((await page.locator("input[type=search][name=q]").count()) === 1, "the explorer's search page");
    assert.deepEqual(problems, [], "no CSP violation, no failed request");

    const second = await context.newPage();
    const visited: string[] = [];
    second.on("request", (r) => visited.push(r.url()));
    await second.goto(fileUrl);
    await second.waitForFunction(() => location.protocol === "http:", undefined, { timeout: 20_000 });
    await second.waitForLoadState("load");
    assert.match(await second.locator("body").innerText(), /used already/);
    assert.ok(!second.url().includes(bed.token), second.url());
    assert.ok(visited.every((u) => !u.includes(bed.token)), visited.join("\n"));
  });
});
