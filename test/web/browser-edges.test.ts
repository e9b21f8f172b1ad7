/**
 * The explorer's rough edges of issue 34, in a real headless Chromium over a real `mem ui`: Health
 * counts memories as the Memories page does; a 300-character path stays inside its card; a
 * terminal message's `code` is a code element, not raw backticks; a new store's few prompt runs
 * are dots spread across the chart, not one spike at its edge.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, screenshot, skipBrowser, startBed, watchPage, type Bed } from "../helpers/browser.js";
import { openApp } from "../../src/app.js";
import { resolveProject } from "../../src/project/identity.js";
import { clean } from "../../src/redact/clean.cjs";
import { recordPromptRun } from "../../src/store/prompt-log.js";
import { show } from "../helpers/mem-cli.js";

const opts = { skip: skipBrowser, timeout: 120_000 };
const SESSION = "sess-edges-1";

/** Every element of `selector` on the page whose box reaches past its card's (`card`) box, as "selector: why". */
async function overflowing(page: Page, card: string): Promise<string[]> {
  return page.$$eval(card, (cards) =>
    cards.flatMap((c) => {
      const box = c.getBoundingClientRect();
      const out: string[] = [];
      if (c.scrollWidth > c.clientWidth + 1) out.push(`${c.className}: scrolls ${c.scrollWidth} > ${c.clientWidth}`);
      for (const el of c.querySelectorAll("*")) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1)) out.push(`${el.tagName.toLowerCase()}.${el.className} in ${c.className}: ${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(box.left)}..${Math.round(box.right)}`);
      }
      return out;
    }),
  );
}

