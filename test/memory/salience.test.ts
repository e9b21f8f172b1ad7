import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { baseSalience, DEFAULT_SALIENCE, effectiveSalience, rankFactor, reinforced, type SalienceSubject } from "../../src/memory/salience.js";
import { rankBySalience } from "../../src/retrieve/salience-rank.js";
import type { Fused } from "../../src/retrieve/rrf.js";

const H = 3_600_000;
const NOW = Date.parse("2026-11-23T12:00:00Z");
const captured = (kind: string, hoursAgo = 0): SalienceSubject => ({ kind, source: "captured", createdAt: NOW - hoursAgo * H });
const note = (tier: string, hoursAgo = 0): SalienceSubject => ({ kind: "note", source: "markdown", tier, createdAt: NOW - hoursAgo * H });
const close = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) < eps, `${a} ≉ ${b}`);

describe("salience: defaults, decay, reinforcement, immortality", () => {
  test("each kind has a default: decisions and rejected approaches highest, file reads lowest", () => {
    const order = ["decision", "rejected", "preference", "learned", "task", "error", "file_modified", "command_run", "tool", "file_explored"].map((k) => baseSalience(captured(k)));
    assert.deepEqual([...order].sort((a, b) => b - a), order);
    assert.equal(baseSalience(captured("decision")), 1);
    assert.equal(baseSalience(captured("something new")), DEFAULT_SALIENCE.defaults.other);
  });
  test("effective = stored × 0.995^hours since last use: a day costs 11%, a week 57%", () => {
    close(effectiveSalience(captured("file_modified", 24), undefined, NOW).value, 0.45 * 0.995 ** 24);
    close(effectiveSalience(captured("learned", 24 * 7), undefined, NOW).value, 0.85 * 0.995 ** 168);
    assert.equal(effectiveSalience(captured("learned"), undefined, NOW).value, 0.85, "a new memory is at its default");
  });
  test("decisions and rejected approaches never decay below the floor; other kinds fade", () => {
    const month = 24 * 30;
    const d = effectiveSalience(captured("decision", month), undefined, NOW);
    assert.equal(d.value, DEFAULT_SALIENCE.floor);
    assert.ok(d.floored);
    assert.equal(effectiveSalience(captured("rejected", month * 12), undefined, NOW).value, 0.6);
    assert.ok(effectiveSalience(captured("file_explored", month), undefined, NOW).value < 0.01);
    assert.ok(effectiveSalience(captured("learned", month), undefined, NOW).value < 0.05, "learned facts are not immortal");
  });
  test("reinforcement: × 1.2 capped at 1, the clock restarts, uses counted", () => {
    const m = captured("file_modified", 48);
    const once = reinforced(m, undefined, NOW);
    close(once.salience, 0.54);
    assert.equal(once.lastUsedAt, NOW);
    assert.equal(once.uses, 1);
    const e = effectiveSalience(m, once, NOW + 2 * H);
    close(e.value, 0.54 * 0.995 ** 2);
    let u = once;
    for (let i = 0; i < 10; i++) u = reinforced(m, u, NOW);
    assert.equal(u.salience, 1);
    assert.equal(u.uses, 11);
  });
  test("markdown notes do not decay by default: their tier decides", () => {
    assert.equal(effectiveSalience(note("hot", 24 * 365), undefined, NOW).value, 1);
    assert.equal(effectiveSalience(note("warm", 24 * 365), undefined, NOW).value, 0.8);
    assert.equal(effectiveSalience(note("cold", 24 * 365), undefined, NOW).value, 0.5);
    close(effectiveSalience(note("warm", 24), undefined, NOW, { ...DEFAULT_SALIENCE, decayNotes: true }).value, 0.8 * 0.995 ** 24);
  });
  test("the same input gives the same answer (clock injected)", () => {
    assert.deepEqual(effectiveSalience(captured("error", 5), undefined, NOW), effectiveSalience(captured("error", 5), undefined, NOW));
  });
});

