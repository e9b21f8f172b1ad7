/**
 * The traced path (`traceInjection`, what `mem why` shows) runs the floor, the selection and the
 * budget the hook runs (`formatInjection`): the same text, and a true account of each candidate.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEFAULT_INJECT, floorVerdict, formatInjection, passesFloor, traceInjection, type Candidate, type InjectOptions } from "../../src/inject/format.js";
import { contentStems } from "../../src/inject/terms.js";
import { queryTerms } from "../../src/retrieve/fts-query.js";
import { candidate, FILLER } from "./fixtures.js";

const cand = (over: Partial<Candidate>): Candidate => candidate("e", over);
const PROMPT = "why did we choose SQLite over Postgres for the laptop";
const stemsOf = (p: string) => contentStems(queryTerms(p));

/** Candidates of every sort: several files, overlapping chunks, captured memories, long lines, off-topic ones. */
function mixed(): Candidate[] {
  const long = `We chose SQLite over Postgres. ${"The laptop has no server and the team wanted one file to back up, so the decision was easy. ".repeat(4)}Postgres stays rejected.`;
  return [
    cand({ text: ["- Storage is SQLite.", "- We chose SQLite over Postgres: no server.", FILLER(1)].join("\n"), startLine: 3, endLine: 5 }),
    cand({ text: ["- We chose SQLite over Postgres: no server.", "- Postgres would need a server on the laptop."].join("\n"), startLine: 4, endLine: 5 }),
    cand({ path: "session:s1", kind: "decision", headingPath: ["decision"], startLine: 0, endLine: 0, text: "decision: SQLite over Postgres, for the laptop." }),
    cand({ path: "/p/memory/long.md", headingPath: ["Why"], text: long }),
    ...Array.from({ length: 12 }, (_, i) => cand({ path: `/p/memory/n${i}.md`, headingPath: [`Note ${i}`], text: [`- SQLite over Postgres, note ${i}, for the laptop.`, FILLER(i), FILLER(i + 1)].join("\n") })),
    cand({ path: "/p/memory/bread.md", headingPath: ["Bread"], text: "Bake the bread at 220 degrees." }),
  ];
}

