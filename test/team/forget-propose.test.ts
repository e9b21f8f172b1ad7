/**
 * Forgets travel, and the proposal, end to end (real CLI, real store, a real git repository):
 * `mem forget` of a shared memory, or of the team record itself, removes the file and adds the
 * tombstone to FORGOTTEN.md (which is never a record); a plain note is still refused. With
 * `team.propose` on, the SessionStart briefing names what the last session could share, and
 * stops naming what was shared or tombstoned; with it off (the default) it never does.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { git } from "../helpers/git.js";
import { cleanEnv, jsonOf, runMem, show, type Run } from "../helpers/mem-cli.js";
import { hook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-share-forget-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

type Listed = { total: number; memories: { id: string; kind: string; source: string; path?: string; text: string; record?: { status?: string } }[] };

let beds = 0;
function bed(config?: object) {
  const dir = join(tmp, `bed${++beds}`);
  const repo = join(dir, "repo");
  mkdirSync(repo, { recursive: true });
  git(repo, "init", "-q");
  git(repo, "config", "user.name", "Ada Lovelace");
  git(repo, "config", "user.email", "ada@example.com");
  const env = { ...cleanEnv(join(dir, "claude")), HOME: dir, MEM_HOME: join(dir, "home"), GIT_CONFIG_NOSYSTEM: "1" };
  if (config) {
    mkdirSync(env.MEM_HOME, { recursive: true });
    writeFileSync(join(env.MEM_HOME, "config.json"), JSON.stringify(config));
  }
  const mem = (args: string[]) => runMem(args, { env, cwd: repo });
  const folder = join(repo, "docs", "decisions");
  const brief = async (session: string) => {
    const r = await runMem(["hook", "session-start"], { env, cwd: repo, input: JSON.stringify({ session_id: session, cwd: repo, hook_event_name: "SessionStart", source: "startup", transcript_path: join(dir, "none.jsonl") }) });
    assert.equal(r.code, 0, show(r));
    return r.stdout === "" ? "" : (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  };
  /** A finished session whose assistant wrote these [MEMORY: …] tags. */
  const session = async (id: string, tags: string[]) => {
    const transcript = join(dir, `${id}.jsonl`);
    const now = Date.now();
    writeFileSync(transcript, `${tags.map((t, i) => JSON.stringify({ type: "assistant", sessionId: id, timestamp: new Date(now - (tags.length - i) * 1000).toISOString(), message: { role: "assistant", content: [{ type: "text", text: t }] } })).join("\n")}\n`);
    await hook("stop", { session_id: id, cwd: repo, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false }, env);
  };
  return { dir, repo, env, mem, folder, brief, session };
}

const ok = (r: Run) => {
  assert.equal(r.code, 0, show(r));
  return r;
};
const records = async (b: ReturnType<typeof bed>) => jsonOf<Listed>(ok(await b.mem(["list", "--json"]))).memories.filter((m) => m.record);