describe("ranking: priors (salience, staleness, in play) break ties of fused evidence, within ±0.1", () => {
  const fused = (id: string, score: number): Fused => ({ id, score, legs: { bm25: { rank: 1, score: 1 } } });
  const kinds: Record<string, SalienceSubject> = { read: captured("file_explored"), decision: captured("decision"), edit: captured("file_modified"), hot: note("hot") };
  const inputs = (stale: string[] = []) => ({ now: NOW, config: DEFAULT_SALIENCE, subject: (id: string) => kinds[id.split("-")[0]!]!, use: () => undefined, stale: (id: string) => stale.includes(id) });
  const inPlay = (ids: string[]) => ({ ...inputs(), inPlay: (id: string) => (ids.includes(id) ? { path: `/repo/${id}.ts`, why: "changed in git" as const } : undefined) });
  const span = 1 - (1 - DEFAULT_SALIENCE.weight) * DEFAULT_SALIENCE.stalePenalty;
  const cases: { name: string; fused: [string, number][]; with?: ReturnType<typeof inputs>; order: string[] }[] = [
    { name: "a decision outranks a file read of about the same relevance", fused: [["read-1", 0.8], ["decision-1", 0.78]], order: ["decision-1", "read-1"] },
    { name: "a much better match is never buried", fused: [["read-1", 0.9], ["decision-1", 0.5]], order: ["read-1", "decision-1"] },
    { name: "a hot note that barely matches stays below the decision that answers (BM25 0.50 vs 3.43)", fused: [["hot-1", 0.15], ["decision-1", 1]], order: ["decision-1", "hot-1"] },
    { name: "a possibly outdated memory is ranked a little lower", fused: [["edit-1", 0.8], ["edit-2", 0.79]], with: inputs(["edit-1"]), order: ["edit-2", "edit-1"] },
    { name: "a memory about a file in play outranks one of about the same relevance", fused: [["edit-1", 0.8], ["edit-2", 0.79]], with: inPlay(["edit-2"]), order: ["edit-2", "edit-1"] },
    { name: "in play lifts past a gap of up to 0.35, not a clear margin", fused: [["edit-1", 0.9], ["edit-2", 0.5]], with: inPlay(["edit-2"]), order: ["edit-1", "edit-2"] },
    { name: "in play and salience together", fused: [["read-1", 0.8], ["read-2", 0.79], ["decision-1", 0.77]], with: inPlay(["read-2", "decision-1"]), order: ["decision-1", "read-2", "read-1"] },
    { name: "inPlayBoost 0 turns it off", fused: [["edit-1", 0.8], ["edit-2", 0.79]], with: { ...inPlay(["edit-2"]), config: { ...DEFAULT_SALIENCE, inPlayBoost: 0 } }, order: ["edit-1", "edit-2"] },
    { name: "ties keep the fused order", fused: [["edit-1", 0.5], ["edit-2", 0.5]], order: ["edit-1", "edit-2"] },
  ];
  for (const c of cases)
    test(c.name, () => {
      const r = rankBySalience(c.fused.map(([id, sc]) => fused(id, sc)), c.with ?? inputs());
      assert.deepEqual(r.map((x) => x.id), c.order);
      for (const x of r) assert.ok(Math.abs(x.score - x.rrf) <= (x.salience.inPlay ? 0.45 : 0.1) + 1e-12, "the priors move a score by at most the margin (in play: 0.35 more)");
    });
  test("the shift is margin × (factor − 1) / (1 − the lowest factor)", () => {
    const [r] = rankBySalience([fused("read-1", 0.8)], inputs());
    close(r!.score, 0.8 + Math.max(-0.1, (0.1 * (r!.salience.factor - 1)) / span));
    close(r!.rrf, 0.8);
    close(r!.salience.factor, rankFactor(r!.salience.value, false));
  });
});
