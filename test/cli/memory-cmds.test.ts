/**
 * Explicit memory from the command line, through spawned `mem` processes on a real store:
 * remember, get, list, edit (flags, $EDITOR with --editor, $EDITOR on a terminal), their JSON
 * shapes and exit statuses; bad arguments, an unknown id, a markdown memory, a 10 MB text.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { Memory } from "../../src/service/types.js";
import { BIN, cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { inPty, noPty } from "../helpers/pty.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-cmds-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("mem remember, get, list, edit", () => {
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, "notes"));
  writeFileSync(join(proj, "notes", "db.md"), "# Database\n\nWe keep WAL mode so hooks can write while the indexer reads.\n");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp };
  const mem = (args: string[], input?: string) => runMem(args, { env, cwd: proj, ...(input !== undefined ? { input } : {}) });
  const get = async (id: string, history = false) => jsonOf<{ memory: Memory }>(await mem(["get", id, "--json", ...(history ? ["--history"] : [])])).memory;
  const total = async (...args: string[]) => jsonOf<{ total: number }>(await mem(["list", "--json", ...args])).total;

  test("round trip: remember prints the id, get shows it, list filters, edit keeps the previous version", async () => {
    const r = await mem(["remember", "Chose SQLite over Postgres: no server to run.", "--kind", "decision", "--tags", "db,storage", "--files", "src/db.ts"]);
    assert.equal(r.code, 0, show(r));
    assert.match(r.stdout, /^[0-9a-f]{12}\n$/, "prints the one id and nothing else");
    const id = r.stdout.trim();
    const m = await get(id);
    assert.deepEqual([m.project, m.kind, m.text, m.tags, m.files, m.source, m.session], [proj, "decision", "Chose SQLite over Postgres: no server to run.", ["db", "storage"], ["src/db.ts"], "explicit", null]);

    const first = jsonOf<{ memory: Memory; created: boolean }>(await mem(["remember", "Busy timeout stays at five seconds.", "--kind", "learned", "--key", "k-1", "--json"]));
    const again = await mem(["remember", "a different text", "--key", "k-1", "--json"]);
    assert.equal(again.code, 0);
    assert.deepEqual([jsonOf<{ created: boolean }>(again).created, jsonOf<{ memory: Memory }>(again).memory.id, first.created], [false, first.memory.id, true], "the same key: the memory already stored");
    assert.match((await mem(["remember", "x", "--key", "k-1"])).stderr, /already stored under this key/);

    assert.equal(await total("--tag", "db"), 1);
    assert.equal(await total("--tag", "db", "--tag", "nope"), 0, "every tag must match");
    assert.equal(await total("--text", "busy TIMEOUT"), 1);
    assert.equal(await total("--source", "explicit"), 2);
    assert.equal(await total("--source", "captured"), 0);
    const listed = jsonOf<{ memories: (Memory & { time: string })[] }>(await mem(["list", "--kind", "decision", "--json"])).memories;
    assert.deepEqual(listed.map((x) => [x.id, x.source, x.time === x.createdAt, typeof x.salience]), [[id, "explicit", true, "number"]]);

    const edited = await mem(["edit", id, "--text", "Chose SQLite over Postgres: one file, no server."]);
    assert.equal(edited.code, 0, show(edited));
    await mem(["edit", id, "--kind", "rejected", "--tags", "storage"]);
    const now = await get(id, true);
    assert.deepEqual([now.text, now.kind, now.tags], ["Chose SQLite over Postgres: one file, no server.", "rejected", ["storage"]]);
    assert.deepEqual(now.history?.map((h) => [h.version, h.kind, h.text]), [[1, "decision", "Chose SQLite over Postgres: no server to run."], [2, "decision", "Chose SQLite over Postgres: one file, no server."]]);
    const human = await mem(["get", id, "--history"]);
    assert.match(human.stdout, new RegExp(`^${id} {2}rejected {2}explicit`));
    assert.match(human.stdout, /^\S+ {2}rejected {2}explicit .*\n {3}Chose SQLite over Postgres: one file, no server\.\n/);
    assert.match(human.stdout, /v1, .*decision: Chose SQLite over Postgres: no server to run\./);
  });

  test("bad arguments exit 2 with the usage; an unknown id and a markdown memory exit 1 saying why", async () => {
    for (const args of [["remember"], ["remember", "x", "--kind", "opinion"], ["remember", "x", "--tags", "has space"], ["get"], ["get", "a", "b"], ["list", "--source", "bogus"], ["edit"], ["remember", "x", "--bogus"]]) {
      const r = await mem(args);
      assert.equal(r.code, 2, `${args.join(" ")}\n${show(r)}`);
      assert.match(r.stderr, args.includes("--bogus") ? /^mem remember: unknown option --bogus\. `mem remember --help` lists its options\.\n$/ : /Usage: mem /);
    }
    const short = await mem(["forget", "3c"]);
    assert.equal(short.code, 2, show(short));
    assert.equal(short.stderr, 'mem forget: id "3c" is too short: give at least 6 characters of the id\n', "one line, not \"no memory 3c\" nor the usage");
    for (const args of [["get", "mem:3c"], ["edit", "abc", "--text", "x"], ["get", "12345"]]) assert.match((await mem(args)).stderr, /is too short: give at least 6 characters of the id/, args.join(" "));
    const id = (await mem(["remember", "Something to edit"])).stdout.trim();
    const noTty = await mem(["edit", id]);
    assert.equal(noTty.code, 2);
    assert.match(noTty.stderr, /nothing to change, and no terminal to open an editor on/);
    const unknown = await mem(["get", "mem:000000000000000000000000"]);
    assert.deepEqual([unknown.code, unknown.stderr.trim()], [1, "mem get: no memory mem:000000000000000000000000"]);
    assert.deepEqual(jsonOf(await mem(["get", "nope", "--json"])), { error: { code: "not_found", message: "no memory nope" } });
    assert.equal((await mem(["edit", "nope", "--text", "x"])).code, 1);

    assert.equal((await mem(["index", "notes", "-q"])).code, 0);
    const notes = jsonOf<{ memories: Memory[] }>(await mem(["list", "--source", "markdown", "--json"])).memories;
    assert.deepEqual(notes.map((n) => [n.source, n.path, n.startLine, n.endLine]), [["markdown", join(proj, "notes", "db.md"), 1, 3]]);
    assert.equal(await total("--source", "markdown", "--source", "explicit"), (await total("--source", "explicit")) + 1, "markdown after the rest");
    const md = await mem(["edit", notes[0]!.id, "--text", "x"]);
    assert.equal(md.code, 1);
    assert.match(md.stderr, new RegExp(`comes from ${join(proj, "notes", "db.md")}:1-3: edit the file there`));
    assert.match((await mem(["get", notes[0]!.id])).stdout, /db\.md:1-3: edit the file to change it/);
  });

  test("--project that names nothing stored: remember, task add and import refuse it, naming the project meant; a path, global and an indexed name are taken", async () => {
    assert.equal((await mem(["remember", "Something in the project"])).code, 0);
    const before = await total();
    const typo = await mem(["remember", "Filed under a typo", "--project", "prj"]);
    assert.equal(typo.code, 1, show(typo));
    assert.match(typo.stderr, /^mem remember: no project "prj" is stored \(did you mean "proj"\?\); `mem status` lists them\. To start a project of that name, add --new-project; a path \(\.\/DIR, \/abs\/DIR\) names one too\n$/);
    assert.equal(jsonOf<{ error: { code: string } }>(await mem(["remember", "x", "--project", "prj", "--json"])).error.code, "unknown_project");
    const task = await mem(["task", "add", "A task under a typo", "--project", "prj"]);
    assert.equal(task.code, 1, show(task));
    assert.match(task.stderr, /no project "prj" is stored/);
    const file = join(tmp, "import.jsonl");
    writeFileSync(file, `${JSON.stringify({ text: "Imported under a typo", kind: "learned" })}\n`);
    const imp = await mem(["import", file, "--project", "prj"]);
    assert.equal(imp.code, 1, show(imp));
    assert.match(imp.stderr, /no project "prj" is stored/);
    assert.equal(await total(), before, "nothing stored anywhere");
    assert.equal((await mem(["list", "--project", "prj", "--json"])).stdout.includes('"total":0'), true);
    assert.doesNotMatch((await mem(["remember", "no near name", "--project", "zzzzzzzz"])).stderr, /did you mean/);

    assert.equal((await mem(["remember", "Shared across projects", "--project", "global"])).code, 0, "global is always there");
    const fresh = await mem(["remember", "A new project by its path", "--project", "../elsewhere"]);
    assert.equal(fresh.code, 0, show(fresh));
    assert.equal((await get(fresh.stdout.trim())).project, join(tmp, "elsewhere"));
    mkdirSync(join(tmp, "team-notes"));
    writeFileSync(join(tmp, "team-notes", "a.md"), "# Team\n\nWe deploy on Tuesdays.\n");
    assert.equal((await mem(["index", join(tmp, "team-notes"), "--project", "team", "-q"])).code, 0);
    const named = await mem(["remember", "Deploys freeze in December", "--project", "team"]);
    assert.equal(named.code, 0, show(named));
    assert.equal((await get(named.stdout.trim())).project, "team");
    // Starting a named project on purpose, from a memory, a task or an import.
    const made = await mem(["remember", "Client X wants weekly reports", "--project", "client-x", "--new-project"]);
    assert.equal(made.code, 0, show(made));
    assert.equal((await get(made.stdout.trim())).project, "client-x");
    assert.equal((await mem(["task", "add", "Send the first report", "--project", "client-y", "--new-project"])).code, 0);
    assert.match((await mem(["remember", "x", "--project", "cilent-y"])).stderr, /did you mean "client-y" or "client-x"\?/, "a project of tasks only first (two letters swapped), then one of memories (two edits)");
    assert.equal((await mem(["import", file, "--project", "client-z", "--new-project"])).code, 0);
    assert.equal(await total("--project", "client-z"), 1);
    // A blank --project is the working directory's project, as before.
    assert.equal((await mem(["remember", "Blank project flag", "--project", ""])).code, 0);
    // Two stored projects are folders of the name: the message names both, not "did you mean" the same name.
    for (const d of ["a", "b"]) {
      mkdirSync(join(tmp, d, "app", ".git"), { recursive: true });
      writeFileSync(join(tmp, d, "app", "n.md"), "# N\n\nA note.\n");
      assert.equal((await mem(["index", join(tmp, d, "app"), "-q"])).code, 0);
    }
    const twice = await mem(["remember", "x", "--project", "app"]);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, new RegExp(`2 stored projects are folders of that name: "${join(tmp, "a", "app")}", "${join(tmp, "b", "app")}"; give the one meant by its path`));
  });

  test("a 10 MB text is a clear error and nothing is stored", async () => {
    const before = await total();
    const big = await mem(["remember", "-"], `marker-walrus ${"x".repeat(10 * 1024 * 1024)}`);
    assert.equal(big.code, 1, show({ ...big, stdout: big.stdout.slice(0, 200) }));
    assert.match(big.stderr, /text is 10,485,774 characters; a memory holds at most 5,000 \(write a longer document as a markdown note/);
    assert.equal(await total(), before);
    assert.equal(await total("--text", "marker-walrus"), 0);
    const small = await mem(["remember", "-", "--kind", "learned"], "Read from stdin, with a trailing newline.\n");
    assert.equal((await get(small.stdout.trim())).text, "Read from stdin, with a trailing newline.");
  });

  test("edit through $EDITOR: a 0600 temp file holding the text, removed after; a failing editor changes nothing", async () => {
    const id = (await mem(["remember", "Deploys go out on Tuesdays."])).stdout.trim();
    const log = join(tmp, "editor.log");
    const editor = join(tmp, "editor.sh");
    writeFileSync(editor, `#!/bin/sh\n{ stat -c %a "$1"; echo "$1"; cat "$1"; } > "${log}"\nprintf 'Deploys go out on Wednesdays.\\n\\n' > "$1"\n`);
    chmodSync(editor, 0o700);
    const r = await runMem(["edit", id, "--editor", "--json"], { env: { ...env, EDITOR: editor }, cwd: proj });
    assert.equal(r.code, 0, show(r));
    const out = jsonOf<{ memory: Memory; changed: boolean }>(r);
    assert.deepEqual([out.changed, out.memory.text, out.memory.history?.[0]?.text], [true, "Deploys go out on Wednesdays.", "Deploys go out on Tuesdays."]);
    const [mode, file, ...text] = readFileSync(log, "utf8").split("\n");
    assert.equal(mode, "600");
    assert.equal(text.join("\n"), "Deploys go out on Tuesdays.\n");
    assert.ok(!existsSync(file!), "the temp file is removed");

    const failing = await runMem(["edit", id, "--editor"], { env: { ...env, EDITOR: "false", VISUAL: editor }, cwd: proj });
    assert.equal(failing.code, 1);
    assert.match(failing.stderr, /the editor "false" exited with 1; nothing changed/);
    const emptied = await runMem(["edit", id, "--editor"], { env: { ...env, EDITOR: `sh -c ': > "$1"' sh` }, cwd: proj });
    assert.equal(emptied.code, 1);
    assert.match(emptied.stderr, /the text is empty; nothing changed/);
    assert.equal((await get(id)).text, "Deploys go out on Wednesdays.");
  });

  test("a hang-up while $EDITOR runs (a closed terminal) still removes the temp file holding the memory", { skip: process.platform === "win32" }, async () => {
    const id = (await mem(["remember", "Hangup-walrus: the ledger export runs at dawn."])).stdout.trim();
    const temp = join(tmp, "edit-temp");
    mkdirSync(temp, { recursive: true });
    const started = join(tmp, "editor-started");
    const editor = join(tmp, "slow-editor.sh");
    writeFileSync(editor, `#!/bin/sh\ntouch "${started}"\nsleep 1\n`);
    chmodSync(editor, 0o700);
    const run = runMem(["edit", id, "--editor"], { env: { ...env, EDITOR: editor, TMPDIR: temp }, cwd: proj });
    await until(() => existsSync(started), 60_000);
    const pid = Number(execFileSync("pgrep", ["-f", `${BIN} edit ${id}`], { encoding: "utf8" }).trim().split("\n")[0]);
    process.kill(pid, "SIGHUP");
    const r = await run; // the old mem died of the signal here (runMem rejects), leaving the file
    assert.ok(r.code === 0 || r.code === 129, show(r));
    assert.deepEqual(readdirSync(temp), [], "no mem-edit-* folder is left holding the memory");
  });

  test("on a terminal, mem edit ID with no option opens $EDITOR", { skip: noPty }, async () => {
    const id = (await mem(["remember", "Releases are tagged by hand."])).stdout.trim();
    const r = await inPty([process.execPath, BIN, "edit", id], { env: { ...env, EDITOR: "sed -i s/hand/CI/" }, cwd: proj });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, new RegExp(`edited ${id};`));
    assert.equal((await get(id)).text, "Releases are tagged by CI.");
  });
});

test("after `--`, -h and --json are text: remembered, not taken for options", async () => {
  const proj = join(tmp, "dashdash");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home-dashdash"), HOME: tmp };
  const r = await runMem(["remember", "--", "-h"], { env, cwd: proj });
  assert.equal(r.code, 0, show(r));
  assert.equal(jsonOf<{ memory: Memory }>(await runMem(["get", r.stdout.trim(), "--json"], { env, cwd: proj })).memory.text, "-h");
  const j = await runMem(["remember", "--json", "--", "--json"], { env, cwd: proj });
  assert.equal(jsonOf<{ memory: Memory }>(j).memory.text, "--json");
});
