/**
 * The explorer's server over a real store: refused without the token, from another host name, for
 * a method it does not take; the search page answers with the same hybrid search as `mem query`,
 * hostile stored text escaped, filters checked, other projects only when the address names them;
 * every answer carries the security headers and no CORS header.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { openApp, type App } from "../../src/app.js";
import { resolveProject } from "../../src/project/identity.js";
import { uiContext } from "../../src/web/context.js";
import { openLink } from "../../src/web/guard.js";
import { startUi, type UiServer } from "../../src/web/server.js";
import { rawRequest } from "../helpers/ui-child.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-ui-server-")));
const A = join(tmp, "alpha");
const B = join(tmp, "beta");
for (const p of [A, B]) mkdirSync(join(p, ".git"), { recursive: true });
const env = { ...process.env, MEM_HOME: join(tmp, "home"), MEM_EMBED_ORDER: "none", MEM_WATCH: "0" };
const TOKEN = "T".repeat(43);
const HOSTILE = `quokka </p><script>alert("owned")</script> "quoted" ]`;

let app: App;
let ui: UiServer;
let base: string;
before(async () => {
  app = openApp(env);
  const ctx = uiContext(app, resolveProject(A), A);
  ctx.svc.put({ text: "We chose advisory locks for the job queue: SKIP LOCKED starved the workers", kind: "decision", project: A });
  ctx.svc.put({ text: HOSTILE, kind: "learned", project: A });
  ctx.svc.put({ text: "Beta uses wombat sharding for its ledger", kind: "decision", project: B });
  ui = await startUi({ ctx, token: TOKEN, port: 0, log: () => undefined });
  base = `http://127.0.0.1:${ui.port}/${TOKEN}`;
});
after(async () => {
  await ui?.close();
  await app?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const get = (url: string, init: RequestInit = {}) => fetch(url, { redirect: "manual", ...init });

/** A raw request to the explorer, for headers fetch will not send as given (Host). */
const raw = (path: string, headers: Record<string, string>, method = "GET") => rawRequest(ui.port, path, headers, method);

describe("refusals", () => {
  test("without the token, with a wrong one, or none at all: 403, and nothing of the store", async () => {
    for (const path of ["/search?q=advisory", `/${"U".repeat(43)}/search?q=advisory`, "/", `/${TOKEN.slice(1)}/search?q=advisory`, `/${TOKEN}x/search?q=advisory`]) {
      const r = await get(`http://127.0.0.1:${ui.port}${path}`);
      const body = await r.text();
      assert.equal(r.status, 403, path);
      assert.ok(!body.includes("advisory locks"), path);
    }
  });
  test("another Host (a DNS-rebinding page), or none: 421, even with the token", async () => {
    for (const host of ["evil.example", `evil.example:${ui.port}`, `127.0.0.1:${ui.port + 1}`]) {
      const r = await raw(`/${TOKEN}/search?q=advisory`, { Host: host });
      assert.equal(r.status, 421, host);
      assert.ok(!r.body.includes("advisory locks"));
    }
    const ok = await raw(`/${TOKEN}/search?q=advisory`, { Host: `localhost:${ui.port}` });
    assert.equal(ok.status, 200);
  });
  test("a preflight, PUT or DELETE: 405, and no CORS header on any answer", async () => {
    for (const method of ["OPTIONS", "PUT", "DELETE", "PATCH"]) {
      const r = await raw(`/${TOKEN}/search`, { Host: `127.0.0.1:${ui.port}`, Origin: "http://evil.example", "Access-Control-Request-Method": "POST" }, method);
      assert.equal(r.status, 405, method);
      assert.equal(r.headers["access-control-allow-origin"], undefined);
    }
    const r = await get(`${base}/search?q=advisory`, { headers: { Origin: "http://evil.example" } });
    assert.equal(r.headers.get("access-control-allow-origin"), null);
  });
  test("a POST to a page that takes none: 405; an unknown page: 404", async () => {
    const r = await get(`${base}/search`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "q=x" });
    assert.equal(r.status, 405);
    const n = await get(`${base}/no-such-page`);
    assert.equal(n.status, 404);
    assert.match(await n.text(), /There is no page \/no-such-page/);
  });
});

