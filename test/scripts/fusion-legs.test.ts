/**
 * bench:fusion's pure parts (scripts/bench/vector-legs.ts, fusion-metrics.ts), its loopback Ollama
 * (scripts/bench/ollama-legs.ts) answering mem's own Ollama client over real HTTP, and, when
 * ../shared holds the data, the USE leg and the developer questions' file.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { OllamaProvider } from "../../src/embed/ollama.js";
import { goodCodes, noiseLeg, standIn, unit, type StandInSource } from "../../scripts/bench/vector-legs.js";
import { reciprocalRank, recordsIn, row } from "../../scripts/bench/fusion-metrics.js";
import { startLegServer } from "../../scripts/bench/ollama-legs.js";
import { adrDir, adrRecords, ADR_QUESTIONS, loadAdrQuestions } from "../../scripts/bench/fusion-adr.js";
import { useLeg, useVectorsFile } from "../../scripts/bench/fusion-legs.js";
import { locomoDir } from "../../scripts/bench/locomo-data.js";
import { locomoTurns } from "../../scripts/bench/locomo-gap.js";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));
const close = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) < 1e-6);

describe("the noise leg", () => {
  test("the same seed and text give the same unit vector, whatever was asked before; another text or seed another", () => {
    const a = noiseLeg(7, 64);
    const first = a("why are we on postgres");
    a("something else entirely");
    assert.ok(close(first, noiseLeg(7, 64)("why are we on postgres")));
    assert.ok(Math.abs(norm(first) - 1) < 1e-5);
    assert.equal(first.length, 64);
    assert.ok(Math.abs(dot(first, a("why are we on postgres?"))) < 0.5, "another text is another random direction");
    assert.ok(!close(first, noiseLeg(8, 64)("why are we on postgres")));
  });
});

describe("the stand-in rule", () => {
  const e = (i: number, d = 8) => Float32Array.from({ length: d }, (_, j) => (j === i ? 1 : 0));
  const src: StandInSource = {
    units: new Map([
      ["conv-30 D1:1", { vector: e(0), text: "Gina: I lost my job at Door Dash this month and it hurts" }],
      ["conv-30 D1:2", { vector: e(1), text: "Jon: I am starting my own dance studio downtown soon" }],
      ["conv-30 D1:3", { vector: e(2), text: "Jon: thank you so much for that" }],
      ["conv-30 D1:4", { vector: e(3), text: "Gina: thank you so much for that" }],
    ]),
    questions: new Map([
      ["When did Gina lose her job?", e(4)],
      ["When did Gina lose her job at Door Dash?", e(5)],
    ]),
    fallback: (t) => unit(Float32Array.from({ length: 8 }, (_, j) => ((t.length + j) % 3) - 1)),
  };
  const s = standIn(src);

  test("a text holding turn tags gets the normalised sum of those turns' vectors; unknown tags are ignored", () => {
    const v = s.embed("# Session 1\n\n- [conv-30 D1:1] Gina: …\n- [conv-30 D1:2] Jon: …\n- [conv-26 D1:1] Caroline: …\n- [conv-30 D9:9] x");
    assert.equal(s.rule("[conv-30 D1:1]"), "tags");
    assert.ok(close(v, unit(Float32Array.from([1, 1, 0, 0, 0, 0, 0, 0]))));
  });
  test("a text containing a question gets its vector (the longest question it contains), whatever the case, punctuation or a prefix", () => {
    assert.ok(close(s.embed("When did Gina lose her job?"), e(4)));
    assert.ok(close(s.embed("search_query: when did gina lose her job at door dash"), e(5)));
    assert.equal(s.rule("When did Gina lose her jobs?"), "fallback", "a question is matched word for word");
  });
  test("five words in a row of one turn give that turn's vector; a run two turns share identifies neither", () => {
    assert.ok(close(s.embed("she said: starting my own dance studio"), e(1)));
    assert.equal(s.rule("my own dance studio"), "fallback", "four words are not enough");
    assert.equal(s.rule("thank you so much for that"), "fallback");
    assert.ok(close(s.embed("lost my job at door and then starting my own dance studio"), unit(Float32Array.from([1, 1, 0, 0, 0, 0, 0, 0]))));
  });
  test("anything else gets the fallback", () => {
    assert.ok(close(s.embed("fix the failing jest test"), src.fallback("fix the failing jest test")));
  });
});

describe("the good leg's codes", () => {
  test("deterministic; a question's vector leans on its answers' codes by the noise level set", () => {
    const qs = [{ text: "q1", answers: ["a"] }, { text: "q2", answers: ["a", "b"] }, { text: "q3", answers: ["nowhere"] }];
    const g = goodCodes(3, 512, ["a", "b", "c"], qs, 2);
    const again = goodCodes(3, 512, ["a", "b", "c"], qs, 2);
    assert.ok(close(g.codes.get("a")!, again.codes.get("a")!) && close(g.questions.get("q2")!, again.questions.get("q2")!));
    const cos = dot(g.questions.get("q1")!, g.codes.get("a")!);
    assert.ok(Math.abs(cos - 1 / Math.sqrt(5)) < 0.15, `cos ${cos} near 1/sqrt(1 + 2²)`);
    assert.ok(Math.abs(dot(g.questions.get("q1")!, g.codes.get("c")!)) < 0.2);
    const both = g.questions.get("q2")!;
    assert.ok(dot(both, g.codes.get("a")!) > 0.15 && dot(both, g.codes.get("b")!) > 0.15);
    assert.ok(Math.abs(norm(g.questions.get("q3")!) - 1) < 1e-5, "no known answer: a random unit vector");
    const clean = goodCodes(3, 512, ["a"], [{ text: "q1", answers: ["a"] }], 0);
    assert.ok(close(clean.questions.get("q1")!, clean.codes.get("a")!), "no noise: exactly the answer's code");
  });
});

describe("the measures", () => {
  test("reciprocal rank of the first relevant item, 0 without one", () => {
    assert.equal(reciprocalRank(["x", "a", "a"], (s) => s === "a"), 0.5);
    assert.equal(reciprocalRank(["x"], (s) => s === "a"), 0);
  });
  test("the records an injected context shows, by file name", () => {
    const ctx = "- [1a2b3c4d · 0008-postgres-on-puppetmaster.md:12] Decision: …\n- [9f8e7d6c · 0038-mongo_replacement_by_documentdb.md:40] …\nsee 0001-record.md";
    assert.deepEqual([...recordsIn(ctx)].sort(), ["0008-postgres-on-puppetmaster.md", "0038-mongo_replacement_by_documentdb.md"]);
  });
  test("a row averages over the ids asked, counting a question without a ranking as missed", () => {
    const r = row("s", "none", "BM25 alone", ["a", "b"], new Map([["a", { r1: 1, r5: 1, rr: 1 }]]), new Map([["a", { recall: 0.5, nothing: false }], ["b", { recall: 0, nothing: true }]]), [true, false, false, false]);
    assert.deepEqual([r.r1, r.r5, r.mrr], [0.5, 0.5, 0.5]);
    assert.deepEqual(r.hook, { recall: 0.25, hit: 0.5, nothing: 0.5 });
    assert.deepEqual(r.offTopic, { n: 4, injected: 0.25 });
  });
});

describe("the loopback Ollama", () => {
  test("mem's Ollama client finds the model healthy and gets the leg's vectors; other models, bad bodies and huge batches are refused", async () => {
    const leg = noiseLeg(1, 32);
    const server = await startLegServer({ model: "nomic-embed-text", embed: leg });
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const p = new OllamaProvider({ host: server.url, model: "nomic-embed-text", timeoutMs: 5_000, healthTimeoutMs: 5_000 });
      const h = await p.health();
      assert.ok(h.ok, JSON.stringify(h));
      const [v] = await p.embed(["what did we decide about redis"], "query");
      assert.ok(close(v!, leg("search_query: what did we decide about redis")), "nomic-embed-text gets its query prefix");
      assert.equal(server.texts, 2, "the health probe and the text");
      assert.equal((await new OllamaProvider({ host: server.url, model: "other", timeoutMs: 5_000, healthTimeoutMs: 5_000 }).health()).ok, false);
      const post = (body: string) => fetch(`${server.url}/api/embed`, { method: "POST", body }).then((r) => r.status);
      assert.equal(await post("{not json"), 400);
      assert.equal(await post(JSON.stringify({ model: "nomic-embed-text", input: [1, 2] })), 400);
      assert.equal(await post(JSON.stringify({ model: "nomic-embed-text", input: Array(5_000).fill("x") })), 400);
      const legacy = (await (await fetch(`${server.url}/api/embeddings`, { method: "POST", body: JSON.stringify({ model: "nomic-embed-text", prompt: "x" }) })).json()) as { embedding: number[] };
      assert.equal(legacy.embedding.length, 32);
    } finally {
      await server.close();
    }
  });
});

const ldir = locomoDir();
describe("the USE leg on conv-30", { skip: ldir && existsSync(useVectorsFile(ldir)) ? false : "../shared/data/locomo-dev/vectors not found (MEM_LOCOMO_DIR)" }, () => {
  test("a question gets its own vector, a chunk of tagged turns the normalised sum of theirs", () => {
    const file = useVectorsFile(ldir!);
    const raw = JSON.parse(readFileSync(file, "utf8")) as { turns: Record<string, number[]>; questions: Record<string, number[]> };
    const turns = new Map([...locomoTurns(ldir!, ["conv-30"])].map(([k, t]) => [k, `${t.speaker}: ${t.text}`] as const));
    const embed = useLeg(file, turns, { seed: 1, dims: 512, goodNoise: 1 });
    const [q, qv] = Object.entries(raw.questions)[0]!;
    assert.ok(close(embed(q), Float32Array.from(qv)));
    const sum = unit(Float32Array.from(raw.turns["D1:1"]!, (x, i) => x + raw.turns["D1:2"]![i]!));
    assert.ok(close(embed("Session 1\n\n- [conv-30 D1:1] Gina: …\n- [conv-30 D1:2] Jon: …"), sum));
    const line = turns.get("conv-30 D1:2")!;
    assert.ok(close(embed(line.slice(line.indexOf(":") + 2)), Float32Array.from(raw.turns["D1:2"]!)), "a line without its tag");
  });
});

const adir = adrDir();
describe("the developer questions", { skip: adir ? false : "../shared/data/adr not found (MEM_ADR_DIR)" }, () => {
  test("at least 40, at least half paraphrased, every answer a record; off-topic prompts beside them", () => {
    const { questions, offTopic } = loadAdrQuestions(ADR_QUESTIONS, adir!);
    assert.ok(questions.length >= 40);
    assert.ok(questions.filter((q) => q.paraphrase).length * 2 >= questions.length);
    const records = adrRecords(adir!);
    for (const q of questions) for (const a of q.answers) assert.ok(records.has(a), a);
    assert.ok(offTopic.length >= 20);
    assert.equal(new Set(questions.map((q) => q.question)).size, questions.length, "no question twice");
  });
  test("a file naming a record that is not there, or without its arrays, is refused", () => {
    const tmp = mkdtempSync(join(tmpdir(), "mem-adr-questions-"));
    try {
      const file = join(tmp, "q.json");
      writeFileSync(file, JSON.stringify({ questions: [{ question: "why redis?", answers: ["0099-nothing.md"], paraphrase: false }], offTopic: [] }));
      assert.throws(() => loadAdrQuestions(file, adir!), /0099-nothing\.md/);
      writeFileSync(file, JSON.stringify({ questions: {} }));
      assert.throws(() => loadAdrQuestions(file, adir!), /arrays/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
