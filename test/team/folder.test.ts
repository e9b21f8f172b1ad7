/**
 * The team folder (pure, `isDir` injected): `team.folder` when set, else the first decision folder
 * the repository has, else docs/decisions; and the record folders are the decision folders plus
 * the team folder. Then config: a team folder that leaves the repository is refused.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/load.js";
import { defaultConfig } from "../../src/config/config.js";
import { normalFolder, recordFolders, teamFolder } from "../../src/config/team-folder.js";

const config = (folder: string, decisionFolders = ["docs/adr", "docs/decisions", "adr"]) => ({ index: { ...defaultConfig("/m").index, decisionFolders }, team: { folder, propose: false } });

describe("team folder", () => {
  const cases: [string, string, string[], string][] = [
    ["set folder wins", "team/memory", ["/r/docs/adr"], "team/memory"],
    ["set folder is normalised", "./team//memory/", [], "team/memory"],
    ["first decision folder present", "", ["/r/adr", "/r/docs/decisions"], "docs/decisions"],
    ["the order of index.decisionFolders decides", "", ["/r/adr", "/r/docs/adr", "/r/docs/decisions"], "docs/adr"],
    ["none present: docs/decisions", "", [], "docs/decisions"],
  ];
  for (const [name, folder, present, want] of cases) {
    test(name, () => assert.equal(teamFolder("/r", config(folder), (p) => present.includes(p)), want));
  }
  test("record folders add the team folder once", () => {
    assert.deepEqual(recordFolders(config("shared/mem")), ["docs/adr", "docs/decisions", "adr", "shared/mem"]);
    assert.deepEqual(recordFolders(config("Docs/ADR/")), ["docs/adr", "docs/decisions", "adr"]);
  });
  test("normalFolder", () => {
    assert.equal(normalFolder(" docs\\adr\\ "), "docs/adr");
    assert.equal(normalFolder("/"), "");
  });
  test("config refuses a team folder outside the repository", () => {
    const dir = mkdtempSync(join(tmpdir(), "mem-team-cfg-"));
    try {
      for (const bad of ["/etc", "../elsewhere", "docs/../../x"]) {
        writeFileSync(join(dir, "config.json"), JSON.stringify({ team: { folder: bad } }));
        assert.throws(() => loadConfig(join(dir, "config.json"), {}), ConfigError);
      }
      writeFileSync(join(dir, "config.json"), JSON.stringify({ team: { folder: "docs/team", propose: true } }));
      const { config: c } = loadConfig(join(dir, "config.json"), {});
      assert.deepEqual(c.team, { folder: "docs/team", propose: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
