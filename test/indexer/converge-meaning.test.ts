/**
 * Convergence by meaning where a model runs: two decisions of the same project and files whose
 * vectors are closer than the threshold calibrated on this store become one memory with both
 * sources; unrelated ones, and ones that differ by a value (ES256 / HS256) or a negation, do not.
 * With BM25 only (no vectors), nothing changes. The model is a loopback Ollama of known quality
 * (test/helpers/fake-ollama.ts: hashed bags of words), driven through the real CLI.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { prng } from "../../scripts/prng.js";
import { CEILING, FLOOR, mayBeOne, meaningThreshold, MIN_PAIRS } from "../../src/memory/same-meaning.js";
import { type FakeOllama, startFakeOllama } from "../helpers/fake-ollama.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-meaning-")));
let ollama: FakeOllama;
before(async () => {
  ollama = await startFakeOllama();
});
after(async () => {
  await ollama.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("same meaning: the rules", () => {
  test("table: which statements close in meaning may be one", () => {
    const d = (text: string, files: string[] = [], kind = "decision") => ({ kind, text, files });
    const cases: [string, ReturnType<typeof d>, ReturnType<typeof d>, boolean][] = [
      ["a paraphrase", d("use ES256 for tokens"), d("tokens are signed with ES256 now"), true],
      ["another value", d("use ES256 for tokens"), d("use HS256 for tokens"), false],
      ["a negation", d("sign tokens with ES256"), d("never sign tokens with ES256"), false],
      ["another kind", d("use ES256 for tokens"), d("use ES256 for tokens", [], "rejected"), false],
      ["other files", d("use ES256 for tokens", ["src/auth.ts"]), d("tokens are signed with ES256 now", ["src/jwt.ts"]), false],
      ["the same files", d("use ES256 for tokens", ["src/auth.ts"]), d("tokens are signed with ES256 now", ["src/auth.ts"]), true],
      ["no word in common", d("deploy on Tuesdays"), d("releases go out midweek"), false],
    ];
    for (const [name, a, b, want] of cases) assert.equal(mayBeOne(a, b), want, name);
  });

  test("the threshold: mean + 4 sd of random pairs, within bounds; none from too few pairs", () => {
    assert.equal(meaningThreshold(Array(MIN_PAIRS - 1).fill(0.1)), undefined);
    const t = meaningThreshold(Array.from({ length: 100 }, (_, i) => (i % 2 ? 0.1 : 0.2)))!;
    assert.ok(Math.abs(t - (0.15 + 4 * 0.05)) < 1e-9, String(t));
    assert.equal(meaningThreshold(Array(100).fill(0)), FLOOR);
    assert.equal(meaningThreshold(Array.from({ length: 100 }, (_, i) => (i % 2 ? 0.8 : 0.95))), CEILING);
  });
});

describe("same meaning through mem index with a model", () => {
  /** A project with notes of varied words (what the store's background similarity is made of) and three decisions. */
  async function project(name: string, env: NodeJS.ProcessEnv) {
    const proj = join(tmp, name);
    mkdirSync(join(proj, ".git"), { recursive: true });
    mkdirSync(join(proj, "notes"));
    const rand = prng(11);
    const vocab = Array.from({ length: 600 }, (_, i) => `w${i.toString(36)}x${Math.floor(rand() * 1e6).toString(36)}`);
    for (let i = 0; i < 80; i++) writeFileSync(join(proj, "notes", `n${i}.md`), `# Topic ${vocab[i]}\n\n${Array.from({ length: 12 }, () => vocab[Math.floor(rand() * vocab.length)]).join(" ")}.\n`);
    for (const text of ["Use ES256 for tokens", "Tokens are signed with ES256 now", "Use HS256 for tokens", "Deploy the billing service on Tuesdays"]) {
      const r = await runMem(["remember", "--kind", "decision", text], { env, cwd: proj });
      assert.equal(r.code, 0, show(r));
    }
    return proj;
  }
  const decisions = async (env: NodeJS.ProcessEnv, proj: string) =>
    jsonOf<{ memories: { text: string; sources?: { text?: string }[] }[] }>(await runMem(["list", "--kind", "decision", "--json"], { env, cwd: proj })).memories;

  test("with vectors: the paraphrase becomes one memory with both sources; the rest stay apart", async () => {
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home-model"), HOME: tmp, MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: ollama.url, MEM_OLLAMA_MODEL: "nomic-embed-text" };
    const proj = await project("with-model", env);
    assert.equal((await decisions(env, proj)).length, 4, "exact restatements only, before vectors");
    const idx = await runMem(["index", proj, "-q"], { env });
    assert.equal(idx.code, 0, show(idx));
    const after = await decisions(env, proj);
    assert.equal(after.length, 3, JSON.stringify(after.map((m) => m.text)));
    const es = after.filter((m) => /ES256/.test(m.text));
    assert.equal(es.length, 1);
    assert.equal(es[0]!.text, "Use ES256 for tokens", "the oldest stays");
    const sources = es[0]!.sources ?? [];
    assert.equal(sources.length, 2, "both sources");
    assert.deepEqual(sources.flatMap((s) => s.text ?? []), ["Tokens are signed with ES256 now"], "the other statement's own words kept");
    assert.ok(after.some((m) => m.text === "Use HS256 for tokens") && after.some((m) => /Tuesdays/.test(m.text)));
    // A second pass changes nothing more.
    assert.equal((await runMem(["index", proj, "-q"], { env })).code, 0);
    assert.equal((await decisions(env, proj)).length, 3);
  });

  test("BM25 only: it stays as today", async () => {
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home-bm25"), HOME: tmp };
    const proj = await project("bm25", env);
    assert.equal((await runMem(["index", proj, "-q"], { env })).code, 0);
    assert.equal((await decisions(env, proj)).length, 4);
  });
});
