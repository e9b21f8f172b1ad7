import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-doctor-home-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Doctor {
  checks: { name: string; status: string; detail: string; fix?: string }[];
}

test("mem doctor warns of a relative MEM_HOME: each directory would get a store of its own", async () => {
  const proj = join(tmp, "proj");
  mkdirSync(proj);
  const env = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: "mem-data" };
  const r = await runMem(["doctor", "--json"], { env, cwd: proj });
  const home = jsonOf<Doctor>(r).checks.find((c) => c.name === "data home");
  assert.equal(home?.status, "warn", show(r));
  assert.match(home!.detail, new RegExp(`^MEM_HOME is a relative path \\(mem-data\\): .*here it is ${join(proj, "mem-data")}$`));
  assert.equal(home!.fix, "set MEM_HOME to an absolute path");
  const absolute = await runMem(["doctor", "--json"], { env: { ...env, MEM_HOME: join(tmp, "abs") }, cwd: proj });
  assert.equal(jsonOf<Doctor>(absolute).checks.find((c) => c.name === "data home")?.status, "ok");
});
