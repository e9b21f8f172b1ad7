/**
 * `mem why` with an embedding model (a fake Ollama): it searches as the daemon does (hybrid, the
 * vectors from LanceDB in-process) and says so; what it says would be injected is what the warm
 * daemon answers for the same prompt and session.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import type { WhyReport } from "../../src/inject/why.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { BIN, cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-why-hybrid-")));
let daemon: ChildProcess | undefined;
after(() => {
  if (daemon && daemon.exitCode === null) daemon.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});


test("with a model: hybrid search, the vector leg's similarity in the floor's verdict, and the daemon's own injection", async () => {
  const fake = await startFakeOllama({ models: ["nomic-embed-text:latest"], dims: 64 });
  try {
    const home = join(tmp, "home");
    const proj = join(tmp, "proj");
    mkdirSync(join(proj, "memory"), { recursive: true });
    mkdirSync(join(proj, ".git")); // the project's top, as a repository's
    mkdirSync(home, { mode: 0o700 });
    writeFileSync(join(home, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000, indexEveryMs: 60_000, vectorBudgetMs: 5_000, clientBudgetMs: 5_000 }, embedding: { order: ["ollama"], ollama: { host: fake.url } } }));
    writeFileSync(join(proj, "memory", "storage.md"), "# Storage\n\nWe chose SQLite over Postgres because the laptop runs no server.\n");
    writeFileSync(join(proj, "memory", "deploy.md"), "# Deploy\n\nDeploys run on Fridays with the release script.\n");
    const { MEM_EMBED_ORDER: _, ...base } = cleanEnv(join(tmp, "claude"));
    const env = { ...base, MEM_HOME: home, HOME: tmp };
    const idx = await runMem(["index", join(proj, "memory"), "-q"], { env, cwd: proj });
    assert.equal(idx.code, 0, show(idx));
    const prompt = "why did we choose SQLite over Postgres for the laptop";

    const r = await runMem(["why", prompt, "--session", "h1", "--json"], { env, cwd: proj });
    assert.equal(r.code, 0, show(r));
    const j = jsonOf<WhyReport>(r);
    assert.equal(j.mode, "hybrid");
    assert.deepEqual(j.legs, ["bm25", "vector"]);
    assert.equal(j.vector?.provider, "ollama");
    assert.ok(j.candidates.length >= 1);
    for (const c of j.candidates) {
      assert.ok(c.legs.vector, "every result is ranked by the vector leg too");
      assert.equal(c.floor?.similarity, c.legs.vector.score, "the floor weighs its similarity");
    }
    const text = await runMem(["why", prompt, "--session", "h1"], { env, cwd: proj });
    assert.match(text.stdout, /^search: bm25 \+ vector \(ollama nomic-embed-text\S*; vectors from LanceDB in this process; the daemon searches its copy of the same table in memory\)$/m);
    assert.match(text.stdout, /vector #\d+ \(0\.\d+\)/);

    // The warm daemon's answer for the same prompt and session is the injection mem why reported.
    daemon = spawn(process.execPath, [BIN, "serve"], { env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home }, stdio: ["ignore", "ignore", "pipe"] });
    await until(async () => (await ask(home, { op: "ping" }, 500)).kind === "reply");
    const answer = await ask(home, { op: "prompt", prompt, cwd: proj, session: "h1" }, 10_000);
    assert.ok(answer.kind === "reply" && answer.reply.ok, JSON.stringify(answer));
    assert.ok(j.injection, "something is injected");
    assert.equal(answer.reply.text, j.injection.text);
    const exited = new Promise((resolve) => (daemon!.exitCode !== null ? resolve(undefined) : daemon!.once("exit", resolve)));
    await ask(home, { op: "stop" }, 2_000);
    await exited;
  } finally {
    await fake.close();
  }
});