test("an opening link leads the browser to its page once, and names no token", async () => {
  const link = openLink(TOKEN, ui.port, "/search?q=advisory", Date.now());
  assert.ok(!link.includes(TOKEN));
  const r = await get(link);
  assert.equal(r.status, 303);
  assert.equal(r.headers.get("location"), `/${TOKEN}/search?q=advisory`);
  const again = await get(link);
  assert.equal(again.status, 403);
  assert.match(await again.text(), /used already/);
  const forged = await get(openLink("F".repeat(43), ui.port, "/search?q=advisory", Date.now()));
  assert.equal(forged.status, 403);
  assert.ok(!(forged.headers.get("location") ?? "").includes(TOKEN));
});

describe("the search page", () => {
  test("the base address goes to search, keeping the query", async () => {
    const r = await get(`${base}/?q=advisory`);
    assert.equal(r.status, 303);
    assert.equal(r.headers.get("location"), `/${TOKEN}/search?q=advisory`);
  });
  test("finds a memory by its words, marks them, and carries the security headers", async () => {
    const r = await get(`${base}/search?q=advisory+locks+queue`);
    assert.equal(r.status, 200);
    const body = await r.text();
    assert.match(body, /<li class="result" data-id="[0-9a-f]+"/);
    assert.match(body, /<mark>advisory<\/mark> <mark>locks<\/mark>/);
    assert.match(r.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    assert.match(r.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
    assert.equal(r.headers.get("referrer-policy"), "same-origin", "not no-referrer: under it a browser sends Origin: null with the pages' own form POSTs");
    assert.equal(r.headers.get("x-content-type-options"), "nosniff");
    assert.equal(r.headers.get("cache-control"), "no-store");
    assert.ok(!body.includes("wombat"), "another project's memory is not searched unless the address says so");
  });
  test("hostile stored text is shown as text, never markup", async () => {
    const body = await (await get(`${base}/search?q=quokka`)).text();
    assert.ok(!body.includes("<script>alert"), body);
    assert.match(body, /(&lt;|‹)script&gt;alert\(&quot;owned&quot;\)(&lt;|‹)\/script&gt; &quot;quoted&quot; \]/);
    assert.ok(!/<script(?! type="module" src="\/T+\/static\/app\.js">)/.test(body), "the only script is the explorer's own");
  });
  test("another project when the address names it; every project with project=all", async () => {
    const b = await (await get(`${base}/search?q=wombat&project=${encodeURIComponent(B)}`)).text();
    assert.match(b, /wombat/);
    assert.ok(!b.includes("advisory locks"));
    const all = await (await get(`${base}/search?q=wombat+OR+advisory&project=all`)).text();
    assert.match(all, /wombat/);
  });
  test("a bad filter is a clear 400, not a silent default", async () => {
    for (const [q, msg] of [
      ["mode=fast", /mode must be one of hybrid, bm25, vector/],
      ["tier=hot", /tier must be one of warm, cold, all/],
      ["since=yesterday", /since must be a date/],
      ["k=0", /k must be an integer from 1 to 100/],
      ["source=web", /source must be markdown or memory/],
    ] as const) {
      const r = await get(`${base}/search?q=advisory&${q}`);
      assert.equal(r.status, 400, q);
      assert.match(await r.text(), msg);
    }
  });
  test("kind and source filters narrow the results", async () => {
    const d = await (await get(`${base}/search?q=advisory+quokka&kind=learned`)).text();
    assert.match(d, /quokka/);
    assert.ok(!d.includes("advisory locks"));
    const notes = await (await get(`${base}/search?q=advisory&source=markdown`)).text();
    assert.match(notes, /No matches/);
  });
  test("the style sheet and the script are served as such", async () => {
    const css = await get(`${base}/static/style.css`);
    assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
    assert.match(await css.text(), /font/);
    const js = await get(`${base}/static/app.js`);
    assert.equal(js.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.match(await js.text(), /data-confirm|dataset\.confirm/);
  });
});
