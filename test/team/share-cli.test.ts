/**
 * `mem share` end to end: the real CLI, a real store, a real git repository with its own git
 * config. Shared by id and by kind and date, a dry run writes nothing, a second share is
 * "unchanged", the file carries the author from git config and the session's line and is read
 * back by `mem index` as a record (status, author, date), secrets never reach it, tool events and
 * tasks are refused, and a hostile folder (a link out of the repository, writable by others, a
 * linked target file, a hostile FORGOTTEN.md) is refused or skipped with a reason.
 */
import assert from "node:assert/strict";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { git } from "../helpers/git.js";
import { cleanEnv, jsonOf, runMem, show, type Run } from "../helpers/mem-cli.js";
import { hook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-share-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

type Shared = { folder: string; dryRun: boolean; results: { id: string; status: string; file?: string; memId?: string; why?: string; content?: string }[]; warnings: string[] };
type Listed = { memories: { id: string; kind: string; source: string; path?: string; createdAt: string; record?: { status?: string; date?: string; authors: string[]; title?: string } }[] };

let beds = 0;
/** A repository with its own git identity, a data home, and `mem` run in it. */
function bed(o: { name?: string; email?: string; config?: object } = {}) {
  const dir = join(tmp, `bed${++beds}`);
  const repo = join(dir, "repo");
  mkdirSync(repo, { recursive: true });
  git(repo, "init", "-q");
  if (o.name !== undefined) git(repo, "config", "user.name", o.name);
  if (o.email !== undefined) git(repo, "config", "user.email", o.email);
  const env = { ...cleanEnv(join(dir, "claude")), HOME: dir, MEM_HOME: join(dir, "home"), GIT_CONFIG_NOSYSTEM: "1" };
  if (o.config) {
    mkdirSync(env.MEM_HOME, { recursive: true });
    writeFileSync(join(env.MEM_HOME, "config.json"), JSON.stringify(o.config));
  }
  const mem = (args: string[], cwd = repo) => runMem(args, { env, cwd });
  const remember = async (text: string, kind: string, files?: string) => {
    const r = await mem(["remember", text, "--kind", kind, ...(files ? ["--files", files] : []), "--json"]);
    assert.equal(r.code, 0, show(r));
    return jsonOf<{ memory: { id: string } }>(r).memory.id;
  };
  const folder = join(repo, "docs", "decisions");
  const files = () => (existsSync(folder) ? readdirSync(folder).sort() : []);
  return { dir, repo, env, mem, remember, folder, files };
}

const ok = (r: Run) => {
  assert.equal(r.code, 0, show(r));
  return r;
};

describe("mem share", () => {
  test("by id: one MADR file with the author from git config, read back by mem index as a record; again: unchanged", async () => {
    const b = bed({ name: "Ada Lovelace", email: "ada@example.com" });
    const dayBefore = new Date().toISOString().slice(0, 10); // a run across midnight (UTC) may write either day
    const id = await b.remember("Use SQLite WAL mode for the store. Readers never block the writer.", "decision", "src/store/db.ts");
    const rejected = await b.remember("Running our own Postgres server: too much to operate.", "rejected");
    const r = ok(await b.mem(["share", id, rejected]));
    assert.match(r.stdout, new RegExp(`^written +${id}  docs/decisions/use-sqlite-wal-mode-for-the-store\\.md$`, "m"));
    assert.match(r.stdout, /^written +\w+ {2}docs\/decisions\/running-our-own-postgres-server-too-much-to-operate\.md$/m);
    assert.match(r.stdout, /review with `git diff docs\/decisions`.*then commit/);
    assert.deepEqual(b.files(), ["running-our-own-postgres-server-too-much-to-operate.md", "use-sqlite-wal-mode-for-the-store.md"]);
    const path = join(b.folder, "use-sqlite-wal-mode-for-the-store.md");
    const text = readFileSync(path, "utf8");
    const day = new Date().toISOString().slice(0, 10);
    assert.match(text, new RegExp(`^---\\nstatus: accepted\\ndate: (?:${dayBefore}|${day})\\ndecision-makers: "Ada Lovelace <ada@example\\.com>"\\nkind: decision\\nmem-id: "mem:[0-9a-f]{24}"\\nfiles: \\["src/store/db\\.ts"\\]\\n---\\n# Use SQLite WAL mode for the store\\n\\nUse SQLite WAL mode for the store\\. Readers never block the writer\\.\\n$`));
    assert.equal(statSync(path).mode & 0o777, 0o644);
    assert.equal(git(b.repo, "status", "--porcelain"), "?? docs/", "written, not committed");
    assert.throws(() => git(b.repo, "log"), "nothing committed");

    const again = ok(await b.mem(["share", id, rejected, "--json"]));
    assert.deepEqual(jsonOf<Shared>(again).results.map((x) => x.status), ["unchanged", "unchanged"]);
    assert.equal(readFileSync(path, "utf8"), text);

    ok(await b.mem(["index", "docs"]));
    const records = jsonOf<Listed>(ok(await b.mem(["list", "--kind", "decision", "--kind", "rejected", "--json"]))).memories.filter((m) => m.record);
    assert.deepEqual(
      records.map((m) => [m.kind, m.record?.status, m.record?.date, m.record?.authors, m.record?.title]).sort(),
      [
        ["decision", "accepted", day, ["Ada Lovelace <ada@example.com>"], "Use SQLite WAL mode for the store"],
        ["rejected", "rejected", day, ["Ada Lovelace <ada@example.com>"], "Running our own Postgres server: too much to operate"],
      ],
    );
  });

  test("no git identity in the repository: the account's name is the author", async () => {
    const b = bed();
    const id = await b.remember("Keep the changelog user-facing.", "decision");
    ok(await b.mem(["share", id]));
    assert.match(readFileSync(join(b.folder, "keep-the-changelog-user-facing.md"), "utf8"), new RegExp(`^decision-makers: "${userInfo().username}"$`, "m"));
  });

  test("by --kind and --since; a dry run prints the files and writes nothing", async () => {
    const b = bed({ name: "Grace Hopper", email: "grace@example.com" });
    await b.remember("Releases are cut on Thursdays.", "decision");
    await b.remember("The integration suite needs TZ=UTC.", "learned");
    await b.remember("Prefer small commits.", "preference");
    const dry = ok(await b.mem(["share", "--kind", "decision", "--kind", "learned", "--since", "7d", "--dry-run"]));
    assert.match(dry.stdout, /^would write +\w{12} {2}docs\/decisions\/releases-are-cut-on-thursdays\.md\n {4}\| ---\n {4}\| status: accepted\n/m);
    assert.match(dry.stdout, /would write +\w{12} {2}docs\/decisions\/the-integration-suite-needs-tz-utc\.md/);
    assert.doesNotMatch(dry.stdout, /small commits/);
    assert.match(dry.stdout, /dry run: nothing written$/m);
    assert.equal(existsSync(join(b.repo, "docs")), false, "a dry run makes no folder either");
    const old = ok(await b.mem(["share", "--kind", "decision", "--since", "2000-01-01", "--json"]));
    assert.deepEqual(jsonOf<Shared>(old).results.map((x) => [x.status, x.file]), [["written", "docs/decisions/releases-are-cut-on-thursdays.md"]]);
    const none = ok(await b.mem(["share", "--since", "2999-01-01"]));
    assert.match(none.stdout, /^nothing to share since 2999-01-01$/m);
    assert.equal((await b.mem(["share", "--kind", "command_run"])).code, 2, "a kind never shared is a bad argument");
    assert.equal((await b.mem(["share"])).code, 2);
    assert.equal((await b.mem(["share", "abc123", "--kind", "decision"])).code, 2);
  });

  test("a session's tagged memory carries its session line; a secret in the text, the git identity or a file name never reaches the file", async () => {
    const token = "gh" + "p_" + "Zq7WmX2pLk9RtY4vBn8Cs3Dd6Fg1Hj5Kl0Qa";
    const key = "AKIA" + "QWERTYUIOPASDF12";
    const b = bed({ name: `Mallory ${token}`, email: "m@example.com" });
    const transcript = join(b.dir, "t.jsonl");
    const say = (time: string, text: string) => JSON.stringify({ type: "assistant", sessionId: "sess-1", timestamp: time, message: { role: "assistant", content: [{ type: "text", text }] } });
    writeFileSync(transcript, `${say(new Date().toISOString(), `[MEMORY: learned] The deploy uses key ${key} and token ${token} from the vault.`)}\n`);
    await hook("stop", { session_id: "sess-1", cwd: b.repo, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false }, b.env);
    const id = await b.remember(`The staging password is password=${token} for now.`, "note", `src/${token}.ts`);
    const r = ok(await b.mem(["share", "--kind", "learned", "--kind", "note", "--since", "1d", "--json"]));
    const out = jsonOf<Shared>(r);
    assert.equal(out.results.length, 2, show(r));
    assert.ok(out.results.every((x) => x.status === "written"), show(r));
    for (const name of b.files()) {
      const text = readFileSync(join(b.folder, name), "utf8");
      assert.ok(!text.includes(token) && !text.includes(key), text);
      assert.match(text, /^decision-makers: "Mallory \[REDACTED:github-token\] <m@example\.com>"$/m);
    }
    const learned = readFileSync(join(b.folder, out.results.find((x) => x.id !== id)!.file!.split("/").pop()!), "utf8");
    assert.match(learned, /^source: "session sess-1 \d{4}-\d\d-\d\d"$/m, "the session it came from, and its day");
    assert.match(learned, /\[REDACTED:aws-access-key-id\]/);
    const note = readFileSync(join(b.repo, out.results.find((x) => x.id === id)!.file!), "utf8");
    assert.match(note, /^files: \["src\/\[REDACTED:github-token\]\.ts"\]$/m);
  });

  test("tool events and tasks are refused, each with its reason; exit 1", async () => {
    const b = bed({ name: "T", email: "t@example.com" });
    await hook("post-tool-use", { session_id: "s1", cwd: b.repo, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "toolu_share_1", tool_input: { command: "npm test" }, tool_response: { stdout: "ok" } }, b.env);
    const event = jsonOf<Listed>(ok(await b.mem(["list", "--source", "captured", "--json"]))).memories[0]!;
    assert.equal(event.kind, "command_run");
    const task = await b.remember("Write the release notes", "task");
    const r = await b.mem(["share", event.id, task, "nosuchid00"]);
    assert.equal(r.code, 1, show(r));
    assert.match(r.stdout, new RegExp(`^skipped +${event.id}  \\(a raw tool event \\(command_run\\): only decision, rejected, learned, preference, note memories are shared\\)$`, "m"));
    assert.match(r.stdout, new RegExp(`^skipped +${task}  \\(a task: only`, "m"));
    assert.match(r.stdout, /^skipped +nosuchid00 {2}\(no memory nosuchid00\)$/m);
    assert.equal(existsSync(join(b.repo, "docs")), false);
  });

  test("refused: no repository, a folder linked out of the repository, a folder others may write; a linked target file is never written through", async () => {
    const plain = join(tmp, "plain");
    mkdirSync(plain);
    const b = bed({ name: "T", email: "t@example.com" });
    const id = await b.remember("Cache builds in CI.", "decision");
    const none = await b.mem(["share", id], plain);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no repository root/);

    const outside = join(b.dir, "outside");
    mkdirSync(outside);
    mkdirSync(join(b.repo, "docs"));
    symlinkSync(outside, b.folder);
    const linked = await b.mem(["share", id]);
    assert.equal(linked.code, 1, show(linked));
    assert.match(linked.stderr, /link leading out of the repository/);
    assert.deepEqual(readdirSync(outside), []);
    rmSync(b.folder);

    mkdirSync(b.folder);
    chmodSync(b.folder, 0o777);
    const open = await b.mem(["share", id, "--json"]);
    assert.equal(open.code, 1);
    assert.match(jsonOf<{ error: { message: string } }>(open).error.message, /writable by others \(mode 777\)/);
    chmodSync(b.folder, 0o755);
    if (process.getuid?.() === 0) {
      chownSync(b.folder, 65534, 65534); // another account's folder (root may give it away without the account existing)
      const theirs = await b.mem(["share", id]);
      assert.equal(theirs.code, 1, show(theirs));
      assert.match(theirs.stderr, /another user's or writable by others/);
      chownSync(b.folder, 0, 0);
    }

    const target = join(outside, "victim.txt");
    writeFileSync(target, "untouched\n");
    symlinkSync(target, join(b.folder, "cache-builds-in-ci.md"));
    const r = ok(await b.mem(["share", id]));
    assert.match(r.stdout, /written .*docs\/decisions\/cache-builds-in-ci-2\.md/, "the linked name is taken, never written through");
    assert.equal(readFileSync(target, "utf8"), "untouched\n");
    assert.ok(lstatSync(join(b.folder, "cache-builds-in-ci.md")).isSymbolicLink());

    const other = ok(await b.mem(["share", id, "--folder", "team/memory"]));
    assert.match(other.stdout, /written .* team\/memory\/cache-builds-in-ci\.md/);
    assert.equal((await b.mem(["share", id, "--folder", "../x"])).code, 1);
  });

  test("a tombstoned id is skipped; a hostile FORGOTTEN.md (binary, huge, a link) is skipped with a warning", async () => {
    const b = bed({ name: "T", email: "t@example.com" });
    const id = await b.remember("Pin Node to 20.", "decision");
    const memId = jsonOf<Shared>(ok(await b.mem(["share", id, "--dry-run", "--json"]))).results[0]!.memId!;
    mkdirSync(b.folder, { recursive: true });
    const tomb = join(b.folder, "FORGOTTEN.md");
    writeFileSync(tomb, `# Forgotten shared memories\n\n- ${memId} · 2026-11-01 · Pin Node to 20\n`); // as a teammate's pull brings it
    const r = await b.mem(["share", id]);
    assert.equal(r.code, 1, show(r));
    assert.match(r.stdout, /skipped .*\(forgotten from the team folder \(listed in FORGOTTEN\.md\): never shared again\)/);
    assert.deepEqual(b.files(), ["FORGOTTEN.md"]);

    const cases: [string, () => void, RegExp][] = [
      ["binary", () => writeFileSync(tomb, Buffer.from([0x2d, 0x20, 0, 1, 2, 0x0a])), /FORGOTTEN\.md is not text/],
      ["huge", () => writeFileSync(tomb, `- ${memId} · x\n${"x".repeat(1024 * 1024 + 10)}`), /FORGOTTEN\.md not read: too large/],
      [
        "a link",
        () => {
          writeFileSync(join(b.dir, "elsewhere.md"), `- ${memId} · x\n`);
          symlinkSync(join(b.dir, "elsewhere.md"), tomb);
        },
        /FORGOTTEN\.md is a link/,
      ],
    ];
    for (const [name, make, warning] of cases) {
      rmSync(tomb, { force: true });
      make();
      const s = await b.mem(["share", id, "--dry-run"]);
      assert.equal(s.code, 0, `${name}: ${show(s)}`);
      assert.match(s.stderr, warning, name);
      assert.match(s.stdout, /^would write/m, name);
    }
  });
});
