/**
 * The team folder is watched: with the daemon running (index.watch), a `git pull` that edits, adds
 * and removes several records at once shows in `mem list --team` within seconds, with no
 * `mem index`. A freshly cloned repository's folder is no indexed root yet: its first SessionStart
 * indexes it in the background, which records it as a root, and the running daemon watches it from
 * then on. Real git (a bare remote, two clones), a real `mem serve`, real CLI processes.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { BIN, cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-team-watch-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

type Listed = { total: number; memories: { kind: string; record?: { title?: string; status?: string; authors: string[] } }[] };

/** A `mem serve` of the data home, answering. */
async function serve(env: NodeJS.ProcessEnv, home: string): Promise<ChildProcess> {
  const daemon = spawn(process.execPath, [BIN, "serve", "-q"], { env: { ...env, MEM_NO_DAEMON: "0" }, stdio: "ignore" });
  children.push(daemon);
  await until(async () => (await ask(home, { op: "ping" }, 500)).kind === "reply", 30_000, "the daemon answers");
  return daemon;
}

/** Until the daemon watches a root (the team folder). */
async function watching(home: string): Promise<void> {
  await until(
    async () => {
      const r = await ask(home, { op: "status" }, 30_000);
      const w = r.kind === "reply" && r.reply.ok ? (r.reply.watch as { roots: number; watched: number }) : undefined;
      return w !== undefined && w.roots >= 1 && w.watched >= 1;
    },
    30_000,
    "the daemon watches the team folder",
  );
}

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=Ada", "-c", "user.email=ada@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
const rec = (status: string, title: string, by = "Ada") => `---\nstatus: ${status}\ndate: 2026-11-28\ndecision-makers: ${by}\n---\n# ${title}\n\n${title}.\n`;

test("a git pull into the watched team folder shows in mem list --team within seconds", { timeout: 180_000 }, async () => {
  const remote = join(tmp, "remote.git");
  git(tmp, "init", "-q", "--bare", remote);
  const ada = join(tmp, "ada");
  git(tmp, "clone", "-q", remote, ada);
  const dec = join(ada, "docs", "decisions");
  mkdirSync(dec, { recursive: true });
  writeFileSync(join(dec, "use-postgres.md"), rec("accepted", "Use PostgreSQL for orders"));
  writeFileSync(join(dec, "no-k8s.md"), rec("rejected", "Run our own Kubernetes"));
  git(ada, "add", ".");
  git(ada, "commit", "-qm", "two records");
  git(ada, "push", "-q", "origin", "HEAD:main");
  const bob = join(tmp, "bob");
  git(tmp, "clone", "-q", "-b", "main", remote, bob);

  // Bob's mem: a daemon watching his indexed roots; nothing indexed yet.
  const home = join(tmp, "home");
  mkdirSync(home);
  writeFileSync(join(home, "config.json"), JSON.stringify({ daemon: { idleMs: 120_000, indexEveryMs: 60_000, watchDebounceMs: 200 }, embedding: { order: [] } }));
  const env = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: home, MEM_WATCH: "1" };
  const daemon = await serve(env, home);
  const team = async () => jsonOf<Listed>(await runMem(["list", "--team", "--json"], { env, cwd: bob }));
  const titles = async () => (await team()).memories.map((m) => `${m.kind}: ${m.record?.title}`).sort();

  // The fresh clone's first session: its decision folder is indexed in the background, and becomes a watched root.
  const start = await runMem(["hook", "session-start"], { env, cwd: bob, input: JSON.stringify({ session_id: "b1", cwd: bob, hook_event_name: "SessionStart", source: "startup" }) });
  assert.equal(start.code, 0, show(start));
  await until(async () => (await team()).total === 2, 30_000, "the cloned records indexed by the first SessionStart");
  await watching(home);

  // Ada edits one record, adds two, removes one, and pushes; Bob pulls: several files at once.
  writeFileSync(join(dec, "use-postgres.md"), rec("superseded by use-cockroach.md", "Use PostgreSQL for orders"));
  writeFileSync(join(dec, "use-cockroach.md"), rec("accepted", "Use CockroachDB for orders", "Grace"));
  writeFileSync(join(dec, "graphql.md"), rec("proposed", "Offer a GraphQL API"));
  unlinkSync(join(dec, "no-k8s.md"));
  git(ada, "add", "-A");
  git(ada, "commit", "-qm", "edit, add, remove");
  git(ada, "push", "-q", "origin", "HEAD:main");
  git(bob, "pull", "-q", "--ff-only");

  const want = ["decision: Use CockroachDB for orders", "proposed: Offer a GraphQL API", "superseded: Use PostgreSQL for orders"];
  await until(async () => JSON.stringify(await titles()) === JSON.stringify(want), 30_000, "the pull shows in mem list --team");
  const after = await team();
  assert.deepEqual(after.memories.find((m) => m.record?.title === "Use CockroachDB for orders")?.record?.authors, ["Grace"]);
  assert.equal(after.total, 3, "the removed record is gone");
  daemon.kill("SIGTERM");
});

