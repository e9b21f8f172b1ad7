/**
 * mem forget through spawned processes: one memory, a session, a whole project (refused without
 * --yes when stdin is no terminal; asked y/N on one), purge; exit statuses and JSON shapes.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { BIN, cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { inPty, noPty } from "../helpers/pty.js";
import { hook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-forget-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("mem forget", () => {
  const proj = join(tmp, "proj");
  const other = join(tmp, "other");
  for (const p of [proj, other]) mkdirSync(join(p, ".git"), { recursive: true });
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp };
  const mem = (args: string[], cwd = proj) => runMem(args, { env, cwd });
  const total = async (cwd: string, ...args: string[]) => jsonOf<{ total: number }>(await mem(["list", "--json", ...args], cwd)).total;

  /** A session's turn with [MEMORY:] tags, captured by the Stop hook. */
  async function session(id: string, cwd: string, texts: string[]): Promise<void> {
    const transcript = join(tmp, `${id}.jsonl`);
    writeFileSync(transcript, `${texts.map((text) => JSON.stringify({ type: "assistant", sessionId: id, timestamp: "2026-11-20T10:00:00Z", message: { role: "assistant", content: [{ type: "text", text }] } })).join("\n")}\n`);
    await hook("stop", { session_id: id, cwd, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false }, env);
  }

  test("one memory, then a session: gone from list and get at once; other sessions and projects untouched", async () => {
    await session("s1", proj, ["[MEMORY: decision] Chose SQLite over Postgres.", "[MEMORY: learned] The busy timeout is five seconds."]);
    await session("s2", proj, ["[MEMORY: decision] Keep WAL mode for the store."]);
    const id = (await mem(["remember", "A memory to forget at once."])).stdout.trim();
    assert.equal(await total(proj), 4);
    const one = await mem(["forget", id, "--yes", "--json"]); // --yes is accepted wherever a command may ask
    assert.equal(one.code, 0, show(one));
    assert.deepEqual(jsonOf(one), { forgotten: { id } });
    assert.equal((await mem(["get", id])).code, 1);
    assert.equal((await mem(["forget", id])).code, 1, "forgotten already: no such memory");

    const s = await mem(["forget", "--session", "s1"]);
    assert.equal(s.code, 0, show(s));
    assert.match(s.stdout, /^forgot 2 memories of session s1 in /);
    assert.equal(await total(proj, "--session", "s1"), 0);
    assert.equal(await total(proj, "--session", "s2"), 1);
  });

  test("a whole project: refused without --yes when stdin is not a terminal; done with --yes; other projects untouched", async () => {
    await session("o1", other, ["[MEMORY: decision] The other project uses Redis."]);
    const live = await total(proj);
    assert.ok(live > 0);
    const refused = await mem(["forget", "--project"]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /refusing to forget a whole project without --yes: stdin is not a terminal/);
    assert.equal(await total(proj), live, "nothing forgotten");
    const done = await mem(["forget", "--project", proj, "--yes", "--json"]);
    assert.equal(done.code, 0, show(done));
    // sources: the chunks of sessions s1 and s2 and of the memories put outside a session; sessions: s1, s2
    const r = jsonOf<{ forgotten: unknown; purged: { memories: number; wal: string } }>(done);
    assert.deepEqual(r.forgotten, { project: proj, memories: live, sources: 3, tasks: 0, sessions: 2 });
    assert.ok(r.purged.memories >= live, "a project forgotten whole is purged at once");
    assert.equal(r.purged.wal, "truncated");
    assert.equal(await total(proj), 0);
    assert.equal(await total(other), 1);
  });

  test("on a terminal, --project asks y/N: no keeps everything, yes forgets", { skip: noPty }, async () => {
    const ask = (answer: string) => {
      let typed = false; // answered once, at the first [y/N]
      return inPty([process.execPath, BIN, "forget", "--project"], {
        env,
        cwd: other,
        answer: (out: string) => {
          if (typed || !out.includes("[y/N]")) return undefined;
          typed = true;
          return `${answer}\n`;
        },
      });
    };
    const no = await ask("n");
    assert.equal(no.code, 1, no.out);
    assert.match(no.out, /Forget everything of project .*other: 1 memory, its tasks, session records and indexed notes\? \[y\/N\]/);
    assert.match(no.out, /not confirmed; nothing forgotten/);
    assert.equal(await total(other), 1);
    const yes = await ask("y");
    assert.equal(yes.code, 0, yes.out);
    assert.match(yes.out, /forgot project .*other: 1 memories/);
    assert.equal(await total(other), 0);
  });

  test("--purge reports what it purged; bad combinations exit 2", async () => {
    const id = (await mem(["remember", "A memory forgotten, then purged."])).stdout.trim();
    assert.equal((await mem(["forget", id])).code, 0);
    const purged = await mem(["forget", "--purge", "--json"]);
    assert.equal(purged.code, 0, show(purged));
    const p = jsonOf<{ purged: { memories: number; vectors: number } }>(purged).purged;
    assert.equal(p.memories, 1, "the one forgotten since the project's purge");
    assert.deepEqual(jsonOf(await mem(["forget", "--purge", "--json"])), { purged: { memories: 0, vectors: 0, rewritten: 0, wal: "truncated", copies: [] } }, "nothing left to purge, no copy to purge");
    for (const args of [["forget"], ["forget", "a", "b"], ["forget", "mem:x", "--session", "s"], ["forget", "--bogus"]]) {
      const r = await mem(args);
      assert.equal(r.code, 2, `${args.join(" ")}\n${show(r)}`);
      assert.match(r.stderr, args.includes("--bogus") ? /^mem forget: unknown option --bogus\. `mem forget --help` lists its options\.\n$/ : /Usage: mem forget/);
    }
  });
});
