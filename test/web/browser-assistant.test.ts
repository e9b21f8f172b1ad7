/**
 * The explorer names the assistant a memory or a session came from, in a real headless Chromium
 * over a real `mem ui` (test/helpers/browser.ts): a decision captured through `mem hook Stop
 * --assistant codex` shows "Codex" on its memory page, in the memories list, in the sessions list
 * and on its session's page, and a task Gemini CLI's write_todos opened shows "Gemini CLI" on the
 * tasks page; Claude Code's decision (`mem hook stop`) and a task added by hand show no label.
 * Skips without Chromium.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, screenshot, skipBrowser, startBed, watchPage, type Bed } from "../helpers/browser.js";
import { show } from "../helpers/mem-cli.js";

const opts = { skip: skipBrowser, timeout: 120_000 };
const CODEX_DECISION = "Prices are cached for five minutes in Redis.";
const CLAUDE_DECISION = "Orders are kept for seven years.";

describe("mem ui in a browser: which assistant", () => {
  let bed: Bed;
  let browser: Browser;
  let context: BrowserContext;
  before(async () => {
    if (skipBrowser) return;
    bed = await startBed("assistant");
    const codex = await bed.mem(["hook", "Stop", "--assistant", "codex"], JSON.stringify({ session_id: "cdx-session-1", turn_id: "t1", transcript_path: null, cwd: bed.proj, hook_event_name: "Stop", model: "gpt-5.5", permission_mode: "default", stop_hook_active: false, last_assistant_message: `[MEMORY: decision] ${CODEX_DECISION}` }));
    assert.equal(codex.code, 0, show(codex));
    const claude = await bed.mem(["hook", "stop"], JSON.stringify({ session_id: "cc-session-1", transcript_path: "/nonexistent", cwd: bed.proj, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: `[MEMORY: decision] ${CLAUDE_DECISION}` }));
    assert.equal(claude.code, 0, show(claude));
    ({ browser, context } = await launchBrowser());
  });
  after(async () => {
    await browser?.close();
    await bed?.stop();
  });

  async function visit(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await context.newPage();
    const problems = watchPage(page);
    const resp = await page.goto(new URL(path, bed.url).href);
    assert.equal(resp?.status(), 200, path);
    return { page, problems };
  }

  test("a Codex memory and session are labelled Codex; Claude Code's are not", opts, async () => {
    const { page, problems } = await visit("memories?kind=decision");
    const codexItem = page.locator("li.item", { hasText: CODEX_DECISION });
    const claudeItem = page.locator("li.item", { hasText: CLAUDE_DECISION });
    assert.equal(await codexItem.locator(".assistant").innerText(), "Codex");
    assert.equal(await claudeItem.locator(".assistant").count(), 0);
    await screenshot(page, "assistant-memories");

    await Promise.all([page.waitForURL((u) => u.pathname.endsWith("/memory")), codexItem.locator("a.id").first().click()]);
    assert.match(await page.locator(".text").first().innerText(), /Prices are cached/);
    assert.equal(await page.locator(".meta .assistant").innerText(), "Codex");
    assert.equal(await page.locator(".meta .assistant").getAttribute("title"), "captured in a Codex session");
    await screenshot(page, "assistant-memory");

    await page.goto(new URL("sessions", bed.url).href);
    assert.equal(await page.locator('li.item[data-session="cdx-session-1"] .assistant').innerText(), "Codex");
    assert.equal(await page.locator('li.item[data-session="cc-session-1"] .assistant').count(), 0);
    await Promise.all([page.waitForURL((u) => u.pathname.endsWith("/session")), page.locator('li.item[data-session="cdx-session-1"] a.id').click()]);
    assert.equal(await page.locator("h1 .assistant").innerText(), "Codex");
    await screenshot(page, "assistant-session");
    await page.goto(new URL("session?id=cc-session-1", bed.url).href);
    assert.equal(await page.locator("h1 .assistant").count(), 0);
    assert.deepEqual(problems, [], "no console error, no failed request");
  });

  test("a task Gemini CLI opened is labelled on the tasks page; one added by hand is not", opts, async () => {
    const todo = await bed.mem(["hook", "AfterTool", "--assistant", "gemini"], JSON.stringify({ session_id: "gem-session-1", transcript_path: "/x", cwd: bed.proj, hook_event_name: "AfterTool", timestamp: "2026-11-29T02:00:00.000Z", tool_name: "write_todos", tool_input: { todos: [{ description: "Write the release notes", status: "pending" }] }, tool_response: { llmContent: "ok" } }));
    assert.equal(todo.code, 0, show(todo));
    const added = await bed.mem(["task", "add", "Rename the flag"]);
    assert.equal(added.code, 0, show(added));
    const { page, problems } = await visit("tasks");
    assert.equal(await page.locator("li.item", { hasText: "Write the release notes" }).locator(".assistant").innerText(), "Gemini CLI");
    assert.equal(await page.locator("li.item", { hasText: "Rename the flag" }).locator(".assistant").count(), 0);
    await screenshot(page, "assistant-tasks");
    assert.deepEqual(problems, [], "no console error, no failed request");
  });
});
