/**
 * The one id through the built CLI on a temporary store: remember prints it; query (human, --json,
 * --batch), why, list and get show the same one; get, edit and forget take it with or without
 * mem:, in any case, or a start of it; an ambiguous start lists the candidates; an explicit
 * memory in mem query is labelled by what it is, never `session:unknown:1-1`; --yes is accepted
 * wherever a command may ask for confirmation.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { resolveProject } from "../../src/project/identity.js";
import { eventChunkId } from "../../src/store/chunk-ids.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-one-id-cli-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Result {
  id: string;
  text: string;
  duplicates: string[];
}

describe("one id in every output of the CLI", () => {
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, "notes"));
  writeFileSync(join(proj, "notes", "queue.md"), "# Queue\n\nThe job queue uses advisory locks on the jobs table.\n");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp };
  const mem = (args: string[], input?: string) => runMem(args, { env, cwd: proj, ...(input !== undefined ? { input } : {}) });

  test("remember, query, why, list, get: the same id, and an explicit memory labelled by what it is", async () => {
    const put = await mem(["remember", "Release builds are signed with the hardware key in the safe.", "--kind", "decision"]);
    assert.equal(put.code, 0, show(put));
    const id = put.stdout.trim();
    assert.match(id, /^[0-9a-f]{12}$/);

    const human = await mem(["query", "release builds signed hardware key", "--mode", "bm25"]);
    assert.equal(human.code, 0, show(human));
    assert.match(human.stdout, new RegExp(`^1\\. ${id} · decision memory · no session {2}\\(\\d{4}-\\d\\d-\\d\\d\\)\\n {3}Release builds are signed`), "its kind said once, no heading repeating it");
    assert.ok(!human.stdout.includes("session:unknown"), human.stdout);

    const json = jsonOf<{ results: Result[] }>(await mem(["query", "release builds signed hardware key", "--mode", "bm25", "--json"]));
    assert.equal(json.results[0]!.id, id, "--json: the same id");
    const batch = await mem(["query", "--batch", "-", "--mode", "bm25"], `${JSON.stringify({ id: "q1", text: "release builds signed hardware key" })}\n`);
    assert.equal(batch.code, 0, show(batch));
    assert.equal((JSON.parse(batch.stdout) as { results: Result[] }).results[0]!.id, id, "--batch: the same id");

    const why = jsonOf<{ candidates: { id: string; shortId: string }[]; injection: { ids: string[]; text: string } | null }>(await mem(["why", "how are the release builds signed with the hardware key?", "--json"]));
    assert.deepEqual([why.candidates[0]!.id, why.candidates[0]!.shortId], [id, id], "mem why --json");
    assert.ok(why.injection?.text.includes(`[${id} · decision · no session`), why.injection?.text);
    assert.deepEqual(why.injection?.ids, [id]);
    assert.match((await mem(["why", "how are the release builds signed with the hardware key?"])).stdout, new RegExp(`\\n1\\. ${id} · decision · no session`));

    const listed = await mem(["list"]);
    assert.match(listed.stdout, new RegExp(`^${id} {2}decision `));
    assert.equal(jsonOf<{ memories: { id: string }[] }>(await mem(["list", "--json"])).memories[0]!.id, id);
    for (const form of [id, `mem:${id}`, id.toUpperCase(), id.slice(0, 6)]) {
      const got = await mem(["get", form, "--json"]);
      assert.equal(got.code, 0, `${form}\n${show(got)}`);
      assert.equal(jsonOf<{ memory: { id: string } }>(got).memory.id, id, form);
    }
    assert.match((await mem(["get", `MEM:${id}`])).stdout, new RegExp(`^${id} {2}decision {2}explicit `));
    const edited = await mem(["edit", `mem:${id.slice(0, 8)}`, "--tags", "release"]);
    assert.equal(edited.stdout, `edited ${id}; the previous version is kept (mem get ${id} --history)\n`);
  });

  test("a note's passage in mem query: its id and its file and lines", async () => {
    assert.equal((await mem(["index", "notes", "-q"])).code, 0);
    const json = jsonOf<{ results: Result[] }>(await mem(["query", "advisory locks job queue", "--mode", "bm25", "--json"]));
    const note = json.results.find((r) => r.text.includes("advisory locks"))!;
    assert.match(note.id, /^[0-9a-f]{12}$/);
    const human = await mem(["query", "advisory locks job queue", "--mode", "bm25"]);
    assert.match(human.stdout, new RegExp(`^1\\. ${note.id} · notes/queue\\.md:1-3`));
    assert.equal(jsonOf<{ memory: { id: string; source: string } }>(await mem(["get", note.id, "--json"])).memory.source, "markdown");
  });

  test("an ambiguous start lists the candidates (exit 2); a missing id says so (exit 1); forget says the id it forgot", async () => {
    const project = resolveProject(proj).id;
    const seen = new Map<string, string>();
    let twins: [string, string] | undefined;
    for (let i = 0; twins === undefined; i++) {
      const id = `toolu_cli_${i}`;
      const start = eventChunkId(project, id).slice(0, 6);
      const before = seen.get(start);
      if (before !== undefined) twins = [before, id];
      seen.set(start, id);
    }
    const lines = twins.map((id, i) => JSON.stringify({ id, kind: "command_run", text: `npm run twin-${i}` }));
    assert.equal((await mem(["import", "-"], `${lines.join("\n")}\n`)).code, 0);
    const ones = twins.map((id) => eventChunkId(project, id).slice(0, 12));
    const shared = ones[0]!.slice(0, 6);
    const amb = await mem(["get", shared]);
    assert.equal(amb.code, 2, show(amb));
    assert.match(amb.stderr, new RegExp(`id "${shared}" is ambiguous: it starts 2 memories' ids: (${ones[0]}, ${ones[1]}|${ones[1]}, ${ones[0]}); give more of it`));
    assert.deepEqual(jsonOf(await mem(["get", "abcdef012345", "--json"])), { error: { code: "not_found", message: "no memory abcdef012345" } });
    const forgot = await mem(["forget", `mem:${ones[0]}`, "--json"]);
    assert.deepEqual(jsonOf(forgot), { forgotten: { id: ones[0] } });
    assert.match((await mem(["forget", ones[1]!])).stdout, new RegExp(`^forgot ${ones[1]}\\n`));
    assert.match((await mem(["get", ones[1]!])).stderr, new RegExp(`memory ${ones[1]} was forgotten`));
  });

  test("--yes is accepted wherever a command may ask, and needed where it would ask with no terminal", async () => {
    const id = (await mem(["remember", "A memory forgotten with --yes."])).stdout.trim();
    const cases: [string[], number][] = [
      [["forget", id, "--yes"], 0],
      [["forget", "--session", "no-such-session", "--yes"], 1], // no such session: said, exit 1 (not "forgot 0")
      [["forget", "--purge", "--yes"], 0],
      [["forget", "--project", "--yes", "--json"], 0],
      [["forget", "--project"], 2],
      [["restore", "latest", "--yes"], 0], // accepted: the first `mem index` took the store's first snapshot
    ];
    for (const [args, code] of cases) {
      const r = await mem(args);
      assert.equal(r.code, code, `${args.join(" ")}\n${show(r)}`);
      if (code === 2) assert.match(r.stderr, /without --yes/, args.join(" "));
      if (args[0] === "restore") assert.match(r.stdout, /^restored snapshot \S+-auto /, args.join(" "));
    }
  });
});
