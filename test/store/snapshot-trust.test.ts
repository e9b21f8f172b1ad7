/**
 * Which snapshots are offered (src/store/snapshot-trust.ts): the rules, table-driven on real files,
 * and one account's own copy of another store refused by `mem restore` (the multi-user cases are
 * in test/maintenance/other-account.test.ts).
 */
import assert from "node:assert/strict";
import { chmodSync, copyFileSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { snapshotRefusal } from "../../src/store/snapshot-trust.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-snapshot-trust-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const uid = process.getuid?.();
const OURS = "11111111-2222-3333-4444-555555555555";
const THEIRS = "99999999-2222-3333-4444-555555555555";

describe("snapshot trust", () => {
  const file = join(tmp, "s.sqlite");
  const manifest = join(tmp, "s.json");
  writeFileSync(file, "x", { mode: 0o600 });
  writeFileSync(manifest, "{}", { mode: 0o600 });
  const cases: { name: string; storeId: string | null; ours: string | undefined; as: number | undefined; mode?: number; want: RegExp | undefined }[] = [
    { name: "ours, this store", storeId: OURS, ours: OURS, as: uid, want: undefined },
    { name: "ours, no identity recorded: the owner is all that can be checked", storeId: THEIRS, ours: undefined, as: uid, want: undefined },
    { name: "ours, another store", storeId: THEIRS, ours: OURS, as: uid, want: /copy of another store \(id 99999999…; this store is 11111111…\)/ },
    { name: "ours, taken before the store had an id (a migration's snapshot of an older store)", storeId: null, ours: OURS, as: uid, want: undefined },
    { name: "another user's copy of this store", storeId: OURS, ours: OURS, as: uid === undefined ? undefined : uid + 1, want: uid === undefined ? undefined : /belongs to another user/ },
    { name: "ours but writable by others", storeId: OURS, ours: OURS, as: uid, mode: 0o666, want: uid === undefined ? undefined : /writable by other users/ },
  ];
  for (const c of cases) {
    test(c.name, () => {
      chmodSync(file, c.mode ?? 0o600);
      const why = snapshotRefusal({ file, copy: lstatSync(file), manifest: lstatSync(manifest), manifestPath: manifest, storeId: c.storeId, ours: c.ours, uid: c.as });
      if (c.want === undefined) assert.equal(why, undefined);
      else assert.match(why ?? "", c.want);
    });
  }

  test("mem restore: a copy of another store put among the snapshots is listed as refused and never restored as latest", async () => {
    const make = async (name: string) => {
      const home = join(tmp, `${name}-home`);
      const proj = join(tmp, name);
      mkdirSync(join(proj, ".git"), { recursive: true });
      writeFileSync(join(proj, "n.md"), `# ${name}\n\nThe ${name} note.\n`);
      const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp };
      const r = await runMem(["index", proj, "-q"], { env, cwd: proj });
      assert.equal(r.code, 0, show(r));
      const list = jsonOf<{ snapshots: { id: string }[] }>(await runMem(["restore", "--list", "--json"], { env, cwd: proj }));
      return { home, proj, env, id: list.snapshots[0]!.id };
    };
    const mine = await make("mine");
    const other = await make("other");
    const planted = "29991231T235959999Z-manual";
    for (const x of ["sqlite", "json"]) copyFileSync(join(other.home, "snapshots", `${other.id}.${x}`), join(mine.home, "snapshots", `${planted}.${x}`));
    const list = jsonOf<{ snapshots: { id: string }[]; refused: { id: string; why: string }[] }>(await runMem(["restore", "--list", "--json"], { env: mine.env, cwd: mine.proj }));
    assert.deepEqual(list.snapshots.map((s) => s.id), [mine.id]);
    assert.equal(list.refused.length, 1);
    assert.equal(list.refused[0]!.id, planted);
    assert.match(list.refused[0]!.why, /copy of another store/);
    const text = await runMem(["restore", "--list"], { env: mine.env, cwd: mine.proj });
    assert.match(text.stdout, new RegExp(`refused  ${planted}: it is a copy of another store`));
    const latest = await runMem(["restore", "latest", "--yes", "--json"], { env: mine.env, cwd: mine.proj });
    assert.equal(latest.code, 0, show(latest));
    assert.equal(jsonOf<{ snapshot: { id: string } }>(latest).snapshot.id, mine.id);
    assert.equal(statSync(join(mine.home, "snapshots")).mode & 0o777, 0o700);
  });
});
