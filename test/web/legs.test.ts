/**
 * The explorer's legs page over a real `mem ui`: for a prompt, the same candidates, ranks, scores,
 * floor verdicts and injection as `mem why` (the hook's own search, for a fresh session), hostile
 * text escaped, another project's notes never shown, nothing recorded; with an embedding model (a
 * fake Ollama on loopback), both legs' ranks and the weights fusion gave them.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openApp } from "../../src/app.js";
import type { WhyReport } from "../../src/inject/why.js";
import { fmt } from "../../src/retrieve/explain.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { get, startUiChild, uiHome, type UiChild } from "../helpers/ui-child.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-web-legs-")));
const children: UiChild[] = [];
after(async () => {
  for (const c of children) await c.stop();
  rmSync(tmp, { recursive: true, force: true });
});

interface Row {
  id: string;
  floor: string;
  injected: string;
  cells: string[];
}

/** The rows of table.legs: their data attributes and cells (tags stripped). */
function rows(body: string): Row[] {
  const table = /<table class="legs">[\s\S]*?<tbody>([\s\S]*?)<\/tbody><\/table>/.exec(body);
  assert.ok(table, "a table.legs");
  return [...table[1]!.matchAll(/<tr data-id="([^"]+)" data-floor="([^"]+)" data-injected="([^"]+)">([\s\S]*?)<\/tr>/g)].map((m) => ({
    id: m[1]!,
    floor: m[2]!,
    injected: m[3]!,
    cells: [...m[4]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, "").trim()),
  }));
}

const NOTES = {
  "storage.md": "# Storage\n\nWe chose SQLite over Postgres because the laptop runs no server.\n",
  "deploy.md": "# Deploy\n\nDeploys run on Fridays with the release script.\n",
};

