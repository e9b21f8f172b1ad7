/**
 * The explorer's browser test bed (test/web/browser*.test.ts): a real headless Chromium driven by
 * playwright-core, and a real `mem ui` child process over a temp data home whose project has notes
 * indexed by `mem index` and memories stored by `mem remember`.
 *
 * Which browser: MEM_CHROMIUM when set (a path that is not an executable file, say /nonexistent,
 * means "none here": the tests skip), else /usr/bin/chromium, else chromium, chromium-browser or
 * google-chrome on PATH. Without one (or without playwright-core) the tests skip with a message; a
 * browser that is there but does not start fails them.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { BIN, cleanEnv, REPO, runMem, show, type Run } from "./mem-cli.js";

export const NO_CHROMIUM = "no Chromium: install Debian's chromium or set MEM_CHROMIUM";

/** Where the run's screenshots go (.gitignore'd: never committed). */
export const SCREENSHOTS = join(REPO, "test-output", "screenshots");

const LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const executable = (p: string): boolean => {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The browser to drive, or why there is none (the skip message). Pure but for the file system and `env`. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): { path: string } | { skip: string } {
  const chosen = env.MEM_CHROMIUM;
  if (chosen !== undefined && chosen !== "") return executable(chosen) ? { path: chosen } : { skip: `${NO_CHROMIUM} (MEM_CHROMIUM=${chosen} is no executable file)` };
  if (executable("/usr/bin/chromium")) return { path: "/usr/bin/chromium" };
  const dirs = (env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    for (const dir of dirs) if (executable(join(dir, name))) return { path: join(dir, name) };
  }
  return { skip: NO_CHROMIUM };
}

/** Whether playwright-core (a devDependency) is installed. */
function hasPlaywright(): boolean {
  try {
    createRequire(import.meta.url).resolve("playwright-core");
    return true;
  } catch {
    return false;
  }
}

const found: { path: string } | { skip: string } = hasPlaywright() ? findChromium() : { skip: "no playwright-core: run npm install (a devDependency)" };
/** False when there is a browser to drive, else the message the browser tests skip with. */
export const skipBrowser: false | string = "skip" in found ? found.skip : false;

/** A headless Chromium and a fresh context (no cookies, no cache); playwright-core's timeouts kept short. */
export async function launchBrowser(): Promise<{ browser: Browser; context: BrowserContext }> {
  if ("skip" in found) throw new Error(found.skip);
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: found.path, args: LAUNCH_ARGS, timeout: 60_000 });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(20_000);
  context.setDefaultNavigationTimeout(30_000);
  return { browser, context };
}

/** What one page complained about: console errors (CSP violations among them), failed requests, HTTP errors of its resources. */
export function watchPage(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.method()} ${r.url()}: ${r.failure()?.errorText ?? "?"}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return problems;
}

export interface Bed {
  tmp: string;
  proj: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** `mem ARGS` in the project, on the bed's data home. */
  mem(args: string[], input?: string): Promise<Run>;
  /** `mem remember TEXT ARGS`: the new memory's id. */
  remember(text: string, ...args: string[]): Promise<string>;
  /** The address `mem ui` printed: `http://127.0.0.1:PORT/TOKEN/`. */
  url: string;
  port: number;
  token: string;
  /** An address of the explorer: `at("/search?q=x")`. */
  at(path: string): string;
  /** What `mem ui` printed on stderr so far (for failure messages). */
  uiLog(): string;
  stop(): Promise<void>;
}

/** The notes the bed's project holds (indexed by `mem index`). */
export const NOTES: Record<string, string> = {
  "storage.md": "# Storage\n\nWe chose SQLite over Postgres because it needs no server and FTS5 gives BM25.\n\n## Backups\n\nThe nightly backup copies the database file with the online backup API.\n",
  "deploy.md": "# Deploys\n\nA deploy runs the migrations first, then restarts the workers one at a time.\n",
};

/**
 * A temp project (a git root) with the notes indexed, a data home, and `mem ui` listening on a free
 * port of 127.0.0.1, started as the user starts it. `stop` ends it and removes the temp dirs. `opts`: another data
 * home (under the temp dir) and more environment.
 */
export async function startBed(name: string, opts: { home?: (tmp: string) => string; env?: Record<string, string> } = {}): Promise<Bed> {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), `mem-e2e-${name}-`)));
  const proj = join(tmp, "proj");
  const home = opts.home?.(tmp) ?? join(tmp, "home");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, "notes"));
  for (const [file, text] of Object.entries(NOTES)) writeFileSync(join(proj, "notes", file), text);
  const env: NodeJS.ProcessEnv = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1", ...opts.env };
  const mem = (args: string[], input?: string) => runMem(args, { env, cwd: proj, ...(input !== undefined ? { input } : {}) });
  const indexed = await mem(["index", "notes", "-q"]);
  assert.equal(indexed.code, 0, show(indexed));
  const remember = async (text: string, ...args: string[]) => {
    const r = await mem(["remember", text, ...args]);
    assert.equal(r.code, 0, show(r));
    return r.stdout.trim();
  };

  const ui = spawn(process.execPath, [BIN, "ui", "--port", "0", "--json", "--no-open"], { cwd: proj, env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  ui.stderr.setEncoding("utf8").on("data", (d: string) => (log += d));
  let first: { url: string; port: number };
  try {
    first = await firstLine(ui, () => log);
  } catch (err) {
    await kill(ui);
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  const token = new URL(first.url).pathname.split("/")[1]!;
  return {
    tmp,
    proj,
    home,
    env,
    mem,
    remember,
    url: first.url,
    port: first.port,
    token,
    at: (path) => `http://127.0.0.1:${first.port}/${token}${path}`,
    uiLog: () => log,
    async stop() {
      await kill(ui);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** The `{url, port, pid}` line `mem ui --json` prints once it listens. */
function firstLine(child: ChildProcess, log: () => string): Promise<{ url: string; port: number }> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`mem ui printed no address within 30 s\nstdout: ${out}\nstderr: ${log()}`)), 30_000);
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl < 0) return;
      clearTimeout(timer);
      try {
        const line = JSON.parse(out.slice(0, nl)) as { url: string; port: number };
        assert.match(line.url, /^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/$/);
        resolve(line);
      } catch (err) {
        reject(new Error(`mem ui's first line is not its address: ${out.slice(0, nl)} (${(err as Error).message})`));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`mem ui exited (${code}) before printing its address\nstderr: ${log()}`));
    });
  });
}

/** SIGTERM (mem ui closes its stores and forgets ui.json), SIGKILL if it lingers. */
function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Saves a full-page screenshot of what `page` shows as test-output/screenshots/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Clicks `button`, which submits a form posting to a path ending in `action`, and resolves once the
 * page it leads to has loaded, `landed` checking its address; the change must be taken: a 303 (the
 * pages answer a POST with a redirect), else the failure gives the status and what the server said.
 */
export async function submit(page: Page, button: Locator, action: string, landed: (u: URL) => boolean): Promise<void> {
  const posted = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.endsWith(action));
  const loaded = page.waitForEvent("load");
  loaded.catch(() => undefined);
  await button.click();
  const resp = await posted;
  if (resp.status() !== 303) assert.fail(`POST ${action} answered ${resp.status()}, not a redirect: ${(await resp.text().catch(() => "")).slice(0, 300)}`);
  await loaded;
  assert.ok(landed(new URL(page.url())), `after POST ${action}: ${page.url()}`);
}
