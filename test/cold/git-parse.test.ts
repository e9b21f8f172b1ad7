import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MAX_LINES, MAX_LINES_PER_FILE, mergeCommits, parseGitLog, unquotePath, type GitCommit } from "../../src/cold/git-parse.js";
import { alternation, gitTerms, termsIn } from "../../src/cold/terms.js";

const N = "0123456789abcdef0123456789abcdef";
const H1 = "a".repeat(40);
const H2 = "b".repeat(40);
const start = (hash: string, date = "2024-05-01T10:00:00+02:00") => `${N}C ${hash} ${hash.slice(0, 7)} ${date}`;

describe("which words git looks for", () => {
  test("content words of three letters or more, the longest first, at most four", () => {
    assert.deepEqual(gitTerms("why did we remove the wombat service from the deploy pipeline"), ["pipeline", "service", "remove", "wombat"], "equal lengths in the order of the query");
    assert.deepEqual(gitTerms("the db"), ["db"], "with no long word, two-letter words do");
    assert.deepEqual(gitTerms("!!! ???"), []);
  });
  test("the -G pattern matches the words literally", () => {
    assert.equal(alternation(["a.b", "c|d", "x"]), "a\\.b|c\\|d|x");
    assert.deepEqual(termsIn("The WOMBAT ran", ["wombat", "koala"]), ["wombat"]);
  });
});

describe("reading git log output", () => {
  test("a message pass: hash, short hash, date, the message and the files it changed", () => {
    const out = [start(H1), "Add wombat host", "", "Longer body.", "", `${N}E`, "", "src/a.ts", '"odd\\nname.txt"', start(H2, "2024-04-01T09:00:00Z"), "Unrelated", "", `${N}E`, "", "README.md", ""].join("\n");
    const cs = parseGitLog(out, N, "names", ["wombat"]);
    assert.equal(cs.length, 2);
    assert.deepEqual({ ...cs[0] }, { hash: H1, short: H1.slice(0, 7), date: "2024-05-01T10:00:00+02:00", message: "Add wombat host\n\nLonger body.", paths: ["src/a.ts", "odd\nname.txt"], lines: [], matched: ["wombat"], via: ["message"] });
    assert.deepEqual(cs[1]!.paths, ["README.md"]);
    assert.deepEqual(cs[1]!.matched, []);
  });

  test("a patch pass: only changed lines that hold a term are kept, with their file and whether added or removed", () => {
    const out = [
      start(H1), "tidy", "", `${N}E`, "",
      "diff --git a/src/db.ts b/src/db.ts", "index 1..2 100644", "--- a/src/db.ts", "+++ b/src/db.ts",
      "@@ -3,2 +3 @@ function ctx()", "-const WOMBAT = 1;", "-const other = 2;", "+const koala = 3;",
      "diff --git a/gone.md b/gone.md", "deleted file mode 100644", "--- a/gone.md", "+++ /dev/null", "@@ -1 +0,0 @@", "-the wombat note",
      "",
    ].join("\n");
    const [c] = parseGitLog(out, N, "patch", ["wombat"]);
    assert.deepEqual(c!.lines, [{ path: "src/db.ts", change: "removed", text: "const WOMBAT = 1;" }, { path: "gone.md", change: "removed", text: "the wombat note" }]);
    assert.deepEqual(c!.paths, ["src/db.ts", "gone.md"]);
    assert.deepEqual(c!.via, ["diff"]);
  });

  test("content shaped like git's headers is read as content: hunk counts decide, and a forged commit line needs the nonce", () => {
    const out = [
      start(H1), "subject", `${"f".repeat(32)}E`, `${"f".repeat(32)}C ${H2} ${H2.slice(0, 7)} 2024-01-01T00:00:00Z`, "still the message", `${N}E`, "",
      "diff --git a/x.md b/x.md", "--- a/x.md", "+++ b/x.md", "@@ -0,0 +1,3 @@",
      "+++ b/evil.md", "+diff --git a/evil b/evil", "+@@ -1 +1 @@ wombat",
      "",
    ].join("\n");
    const cs = parseGitLog(out, N, "patch", ["wombat"]);
    assert.equal(cs.length, 1, "one commit: the forged start line is part of the message");
    assert.match(cs[0]!.message, /still the message/);
    assert.deepEqual(cs[0]!.lines, [{ path: "x.md", change: "added", text: "@@ -1 +1 @@ wombat" }], "the added lines stay lines of x.md");
    assert.deepEqual(cs[0]!.paths, ["x.md"]);
  });

  test("a malformed commit line is skipped whole; a message cut before its end marker is dropped", () => {
    const out = [`${N}C not-a-hash x y`, "msg", `${N}E`, start(H1), "wombat cut here"].join("\n");
    assert.deepEqual(parseGitLog(out, N, "names", ["wombat"]), []);
  });

  test("at most three lines a file and six a commit", () => {
    const files = [0, 1, 2].flatMap((f) => [`diff --git a/f${f} b/f${f}`, `--- a/f${f}`, `+++ b/f${f}`, "@@ -0,0 +1,5 @@", ...[0, 1, 2, 3, 4].map((i) => `+wombat ${f}.${i}`)]);
    const [c] = parseGitLog([start(H1), "m", `${N}E`, ...files].join("\n"), N, "patch", ["wombat"]);
    assert.equal(c!.lines.length, MAX_LINES);
    assert.equal(c!.lines.filter((l) => l.path === "f0").length, MAX_LINES_PER_FILE);
    assert.deepEqual(c!.paths, ["f0", "f1", "f2"], "every file with a matching line is named");
  });

  test("quoted paths come back as they are (octal bytes, escapes)", () => {
    assert.equal(unquotePath('"caf\\303\\251 \\"x\\".md"'), 'café "x".md');
    assert.equal(unquotePath("plain.md"), "plain.md");
    const out = [start(H1), "m", `${N}E`, 'diff --git "a/t\\tab.md" "b/t\\tab.md"', '--- "a/t\\tab.md"', '+++ "b/t\\tab.md"', "@@ -0,0 +1 @@", "+wombat"].join("\n");
    assert.equal(parseGitLog(out, N, "patch", ["wombat"])[0]!.lines[0]!.path, "t\tab.md");
  });
});

describe("merging the two passes", () => {
  const c = (hash: string, over: Partial<GitCommit>): GitCommit => ({ hash, short: hash.slice(0, 7), date: "2024-01-01T00:00:00Z", message: "", paths: [], lines: [], matched: [], via: ["message"], ...over });
  test("one result per commit; more words first, then both passes, then the newest", () => {
    const byMessage = [c(H1, { matched: ["wombat"], paths: ["a"] }), c("c".repeat(40), { matched: ["wombat"], date: "2025-01-01T00:00:00Z" })];
    const byDiff = [c(H1, { via: ["diff"], matched: ["wombat"], paths: ["b"], lines: [{ path: "b", change: "added", text: "wombat" }] }), c(H2, { via: ["diff"], matched: ["wombat", "koala"] })];
    const m = mergeCommits(byMessage, byDiff);
    assert.deepEqual(m.map((x) => x.hash), [H2, H1, "c".repeat(40)]);
    assert.deepEqual(m[1]!.via, ["message", "diff"]);
    assert.deepEqual(m[1]!.paths, ["a", "b"]);
    assert.equal(m[1]!.lines.length, 1);
  });
});
