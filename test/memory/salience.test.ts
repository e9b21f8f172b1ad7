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

describe("ranking: rrf × (1 − w + w × salience) × stale penalty × in play", () => {
  const fused = (id: string, score: number): Fused => ({ id, score, legs: { bm25: { rank: 1, score: 1 } } });
  const kinds: Record<string, SalienceSubject> = { read: captured("file_explored"), decision: captured("decision"), edit: captured("file_modified") };
  const inputs = (stale: string[] = []) => ({ now: NOW, config: DEFAULT_SALIENCE, subject: (id: string) => kinds[id.split("-")[0]!]!, use: () => undefined, stale: (id: string) => stale.includes(id) });
  test("a decision outranks a file read of about the same relevance", () => {
    const r = rankBySalience([fused("read-1", 1 / 61), fused("decision-1", 1 / 63)], inputs());
    assert.deepEqual(r.map((x) => x.id), ["decision-1", "read-1"]);
    close(r[0]!.score, (1 / 63) * rankFactor(1, false));
    close(r[0]!.rrf, 1 / 63);
  });
  test("a much better match is never buried", () => {
    const r = rankBySalience([fused("read-1", 2 / 61), fused("decision-1", 1 / 70)], inputs());
    assert.deepEqual(r.map((x) => x.id), ["read-1", "decision-1"]);
  });
  test("a possibly outdated memory is ranked a little lower", () => {
    const r = rankBySalience([fused("edit-1", 1 / 61), fused("edit-2", 1 / 61.5)], inputs(["edit-1"]));
    assert.deepEqual(r.map((x) => x.id), ["edit-2", "edit-1"]);
    assert.ok(r[1]!.salience.stale);
    close(r[1]!.salience.factor, rankFactor(0.45, false) * 0.9);
  });
  const inPlay = (ids: string[]) => ({ ...inputs(), inPlay: (id: string) => (ids.includes(id) ? { path: `/repo/${id}.ts`, why: "changed in git" as const } : undefined) });
  test("a memory about a file in play outranks one of about the same relevance about another file", () => {
    const r = rankBySalience([fused("edit-1", 1 / 61), fused("edit-2", 1 / 63)], inPlay(["edit-2"]));
    assert.deepEqual(r.map((x) => x.id), ["edit-2", "edit-1"]);
    close(r[0]!.salience.factor, rankFactor(0.45, false) * 1.08);
    assert.deepEqual(r[0]!.salience.inPlay, { path: "/repo/edit-2.ts", why: "changed in git" });
    assert.equal(r[1]!.salience.inPlay, undefined);
  });
  test("in play lifts about five places at rrfK 60, not a much better match", () => {
    const r = rankBySalience([fused("edit-1", 1 / 61), fused("edit-2", 1 / 75)], inPlay(["edit-2"]));
    assert.deepEqual(r.map((x) => x.id), ["edit-1", "edit-2"]);
  });
  test("in play and salience together: a decision in play first, a read in play before a read not", () => {
    const r = rankBySalience([fused("read-1", 1 / 61), fused("read-2", 1 / 62), fused("decision-1", 1 / 64)], inPlay(["read-2", "decision-1"]));
    assert.deepEqual(r.map((x) => x.id), ["decision-1", "read-2", "read-1"]);
  });
  test("inPlayBoost 0 turns it off", () => {
    const r = rankBySalience([fused("edit-1", 1 / 61), fused("edit-2", 1 / 63)], { ...inPlay(["edit-2"]), config: { ...DEFAULT_SALIENCE, inPlayBoost: 0 } });
    assert.deepEqual(r.map((x) => x.id), ["edit-1", "edit-2"]);
  });
  test("ties keep the fused order", () => {
    const r = rankBySalience([fused("edit-1", 0.01), fused("edit-2", 0.01)], inputs());
    assert.deepEqual(r.map((x) => x.id), ["edit-1", "edit-2"]);
  });
});
