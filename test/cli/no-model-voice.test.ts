/**
 * One voice for the no-model state: the same short line from `mem index`, `mem query`, `mem why`,
 * `--json` warnings, the explorer's Legs page and `mem doctor`'s summary; on a terminal at most once
 * a day per data home (a stamp in the data home); `mode` says what ran. A real store and CLI, an
 * Ollama that does not listen and no transformers.js model on disk.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { NO_MODEL_STAMP, noModelDue, NO_MODEL_EVERY_MS } from "../../src/cli/vector-note.js";
import { NO_MODEL_LINE, modeRan } from "../../src/retrieve/warnings.js";
import { BIN, cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { get, startUiChild, type UiChild } from "../helpers/ui-child.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { closedPort } from "../helpers/fake-ollama.js";


const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-no-model-")));
const notes = join(tmp, "notes");
const children: UiChild[] = [];
after(async () => {
  for (const c of children) await c.stop();
  rmSync(tmp, { recursive: true, force: true });
});


let port = 0;
const envFor = (home: string): NodeJS.ProcessEnv => ({ ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "ollama,transformers", MEM_OLLAMA_HOST: `http://127.0.0.1:${port}`, MEM_MODELS_DIR: join(tmp, "models") });
const said = (stderr: string) => stderr.split("\n").filter((l) => l.includes(NO_MODEL_LINE));

before(async () => {
  port = await closedPort();
  mkdirSync(notes, { recursive: true });
  writeFileSync(join(notes, "deploy.md"), "# Deploy\n\nThe deploy uses blue-green switching behind the load balancer.\n");
});

describe("the no-model line", () => {
  test("is one short line naming `mem doctor`", () => {
    assert.ok(NO_MODEL_LINE.length <= 120, `${NO_MODEL_LINE.length} characters`);
    assert.equal(NO_MODEL_LINE, "no embedding model: search is BM25 only (`mem doctor` for vector search)");
  });

  const due: { name: string; last: number | undefined; now: number; want: boolean }[] = [
    { name: "never said", last: undefined, now: 1_000, want: true },
    { name: "said a minute ago", last: 0, now: 60_000, want: false },
    { name: "said 23 h ago", last: 0, now: 23 * 3_600_000, want: false },
    { name: "said a day ago", last: 0, now: NO_MODEL_EVERY_MS, want: true },
    { name: "a stamp from the future (a clock set back)", last: 10 * NO_MODEL_EVERY_MS, now: 1_000, want: true },
  ];
  for (const c of due) test(`due: ${c.name}`, () => assert.equal(noModelDue(c.last, c.now), c.want));

  const modes: { legs: ("bm25" | "vector")[]; want: string }[] = [
    { legs: ["bm25", "vector"], want: "hybrid" },
    { legs: ["bm25"], want: "bm25" },
    { legs: ["vector"], want: "vector" },
    { legs: [], want: "none" },
  ];
  for (const c of modes) test(`mode of legs [${c.legs.join(", ")}]: ${c.want}`, () => assert.equal(modeRan(c.legs), c.want));

  test("mem index says it once; mem query the same day says nothing more; a day later mem query says it, the same line", async () => {
    const home = join(tmp, "home-cli");
    const env = envFor(home);
    const ix = await runMem(["index", notes], { env, cwd: notes });
    assert.equal(ix.code, 0, show(ix));
    assert.deepEqual(said(ix.stderr), [NO_MODEL_LINE], show(ix));
    assert.doesNotMatch(ix.stderr, /ollama serve|ECONNREFUSED|fetch failed|ENOTFOUND/);
    assert.ok(existsSync(join(home, NO_MODEL_STAMP)), "the stamp is in the data home");

    const q = await runMem(["query", "blue-green deploy"], { env, cwd: notes });
    assert.equal(q.code, 0, show(q));
    assert.match(q.stdout, /deploy\.md/);
    assert.equal(q.stderr, "", "said already today");

    const dayAgo = (Date.now() - NO_MODEL_EVERY_MS - 60_000) / 1000;
    utimesSync(join(home, NO_MODEL_STAMP), dayAgo, dayAgo);
    const later = await runMem(["query", "blue-green deploy"], { env, cwd: notes });
    assert.equal(later.stderr, `note: ${NO_MODEL_LINE}\n`);
    const again = await runMem(["query", "load balancer"], { env, cwd: notes });
    assert.equal(again.stderr, "", "once a day");
  });

  test("--json: mode says what ran (bm25), warnings hold the same line and no provider's error", async () => {
    const home = join(tmp, "home-json");
    const env = envFor(home);
    assert.equal((await runMem(["index", notes, "-q"], { env, cwd: notes })).code, 0);
    const r = await runMem(["query", "blue-green deploy", "--json"], { env, cwd: notes });
    assert.equal(r.code, 0, show(r));
    const j = jsonOf<{ mode: string; legs: string[]; warnings: string[]; fusion: unknown }>(r);
    assert.equal(j.mode, "bm25");
    assert.deepEqual(j.legs, ["bm25"]);
    assert.deepEqual(j.warnings, [NO_MODEL_LINE]);
    assert.equal(j.fusion, null);
    const why = jsonOf<{ mode: string; warnings: string[] }>(await runMem(["why", "blue-green deploy", "--json"], { env, cwd: notes }));
    assert.equal(why.mode, "bm25");
    assert.ok(why.warnings.every((w) => w === NO_MODEL_LINE || !/ollama|ECONNREFUSED|fetch failed/.test(w)), JSON.stringify(why.warnings));
    const whyText = await runMem(["why", "blue-green deploy"], { env, cwd: notes });
    assert.match(whyText.stdout, new RegExp(`^search: bm25 \\(${NO_MODEL_LINE.replace(/[()`]/g, "\\$&")}\\)$`, "m"));
    assert.doesNotMatch(whyText.stdout, /ollama serve|ECONNREFUSED/);
  });

  test("mem doctor's summary is the same line, and its fix explains the options", async () => {
    const home = join(tmp, "home-doctor");
    const r = await runMem(["doctor", "--json"], { env: envFor(home), cwd: notes });
    const d = jsonOf<{ checks: { name: string; status: string; detail: string; fix?: string }[] }>(r);
    const emb = d.checks.find((c) => c.name === "embedding");
    assert.ok(emb, show(r));
    assert.equal(emb.status, "warn");
    assert.equal(emb.detail, NO_MODEL_LINE);
    assert.match(emb.fix!, /Ollama: install it, run `ollama serve` at http:\/\/127\.0\.0\.1:\d+ and `ollama pull nomic-embed-text`/);
    assert.match(emb.fix!, /transformers\.js: run mem once where huggingface\.co is reachable/);
    assert.match(emb.fix!, /`mem doctor --bm25-only`/);
  });

  test("the explorer's Legs page says the same line, once", async () => {
    const home = join(tmp, "home-ui");
    const env = envFor(home);
    assert.equal((await runMem(["index", notes, "-q"], { env, cwd: notes })).code, 0);
    const ui = await startUiChild({ ...env, DISPLAY: "", WAYLAND_DISPLAY: "" }, notes);
    children.push(ui);
    const page = await get(`${ui.url}legs?q=${encodeURIComponent("blue-green deploy")}`);
    assert.equal(page.status, 200);
    const line = NO_MODEL_LINE.replace(/`([^`]+)`/g, "<code>$1</code>");
    const plain = page.body.split(NO_MODEL_LINE).length - 1 + (page.body.split(line).length - 1);
    assert.equal(plain, 1, page.body.slice(0, 3000));
    assert.doesNotMatch(page.body, /ollama serve|ECONNREFUSED/);
  });

  test("the MCP search's warnings: the same line, no provider's error", async () => {
    const home = join(tmp, "home-mcp");
    const env = envFor(home);
    assert.equal((await runMem(["index", notes, "-q"], { env, cwd: notes })).code, 0);
    const e = { ...serverEnv(tmp, home, notes), MEM_EMBED_ORDER: "ollama,transformers", MEM_OLLAMA_HOST: `http://127.0.0.1:${port}`, MEM_MODELS_DIR: join(tmp, "models"), MEM_ALLOW_REMOTE_MODELS: "0" };
    const client = new Client({ name: "mem-test", version: "1" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: e, cwd: notes, stderr: "pipe" }));
    try {
      const r = (await client.callTool({ name: "search", arguments: { query: "blue-green deploy" } })) as { structuredContent?: { legs: string[]; warnings: string[] }; isError?: boolean };
      assert.equal(r.isError, undefined, JSON.stringify(r));
      assert.deepEqual(r.structuredContent?.legs, ["bm25"]);
      assert.deepEqual(r.structuredContent?.warnings, [NO_MODEL_LINE]);
    } finally {
      await client.close();
    }
  });
});
