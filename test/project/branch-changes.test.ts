/**
 * git's view for the briefing (src/project/branch-changes.ts): the default branch a branch is
 * compared with, the branch's own changes in a real repository, and the bounds (no git, no
 * repository, a git that hangs).
 */
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { gitView, parseNamesZ, pickBase } from "../../src/project/branch-changes.js";
import { git } from "../helpers/git.js";
import { hasCommand } from "../helpers/has-command.js";
import { makeRepo } from "../anchor/scenario.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-branch-changes-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const noGit = !hasCommand("git") && "git not available";

describe("the base a branch is compared with", () => {
  const refs = (...lines: string[]) => `${lines.join("\n")}\n`;
  const cases: { name: string; out: string; branch?: string; want: string | undefined }[] = [
    { name: "nothing found", out: "", branch: "f", want: undefined },
    { name: "the remote's HEAD, as the branch it points at", out: refs("refs/remotes/origin/HEAD\trefs/remotes/origin/trunk", "refs/heads/main\t"), branch: "f", want: "origin/trunk" },
    { name: "a local main", out: refs("refs/heads/main\t", "refs/heads/master\t"), branch: "f", want: "main" },
    { name: "master when there is no main", out: refs("refs/heads/master\t"), branch: "f", want: "master" },
    { name: "the remote's main without a local one", out: refs("refs/remotes/origin/main\t"), branch: "f", want: "origin/main" },
    { name: "on main itself: nothing to compare", out: refs("refs/heads/main\t"), branch: "main", want: undefined },
    { name: "on main, with origin/HEAD pointing at origin/main", out: refs("refs/remotes/origin/HEAD\trefs/remotes/origin/main"), branch: "main", want: undefined },
    { name: "a ref below main/ (a pattern's prefix match) is not main", out: refs("refs/heads/main/x\t"), branch: "f", want: undefined },
    { name: "a symref of an odd shape is skipped", out: refs("refs/remotes/origin/HEAD\tnot a ref", "refs/heads/master\t"), branch: "f", want: "master" },
  ];
  for (const c of cases) test(c.name, () => assert.equal(pickBase(c.out, c.branch), c.want));
});

describe("git diff --name-only -z read as paths", () => {
  const cases: { name: string; out: string; max?: number; want: string[] }[] = [
    { name: "empty", out: "", want: [] },
    { name: "paths with spaces and newlines, absolute", out: "src/a.ts\0docs/x y.md\0odd\nname\0", want: ["/r/src/a.ts", "/r/docs/x y.md", "/r/odd\nname"] },
    { name: "a cut-off last field is dropped", out: "a\0b\0cu", want: ["/r/a", "/r/b"] },
    { name: "at most max", out: "a\0b\0c\0", max: 2, want: ["/r/a", "/r/b"] },
    { name: "a secret-shaped name redacted as the store keeps it", out: `ghp_${"a1B2c3D4e5".repeat(4)}.md\0`, want: ["/r/[REDACTED:github-token].md"] },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(parseNamesZ(c.out, "/r", c.max), c.want));
});

describe("git's view of a real repository", { skip: noGit }, () => {
  test("feature/es256: the branch, the working tree's change and the branch's committed ones (not main's later ones)", async () => {
    const repo = makeRepo(join(tmp, "es"), { "src/auth.ts": "alg HS256\n", "src/db.ts": "db\n", "README.md": "r\n" });
    git(repo, "checkout", "-qb", "feature/es256");
    writeFileSync(join(repo, "src/keys.ts"), "keys\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "keys");
    git(repo, "checkout", "-q", "main");
    writeFileSync(join(repo, "README.md"), "main moved on\n");
    git(repo, "commit", "-qam", "main's own");
    git(repo, "checkout", "-q", "feature/es256");
    writeFileSync(join(repo, "src/auth.ts"), "alg ES256\n");
    const v = await gitView(join(repo, "src"), { timeoutMs: 5_000, maxBytes: 1 << 20 });
    assert.deepEqual(v, { branch: "feature/es256", changed: [join(repo, "src/auth.ts")], changes: 1, base: "main", branchFiles: [join(repo, "src/keys.ts")] });
  });

  test("on main: no base, no branch changes; detached: no branch", async () => {
    const repo = makeRepo(join(tmp, "m"), { "a.ts": "a\n" });
    writeFileSync(join(repo, "a.ts"), "b\n");
    assert.deepEqual(await gitView(repo, { timeoutMs: 5_000, maxBytes: 1 << 20 }), { branch: "main", changed: [join(repo, "a.ts")], changes: 1, branchFiles: [] });
    git(repo, "checkout", "-q", "--detach");
    assert.deepEqual(await gitView(repo, { timeoutMs: 5_000, maxBytes: 1 << 20 }), { changed: [join(repo, "a.ts")], changes: 1, branchFiles: [] });
  });

  test("outside a repository, or without a git binary: nothing", async () => {
    const plain = join(tmp, "plain");
    mkdirSync(plain, { recursive: true });
    assert.equal(await gitView(plain, { timeoutMs: 5_000, maxBytes: 1 << 20 }), undefined);
    const repo = makeRepo(join(tmp, "nogit"), { "a.ts": "a\n" });
    assert.equal(await gitView(repo, { timeoutMs: 5_000, maxBytes: 1 << 20, git: join(tmp, "no-such-git") }), undefined);
  });

  test("a git that hangs is given up on within the time limit, for every run together", async () => {
    const repo = makeRepo(join(tmp, "slow"), { "a.ts": "a\n" });
    const slow = join(tmp, "slow-git");
    writeFileSync(slow, "#!/bin/sh\nsleep 60\n"); // not exec: the killed shell leaves sleep holding the output; far past the bounds below
    chmodSync(slow, 0o755);
    const t = performance.now();
    assert.equal(await gitView(repo, { timeoutMs: 300, maxBytes: 1 << 20, git: slow }), undefined);
    assert.ok(performance.now() - t < 20_000, "not held up by the hanging git");
    // A status that answers, then a for-each-ref and a diff that hang: the view without the branch's changes, within the one limit.
    const half = join(tmp, "half-git");
    writeFileSync(half, `#!/bin/sh\ncase " $* " in *" status "*) exec git "$@" ;; esac\nsleep 60\n`);
    chmodSync(half, 0o755);
    git(repo, "checkout", "-qb", "f");
    const t2 = performance.now();
    assert.deepEqual(await gitView(repo, { timeoutMs: 1_500, maxBytes: 1 << 20, git: half }), { branch: "f", changed: [], changes: 0, branchFiles: [] });
    assert.ok(performance.now() - t2 < 25_000, "within the one limit, not the hanging git's 60 s");
  });
});
