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
});

test("a comment never closed runs to the end, as a renderer shows it", () => {
  assert.equal(withoutComments("seen\n<!-- unclosed\nnot seen\nnor this"), "seen\n\n\n");
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
