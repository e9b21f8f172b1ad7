/**
 * The LoCoMo bench's measure and its prompt sets (scripts/bench/locomo-data.ts): a turn counts when
 * its tag is in the text, a tag of another conversation is a leak, and real transcripts give the
 * prompts a user typed, sorted into skip-worthy ones and tasks.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { classifyPrompt, evidenceRecall, leaks, transcriptPrompts, type LocomoQuestion } from "../../scripts/bench/locomo-data.js";
import { lexicalGap, locomoTurns } from "../../scripts/bench/locomo-gap.js";

const q: LocomoQuestion = { conv: "conv-26", qid: "conv-26:q0", question: "When did Caroline go to the support group?", category: 2, evidence: ["D1:3", "D2:10"] };

describe("the LoCoMo measure", () => {
  test("recall is the share of the question's evidence turns whose tag is in the text, in its own conversation only", () => {
    assert.equal(evidenceRecall(q, "- [conv-26 D1:3] Caroline: I went to a support group"), 0.5);
    assert.equal(evidenceRecall(q, "[conv-26 D1:3] … [conv-26 D2:10] …"), 1);
    assert.equal(evidenceRecall(q, "[conv-30 D1:3] [conv-26 D1:30] [conv-26 D2:1]"), 0, "another conversation's turn, or a longer turn number, is not evidence");
  });
  test("a tag of another conversation in a question's text is a leak", () => {
    assert.deepEqual(leaks(q, "[conv-26 D1:3] [conv-30 D4:2] [conv-41 D1:1]"), ["conv-30 D4:2", "conv-41 D1:1"]);
    assert.deepEqual(leaks(q, "[conv-26 D1:3]"), []);
  });
});

describe("real prompts", () => {
  const tmp = mkdtempSync(join(tmpdir(), "mem-locomo-data-"));
  after(() => rmSync(tmp, { recursive: true, force: true }));
  test("what a user typed: not compaction summaries, meta entries, interruptions, tool results or subagents' prompts", () => {
    const user = (content: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ type: "user", message: { role: "user", content }, ...extra });
    mkdirSync(join(tmp, "proj", "s1", "subagents"), { recursive: true });
    writeFileSync(
      join(tmp, "proj", "s1.jsonl"),
      [
        user("fix the flaky login test"),
        user([{ type: "text", text: "why does the cache miss?" }]),
        user("This session is being continued from a previous conversation…", { isCompactSummary: true }),
        user("<local-command-caveat>…", { isMeta: true }),
        user("[Request interrupted by user for tool use]"),
        user([{ type: "tool_result", tool_use_id: "t1", content: "ok" }]),
        JSON.stringify({ type: "assistant", message: { content: "hello" } }),
        "not json",
      ].join("\n"),
    );
    writeFileSync(join(tmp, "proj", "s1", "subagents", "agent-a1.jsonl"), user("explore the repository"));
    assert.deepEqual(transcriptPrompts(tmp), ["fix the flaky login test", "why does the cache miss?"]);
  });
  test("skip-worthy: Claude Code's own messages and go-aheads; the rest are tasks", () => {
    for (const p of ["<task-notification>\n<task-id>1</task-id>", "<command-name>/exit</command-name>", "/compact keep the plan", "<bash-input>git status</bash-input>"]) assert.equal(classifyPrompt(p), "claude-code", p);
    for (const p of ["yes", "Go ahead.", "ok let's keep going", "1", "C)", "please continue", "hi"]) assert.equal(classifyPrompt(p), "go-ahead", p);
    for (const p of ["continue implementation", "fix it up", "did you push?", "where are all the callers of commitWithMetadataGemini?"]) assert.equal(classifyPrompt(p), "task", p);
  });
});

describe("the lexical gap", () => {
  const tmp = mkdtempSync(join(tmpdir(), "mem-locomo-gap-"));
  after(() => rmSync(tmp, { recursive: true, force: true }));
  test("an evidence turn counts as unseen when it shares no stemmed content word with its question, the speakers' names aside", () => {
    mkdirSync(join(tmp, "conv-26", "memory"), { recursive: true });
    writeFileSync(
      join(tmp, "conv-26", "memory", "session-01.md"),
      [
        "# Session 1",
        "- [conv-26 D1:3] Caroline: I went to the support groups yesterday.",
        "- [conv-26 D1:4] Melanie: They're tough kids.",
        "- [conv-26 D1:5] Caroline: Melanie, that sounds great.",
      ].join("\n"),
    );
    const turns = locomoTurns(tmp, ["conv-26"]);
    assert.equal(turns.size, 3);
    const ask = (question: string, evidence: string[], category = 1): LocomoQuestion => ({ conv: "conv-26", qid: "x", question, category, evidence });
    const gap = lexicalGap([ask("What support group did Caroline go to?", ["D1:3"]), ask("How many children does Melanie have?", ["D1:4", "D1:5"], 4), ask("Gone?", ["D9:9"], 4)], turns);
    assert.deepEqual(gap.get(1), { turns: 1, unseen: 0 }, "group/groups share a stem");
    assert.deepEqual(gap.get(4), { turns: 2, unseen: 2 }, "kids is not children; a name alone is not a match; a turn not in the files is not counted");
    assert.deepEqual(gap.get(0), { turns: 3, unseen: 2 });
  });
});
