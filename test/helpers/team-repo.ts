/**
 * A team on real git (test/team/*.test.ts): a bare remote in a temp folder and two teammates, A and
 * B, each with a clone (its own `user.name`/`user.email` in the clone's config, as a developer sets
 * them) and a mem data home of their own. Real `git commit`, `push` and `pull`; real mem processes
 * (the CLI and the hooks, with the payloads Claude Code sends). Background indexing is on
 * (MEM_WATCH=1, what a user has by default), the daemon off: a pull reaches the index through the
 * SessionStart or prompt hook's background `mem index`, or through a `mem index` the test names.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { refreshBusy } from "../../src/freshness/refresh.js";
import { hasCommand } from "./has-command.js";
import { cleanEnv, jsonOf, runMem, show, type Run } from "./mem-cli.js";
import { until } from "./until.js";

/** Why the team tests cannot run here, or false. */
export const gitSkip: string | false = hasCommand("git") ? false : "needs git";

/** A listed memory as `mem list --json` prints it (the parts these tests read). */
export interface Listed {
  id: string;
  kind: string;
  text: string;
  path: string;
  record?: { kind: string; status?: string; date?: string; authors: string[]; title?: string; supersededBy?: string };
}

export interface Mate {
  name: string;
  email: string;
  /** The clone's work tree. */
  clone: string;
  /** The mem data home. */
  home: string;
  env: NodeJS.ProcessEnv;
  /** Runs git in the clone (this teammate's identity comes from the clone's config); throws on failure. */
  git(...args: string[]): string;
  /** Runs git in the clone and returns its exit code and output (for a pull that conflicts). */
  tryGit(...args: string[]): { code: number; out: string };
  /** `git add -A`, `git commit`, `git push`. */
  commitPush(message: string): void;
  /** `git pull` (merge, no rebase); its exit code and output. */
  pull(): { code: number; out: string };
  /** `mem ARGS` in the clone. */
  mem(args: string[]): Promise<Run>;
  /** `mem list --json` in the clone (every memory of the project). */
  list(): Promise<Listed[]>;
  /** The SessionStart hook's briefing (empty when there is none). */
  session(id: string): Promise<string>;
  /** The UserPromptSubmit hook's injected context for `prompt` (empty when there is none). */
  prompt(text: string, session: string): Promise<string>;
  /** Waits until no background index of this data home is running. */
  settled(): Promise<void>;
  /**
   * What a user gets after a pull: they start sessions. Each SessionStart finds the folder
   * changed (or not yet indexed) and indexes it in the background (at most one start per
   * cooldown); this opens sessions until `done` holds. Returns how many it took.
   */
  sessionsUntil(done: () => Promise<boolean>, what: string, ms?: number): Promise<number>;
}

export interface Team {
  tmp: string;
  remote: string;
  a: Mate;
  b: Mate;
  cleanup(): Promise<void>;
}

