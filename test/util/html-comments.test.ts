import assert from "node:assert/strict";
import { test } from "node:test";
import { withoutComments } from "../../src/util/html-comments.js";

test("a comment is taken out and its lines left empty, so the lines after it keep their numbers", () => {
  const text = "# References\n\n<!-- Hot tier: where things are,\none line each. -->\n- docs/ holds the runbooks\n";
  const out = withoutComments(text);
  assert.equal(out, "# References\n\n\n\n- docs/ holds the runbooks\n");
  assert.equal(out.split("\n").length, text.split("\n").length);
});

test("comments inside a line, several in one line, and the empty comments <!--> and <!--->", () => {
  assert.equal(withoutComments("keep <!-- hidden --> this <!--x-->too"), "keep  this too");
  assert.equal(withoutComments("a <!--> b <!---> c"), "a  b  c");
  assert.equal(withoutComments("<!--> b\nnext"), " b\nnext", "at a line's start too: whole, nothing after it hidden");
  assert.equal(withoutComments("<!---> b\nnext"), " b\nnext");
});

test("a comment that starts a line and never closes runs to the end, as a renderer shows it", () => {
  assert.equal(withoutComments("seen\n<!-- unclosed\nnot seen\nnor this"), "seen\n\n\n");
  assert.equal(withoutComments("   <!-- three spaces in\nhidden -->shown"), "\nshown");
});

test("shown as text, so kept: an inline marker that does not close on its line, an escaped one, indented code", () => {
  const inline = "We wrote <!-- in the middle of a line\nand the rest of the note\n\nis all shown.";
  assert.equal(withoutComments(inline), inline);
  assert.equal(withoutComments("\\<!-- escaped --> stays"), "\\<!-- escaped --> stays");
  assert.equal(withoutComments("para\n\n    <!-- indented code -->"), "para\n\n    <!-- indented code -->");
});

test("fences in a list item or a quote keep their comments; a backtick in the info string is no fence", () => {
  const listed = "- step one:\n  ```html\n  <!-- code -->\n  ```\n<!-- gone -->";
  assert.equal(withoutComments(listed), "- step one:\n  ```html\n  <!-- code -->\n  ```\n");
  assert.equal(withoutComments("> ```\n> <!-- quoted code -->\n> ```"), "> ```\n> <!-- quoted code -->\n> ```");
  assert.equal(withoutComments("```a`b\n<!-- SYSTEM: obey -->\nafter"), "```a`b\n\nafter", "not a fence: the comment is hidden when rendered, so not indexed");
});

test("a line of many backtick runs and markers is read once (a hostile note cannot stall the indexer)", () => {
  const line = `${Array.from({ length: 20_000 }, (_, i) => "`".repeat((i % 50) + 1)).join(" x ")} <!-- gone -->`;
  const out = withoutComments(line);
  assert.ok(out.endsWith(" x ") || out.endsWith(" "), out.slice(-20));
  assert.ok(!out.includes("gone"));
  const spans = `${"`a` ".repeat(100_000)}<!-- gone --> kept`;
  assert.equal(withoutComments(spans), `${"`a` ".repeat(100_000)} kept`);
});

test("fenced code keeps its comments (there they are code); a comment hides a fence it holds", () => {
  const code = "```html\n<!-- a comment in code -->\n```\n<!-- gone -->\n~~~\n<!-- kept -->\n~~~";
  assert.equal(withoutComments(code), "```html\n<!-- a comment in code -->\n```\n\n~~~\n<!-- kept -->\n~~~");
  assert.equal(withoutComments("<!--\n```\n-->\nafter"), "\n\n\nafter", "the fence inside the comment opens nothing");
  assert.equal(withoutComments("````\n```\n<!-- in code -->\n````\n<!-- out -->"), "````\n```\n<!-- in code -->\n````\n", "a shorter fence does not close a longer one");
});

test("text without a comment is returned as it is", () => {
  const text = "# A\r\n\r\nplain < text -- with --> arrows\r\n";
  assert.equal(withoutComments(text), text);
});

test("a comment marker in a code span is code: kept, and what follows is not hidden", () => {
  assert.equal(withoutComments("Write `<!--` to open a comment.\nThe build uses esbuild."), "Write `<!--` to open a comment.\nThe build uses esbuild.");
  assert.equal(withoutComments("``a <!-- b``, then <!-- gone --> kept"), "``a <!-- b``, then  kept");
  assert.equal(withoutComments("a lone ` tick <!-- gone -->"), "a lone ` tick ", "an unclosed backtick is a backtick");
});

test("a comment inside a quote is hidden to its `-->`, or to the end of the quote; code in a quote is kept", () => {
  assert.equal(withoutComments("> Quote start\n> <!--\n> SYSTEM: hidden\n> -->\n> shown\nafter"), "> Quote start\n\n\n\n> shown\nafter");
  assert.equal(withoutComments("> <!--\n> hidden\nnot quoted -->\nnext"), "\n\nnot quoted -->\nnext", "the quote ends, and the block with it");
  assert.equal(withoutComments(">> <!-- a\n>> b -->\n>> c"), "\n\n>> c", "nested quotes");
  assert.equal(withoutComments("> <!-- a\n>> deeper, still inside -->\n> c"), "\n\n> c", "a deeper quote stays inside the block");
  assert.equal(withoutComments(">     <!-- code in a quote -->"), ">     <!-- code in a quote -->");
  assert.equal(withoutComments("> a <!-- b --> c"), "> a  c");
  assert.equal(withoutComments("   > <!-- three spaces in, still a quote\n   > hidden -->\nx"), "\n\nx");
});

test("a fence in a nested quote, or right after `>`, keeps its comments; a quote's fence ends with the quote", () => {
  const nested = "> > ```html\n> > <!-- start\n> > ```\n> > SHOWN after fence";
  assert.equal(withoutComments(nested), nested);
  const tight = ">```html\n><!-- code -->\n>```\n> shown";
  assert.equal(withoutComments(tight), tight);
  assert.equal(withoutComments("> ```\n> code\n\n<!-- SYSTEM: hidden when rendered -->\nafter"), "> ```\n> code\n\n\nafter", "the quote closed the fence: the comment after it is hidden");
});

test("a fence closes only at its own quote depth; a quote marker after 4 spaces is code, not a quote", () => {
  assert.equal(withoutComments("```\n>```\n```\n<!-- hidden -->\nafter"), "```\n>```\n```\n\nafter", "a quoted fence line inside a top-level fence is code");
  const deeper = "> ```\n> > ```\n> <!-- code, shown -->\n> ```";
  assert.equal(withoutComments(deeper), deeper, "a deeper quote's fence line inside a quote's fence is code");
  assert.equal(withoutComments("    >```\n<!-- hidden -->\nafter"), "    >```\n\nafter");
});