/** A remote with one commit and no decision folder; Ada's and Bob's clones. */
function bare(label: string): { ada: string; bob: string; home: string } {
  const dir = join(tmp, label);
  mkdirSync(dir);
  const remote = join(dir, "remote.git");
  git(dir, "init", "-q", "--bare", remote);
  const ada = join(dir, "ada");
  git(dir, "clone", "-q", remote, ada);
  writeFileSync(join(ada, "README.md"), "# shop\n");
  git(ada, "add", ".");
  git(ada, "commit", "-qm", "start");
  git(ada, "push", "-q", "origin", "HEAD:main");
  const bob = join(dir, "bob");
  git(dir, "clone", "-q", "-b", "main", remote, bob);
  const home = join(dir, "home");
  mkdirSync(home);
  writeFileSync(join(home, "config.json"), JSON.stringify({ daemon: { idleMs: 120_000, indexEveryMs: 60_000, watchDebounceMs: 200 }, embedding: { order: [] } }));
  return { ada, bob, home };
}

/** Ada's first record: the pull creates Bob's docs/decisions. */
function firstShare(ada: string, bob: string): void {
  const dec = join(ada, "docs", "decisions");
  mkdirSync(dec, { recursive: true });
  writeFileSync(join(dec, "use-postgres.md"), rec("accepted", "Use PostgreSQL for orders"));
  git(ada, "add", "-A");
  git(ada, "commit", "-qm", "the first shared record");
  git(ada, "push", "-q", "origin", "HEAD:main");
  git(bob, "pull", "-q", "--ff-only");
}

test("a pull that creates the team folder shows up after the next prompt, with a daemon and without one, no new session needed", { timeout: 180_000 }, async () => {
  // With a daemon: Bob's session started before the folder existed; the pull creates it; his next prompt goes to the daemon.
  {
    const { ada, bob, home } = bare("created-daemon");
    const env = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: home, MEM_WATCH: "1" };
    const daemon = await serve(env, home);
    const start = await runMem(["hook", "session-start"], { env, cwd: bob, input: JSON.stringify({ session_id: "b1", cwd: bob, hook_event_name: "SessionStart", source: "startup" }) });
    assert.equal(start.code, 0, show(start));
    firstShare(ada, bob);
    const team = async () => jsonOf<Listed>(await runMem(["list", "--team", "--json"], { env, cwd: bob })).total;
    assert.equal(await team(), 0);
    const asked = await ask(home, { op: "prompt", prompt: "which database for orders?", cwd: bob, session: "b1" }, 30_000);
    assert.equal(asked.kind, "reply");
    await until(async () => (await team()) === 1, 30_000, "the created folder indexed after the prompt");
    daemon.kill("SIGTERM");
  }
  // Without a daemon: the prompt hook itself starts the background index.
  {
    const { ada, bob, home } = bare("created-local");
    const env = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: home, MEM_WATCH: "1" };
    const start = await runMem(["hook", "session-start"], { env, cwd: bob, input: JSON.stringify({ session_id: "b1", cwd: bob, hook_event_name: "SessionStart", source: "startup" }) });
    assert.equal(start.code, 0, show(start));
    firstShare(ada, bob);
    const prompt = await runMem(["hook", "user-prompt-submit"], { env, cwd: bob, input: JSON.stringify({ session_id: "b1", cwd: bob, hook_event_name: "UserPromptSubmit", prompt: "which database for orders?" }) });
    assert.equal(prompt.code, 0, show(prompt));
    await until(async () => jsonOf<Listed>(await runMem(["list", "--team", "--json"], { env, cwd: bob })).total === 1, 30_000, "the created folder indexed after the prompt hook");
  }
});

test("with a daemon watching, a pull that removes the folder's last record forgets it within seconds", { timeout: 180_000 }, async () => {
  const { ada, bob, home } = bare("removed-daemon");
  firstShare(ada, bob);
  const env = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: home, MEM_WATCH: "1" };
  const daemon = await serve(env, home);
  const team = async () => jsonOf<Listed>(await runMem(["list", "--team", "--json"], { env, cwd: bob })).total;
  await runMem(["hook", "session-start"], { env, cwd: bob, input: JSON.stringify({ session_id: "b1", cwd: bob, hook_event_name: "SessionStart", source: "startup" }) });
  await until(async () => (await team()) === 1, 30_000, "the record indexed");
  await watching(home);
  git(ada, "rm", "-q", "docs/decisions/use-postgres.md");
  git(ada, "commit", "-qm", "drop the record");
  git(ada, "push", "-q", "origin", "HEAD:main");
  git(bob, "pull", "-q", "--ff-only");
  await until(async () => (await team()) === 0, 30_000, "the removed folder's record forgotten");
  daemon.kill("SIGTERM");
});