const gitEnv = (tmp: string): NodeJS.ProcessEnv => ({ ...process.env, HOME: tmp, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" });

function rawGit(tmp: string, cwd: string, args: string[]): string {
  return execFileSync("git", args, { cwd, env: gitEnv(tmp), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

const contextOf = (r: Run): string => {
  assert.equal(r.code, 0, show(r));
  return r.stdout.trim() === "" ? "" : (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
};

function mate(tmp: string, remote: string, who: string, name: string, email: string): Mate {
  const clone = join(tmp, who);
  rawGit(tmp, tmp, ["clone", "-q", remote, clone]);
  for (const [k, v] of [["user.name", name], ["user.email", email], ["pull.rebase", "false"], ["core.autocrlf", "false"], ["commit.gpgsign", "false"]] as const) rawGit(tmp, clone, ["config", k, v]);
  const home = join(tmp, `home-${who}`);
  mkdirSync(join(tmp, `user-${who}`), { recursive: true });
  const env = { ...cleanEnv(join(tmp, `claude-${who}`)), HOME: join(tmp, `user-${who}`), MEM_HOME: home, MEM_WATCH: "1" };
  const git = (...args: string[]) => rawGit(tmp, clone, args);
  const tryGit = (...args: string[]) => {
    try {
      return { code: 0, out: git(...args) };
    } catch (err) {
      const e = err as { status?: number; stdout?: string; stderr?: string };
      return { code: e.status ?? 1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
    }
  };
  const mem = (args: string[]) => runMem(args, { env, cwd: clone });
  const hook = (name: string, payload: Record<string, unknown>) => runMem(["hook", name], { env, cwd: clone, input: JSON.stringify({ transcript_path: join(tmp, "none.jsonl"), cwd: clone, ...payload }) });
  const settled = () => until(() => refreshBusy(home, Date.now()) !== "running", 60_000, `${who}'s background index to end`);
  const self: Mate = {
    name,
    email,
    clone,
    home,
    env,
    git,
    tryGit,
    commitPush(message) {
      git("add", "-A");
      git("commit", "-q", "-m", message);
      git("push", "-q", "origin", "HEAD:main");
    },
    pull: () => tryGit("pull", "-q", "--no-edit", "origin", "main"),
    mem,
    list: async () => jsonOf<{ memories: Listed[] }>(await mem(["list", "--json", "--limit", "1000"])).memories,
    session: async (id) => contextOf(await hook("session-start", { session_id: id, hook_event_name: "SessionStart", source: "startup" })),
    prompt: async (text, session) => contextOf(await hook("user-prompt-submit", { session_id: session, hook_event_name: "UserPromptSubmit", prompt: text })),
    settled,
    async sessionsUntil(done, what, ms = 60_000) {
      let n = 0;
      await until(
        async () => {
          await self.session(`catch-up-${who}-${++n}`);
          await settled();
          return done();
        },
        ms,
        what,
        500,
      );
      return n;
    },
  };
  return self;
}

/**
 * The remote, seeded by A with `files` (paths relative to the repository) and pushed; then A's
 * and B's clones and data homes. A is Ada Lovelace, B is Bob Barker.
 */
export function teamRepo(label: string, files: Record<string, string> = {}): Team {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), `mem-team-${label}-`)));
  const remote = join(tmp, "remote.git");
  rawGit(tmp, tmp, ["init", "-q", "--bare", remote]);
  rawGit(tmp, remote, ["symbolic-ref", "HEAD", "refs/heads/main"]);
  const seed = join(tmp, "seed");
  rawGit(tmp, tmp, ["init", "-q", seed]);
  rawGit(tmp, seed, ["checkout", "-q", "-b", "main"]);
  for (const [rel, text] of Object.entries({ "README.md": "# Shop\n\nThe shop's services.\n", "src/auth/jwt.ts": "export const alg = 'ES256';\n", ...files })) {
    mkdirSync(dirname(join(seed, rel)), { recursive: true });
    writeFileSync(join(seed, rel), text);
  }
  rawGit(tmp, seed, ["add", "-A"]);
  rawGit(tmp, seed, ["-c", "user.name=Seed", "-c", "user.email=seed@example.com", "commit", "-q", "-m", "start"]);
  rawGit(tmp, seed, ["push", "-q", remote, "main"]);
  const a = mate(tmp, remote, "a", "Ada Lovelace", "ada@example.com");
  const b = mate(tmp, remote, "b", "Bob Barker", "bob@example.com");
  return {
    tmp,
    remote,
    a,
    b,
    async cleanup() {
      await Promise.all([a.settled(), b.settled()]).catch(() => undefined);
      rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

export interface Shared {
  title: string;
  text: string;
  kind?: string;
  status?: string;
  date: string;
  memId: string;
  files?: string[];
  source: string;
}

/** The slug of a title: its lower-case ascii words joined by `-`, at most 60 characters. */
export const slugOf = (title: string): string =>
  title
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join("-")
    .slice(0, 60)
    .replace(/-+$/, "");

/**
 * Writes the file `mem share` writes for a memory (docs/notes/team-design.md's format, MADR 4.0
 * front matter) into `folder` of the teammate's clone, the teammate's git name and email as its
 * decision-makers; returns its path relative to the clone.
 */
export function writeSharedRecord(m: Mate, folder: string, s: Shared): string {
  const kind = s.kind ?? "decision";
  const status = s.status ?? (kind === "rejected" ? "rejected" : "accepted");
  const author = `${m.git("config", "user.name")} <${m.git("config", "user.email")}>`;
  const lines = [
    "---",
    `status: ${status}`,
    `date: ${s.date}`,
    `decision-makers: ${JSON.stringify(author)}`,
    `kind: ${kind}`,
    `mem-id: ${JSON.stringify(s.memId)}`,
    ...(s.files && s.files.length > 0 ? [`files: [${s.files.map((f) => JSON.stringify(f)).join(", ")}]`] : []),
    `source: ${JSON.stringify(s.source)}`,
    "---",
    `# ${s.title}`,
    "",
    s.text,
    "",
  ];
  const rel = `${folder}/${slugOf(s.title)}.md`;
  mkdirSync(join(m.clone, folder), { recursive: true });
  writeFileSync(join(m.clone, rel), lines.join("\n"));
  return rel;
}
