/**
 * The explorer's walls, pure: the token (its shape, kept across runs, compared in constant time),
 * the Host header (loopback names on this port only: a DNS-rebinding page names its own host), the
 * Origin of a change, the path split; and the HTML templates that escape every value.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { checkOpenLink, hostAllowed, OPEN_LINK_MS, openLink, originAllowed, splitPath, storedToken, TOKEN, tokenMatches, tokenPath, uiToken } from "../../src/web/guard.js";
import { escapeHtml, html, raw } from "../../src/web/html.js";

const home = mkdtempSync(join(tmpdir(), "mem-ui-guard-"));
after(() => rmSync(home, { recursive: true, force: true }));

describe("the token", () => {
  test("is 43 URL-safe characters, kept in the data home readable by the user only, the same next run; --new-token replaces it", () => {
    const t = uiToken(home);
    assert.match(t, TOKEN);
    assert.equal(uiToken(home), t);
    if (process.platform !== "win32") assert.equal(statSync(tokenPath(home)).mode & 0o777, 0o600);
    const fresh = uiToken(home, true);
    assert.notEqual(fresh, t);
    assert.equal(uiToken(home), fresh);
  });
  test("a damaged token file (empty, short, with a slash) is replaced by a good one", () => {
    for (const bad of ["", "abc", `${"a".repeat(42)}/`, "x".repeat(500)]) {
      writeFileSync(tokenPath(home), bad);
      const t = uiToken(home);
      assert.match(t, TOKEN);
      assert.equal(readFileSync(tokenPath(home), "utf8").trim(), t);
    }
  });
  const cases: [string, string, boolean][] = [
    ["same", "same", true],
    ["same", "samf", false],
    ["", "same", false],
    ["same!", "same", false],
    ["sam", "same", false],
  ];
  for (const [given, token, ok] of cases) test(`tokenMatches(${JSON.stringify(given)}, ${JSON.stringify(token)}) is ${ok}`, () => assert.equal(tokenMatches(given, token), ok));
});

describe("the Host header and the Origin", () => {
  const hosts: [string | undefined, boolean][] = [
    ["127.0.0.1:7077", true],
    ["localhost:7077", true],
    ["LOCALHOST:7077", true],
    ["[::1]:7077", true],
    ["127.0.0.1:7078", false],
    ["127.0.0.1", false],
    ["evil.example:7077", false],
    ["127.0.0.1.evil.example:7077", false],
    ["localhost:7077.evil.example", false],
    ["", false],
    [undefined, false],
  ];
  for (const [host, ok] of hosts) test(`Host ${JSON.stringify(host)} → ${ok ? "answered" : "refused"}`, () => assert.equal(hostAllowed(host, 7077), ok));
  const origins: [string | undefined, boolean][] = [
    [undefined, true],
    ["http://127.0.0.1:7077", true],
    ["http://localhost:7077", true],
    ["http://127.0.0.1:7078", false],
    ["https://127.0.0.1:7077", false],
    ["null", false],
    ["http://evil.example", false],
  ];
  for (const [origin, ok] of origins) test(`Origin ${JSON.stringify(origin)} → ${ok ? "may change" : "refused"}`, () => assert.equal(originAllowed(origin, 7077), ok));
  // On port 80 a browser leaves the port out of both.
  const on80: [string, string | undefined, boolean][] = [
    ["127.0.0.1", "http://127.0.0.1", true],
    ["localhost:80", "http://localhost:80", true],
    ["[::1]", "http://[::1]", true],
    ["evil.example", "http://evil.example", false],
  ];
  for (const [host, origin, ok] of on80) test(`port 80: Host ${host}, Origin ${origin} → ${ok ? "answered" : "refused"}`, () => assert.deepEqual([hostAllowed(host, 80), originAllowed(origin, 80)], [ok, ok]));
  test("on another port, a Host or Origin without the port is refused", () => assert.deepEqual([hostAllowed("127.0.0.1", 7077), originAllowed("http://127.0.0.1", 7077)], [false, false]));
});

test("splitPath: the token is the first segment, the rest the page", () => {
  assert.deepEqual(splitPath("/abc/search"), { token: "abc", rest: "/search" });
  assert.deepEqual(splitPath("/abc"), { token: "abc", rest: "/" });
  assert.deepEqual(splitPath("/abc/"), { token: "abc", rest: "/" });
  assert.deepEqual(splitPath("/"), { token: "", rest: "/" });
  assert.deepEqual(splitPath("/abc/memory/edit"), { token: "abc", rest: "/memory/edit" });
});

describe("html templates", () => {
  test("every value is escaped: markup, quotes, ampersands; control characters dropped", () => {
    const hostile = `<script>alert("x")</script>' onmouseover='y' &amp;\u0000\u001b[31m`;
    const out = html`<p title="${hostile}">${hostile}</p>`.value;
    assert.ok(!out.includes("<script>"));
    assert.ok(!out.includes(`"x"`));
    assert.ok(!out.includes("' onmouseover"));
    assert.ok(!out.includes("\u0000") && !out.includes("\u001b"));
    assert.equal(out, `<p title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</p>`);
    assert.match(out, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;&#39; onmouseover=&#39;y&#39; &amp;amp;\[31m/);
  });
  test("Html from a template is kept as it is; arrays are joined; null, undefined and booleans are nothing; numbers are text", () => {
    const inner = html`<b>${"<i>"}</b>`;
    assert.equal(html`${inner}${[html`<i>1</i>`, "<2>"]}${null}${undefined}${false}${true}${3.5}`.value, "<b>&lt;i&gt;</b><i>1</i>&lt;2&gt;3.5");
    assert.equal(html`${raw("<hr>")}`.value, "<hr>");
  });
});

describe("opening links: what the browser's opener gets instead of the token", () => {
  const token = "k".repeat(43);
  const now = 1_800_000_000_000;
  const params = (url: string) => new URL(url).searchParams;
  test("hold no token, lead to the page once, within their time", () => {
    const link = openLink(token, 7077, "/search?q=advisory%20locks&kind=decision", now);
    assert.ok(!link.includes(token));
    assert.match(link, /^http:\/\/127\.0\.0\.1:7077\/open\?/);
    const used = new Set<string>();
    assert.deepEqual(checkOpenLink(token, params(link), now + 1_000, used), { path: "/search?q=advisory%20locks&kind=decision" });
    assert.match((checkOpenLink(token, params(link), now + 2_000, used) as { refused: string }).refused, /used already/);
    assert.match((checkOpenLink(token, params(link), now + OPEN_LINK_MS + 1, new Set()) as { refused: string }).refused, /expired/);
  });
  const tampered: [string, (q: URLSearchParams) => void, RegExp][] = [
    ["another page", (q) => q.set("path", "/memory/forget"), /not one of this explorer's/],
    ["a later expiry", (q) => q.set("exp", String(now + 10 * OPEN_LINK_MS)), /not one of this explorer's/],
    ["no signature", (q) => q.delete("sig"), /not one of this explorer's/],
    ["another host's path", (q) => q.set("path", "//evil.example/x"), /not a page/],
    ["a relative path", (q) => q.set("path", "search"), /not a page/],
  ];
  for (const [what, change, why] of tampered) {
    test(`a link with ${what} is refused`, () => {
      const q = params(openLink(token, 7077, "/search?q=x", now));
      change(q);
      assert.match((checkOpenLink(token, q, now, new Set()) as { refused: string }).refused, why);
    });
  }
  test("signed with another token: refused; storedToken never makes one", () => {
    const q = params(openLink("j".repeat(43), 7077, "/search", now));
    assert.ok("refused" in checkOpenLink(token, q, now, new Set()));
    const empty = mkdtempSync(join(tmpdir(), "mem-ui-notoken-"));
    assert.equal(storedToken(empty), undefined);
    assert.throws(() => readFileSync(tokenPath(empty)));
    rmSync(empty, { recursive: true, force: true });
  });
});

test("bidirectional overrides are dropped: stored text cannot read as other text", () => {
  assert.equal(escapeHtml("invoice\u202Egnp.exe \u2066x\u2069"), "invoicegnp.exe x");
});
