/** A terminal message's `code` spans as HTML (src/web/html.ts `codeSpans`): code elements, everything escaped. Table-driven. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { codeSpans } from "../../src/web/html.js";

test("codeSpans: each `span` a <code>, the rest text; markup inside or out escaped; a lone backtick kept", () => {
  const cases: [string, string][] = [
    ["no embedding model: search is BM25 only (`mem doctor` for vector search)", "no embedding model: search is BM25 only (<code>mem doctor</code> for vector search)"],
    ["run `a` then `b`", "run <code>a</code> then <code>b</code>"],
    ["plain text", "plain text"],
    ["a lone ` backtick", "a lone ` backtick"],
    ["`<script>alert(1)</script>` & <b>", "<code>&lt;script&gt;alert(1)&lt;/script&gt;</code> &amp; &lt;b&gt;"],
    ["`\"quoted\"`", "<code>&quot;quoted&quot;</code>"],
    ["``", "``"],
    ["`two\nlines`", "`two\nlines`"],
  ];
  for (const [text, want] of cases) assert.equal(codeSpans(text).value, want, text);
});
