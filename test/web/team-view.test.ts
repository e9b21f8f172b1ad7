/**
 * The explorer's Team view (a real `mem ui` child over a real store, a real git work tree): the
 * team's records grouped by status (in force, rejected, superseded with its successor, proposed),
 * each with its author, date and file, read-only, every stored value escaped; over HTTP, and in a
 * real headless Chromium (no console error, no dialog, the header's Team link leads there).
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext } from "playwright-core";
import { launchBrowser, screenshot, skipBrowser, startBed, watchPage, type Bed } from "../helpers/browser.js";
import { show } from "../helpers/mem-cli.js";

const HOSTILE_TITLE = `Escape <script>alert("team")</script> <img src=x onerror=alert(1)> titles`;

describe("the explorer's Team view", () => {
  let bed: Bed;
  let local = "";
  before(async () => {
    bed = await startBed("team");
    const dec = join(bed.proj, "docs", "decisions");
    mkdirSync(dec, { recursive: true });
    local = await bed.remember("Use Kafka for the event bus", "--kind", "decision");
    writeFileSync(join(dec, "kafka.md"), "---\nstatus: accepted\ndate: 2026-11-28\ndecision-makers: Ada Lovelace\n---\n# Event bus\n\nUse Kafka for the event bus.\n");
    writeFileSync(join(dec, "mongo.md"), "---\nstatus: superseded by kafka.md\ndate: 2024-01-10\ndecision-makers: Bob\n---\n# Use MongoDB for events\n");
    writeFileSync(join(dec, "redis.md"), "# Cache sessions in Redis\n\nDate: 2023-05-05\n\n## Status\n\nDeprecated\n");
    writeFileSync(join(dec, "k8s.md"), "---\nstatus: rejected\ndate: 2026-09-09\ndecision-makers: Carol\n---\n# Run our own Kubernetes cluster\n");
    writeFileSync(join(dec, "graphql.md"), `---\nstatus: proposed\ndate: 2026-11-20\ndecision-makers: "Mallory <img src=x onerror=alert(2)>"\n---\n# ${HOSTILE_TITLE}\n`);
    const idx = await bed.mem(["index", "docs"]);
    assert.equal(idx.code, 0, show(idx));
  });
  after(async () => {
    await bed?.stop();
  });

  test("over HTTP: grouped by status, with authors, dates, files, the local memory it stands for; escaped; read-only", async () => {
    const r = await fetch(bed.at("/team"));
    assert.equal(r.status, 200);
    const body = await r.text();
    const group = (key: string) => {
      const m = new RegExp(`<section class="team-group" data-group="${key}">([\\s\\S]*?)</section>`).exec(body);
      assert.ok(m, `no ${key} group\n${body}`);
      return m[1]!;
    };
    const inForce = group("in-force");
    assert.match(inForce, /<span class="status">accepted<\/span><span class="date">2026-11-28<\/span><span class="authors">by Ada Lovelace<\/span><a class="file" href="[^"]*">docs\/decisions\/kafka\.md<\/a>/);
    assert.match(inForce, /Event bus/);
    assert.match(inForce, new RegExp(`also local: <a class="id" href="[^"]*">${local}</a>`));
    assert.match(group("rejected"), /<span class="status">rejected<\/span><span class="date">2026-09-09<\/span><span class="authors">by Carol<\/span>[\s\S]*Run our own Kubernetes cluster/);
    assert.match(group("superseded"), /<span class="status">superseded by kafka\.md<\/span><span class="date">2024-01-10<\/span><span class="authors">by Bob<\/span>/);
    assert.match(group("superseded"), /<span class="status">deprecated<\/span><span class="date">2023-05-05<\/span><span class="authors">no author<\/span>/);
    const proposed = group("proposed");
    assert.match(proposed, /Escape &lt;script&gt;alert\(&quot;team&quot;\)&lt;\/script&gt; &lt;img src=x onerror=alert\(1\)&gt; titles/);
    assert.match(proposed, /by Mallory &lt;img src=x onerror=alert\(2\)&gt;/);
    assert.doesNotMatch(body, /<script>alert|<img src=x/, "no stored markup reaches the page as markup");
    assert.doesNotMatch(body, /<form/, "read-only: no form");
    assert.match(body, /5 team records/);
  });

  test("in a browser: the header's Team link, the groups, stored text shown as text, no console error", { skip: skipBrowser, timeout: 120_000 }, async () => {
    let browser: Browser | undefined;
    try {
      let context: BrowserContext;
      ({ browser, context } = await launchBrowser());
      const page = await context.newPage();
      const problems = watchPage(page);
      page.on("dialog", (d) => {
        problems.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
      await page.goto(bed.at("/search"));
      await Promise.all([page.waitForURL(/\/team$/), page.locator("header nav").getByRole("link", { name: "Team", exact: true }).click()]);
      assert.equal(await page.locator("h1").innerText(), "Team");
      assert.deepEqual(await page.locator("header nav a[aria-current=page]").allInnerTexts(), ["Team"]);
      const titles = async (key: string) => page.locator(`section[data-group="${key}"] li.item p.text`).allInnerTexts();
      assert.deepEqual(await titles("in-force"), ["Event bus"]);
      assert.deepEqual(await titles("rejected"), ["Run our own Kubernetes cluster"]);
      assert.deepEqual(await titles("superseded"), ["Use MongoDB for events", "Cache sessions in Redis"]);
      assert.deepEqual(await titles("proposed"), [HOSTILE_TITLE], "stored markup shown as text");
      assert.deepEqual(await page.locator("section[data-group=superseded] .status").allInnerTexts(), ["superseded by kafka.md", "deprecated"], "each once, with its successor");
      assert.equal(await page.locator("main script, main img").count(), 0);
      // The file and the local memory lead to their pages.
      await Promise.all([page.waitForURL(/\/memory\?/), page.locator("section[data-group=in-force] .also-local a").click()]);
      assert.match(await page.locator("table.details").innerText(), /also a team record\s+\S+ .*docs\/decisions\/kafka\.md accepted, 2026-11-28, by Ada Lovelace/);
      await screenshot(page, "team-view-local-memory");
      await page.goBack();
      await screenshot(page, "team-view");
      assert.deepEqual(problems, []);
    } finally {
      await browser?.close();
    }
  });
});
