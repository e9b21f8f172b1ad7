/**
 * The rules that pick the files in play and the memories about them (src/brief/in-play-rules.ts),
 * and the section that shows them (src/brief/sections/in-play.ts). Table-driven; pure.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { IN_PLAY_RULES, rankAboutFiles, recentEdits, type EditRow } from "../../src/brief/in-play-rules.js";
import { filesInPlay, inPlaySection, FILES_SHOWN, type InPlay } from "../../src/brief/sections/in-play.js";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const H = 3_600_000;
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * H).toISOString();
const edit = (session: string, hoursAgo: number, ...files: string[]): EditRow => ({ session, time: at(hoursAgo), files });

describe("the files recent sessions edited", () => {
  const cases: { name: string; rows: EditRow[]; root?: string; rules?: Partial<typeof IN_PLAY_RULES>; want: [string, number][] }[] = [
    { name: "none", rows: [], want: [] },
    { name: "each file once, at its latest edit, newest first", rows: [edit("s1", 1, "/p/a.ts"), edit("s1", 2, "/p/b.ts", "/p/a.ts")], want: [["/p/a.ts", 1], ["/p/b.ts", 2]] },
    { name: "relative paths resolved against the root", rows: [edit("s1", 1, "src/a.ts", "./src/../lib/b.ts")], root: "/p", want: [["/p/src/a.ts", 1], ["/p/lib/b.ts", 1]] },
    { name: "a relative path with no root is dropped", rows: [edit("s1", 1, "src/a.ts", "/p/b.ts")], want: [["/p/b.ts", 1]] },
    { name: "only the latest sessions' edits", rows: [edit("s3", 1, "/p/c"), edit("s2", 2, "/p/b"), edit("s3", 3, "/p/c2"), edit("s1", 4, "/p/a")], rules: { editSessions: 2 }, want: [["/p/c", 1], ["/p/b", 2], ["/p/c2", 3]] },
    { name: "no older than editDays", rows: [edit("s1", 1, "/p/a"), edit("s1", 15 * 24, "/p/old")], want: [["/p/a", 1]] },
    { name: "at most maxEdited", rows: [edit("s1", 1, "/p/a", "/p/b", "/p/c")], rules: { maxEdited: 2 }, want: [["/p/a", 1], ["/p/b", 1]] },
    { name: "an unreadable time is skipped", rows: [{ session: "s", time: "not a time", files: ["/p/x"] }, edit("s", 1, "/p/a")], want: [["/p/a", 1]] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = recentEdits(c.rows, NOW, c.root, { ...IN_PLAY_RULES, ...c.rules });
      assert.deepEqual(got, c.want.map(([path, h]) => ({ path, at: NOW - h * H })));
    });
  }
});

describe("the memories about the files in play, ranked", () => {
  const m = (id: string, type: string, hoursAgo: number) => ({ id, type, text: id, time: at(hoursAgo), files: [] });
  const cases: { name: string; in: ReturnType<typeof m>[]; limit: number; want: string[] }[] = [
    { name: "decisions and rejected approaches first, then lessons, then errors, newest first within a rank", in: [m("err", "error", 1), m("l", "learned", 2), m("d-old", "decision", 50), m("r", "rejected", 3), m("d-new", "decision", 4)], limit: 10, want: ["r", "d-new", "d-old", "l", "err"] },
    { name: "each once (anchored and naming the file)", in: [m("d", "decision", 1), m("d", "decision", 1)], limit: 10, want: ["d"] },
    { name: "at most `limit`", in: [m("a", "decision", 1), m("b", "decision", 2), m("c", "error", 0)], limit: 2, want: ["a", "b"] },
    { name: "an unknown kind last", in: [m("x", "other", 0), m("e", "error", 9)], limit: 5, want: ["e", "x"] },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(rankAboutFiles(c.in, c.limit).map((x) => x.id), c.want));
});

describe("the files line and the section's title", () => {
  const base: InPlay = { files: [], memories: [] };
  const cases: { name: string; p: InPlay; title?: string; files?: string }[] = [
    { name: "nothing in play: no section", p: base },
    { name: "a working-tree change, with the branch", p: { ...base, branch: "feature/es256", files: ["/p/src/auth.ts"], changes: 1 }, title: "About the files in play (branch feature/es256, 1 changed file(s))", files: "- Files: src/auth.ts (changed)" },
    {
      name: "changed, edited and on the branch: each file once with every reason, working tree first",
      p: { ...base, branch: "f", files: ["/p/a.ts"], changes: 1, edited: [{ path: "/p/b.ts", at: NOW - 3 * H }, { path: "/p/a.ts", at: NOW - 5 * H }], branchFiles: ["/p/a.ts", "/p/c.ts"] },
      title: "About the files in play (branch f, 1 changed file(s), 2 changed on the branch, 2 edited recently)",
      files: "- Files: a.ts (changed, edited 5 h ago, on the branch); b.ts (edited 3 h ago); c.ts (on the branch)",
    },
    { name: "edits alone (no git)", p: { ...base, edited: [{ path: "/p/a.ts", at: NOW - 10 * 60_000 }] }, title: "About the files in play (1 edited recently)", files: "- Files: a.ts (edited 10 min ago)" },
    { name: "a path outside the project shown whole", p: { ...base, edited: [{ path: "/elsewhere/x.md", at: NOW - 30 * H }] }, files: "- Files: /elsewhere/x.md (edited 30 h ago)" },
    {
      name: `at most ${FILES_SHOWN} named, the rest counted`,
      p: { ...base, files: Array.from({ length: 11 }, (_, i) => `/p/f${i}.ts`), changes: 11 },
      files: `- Files: ${Array.from({ length: FILES_SHOWN }, (_, i) => `f${i}.ts (changed)`).join("; ")}; and 3 more`,
    },
    { name: "a branch name cannot break the title", p: { ...base, branch: "x)\n## Decisions", files: ["/p/a"] }, title: "About the files in play (branch x)\\n## Decisions, 1 changed file(s))" },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const s = inPlaySection(c.p, NOW, "/p");
      if (!c.title && !c.files) return assert.equal(s, undefined);
      assert.ok(s);
      if (c.title) assert.equal(s.title, c.title);
      if (c.files) assert.equal(s.items.at(-1), c.files);
      assert.equal(filesInPlay(c.p, NOW).length, new Set([...c.p.files, ...(c.p.edited ?? []).map((e) => e.path), ...(c.p.branchFiles ?? [])]).size);
    });
  }

  test("the memories first (a decision's file shown once), the files line last", () => {
    const s = inPlaySection({ branch: "feature/es256", files: ["/p/src/auth.ts"], changes: 1, memories: [{ type: "decision", text: "Sign tokens with ES256.", time: at(2), files: ["src/auth.ts", "/p/src/auth.ts"] }] }, NOW, "/p")!;
    assert.deepEqual(s.items, ["- Sign tokens with ES256. (decision, 2 h ago; src/auth.ts)", "- Files: src/auth.ts (changed)"]);
  });
});