describe("mem why's trace of the injection", () => {
  test("gives exactly the hook's injection text and ids, at every budget and item cap", () => {
    const cands = mixed();
    const redact = (s: string) => s.replace(/laptop/g, "[REDACTED:longer-label]");
    for (const budgetChars of [300, 600, 1_000, 2_000, 4_000]) {
      for (const maxItems of [1, 3, 20]) {
        const o: InjectOptions = { ...DEFAULT_INJECT, budgetChars, maxItems };
        for (const r of [(s: string) => s, redact]) {
          const hook = formatInjection(cands, queryTerms(PROMPT), o, r);
          const traced = traceInjection(cands, queryTerms(PROMPT), o, r);
          assert.deepEqual(traced.injection, hook, `budget ${budgetChars}, cap ${maxItems}`);
          if (hook) assert.equal(traced.items, hook.text.split("\n").filter((l) => l.startsWith("- [")).length);
          else assert.ok(traced.nothing, "nothing injected says why");
        }
      }
    }
  });

  test("the floor's verdict is passesFloor's, with the words it matched and the reason", () => {
    // Counted with every word alike and half of them needed (a configured minTermCoverage of 0.5).
    const HALF = { ...DEFAULT_INJECT, minTermCoverage: 0.5 };
    const stems = stemsOf("how do we deploy the sqlite backup job to kubernetes");
    const c = cand({ text: "SQLite is a database.", headingPath: [] });
    const v = floorVerdict(c, stems, HALF);
    assert.equal(v.pass, passesFloor(c, stems, HALF));
    assert.equal(v.pass, false);
    assert.deepEqual(v.matched, ["sqlite"]);
    assert.equal(v.of, stems.length);
    assert.match(v.reason, /^holds 1 of the prompt's 5 content words \(sqlite\); needs 3 /);

    const two = floorVerdict(cand({ text: "The sqlite backup runs nightly.", headingPath: [] }), stems, HALF);
    assert.equal(two.pass, false, "two of five words are under half of them");
    assert.deepEqual(new Set(two.matched), new Set(["sqlite", "backup"]));
    assert.match(two.reason, /holds 2 of the prompt's 5 content words \((sqlite, backup|backup, sqlite): 40%\); needs 3 \(at least 2 and 50%\)/);

    const one = floorVerdict(cand({ text: "Did you push the button?", headingPath: [] }), stemsOf("did you push?"), HALF);
    assert.equal(one.pass, false);
    assert.match(one.reason, /one word alone cannot tell its sense/);

    const vec = floorVerdict(cand({ text: "unrelated words", headingPath: [], legs: { vector: { rank: 1, score: 0.8 } } }), ["sqlite"], HALF);
    assert.equal(vec.pass, true);
    assert.equal(vec.by, "vector");
    assert.match(vec.reason, /vector similarity 0\.80 ≥ 0\.45/);

    const weak = floorVerdict(cand({ text: "unrelated words", headingPath: [], legs: { vector: { rank: 1, score: 0.2 } } }), ["sqlite", "postgr"], HALF);
    assert.equal(weak.pass, false);
    assert.match(weak.reason, /vector similarity 0\.20 < 0\.45/);
    // Over the mixed candidates, the verdicts are passesFloor's, one by one.
    const cands = mixed();
    const t = traceInjection(cands, queryTerms(PROMPT), DEFAULT_INJECT, (s) => s);
    assert.deepEqual(
      t.floor.map((f) => f.pass),
      cands.map((c) => passesFloor(c, t.stems, DEFAULT_INJECT)),
    );
    assert.equal(t.floor.at(-1)!.pass, false, "the off-topic note fails");
    assert.equal(t.evidence.at(-1), undefined, "and never reaches the selection");
  });

  test("each candidate's pieces are accounted for: shown, dropped for the budget or the item cap, held by a better ranked chunk, or holding no prompt word", () => {
    const cands = mixed();
    const t = traceInjection(cands, queryTerms(PROMPT), { ...DEFAULT_INJECT, budgetChars: 700 }, (s) => s);
    const ev = t.evidence.filter((e) => e !== undefined);
    for (const e of ev) assert.equal(e.shown + e.budget + e.maxItems + e.unscored + e.elsewhere, e.pieces, JSON.stringify(e));
    const ids = new Set(t.injection!.ids);
    cands.forEach((c, i) => {
      const e = t.evidence[i];
      if (e) assert.equal(e.shown > 0, ids.has(c.id), `candidate ${i}: shown pieces iff its id is injected`);
    });
    assert.ok(ev.some((e) => e.budget > 0), "a small budget drops some evidence");
    assert.ok(t.evidence[1]!.elsewhere >= 1, "the line the second chunk shares with the first is the first's");
    assert.ok(t.evidence[0]!.unscored >= 1 || t.evidence[0]!.shown >= 1);

    const capped = traceInjection(cands, queryTerms(PROMPT), { ...DEFAULT_INJECT, maxItems: 2 }, (s) => s);
    assert.equal(capped.items, 2);
    assert.ok(capped.evidence.some((e) => e !== undefined && e.maxItems > 0), "the item cap drops evidence");
  });

  test("says why nothing is injected", () => {
    assert.equal(traceInjection([], queryTerms(PROMPT), DEFAULT_INJECT, (s) => s).nothing, "no result to choose from");
    const off = traceInjection([cand({ text: "Bake the bread.", headingPath: ["Bread"] })], queryTerms(PROMPT), DEFAULT_INJECT, (s) => s);
    assert.equal(off.nothing, "no result passed the floor");
    assert.equal(off.injection, undefined);
    const tiny = traceInjection(mixed(), queryTerms(PROMPT), { ...DEFAULT_INJECT, budgetChars: 250 }, (s) => s);
    assert.equal(tiny.injection, formatInjection(mixed(), queryTerms(PROMPT), { ...DEFAULT_INJECT, budgetChars: 250 }, (s) => s));
    assert.equal(tiny.nothing, "no line fits the budget");
  });
});