describe("mem ui in a browser: counts, long paths, code spans, a chart of a few runs", () => {
  let bed: Bed;
  let browser: Browser;
  let context: BrowserContext;
  const longDir = ["d".repeat(120), "e".repeat(120)];
  const longFile = `${"f".repeat(60)}.md`;

  before(async () => {
    if (skipBrowser) return;
    // A data home 300+ characters deep (the SQLite and LanceDB cards show its paths), a provider
    // configured that never answers (the BM25 banner), and a note at a path as long.
    bed = await startBed("edges", {
      home: (tmp) => join(tmp, "h".repeat(140), "m".repeat(140)),
      env: { MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: "http://127.0.0.1:1", MEM_MODELS_DIR: "/nonexistent-models" },
    });
    const dir = join(bed.proj, "notes", ...longDir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, longFile), "# Quasar\n\nThe quasar cache is flushed at midnight by the janitor job.\n");
    assert.equal((await bed.mem(["index", "notes", "-q"])).code, 0);
    await bed.remember("We chose Redis for the shared cache.", "--kind", "decision");
    await bed.remember("The janitor job runs at midnight.", "--kind", "learned");
    // Tool events: memories the Memories page lists (and the old Health count left out).
    for (let i = 0; i < 3; i++) {
      const payload = { session_id: SESSION, cwd: bed.proj, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: `toolu_edges_${i}`, tool_input: { command: `npm run step-${i}` }, tool_response: { stdout: "ok" } };
      const r = await bed.mem(["hook", "post-tool-use"], JSON.stringify(payload));
      assert.equal(r.code, 0, show(r));
    }
    // A new store's chart: two prompt runs of the hook, a minute apart (logged as the hook logs them).
    const app = openApp(bed.env);
    try {
      const project = resolveProject(bed.proj).id;
      const now = Date.now();
      for (const [i, ms] of [[2, 35], [1, 80]] as const) {
        recordPromptRun(app.db, { at: now - i * 60_000, session: clean(SESSION), project: clean(project), hook: "prompt", ms, mode: "bm25", prompt: clean(`prompt ${i}`), injected: null, ids: [], candidates: clean([]) });
      }
    } finally {
      await app.close();
    }
    ({ browser, context } = await launchBrowser());
  });
  after(async () => {
    await browser?.close();
    await bed?.stop();
  });

  test("Health's memories are the Memories page's: one count, one definition", opts, async () => {
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto(bed.at("/memories"));
    const listed = Number(/^([\d,]+) memor/.exec(await page.locator("main p.meta > span").first().innerText())![1]!.replace(/,/g, ""));
    assert.equal(await page.locator("ul.items > li.item").count(), listed, "the page lists as many as it says");
    await page.goto(bed.at("/health"));
    const cell = (of: string) => page.locator(`.card[data-measure=sqlite] table.counts tr:has(th:text-is("memories")) td[data-of=${of}]`).innerText();
    assert.equal(Number((await cell("project")).replace(/,/g, "")), listed, "Health: this project's memories");
    assert.equal(Number((await cell("all")).replace(/,/g, "")), listed, "the whole store holds this project alone");
    assert.ok(listed >= 5, `the two remembered and the three tool events: ${listed}`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("a 300-character path stays inside its card: Health's cards, a source, a search result", opts, async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.goto(bed.at("/health"));
    const sqlite = await page.locator(".card[data-measure=sqlite] .note").first().innerText();
    assert.ok(sqlite.replace(/\s/g, "").length > 300 && sqlite.includes("h".repeat(140)), `the SQLite card shows the long path: ${sqlite.length} characters`);
    assert.deepEqual(await overflowing(page, ".cards > .card"), []);
    await screenshot(page, "health-long-path");
    await page.goto(bed.at("/sources"));
    const item = page.locator("ul.items > li.item[data-path]").filter({ hasText: "quasar" }).or(page.locator("ul.items > li.item[data-path*=fffff]"));
    assert.equal(await item.count(), 1, "the note at the long path is listed");
    assert.ok(((await item.getAttribute("data-path")) ?? "").length >= 300);
    assert.deepEqual(await overflowing(page, "ul.items > li.item"), []);
    await page.goto(bed.at(`/search?q=${encodeURIComponent("quasar cache janitor")}`));
    assert.ok((await page.locator("ol.results > li.result").count()) >= 1);
    assert.deepEqual(await overflowing(page, "ol.results > li.result"), []);
    await page.close();
  });

  test("the BM25 banner: `mem doctor` is a code element, no raw backtick anywhere on the page", opts, async () => {
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto(bed.at(`/search?q=${encodeURIComponent("quasar cache")}`));
    const banner = page.locator("p.notice", { hasText: "BM25 only" });
    assert.equal(await banner.count(), 1, await page.locator("main").innerText());
    assert.equal(await banner.locator("code").innerText(), "mem doctor");
    assert.doesNotMatch(await page.locator("main").innerText(), /`/, "no backtick shown");
    await page.goto(bed.at("/health"));
    assert.doesNotMatch(await page.locator("main").innerText(), /`/, "Health's provider card neither");
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("a new store's latency chart: each run a dot, spread over the plot, with its time on hover", opts, async () => {
    const page = await context.newPage();
    await page.goto(bed.at("/health"));
    const chart = page.locator("svg.chart");
    assert.equal(await chart.getAttribute("data-shape"), "points");
    const dots = chart.locator("circle.point");
    assert.equal(await dots.count(), 2, "one dot per prompt run");
    const svg = (await chart.boundingBox())!;
    const xs: number[] = [];
    let dot = 0;
    for (const box of await Promise.all([0, 1].map((i) => dots.nth(i).boundingBox()))) {
      assert.ok(box && box.x >= svg.x && box.x + box.width <= svg.x + svg.width && box.y >= svg.y && box.y + box.height <= svg.y + svg.height, "inside the chart");
      xs.push(box!.x + box!.width / 2 - svg.x);
      dot = box!.width;
    }
    // The plot is the time axis's length (the drawing keeps its proportions inside the element).
    const axis = (await chart.locator("line.axis").first().boundingBox())!;
    const at = xs.map((x) => (x + svg.x - axis.x) / axis.width);
    const where = `${at.map((x) => x.toFixed(2)).join(", ")} of the time axis`;
    assert.ok(Math.abs(at[1]! - at[0]!) > 0.5, `two runs a minute apart in a week's chart are two dots far apart: ${where}`);
    assert.ok(at.every((x) => x > 0.05 && x < 0.95) && dot > 0, `inside the plot, not at its right edge: ${where}`);
    assert.match(await dots.first().locator("title").textContent() ?? "", /^\d+(\.\d)? ms at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    await screenshot(page, "health-few-runs");
    await page.close();
  });
});
