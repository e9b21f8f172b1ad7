/**
 * The fusion is a choice (`query.fusion`, `--fusion` on `mem query` and `mem why`) and every
 * surface names the one used: `--json`'s `fusion.method`, `--explain`'s and `mem why`'s fusion line.
 * A real store, a fake Ollama serving the vector leg, the real CLI.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { WhyReport } from "../../src/inject/why.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

interface QueryJson {
  mode: string;
  legs: string[];
  fusion: { method: string; k?: number; weights: { bm25: number; vector: number } } | null;
  results: { path: string; score: number }[];
}

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-fusion-choice-")));
const proj = join(tmp, "proj");
const home = join(tmp, "home");
let fake: FakeOllama;
let env: NodeJS.ProcessEnv;
const config = (query: object) => writeFileSync(join(home, "config.json"), JSON.stringify({ embedding: { order: ["ollama"], ollama: { host: fake.url } }, query }));

before(async () => {
  fake = await startFakeOllama({ models: ["nomic-embed-text:latest"], dims: 64 });
  mkdirSync(join(proj, "notes"), { recursive: true });
  mkdirSync(join(proj, ".git"));
  mkdirSync(home, { mode: 0o700 });
  for (let i = 0; i < 12; i++) writeFileSync(join(proj, "notes", `n${i}.md`), `# Note ${i}\n\nThe ${["storage", "deploy", "cache", "queue"][i % 4]} decision number ${i}: we chose option ${i} after a review.\n`);
  config({});
  const { MEM_EMBED_ORDER: _, ...base } = cleanEnv(join(tmp, "claude"));
  env = { ...base, MEM_HOME: home, HOME: tmp };
  const idx = await runMem(["index", join(proj, "notes"), "-q"], { env, cwd: proj });
  assert.equal(idx.code, 0, show(idx));
});
after(async () => {
  await fake.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("query.fusion and --fusion", () => {
  const q = (args: string[]) => runMem(["query", "storage decision review", "--json", ...args], { env, cwd: proj });
  const cases: { name: string; query: object; args: string[]; method: string; k?: number }[] = [
    { name: "the default is the calibrated combination", query: {}, args: [], method: "calibrated" },
    { name: "query.fusion rrf in config.json: weighted RRF with query.rrfK", query: { fusion: "rrf", rrfK: 7 }, args: [], method: "rrf", k: 7 },
    { name: "--fusion rrf wins over the config, with its k (10 by default)", query: { fusion: "calibrated" }, args: ["--fusion", "rrf"], method: "rrf", k: 10 },
    { name: "--fusion calibrated wins over query.fusion rrf", query: { fusion: "rrf" }, args: ["--fusion", "calibrated"], method: "calibrated" },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      config(c.query);
      const r = await q(c.args);
      assert.equal(r.code, 0, show(r));
      const j = jsonOf<QueryJson>(r);
      assert.equal(j.mode, "hybrid");
      assert.deepEqual(j.legs, ["bm25", "vector"]);
      assert.equal(j.fusion?.method, c.method);
      assert.equal(j.fusion?.k, c.k);
      assert.ok(j.results.length > 0);
      for (const x of j.results) assert.ok(x.score <= 1.1 && x.score >= -0.2, `fused scores stay on the 0-to-1 scale: ${x.score}`);
    });
  }

  test("--explain names the fusion used", async () => {
    config({});
    const rrf = await runMem(["query", "storage decision review", "--explain", "--fusion", "rrf"], { env, cwd: proj });
    assert.equal(rrf.code, 0, show(rrf));
    assert.match(rrf.stdout, /^fusion: weighted RRF \(k 10\); BM25 1(\.0+)?, vector /m);
    const cal = await runMem(["query", "storage decision review", "--explain"], { env, cwd: proj });
    assert.match(cal.stdout, /^fusion: calibrated \(convex combination of normalised scores\); BM25 1(\.0+)?, vector /m);
  });

  test("mem why --fusion: the report's fusion is the one asked, in JSON and in words", async () => {
    config({});
    const j = jsonOf<WhyReport>(await runMem(["why", "storage decision review", "--fusion", "rrf", "--json"], { env, cwd: proj }));
    assert.equal(j.fusion?.method, "rrf");
    const text = await runMem(["why", "storage decision review"], { env, cwd: proj });
    assert.match(text.stdout, /fusion: calibrated \(convex combination/);
  });

  test("a fusion that does not exist is refused: on the command line (exit 2) and in config.json", async () => {
    config({});
    const bad = await q(["--fusion", "borda"]);
    assert.equal(bad.code, 2, show(bad));
    assert.match(bad.stderr, /--fusion/);
    const why = await runMem(["why", "x", "--fusion", "borda"], { env, cwd: proj });
    assert.equal(why.code, 2, show(why));
    config({ fusion: "borda" });
    const cfg = await q([]);
    assert.notEqual(cfg.code, 0, show(cfg));
    assert.match(cfg.stderr, /"query\.fusion" must be "rrf" or "calibrated", got "borda"/);
    config({});
  });

  test("--help names both fusions", async () => {
    const h = await runMem(["query", "--help"], { env });
    assert.match(h.stdout, /--fusion F\s+rrf \| calibrated/);
    const top = await runMem(["--help"], { env });
    assert.doesNotMatch(top.stdout, /fused with RRF/);
    assert.match(top.stdout, /weighted RRF or calibrated/);
  });
});
