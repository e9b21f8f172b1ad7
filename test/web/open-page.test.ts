/**
 * The page the browser's opener is given instead of an address (issue 29): its HTML escapes the
 * link and loads nothing, it is written 0600 in the data home and never through a link, and the
 * opener's command line, on every platform, holds only that page's file:// address.
 */
import assert from "node:assert/strict";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openerCommand } from "../../src/cli/browser.js";
import { openLink } from "../../src/web/guard.js";
import { openPageHtml, openPagePath, writeOpenPage } from "../../src/web/open-page.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-open-page-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const TOKEN = "A".repeat(43);

describe("the opening page", () => {
  test("its HTML: the link escaped in the refresh and the fallback link, its own CSP loads nothing, no referrer", () => {
    const link = openLink(TOKEN, 7077, "/search?q=a&kind=decision", 1_000);
    const html = openPageHtml(link);
    assert.ok(!html.includes(TOKEN), "the link is signed with the token; the token is not in it");
    const esc = link.replace(/&/g, "&amp;");
    assert.ok(html.includes(`<meta http-equiv="refresh" content="0;url=${esc}">`));
    assert.ok(html.includes(`<a href="${esc}">`));
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'">/);
    assert.match(html, /<meta name="referrer" content="no-referrer">/);
    assert.doesNotMatch(html, /<script|style=|\son\w+=/i, "nothing runs, nothing loads");
    assert.ok(!openPageHtml('http://127.0.0.1:1/open?path="><script>x</script>').includes("<script>"), "a quote in the link cannot leave the attribute");
  });

  test("written 0600 in the data home, replacing an older one; a link planted in its place is not written through", { skip: process.platform === "win32" ? "no POSIX modes" : false }, () => {
    const home = join(tmp, "home");
    mkdirSync(home, { mode: 0o700 });
    const url = writeOpenPage(home, "http://127.0.0.1:1/open?path=%2Fsearch&exp=1&sig=a");
    assert.equal(url, `file://${openPagePath(home)}`);
    assert.equal(lstatSync(openPagePath(home)).mode & 0o777, 0o600);
    writeOpenPage(home, "http://127.0.0.1:1/open?path=%2Fsearch&exp=2&sig=b");
    assert.match(readFileSync(openPagePath(home), "utf8"), /sig=b/);

    const victim = join(tmp, "victim.txt");
    writeFileSync(victim, "keep me\n");
    const other = join(tmp, "home2");
    mkdirSync(other, { mode: 0o700 });
    symlinkSync(victim, openPagePath(other));
    writeOpenPage(other, "http://127.0.0.1:1/open?path=%2Fsearch&exp=3&sig=c"); // replaced by rename: the link itself goes
    assert.equal(readFileSync(victim, "utf8"), "keep me\n", "the file the link pointed at is untouched");
    assert.ok(lstatSync(openPagePath(other)).isFile());
  });

  const page = "file:///home/u/.local/share/mem/ui-open.html";
  const cases: { platform: string; cmd: string; args: string[] }[] = [
    { platform: "linux", cmd: "xdg-open", args: [page] },
    { platform: "darwin", cmd: "open", args: [page] },
    { platform: "win32", cmd: "cmd", args: ["/c", "start", "", page] },
  ];
  for (const c of cases) {
    test(`the opener's command line on ${c.platform} holds only the page's address`, () => {
      assert.deepEqual(openerCommand(page, c.platform), [c.cmd, c.args]);
    });
  }
});
