import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { piecesOf, splitLine } from "../../src/inject/units.js";

/** Where a piece may end: after whitespace outside brackets and backticks (what splitLine promises). */
function protectedSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  const closer: Record<string, string> = { "[": "]", "(": ")", "<": ">", "{": "}", "`": "`" };
  for (let i = 0; i < text.length; i++) {
    const c = closer[text[i]!];
    if (c === undefined) continue;
    const j = text.indexOf(c, i + 1);
    if (j > i && j - i <= 300) {
      spans.push([i, j]);
      i = j;
    }
  }
  return spans;
}

describe("cutting a line into pieces", () => {
  test("a line that fits is one piece", () => {
    assert.deepEqual(splitLine("- [conv-26 D1:3] Caroline: I went to a support group.", 140), ["- [conv-26 D1:3] Caroline: I went to a support group."]);
  });

  test("a long line is cut at sentence ends, each piece within the limit", () => {
    const line = "- [conv-26 D2:1] Melanie: Hey Caroline, since we last chatted, a lot has happened. I ran a charity race for mental health last Saturday. It was really rewarding and made me think about taking care of our minds.";
    const parts = splitLine(line, 100);
    assert.ok(parts.length >= 2, `${parts.length}`);
    assert.ok(parts[0]!.startsWith("- [conv-26 D2:1] Melanie:"));
    for (const p of parts) assert.ok(p.length <= 100, p);
    assert.ok(parts.some((p) => p.startsWith("I ran a charity race")), parts.join(" | "));
    assert.equal(parts.join(" "), line);
  });

  test("never inside a tag, brackets, backticks or a word: every cut falls on whitespace outside them", () => {
    const atoms = ["[conv-26 D10:3]", "`npm run bench:locomo -- --k 10`", "src/inject/select.ts:selectEvidence", "(shared a photo: a dog on a beach)", "<mem-recall note>", "{ k: 10, mode: bm25 }", "word.", "and", "the", "x".repeat(50), "end!", "Why?"];
    for (let seed = 1; seed <= 300; seed++) {
      let r = seed;
      const next = () => (r = (r * 48271) % 2147483647);
      const line = Array.from({ length: 3 + (next() % 40) }, () => atoms[next() % atoms.length]).join(" ");
      const max = 30 + (next() % 150);
      const parts = splitLine(line, max);
      assert.equal(parts.join(" "), line, `seed ${seed}: the pieces are the whole line`);
      let at = 0;
      const spans = protectedSpans(line);
      for (const p of parts.slice(0, -1)) {
        at += p.length;
        assert.equal(line[at], " ", `seed ${seed}: a cut falls on a space`);
        assert.ok(!spans.some(([a, b]) => a < at && at < b), `seed ${seed}: no cut inside ${line.slice(at - 20, at + 20)}`);
        at += 1;
      }
      // A piece is over the limit only when nothing could be cut in it.
      for (const p of parts) if (p.length > max) assert.ok(!/\s/.test(p.replace(/\[[^\]]*\]|`[^`]*`|\([^)]*\)|<[^>]*>|\{[^}]*\}/g, "")), `seed ${seed}: ${p}`);
    }
  });

  test("a chunk's pieces: its lines with their line numbers, headings, fences and blank lines left out", () => {
    const text = ["# Storage", "", "We chose SQLite.", "", "```sh", "npm test", "```", "- item one", "- item two"].join("\n");
    const pieces = piecesOf(text, 10, 140);
    assert.deepEqual(pieces.map((p) => [p.line, p.text]), [[12, "We chose SQLite."], [15, "npm test"], [17, "- item one"], [18, "- item two"]]);
    assert.ok(pieces.every((p) => p.part === 0 && p.parts === 1));
  });
});