describe("forgets travel", () => {
  test("mem forget of a shared memory removes its file and adds its tombstone; the record leaves the index at once; FORGOTTEN.md is no record", async () => {
    const b = bed();
    const id = jsonOf<{ memory: { id: string } }>(ok(await b.mem(["remember", "Deploy from main only.", "--kind", "decision", "--json"]))).memory.id;
    const keep = jsonOf<{ memory: { id: string } }>(ok(await b.mem(["remember", "Review every migration.", "--kind", "decision", "--json"]))).memory.id;
    ok(await b.mem(["share", id, keep]));
    ok(await b.mem(["index", "docs"]));
    assert.equal((await records(b)).length, 2);
    const dayBefore = new Date().toISOString().slice(0, 10); // a run across midnight (UTC) may write either day
    const r = ok(await b.mem(["forget", id]));
    assert.match(r.stdout, new RegExp(`^forgot ${id}\\nremoved docs/decisions/deploy-from-main-only\\.md from the team folder and added its tombstone to docs/decisions/FORGOTTEN\\.md: review and commit both$`, "m"));
    assert.deepEqual(readdirSync(b.folder).sort(), ["FORGOTTEN.md", "review-every-migration.md"]);
    const tomb = readFileSync(join(b.folder, "FORGOTTEN.md"), "utf8");
    assert.match(tomb, new RegExp(`^- mem:[0-9a-f]{24} · (?:${dayBefore}|${new Date().toISOString().slice(0, 10)}) · Deploy from main only$`, "m"));
    assert.deepEqual((await records(b)).map((m) => m.text.split("\n")[0]), ["# Review every migration"], "gone from the index without a mem index");
    ok(await b.mem(["index", "docs"]));
    assert.deepEqual((await records(b)).map((m) => m.text.split("\n")[0]), ["# Review every migration"], "FORGOTTEN.md is never a record");
    const again = await b.mem(["share", id]);
    assert.equal(again.code, 1);
    assert.ok(!existsSync(join(b.folder, "deploy-from-main-only.md")));
  });

  test("mem forget of a team record (its id as mem list shows it) removes the file, adds the tombstone and forgets the local memory it states", async () => {
    const b = bed();
    const id = jsonOf<{ memory: { id: string } }>(ok(await b.mem(["remember", "Squash merge pull requests.", "--kind", "decision", "--json"]))).memory.id;
    ok(await b.mem(["share", id]));
    const memId = readFileSync(join(b.folder, "squash-merge-pull-requests.md"), "utf8").match(/^mem-id: "(.+)"$/m)![1]!;
    ok(await b.mem(["index", "docs"]));
    const [record] = await records(b);
    assert.ok(record && record.id !== id);
    const r = ok(await b.mem(["forget", record.id, "--json"]));
    assert.deepEqual(jsonOf(r), { forgotten: { id: record.id }, team: { warnings: [], tombstone: "docs/decisions/FORGOTTEN.md", removed: "docs/decisions/squash-merge-pull-requests.md" } });
    assert.deepEqual(readdirSync(b.folder), ["FORGOTTEN.md"]);
    assert.match(readFileSync(join(b.folder, "FORGOTTEN.md"), "utf8"), new RegExp(`^- ${memId} · \\d{4}-\\d\\d-\\d\\d · Squash merge pull requests$`, "m"));
    assert.equal((await records(b)).length, 0);
    const local = await b.mem(["get", id]);
    assert.equal(local.code, 1, "the local memory the record stated is forgotten with it");
    assert.match(local.stderr, /was forgotten/);
  });

  test("a markdown note outside the record folders is still refused (edit the file)", async () => {
    const b = bed();
    writeFileSync(join(b.repo, "notes.md"), "# Notes\n\nWe keep a changelog.\n");
    ok(await b.mem(["index", "notes.md"]));
    const note = jsonOf<Listed>(ok(await b.mem(["list", "--source", "markdown", "--json"]))).memories[0]!;
    const r = await b.mem(["forget", note.id]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /delete it from the file/);
    assert.ok(existsSync(join(b.repo, "notes.md")));
  });
});

describe("the proposal (team.propose)", () => {
  const tags = ["[MEMORY: decision] Use pnpm workspaces for the monorepo.", "[MEMORY: decision] Tag releases as vX.Y.Z.", "[MEMORY: learned] The e2e suite needs Chrome 120.", "[MEMORY: preference] Short commit subjects."];

  test("off by default: never a line", async () => {
    const b = bed();
    await b.session("s1", tags);
    const text = await b.brief("s2");
    assert.match(text, /Use pnpm workspaces/, "the decisions are briefed");
    assert.doesNotMatch(text, /could be shared|mem share/);
  });

  test("on: one line names the last session's decisions and learned facts not shared yet; shared or tombstoned ones drop out; nothing is written", async () => {
    const b = bed({ team: { propose: true } });
    await b.session("s1", tags);
    const mine = jsonOf<Listed>(ok(await b.mem(["list", "--json"]))).memories;
    const idOf = (start: string) => mine.find((m) => m.text.startsWith(start))!.id;
    const [pnpm, tag, e2e] = [idOf("Use pnpm"), idOf("Tag releases"), idOf("The e2e suite")];
    const text = await b.brief("s2");
    assert.match(text, /\n## Worth sharing with the team\n- 2 decisions and 1 learned fact of the last session could be shared: `mem share (\w{12}) (\w{12}) (\w{12})`\n/);
    const named = /`mem share ([^`]+)`/.exec(text)![1]!.split(" ").sort();
    assert.deepEqual(named, [pnpm, tag, e2e].sort());
    assert.ok(!existsSync(join(b.repo, "docs")), "the proposal writes nothing");
    assert.ok(text.length <= 9_000 + 400, "within the briefing's cap");

    ok(await b.mem(["share", pnpm])); // not indexed yet: the folder's new file is read
    const after1 = await b.brief("s2");
    assert.match(after1, /- 1 decision and 1 learned fact of the last session could be shared: `mem share \w{12} \w{12}`/);
    assert.doesNotMatch(after1, new RegExp(`mem share [^\`]*${pnpm}`));
    const memId = (await b.mem(["share", tag, "--dry-run", "--json"])).stdout.match(/"memId":"([^"]+)"/)![1]!;
    writeFileSync(join(b.folder, "FORGOTTEN.md"), `- ${memId} · 2026-11-01 · Tag releases\n`);
    ok(await b.mem(["index", "docs"]));
    const after2 = await b.brief("s2");
    assert.match(after2, new RegExp(`- 1 learned fact of the last session could be shared: \`mem share ${e2e}\``));
    ok(await b.mem(["share", e2e]));
    assert.doesNotMatch(await b.brief("s2"), /could be shared/);
  });
});
