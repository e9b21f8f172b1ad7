/**
 * A session is not shown the same lines twice, but the rest of a note comes when a later prompt
 * asks about it: what was injected is recorded line by line (the prompt hook run in-process as the
 * CLI runs it, a real store). Overlapping chunks of one note share what was shown; a captured
 * memory counts as shown whole; a compaction lets all of it come again.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { unseen } from "../../src/inject/for-prompt.js";
import { linePrint } from "../../src/store/line-print.js";
import { clean } from "../../src/redact/clean.cjs";
import type { SearchResponse, SearchResult } from "../../src/retrieve/search.js";
import { openDb } from "../../src/store/db.js";
import { recordInjected, shownIn } from "../../src/store/injections.js";
import { cleanEnv, runMem } from "../helpers/mem-cli.js";
import { hook } from "./helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-shown-lines-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const result = (id: string, path: string, startLine: number, text: string): SearchResult => ({
  id, text, path, startLine, endLine: startLine + text.split("\n").length - 1, headingPath: [], project: "/p", kind: "note", tier: "warm", tags: [], date: null, score: 1, legs: {}, duplicates: [],
});
const response = (results: SearchResult[]): SearchResponse => ({ results, legs: ["bm25"], warnings: [] });

describe("what a session has not seen yet (pure)", () => {
  test("shown lines are blanked (line numbers kept); a result with nothing new, or shown whole, is seen", () => {
    const a = result("a", "/p/n.md", 1, "# Deploy\n\nWe deploy on Fridays.\nRollbacks use the previous image.");
    const b = result("b", "/p/n.md", 3, "We deploy on Fridays.");
    const c = result("c", "session:s1", 1, "decision: keep Fridays");
    const d = result("d", "/p/other.md", 1, "Unrelated.");
    const shown = { whole: new Set(["d"]), lines: new Map([["/p/n.md", new Set([linePrint("We deploy on Fridays.")])], ["session:s1", new Set([linePrint("decision: keep Fridays")])]]) };
    const u = unseen(response([a, b, c, d]), shown);
    assert.equal(u.response.results[0]!.text, "# Deploy\n\n\nRollbacks use the previous image.");
    assert.deepEqual([...u.partly], [["a", 1]]);
    assert.deepEqual([...u.seen].sort(), ["b", "d"], "b's only line was shown (by chunk a: same file); d was shown whole");
    assert.equal(u.response.results[2]!.text, c.text, "a captured memory is not cut line by line");
  });
});

describe("the injections store, line by line", () => {
  test("lines add up per chunk; a chunk shown whole stays whole; a captured memory's chunk reads as whole", () => {
    const db = openDb(join(tmp, "store.sqlite"));
    try {
      const src = db.prepare("INSERT INTO sources (project, path, kind, size, mtime_ms, content_hash, indexed_at) VALUES ('p', ?, 'markdown', 1, 0, 'h', 0)");
      const ins = db.prepare("INSERT INTO chunks (id, project, path, seq, start_line, end_line, heading, text, kind, tags, metadata, source_id) VALUES (?, 'p', ?, ?, 1, 9, '', 'x', 'note', '[]', '{}', (SELECT id FROM sources WHERE path = ?))");
      for (const path of ["/p/a.md", "/p/b.md", "session:s9"]) src.run(path);
      for (const [i, [id, path]] of ([["c1", "/p/a.md"], ["c2", "/p/a.md"], ["c3", "/p/b.md"], ["c4", "session:s9"]] as const).entries()) ins.run(id, path, i, path);
      const s = clean("sess");
      const [p3, p4, p5, p7] = ["three", "four", "five", "seven"].map(linePrint) as [string, string, string, string];
      recordInjected(db, s, ["c1", "c4"], 1, new Map([["c1", [p3, p4]], ["c4", [p3]]]));
      recordInjected(db, s, ["c3"], 1); // no lines given: the whole chunk
      recordInjected(db, s, ["c2", "c1"], 2, new Map([["c2", [p7, "not a fingerprint"]], ["c1", [p5, p3]]]));
      const shown = shownIn(db, "sess");
      assert.deepEqual([...shown.whole].sort(), ["c3", "c4"]);
      assert.deepEqual([...(shown.lines.get("/p/a.md") ?? [])].sort(), [p3, p4, p5, p7].sort());
      recordInjected(db, s, ["c3"], 3, new Map([["c3", [p3]]]));
      assert.ok(shownIn(db, "sess").whole.has("c3"), "shown whole before: still whole");
      recordInjected(db, s, ["c2"], 4, new Map());
      assert.ok(!shownIn(db, "sess").whole.has("c2"), "recorded line by line with no line shown whole (part of a long line): not whole");
      assert.equal(shownIn(db, "other").whole.size, 0);
    } finally {
      db.close();
    }
  });
});

describe("a follow-up prompt gets the rest of a note", () => {
  test("the first prompt's lines are not shown again; the note's other lines come for the next prompt; after a compaction, all again", async () => {
    const proj = join(tmp, "proj");
    mkdirSync(join(proj, ".git"), { recursive: true });
    mkdirSync(join(proj, "memory"));
    writeFileSync(
      join(proj, "memory", "ops.md"),
      [
        "# Operations",
        "",
        "- The deploy pipeline pushes the container image to the registry on Fridays.",
        "- Our office plants are watered on Mondays.",
        "- The coffee machine is descaled every month.",
        "- Parking permits are renewed each January.",
        "- Rollbacks restore the previous release from the archive bucket, nightly.",
        "",
      ].join("\n"),
    );
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" };
    assert.equal((await runMem(["index", join(proj, "memory"), "-q"], { env })).code, 0);
    const prompt = async (text: string) => (await hook("user-prompt-submit", { session_id: "s1", cwd: proj, hook_event_name: "UserPromptSubmit", prompt: text }, env)).stdout;

    const push = "when does the deploy pipeline push the container image to the registry";
    const first = await prompt(push);
    assert.match(first, /pushes the container image to the registry on Fridays/);
    assert.doesNotMatch(first, /Rollbacks restore/, "the other fact is not about this prompt");
    const second = await prompt("how do rollbacks restore the previous release from the archive bucket");
    assert.match(second, /Rollbacks restore the previous release from the archive bucket/, "the same chunk's other lines come for the next prompt");
    assert.doesNotMatch(second, /pushes the container image/, "not the lines shown before");
    assert.equal(await prompt(push), "", "nothing new for the first prompt again: nothing injected");
    assert.equal((await hook("session-start", { session_id: "s1", cwd: proj, hook_event_name: "SessionStart", source: "compact" }, env)).code, 0);
    assert.match(await prompt(push), /pushes the container image to the registry on Fridays/, "after a compaction it may come again");
  });
});

describe("what was shown is known by content", () => {
  function setup(name: string) {
    const proj = join(tmp, name);
    mkdirSync(join(proj, ".git"), { recursive: true });
    mkdirSync(join(proj, "memory"));
    const env = { ...cleanEnv(join(tmp, `${name}-claude`)), MEM_HOME: join(tmp, `${name}-home`), HOME: tmp, MEM_EMBED_ORDER: "none" };
    const prompt = async (text: string, session = "s1") => (await hook("user-prompt-submit", { session_id: session, cwd: proj, hook_event_name: "UserPromptSubmit", prompt: text }, env)).stdout;
    const index = async () => assert.equal((await runMem(["index", join(proj, "memory"), "-q"], { env })).code, 0);
    return { prompt, index, file: join(proj, "memory", "ops.md") };
  }

  test("an edit above a shown line (the note re-indexed, its lines moved) hides nothing the session never saw, and does not show the moved line again", async () => {
    const s = setup("shift");
    const deploy = ["# Deploy", "", "The deploy pipeline pushes the container image to the registry on Fridays.", ""];
    const rollbacks = ["# Rollbacks", "", "Rollbacks restore the previous release from the archive bucket nightly.", ""];
    writeFileSync(s.file, [...deploy, ...rollbacks].join("\n"));
    await s.index();
    assert.match(await s.prompt("when does the deploy pipeline push the container image to the registry"), /pushes the container image/);
    writeFileSync(s.file, ["# Kubernetes", "", "The kubernetes cluster autoscaler drains spot nodes before preemption.", "", ...deploy, ...rollbacks].join("\n"));
    await s.index();
    assert.match(await s.prompt("how does the kubernetes cluster autoscaler drain spot nodes before preemption"), /autoscaler drains spot nodes/, "the new line 3 was never shown to this session");
    assert.doesNotMatch(await s.prompt("when does the deploy pipeline push the container image to the registry"), /pushes the container image/, "the moved line was shown already");
  });

  test("a long line of which some sentences were shown: its other sentences still come", async () => {
    const s = setup("long");
    const para = [
      "The deploy pipeline pushes the container image to the registry on Fridays.",
      "It tags each image with the commit hash of the release branch.",
      "Our office plants are watered by the facilities team on Mondays.",
      "The coffee machine is descaled by the vendor every single month.",
      "Rollbacks restore the previous release from the archive bucket nightly.",
    ].join(" ");
    writeFileSync(s.file, ["# Operations", "", para, ""].join("\n"));
    await s.index();
    const first = await s.prompt("when does the deploy pipeline push the container image to the registry");
    assert.match(first, /pushes the container image/);
    assert.doesNotMatch(first, /Rollbacks restore/, "premise: the last sentence is not shown first");
    assert.match(await s.prompt("how do rollbacks restore the previous release from the archive bucket"), /Rollbacks restore the previous release/);
  });
});
