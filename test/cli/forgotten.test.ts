/**
 * Forgotten means gone, end to end through spawned processes: a memory that reached every channel
 * (mem query with its vector, the prompt hook's injection, the SessionStart briefing, mem list,
 * mem export) is in none of them once forgotten, while a memory beside it still is; after
 * `mem forget --purge` its text is in none of the data home's files, LanceDB's included.
 */
import assert from "node:assert/strict";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-gone-")));
let fake: FakeOllama | undefined;
after(async () => {
  await fake?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return lstatSync(p).isDirectory() ? filesUnder(p) : lstatSync(p).isFile() ? [p] : [];
  });
}

describe("a forgotten memory is gone from every channel", () => {
  test("query, prompt injection, briefing, list, export; after --purge, from every file", async () => {
    fake = await startFakeOllama({ dims: 64 });
    const proj = join(tmp, "proj");
    const home = join(tmp, "home");
    mkdirSync(join(proj, ".git"), { recursive: true });
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: fake.url };
    const mem = async (args: string[]) => {
      const r = await runMem(args, { env, cwd: proj });
      assert.equal(r.code, 0, `${args.join(" ")}\n${show(r)}`);
      return r;
    };
    const word = "zebraquokka"; // only in the memory to forget: never in a prompt, a query or a path
    const gone = (await mem(["remember", `Decided the staging cluster rotates its credentials with the ${word} schedule every Sunday.`, "--kind", "decision"])).stdout.trim();
    const kept = (await mem(["remember", "Decided the staging cluster keeps its logs in the walrus bucket for a year.", "--kind", "decision"])).stdout.trim();
    const sync = jsonOf<{ done: boolean; via: string }>(await mem(["sync", "--json"]));
    assert.deepEqual([sync.done, sync.via], [true, "in-process"], "both have their vectors");

    const hookEnv = { MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: fake.url };
    const channels = async (session: string) => {
      const query = (await mem(["query", "how does the staging cluster rotate credentials and keep logs", "--json"])).stdout;
      const prompt = await spawnHook("user-prompt-submit", JSON.stringify({ session_id: session, cwd: proj, hook_event_name: "UserPromptSubmit", prompt: "How does the staging cluster rotate its credentials, and where are its logs kept?" }), hookEnv);
      const brief = await spawnHook("session-start", JSON.stringify({ session_id: `${session}-start`, cwd: proj, hook_event_name: "SessionStart", source: "startup" }), hookEnv);
      const list = (await mem(["list", "--json"])).stdout;
      const exported = (await mem(["export"])).stdout;
      const md = (await mem(["export", "--format", "md"])).stdout;
      return { query, prompt: prompt.stdout, brief: brief.stdout, list, exported, md };
    };

    const before = await channels("s-before");
    for (const [name, out] of Object.entries(before)) {
      assert.ok(out.includes(word), `${name} shows the memory before it is forgotten:\n${out.slice(0, 2000)}`);
      assert.ok(out.includes("walrus bucket"), `${name} shows the other one`);
    }
    assert.ok(JSON.parse(before.query).results.some((r: { legs: { vector?: unknown } }) => r.legs.vector), "the vector leg ran");

    const forgot = await mem(["forget", gone, "--json"]);
    assert.deepEqual(jsonOf(forgot), { forgotten: { id: gone } });
    const afterForget = await channels("s-after");
    for (const [name, out] of Object.entries(afterForget)) {
      assert.ok(!out.includes(word), `${name} no longer shows it:\n${out.slice(0, 2000)}`);
      assert.ok(out.includes("walrus bucket"), `${name} still shows the other one`);
    }
    assert.equal((await runMem(["get", gone], { env, cwd: proj })).code, 1);
    assert.equal(jsonOf<{ memory: { id: string } }>(await mem(["get", kept, "--json"])).memory.id, kept);

    const purged = jsonOf<{ purged: { memories: number; vectors: number } }>(await mem(["forget", "--purge", "--json"])).purged;
    assert.deepEqual({ memories: purged.memories, vectors: purged.vectors }, { memories: 1, vectors: 1 });
    const files = filesUnder(home);
    assert.ok(files.some((f) => f.endsWith(".lance")), "LanceDB's files are scanned too");
    const holding = files.filter((f) => readFileSync(f).includes(word));
    assert.deepEqual(holding, [], "the forgotten text is in no file of the data home");
    assert.ok(files.some((f) => readFileSync(f).includes("walrus bucket")), "the scan finds text that was not forgotten");
  });
});