test("legs (BM25 only): mem why's candidates as a table, escaped, this project only, nothing recorded", async () => {
  const { proj, env } = await uiHome(tmp, "proj", NOTES);
  const other = join(tmp, "other");
  mkdirSync(join(other, "memory"), { recursive: true });
  writeFileSync(join(other, "memory", "o.md"), "# Other\n\nSQLite and Postgres compared for the other laptop server.\n");
  assert.equal((await runMem(["index", join(other, "memory"), "-q"], { env, cwd: other })).code, 0);
  const r = await runMem(["remember", "--kind", "decision", 'SQLite <script>alert(1)</script> "quoted" ] over Postgres', "-q"], { env, cwd: proj });
  assert.equal(r.code, 0, show(r));
  const prompt = "why did we choose SQLite over Postgres for the laptop";
  const why = jsonOf<WhyReport>(await runMem(["why", prompt, "--json"], { env, cwd: proj }));
  assert.ok(why.candidates.length >= 2);

  const app = openApp(env);
  const count = (t: string) => app.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
  const before = { injections: count("injections"), runs: count("prompt_runs"), salience: count("salience") };
  try {
    const ui = await startUiChild(env, proj);
    children.push(ui);
    const page = await get(`${ui.url}legs?q=${encodeURIComponent(prompt)}`);
    assert.equal(page.status, 200);
    const got = rows(page.body);
    assert.deepEqual(
      got.map((x) => x.id),
      why.candidates.map((c) => c.id),
      "the same candidates in the same order as mem why",
    );
    for (const [i, c] of why.candidates.entries()) {
      const row = got[i]!;
      assert.equal(row.cells[0], String(c.rank));
      assert.equal(row.cells[1], c.id);
      assert.equal(row.cells[3], c.legs.bm25 ? `#${c.legs.bm25.rank}` : "–");
      assert.equal(row.cells[4], c.legs.bm25 ? fmt(c.legs.bm25.score) : "–");
      assert.equal(row.cells[5], "–", "no vector leg: BM25 only");
      assert.equal(row.cells[8], c.score.toFixed(5));
      assert.equal(row.floor, c.excluded ? "excluded" : c.floor!.pass ? "pass" : "fail");
      assert.equal(row.injected, c.injected ? "yes" : "no");
      if (c.floor) assert.ok(row.cells[9]!.includes(c.floor.reason.replace(/'/g, "&#39;")), row.cells[9]);
    }
    assert.ok(got.some((x) => x.injected === "yes"), "the storage note is injected");
    assert.match(page.body, /href="\/[^/]+\/memory\?id=[0-9a-f]{12}"/, "ids link to the memory page");
    assert.match(page.body, /memory\/storage\.md:1-3/, "what it is: the note's file and lines");
    assert.match(page.body, /decision memory · no session/);
    assert.match(page.body, /<p class="weights">BM25 only, by your choice/);
    assert.doesNotMatch(page.body, /other laptop server/, "another project's note is not a candidate");
    assert.doesNotMatch(page.body, /<script>alert/);
    assert.match(page.body, /‹script&gt;alert\(1\)‹\/script&gt; &quot;quoted&quot;/, "the injected text as the hook renders it (markup defused), escaped");

    // A hostile query is escaped where it is shown (the box, the link to the search page).
    const hostile = await get(`${ui.url}legs?q=${encodeURIComponent('SQLite "><script>alert(2)</script>')}`);
    assert.equal(hostile.status, 200);
    assert.doesNotMatch(hostile.body, /<script>alert\(2\)/);
    assert.match(hostile.body, /value="SQLite &quot;&gt;&lt;script&gt;alert\(2\)&lt;\/script&gt;"/);

    // Another project by its address: its note, not this one's.
    const theirs = await get(`${ui.url}legs?q=${encodeURIComponent(prompt)}&project=${encodeURIComponent(other)}`);
    assert.equal(theirs.status, 200);
    assert.ok(rows(theirs.body).length >= 1);
    assert.doesNotMatch(theirs.body, /storage\.md/);
    assert.equal((await get(`${ui.url}legs?q=x&project=all`)).status, 400, "the hook searches one project");
    const empty = await get(`${ui.url}legs`);
    assert.equal(empty.status, 200);
    assert.doesNotMatch(empty.body, /<table class="legs">/);

    assert.deepEqual({ injections: count("injections"), runs: count("prompt_runs"), salience: count("salience") }, before, "nothing is recorded");
  } finally {
    await app.close();
  }
});

test("legs with an embedding model: both legs' ranks and scores, the weights and the model", async () => {
  const fake = await startFakeOllama({ models: ["nomic-embed-text:latest"], dims: 64 });
  try {
    const home = join(tmp, "v-home");
    mkdirSync(home, { mode: 0o700 });
    writeFileSync(join(home, "config.json"), JSON.stringify({ embedding: { order: ["ollama"], ollama: { host: fake.url } } }));
    const { proj, env } = await (async () => {
      const { MEM_EMBED_ORDER: _, ...e } = cleanEnv(join(tmp, "claude"));
      const p = join(tmp, "vproj");
      mkdirSync(join(p, "memory"), { recursive: true });
      mkdirSync(join(p, ".git"));
      for (const [f, t] of Object.entries(NOTES)) writeFileSync(join(p, "memory", f), t);
      const envV = { ...e, MEM_HOME: home, HOME: tmp };
      const idx = await runMem(["index", join(p, "memory"), "-q"], { env: envV, cwd: p });
      assert.equal(idx.code, 0, show(idx));
      return { proj: p, env: envV };
    })();
    const prompt = "why did we choose SQLite over Postgres for the laptop";
    const why = jsonOf<WhyReport>(await runMem(["why", prompt, "--json"], { env, cwd: proj }));
    assert.deepEqual(why.legs, ["bm25", "vector"]);
    const ui = await startUiChild(env, proj);
    children.push(ui);
    const page = await get(`${ui.url}legs?q=${encodeURIComponent(prompt)}`);
    assert.equal(page.status, 200);
    const got = rows(page.body);
    assert.deepEqual(
      got.map((x) => x.id),
      why.candidates.map((c) => c.id),
    );
    for (const [i, c] of why.candidates.entries()) {
      assert.ok(c.legs.vector);
      assert.equal(got[i]!.cells[5], `#${c.legs.vector.rank}`);
      assert.equal(got[i]!.cells[6], fmt(c.legs.vector.score));
    }
    assert.match(page.body, /legs: bm25 \+ vector/);
    assert.match(page.body, /<p class="weights">fusion: calibrated \(convex combination of normalised scores\); BM25 1\.000, vector \d\.\d\d = calibrated \d\.\d\d × this query \d+%/, "the weights line, as --explain prints it");
    assert.match(page.body, /<div class="big">ollama<\/div><div class="id">nomic-embed-text/);
    const f = why.fusion!;
    assert.ok(f, "fusion weighed the legs");
    assert.match(page.body, new RegExp(`data-measure="calibrated"><div>calibrated vector weight</div><div class="big">${f.calibrated.toFixed(2)}</div>`));
    assert.match(page.body, new RegExp(`data-measure="share"><div>this query's share</div><div class="big">${Math.round(f.query * 100)}%</div>`));
    assert.match(page.body, new RegExp(`data-measure="unembedded"><div>candidates with no vector yet</div><div class="big">${f.unembedded}</div>`));

    // The health page of the same store: the model, its table and full coverage.
    const health = (await get(`${ui.url}health`)).body;
    assert.match(health, /data-measure="provider"><h2>Embedding provider<\/h2><div class="big">ollama<\/div>/);
    const chunks = 2;
    assert.match(health, new RegExp(`data-measure="coverage"><h2>Vector coverage</h2><div class="big">100%</div><div class="note"><span data-of="project">${chunks} of ${chunks}</span>`));
  } finally {
    await fake.close();
  }
});
