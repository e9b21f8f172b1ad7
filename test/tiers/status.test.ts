/**
 * `mem status`: each indexed hot file's size against its budget, warnings for those over it, in
 * text and --json; budgets from config.json, checked like every other setting.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { budgetRows, hotLayoutOf, kb } from "../../src/tiers/budgets.js";
import { defaultConfig } from "../../src/config/config.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-budgets-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface HotRow {
  path: string;
  layout: string;
  bytes: number;
  budget: number;
  over: boolean;
}
interface StatusJson {
  projects: { project: string; hot: HotRow[] }[];
  warnings: string[];
}

async function setup(name: string, config?: unknown) {
  const root = join(tmp, name);
  const proj = join(root, "proj");
  const home = join(root, "home");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const env = { ...cleanEnv(join(root, "claude")), MEM_HOME: home, MEM_USER: "alice" };
  const mem = (...args: string[]) => runMem(args, { env, cwd: proj });
  const init = await mem("init", "-q");
  assert.equal(init.code, 0, show(init));
  if (config !== undefined) writeFileSync(join(home, "config.json"), JSON.stringify(config));
  return { proj, dir: join(proj, "memory"), mem };
}

const bytes = (n: number, head = "# State\n\n") => head + "x".repeat(n - head.length);

describe("mem status: hot files against their budgets", () => {
  test("each hot file with its size and budget; one over budget is marked and warned about, in text and --json", async () => {
    const { dir, mem } = await setup("over");
    writeFileSync(join(dir, "state.md"), bytes(3_000));
    writeFileSync(join(dir, "identity.md"), bytes(1_500, "# Identity\n\n"));
    writeFileSync(join(dir, "sessions", "2026-11-20.md"), bytes(9_000, "# Session\n\n"));
    assert.equal((await mem("index", dir, "-q")).code, 0);

    const j = await mem("status", "--json");
    assert.equal(j.code, 0, show(j));
    const s = jsonOf<StatusJson>(j);
    const hot = s.projects[0]!.hot.map((h) => ({ ...h, path: h.path.slice(dir.length + 1) }));
    assert.deepEqual(hot, [
      { path: "identity.md", bytes: 1_500, layout: "identity", budget: 1_536, over: false },
      { path: "references.md", bytes: hot.find((h) => h.layout === "references")!.bytes, layout: "references", budget: 1_024, over: false },
      { path: "state.md", bytes: 3_000, layout: "state", budget: 2_048, over: true },
      { path: "users/alice/profile.md", bytes: hot.find((h) => h.layout === "profile")!.bytes, layout: "profile", budget: 1_024, over: false },
    ], "warm files (sessions/) have no budget");
    assert.deepEqual(s.warnings, ["memory/state.md is 2.9 KB, over its 2 KB budget (tiers.budgets.state); it is in front of the model at every session start: move what is done to sessions/ or archive/"]);
    assert.match(j.stderr, /^warning: memory\/state\.md is 2\.9 KB, over its 2 KB budget/m);

    const t = await mem("status");
    assert.equal(t.code, 0, show(t));
    assert.match(t.stdout, / {2}hot files \(size \/ budget\):\n/);
    assert.match(t.stdout, / {4}memory\/identity\.md {2}1\.5 KB \/ 1\.5 KB\n/);
    assert.match(t.stdout, / {4}memory\/state\.md {2}2\.9 KB \/ 2 KB {2}OVER BUDGET\n/);
    assert.doesNotMatch(t.stdout, /identity\.md.*OVER/);
    assert.match(t.stderr, /warning: memory\/state\.md is 2\.9 KB/);
    assert.equal((await mem("status", "-q")).stderr, "", "-q: no warnings on stderr");
  });

  test("a hot file is measured as it is now, not as last indexed", async () => {
    const { dir, mem } = await setup("grown");
    assert.equal((await mem("index", dir, "-q")).code, 0);
    const before = jsonOf<StatusJson>(await mem("status", "--json"));
    assert.deepEqual(before.warnings, [], "fresh templates are within their budgets");
    writeFileSync(join(dir, "references.md"), bytes(2_000, "# References\n\n"));
    const now = jsonOf<StatusJson>(await mem("status", "--json"));
    assert.equal(now.projects[0]!.hot.find((h) => h.layout === "references")!.bytes, 2_000);
    assert.match(now.warnings[0] ?? "", /^memory\/references\.md is 2 KB, over its 1 KB budget \(tiers\.budgets\.references\).*move long material to reference\//);
  });

  test("budgets come from tiers.budgets in config.json; a budget out of range is an error naming the key", async () => {
    const { dir, mem } = await setup("configured", { tiers: { budgets: { state: 4_096, identity: 100 } } });
    writeFileSync(join(dir, "state.md"), bytes(3_000));
    assert.equal((await mem("index", dir, "-q")).code, 0);
    const s = jsonOf<StatusJson>(await mem("status", "--json"));
    const byLayout = Object.fromEntries(s.projects[0]!.hot.map((h) => [h.layout, h]));
    assert.deepEqual([byLayout.state!.budget, byLayout.state!.over], [4_096, false]);
    assert.deepEqual([byLayout.identity!.budget, byLayout.identity!.over], [100, true]);
    assert.deepEqual([byLayout.references!.budget, byLayout.profile!.budget], [1_024, 1_024], "the rest keep their defaults");

    const bad = await setup("bad", { tiers: { budgets: { state: -1 } } });
    const r = await bad.mem("status");
    assert.equal(r.code, 1, show(r));
    assert.match(r.stderr, /tiers\.budgets\.state/);
    const typed = await setup("typed", { tiers: { user: 7 } });
    const t = await typed.mem("status");
    assert.equal(t.code, 1, show(t));
    assert.match(t.stderr, /"tiers\.user" must be a string/);
  });

  test("budgetRows and kb: pure", () => {
    const b = defaultConfig().tiers.budgets;
    assert.deepEqual(budgetRows([{ path: "/p/memory/State.MDX", bytes: 2_049 }, { path: "/p/memory/notes.md", bytes: 1e6 }], b), [{ path: "/p/memory/State.MDX", bytes: 2_049, layout: "state", budget: 2_048, over: true }]);
    assert.equal(hotLayoutOf("/x/users/bob/profile.md"), "profile");
    assert.deepEqual([kb(900), kb(1_024), kb(1_536), kb(2_990)], ["900 B", "1 KB", "1.5 KB", "2.9 KB"]);
  });
});
