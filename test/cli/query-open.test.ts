/**
 * `mem query --open`: the address of the explorer's search page with the query's filters, from a
 * running `mem ui`, or from one it starts in the background; the address loads and shows the results.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { get, startUiChild, uiHome, type UiChild } from "../helpers/ui-child.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-query-open-")));
const children: UiChild[] = [];
const started: number[] = [];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
after(async () => {
  for (const c of children) await c.stop();
  for (const pid of started) if (alive(pid)) process.kill(pid, "SIGTERM");
  rmSync(tmp, { recursive: true, force: true });
});

const ids = (body: string) => [...body.matchAll(/<li class="result" data-id="([^"]+)">/g)].map((m) => m[1]!);

test("mem query --open: a running explorer's search page, with the query's filters", async () => {
  const { home, proj, env } = await uiHome(tmp, "proj", { "storage.md": "# Storage\n\nWe chose SQLite over Postgres for the laptop.\n" });
  const remembered = await runMem(["remember", "--kind", "decision", "SQLite stays: no server on the laptop", "-q"], { env, cwd: proj });
  assert.equal(remembered.code, 0, show(remembered));
  const ui = await startUiChild(env, proj);
  children.push(ui);

  const r = await runMem(["query", "SQLite", "laptop", "--open", "--kind", "decision"], { env, cwd: proj });
  assert.equal(r.code, 0, show(r));
  const url = r.stdout.trim();
  assert.ok(url.startsWith(`${ui.url}search?`), url);
  const q = new URL(url).searchParams;
  assert.equal(q.get("q"), "SQLite laptop");
  assert.equal(q.get("kind"), "decision");
  assert.equal(q.get("project"), proj);
  assert.match(r.stderr, new RegExp(`the explorer runs already \\(pid ${ui.pid}, port ${ui.port}\\)`));
  assert.match(r.stderr, /no browser to open here/);
  const page = await get(url);
  assert.equal(page.status, 200);
  assert.equal(ids(page.body).length, 1, "only the decision: the kind filter holds");
  assert.match(page.body, /no server on the/);

  // Without the filter the note is there too; --json says what happened.
  const all = await runMem(["query", "SQLite", "--open", "--json", "--mode", "bm25"], { env, cwd: proj });
  const j = jsonOf<{ url: string; ui: string; pid: number; opened: boolean }>(all);
  assert.deepEqual({ ui: j.ui, pid: j.pid, opened: j.opened }, { ui: "running", pid: ui.pid, opened: false });
  assert.equal(new URL(j.url).searchParams.get("mode"), "bm25");
  assert.equal(ids((await get(j.url)).body).length, 2);

  const bad = await runMem(["query", "--batch", "-", "--open"], { env, cwd: proj });
  assert.equal(bad.code, 2, show(bad));
  assert.match(bad.stderr, /--open opens one query/);
  await ui.stop();
  assert.ok(!existsSync(join(home, "ui.json")), "a stopped explorer leaves no address behind");
});

test("mem query --open with no explorer running: one is started in the background and its page works", async () => {
  const { home, proj, env } = await uiHome(tmp, "lone", { "deploy.md": "# Deploy\n\nDeploys run on Fridays with the release script.\n" });
  const r = await runMem(["query", "Fridays", "--open", "--json"], { env, cwd: proj, timeoutMs: 30_000 });
  assert.equal(r.code, 0, show(r));
  const j = jsonOf<{ url: string; ui: string; pid: number }>(r);
  started.push(j.pid);
  assert.equal(j.ui, "started");
  assert.match(r.stderr, new RegExp(`started the explorer in the background \\(pid ${j.pid}, port \\d+; its output goes to ${join(home, "ui.log").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  const page = await get(j.url);
  assert.equal(page.status, 200);
  assert.equal(ids(page.body).length, 1);
  assert.match(page.body, /Fridays/);
  assert.match(readFileSync(join(home, "ui.log"), "utf8"), /^http:\/\/127\.0\.0\.1:\d+\//m, "the child's output went to the log");

  // The next --open finds it running.
  const again = await runMem(["query", "release", "--open"], { env, cwd: proj });
  assert.equal(again.code, 0, show(again));
  assert.match(again.stderr, new RegExp(`runs already \\(pid ${j.pid}`));

  process.kill(j.pid, "SIGTERM");
  await until(() => !alive(j.pid), 60_000, "the explorer stopped");
  assert.ok(!existsSync(join(home, "ui.json")));
});

test("mem query --open with a browser: the opener gets a private page's file:// address, never the token or a link; the page's link works once", { skip: process.platform === "win32" ? "a POSIX opener script" : false }, async () => {
  const { home, proj, env } = await uiHome(tmp, "opener", { "cache.md": "# Cache\n\nThe cache is warmed by the nightly zephyr job.\n" });
  const ui = await startUiChild(env, proj);
  children.push(ui);
  const bin = join(tmp, "opener-bin");
  mkdirSync(bin);
  const record = join(tmp, "opener-args");
  writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > ${record}\n`, { mode: 0o755 });
  const r = await runMem(["query", "zephyr", "--open", "--json"], { env: { ...env, PATH: `${bin}:${env.PATH}`, DISPLAY: ":99" }, cwd: proj });
  assert.equal(r.code, 0, show(r));
  assert.equal(jsonOf<{ opened: boolean }>(r).opened, true);
  await until(() => existsSync(record), 60_000, "the opener ran");
  const token = readFileSync(join(home, "ui-token"), "utf8").trim();
  const args = readFileSync(record, "utf8").trim().split("\n");
  assert.equal(args.length, 1, args.join(" | "));
  assert.ok(!args[0]!.includes(token) && !/sig=|https?:/.test(args[0]!), `nothing secret on the opener's command line: ${args[0]}`);
  const page = fileURLToPath(args[0]!);
  assert.equal(dirname(page), home, "the page is in the data home");
  assert.equal(statSync(page).mode & 0o777, 0o600, "readable by the user only");
  const html = readFileSync(page, "utf8");
  assert.ok(!html.includes(token), "the page holds a one-time link, not the token");
  const link = /url=([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, "&");
  const first = await fetch(link, { redirect: "manual" });
  assert.equal(first.status, 303);
  assert.ok(first.headers.get("location")!.startsWith(`/${token}/search?`), String(first.headers.get("location")));
  assert.equal(new URLSearchParams(first.headers.get("location")!.split("?")[1]).get("q"), "zephyr");
  const again = await fetch(link, { redirect: "manual" });
  assert.equal(again.status, 403, "used once: the page left behind leads to no token");
  assert.equal(again.headers.get("location"), null);
  assert.doesNotMatch(await again.text(), new RegExp(token));
  await ui.stop();
});
