import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { indexedProject } from "../../src/project/identity.js";
import { cleanEnv, runMem } from "../helpers/mem-cli.js";

// Outside git, the folder a session runs in owns the notes indexed from it: `mem index notes` run
// there files them where that folder's hooks and queries look (it filed them under <dir>/notes).
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-outside-git-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const note = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

describe("one project identity for folders outside git", () => {
  test("table: which project a PATH indexed from a cwd belongs to", () => {
    const plain = join(tmp, "plain");
    const repo = join(tmp, "repo");
    mkdirSync(join(plain, "notes", "deep"), { recursive: true });
    mkdirSync(join(tmp, "elsewhere"), { recursive: true });
    mkdirSync(join(repo, "docs"), { recursive: true });
    execFileSync("git", ["init", "-q", repo]);
    mkdirSync(join(plain, "vendored"), { recursive: true });
    execFileSync("git", ["init", "-q", join(plain, "vendored")]);
    const cases: [string, string, string][] = [
      [join(plain, "notes"), plain, plain], // inside the folder the command runs in
      [join(plain, "notes", "deep"), plain, plain],
      [plain, plain, plain],
      [join(tmp, "elsewhere"), plain, join(tmp, "elsewhere")], // not inside it: its own folder
      [join(repo, "docs"), plain, repo], // in a repository: the repository, wherever it is run from
      [join(repo, "docs"), repo, repo],
      [join(plain, "vendored"), plain, join(plain, "vendored")], // a repository inside the folder is its own
      [join(plain, "notes"), join(plain, "notes", "deep"), join(plain, "notes")], // cwd deeper than PATH: PATH's own
    ];
    for (const [path, cwd, want] of cases) assert.equal(indexedProject(path, cwd).root, want, `${path} from ${cwd}`);
    // Never the file system's root, nor the home folder: every path lies inside them.
    assert.equal(indexedProject(join(plain, "notes"), "/").root, join(plain, "notes"));
    assert.equal(indexedProject(join(plain, "notes"), tmp, tmp).root, join(plain, "notes"), "cwd = home");
  });

  test("mem index notes in a folder that is no repository: a query from that folder finds them, and mem status names the folder", async () => {
    const dir = join(tmp, "work");
    const home = join(tmp, "home");
    note(join(dir, "notes", "deploy.md"), "# Deploy\n\nWe deploy with blue-green switching behind the load balancer.\n");
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home };
    const mem = (args: string[]) => runMem(args, { env, cwd: dir });
    const idx = await mem(["index", "notes", "--json"]);
    assert.equal(idx.code, 0, idx.stderr);
    const q = await mem(["query", "blue-green deploy", "--json"]);
    assert.equal(q.code, 0, q.stderr);
    const res = JSON.parse(q.stdout) as { projects: string[]; results: { path: string }[] };
    assert.ok(res.results.some((r) => r.path.endsWith("deploy.md")), q.stdout);
    const st = await mem(["status", "--json"]);
    assert.ok(st.stdout.includes(JSON.stringify(dir).slice(1, -1)), st.stdout);
    assert.ok(!st.stdout.includes(`${dir}/notes"`), "no project of its own for the notes folder");
    // Indexed again from elsewhere (another folder, by its absolute path): it keeps its project, no second copy.
    const again = await runMem(["index", join(dir, "notes"), "--json"], { env, cwd: tmp });
    assert.equal(again.code, 0, again.stderr);
    const st2 = JSON.parse((await runMem(["status", "--json"], { env, cwd: tmp })).stdout) as { projects: { project: string; sources: number }[] };
    assert.deepEqual(st2.projects.map((p) => [p.project, p.sources]), [[dir, 1]], "one project, one copy of the note");
  });
});
