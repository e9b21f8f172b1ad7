/**
 * mem install and uninstall edit a hand-written settings file down to the smallest value that
 * changes: the user's own handlers under the same events as mem's keep their exact text (compact,
 * tabs, CRLF), and uninstall gives back the file byte for byte. A file with a key twice in one
 * object (only the last counts) is refused, never written whole over the user's other copy.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { installToFile, uninstallFromFile } from "../../src/install/files.js";
import type { HookTarget } from "../../src/install/hooks.js";
import { duplicateKey, editTopLevel } from "../../src/install/json-edit.js";
import { findMemHooks } from "../../src/install/settings.js";
import { parseSettingsText, SettingsError, type JsonObject } from "../../src/install/settings-json.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-install-nested-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const TARGET: HookTarget = { node: "/usr/local/bin/node", bin: "/home/ann/src/mem/bin/mem.cjs" };
let n = 0;
function sandbox() {
  const dir = join(tmp, `s${++n}`);
  const home = join(dir, "home");
  mkdirSync(join(home, ".claude"), { recursive: true });
  return { file: join(home, ".claude", "settings.json"), where: { cwd: dir, env: { HOME: home, MEM_HOME: join(dir, "mem-home") } } };
}

const USER_STOP = '{"type":"command","command":"echo mem is great; mem remember x"}';
const USER_POST = '{ "type" : "command",\t"command": "~/bin/lint" }';
const FILES: { name: string; text: string; kept: string[] }[] = [
  {
    name: "compact, one line, the user's handlers under Stop and PostToolUse",
    text: `{"hooks":{"Stop":[{"hooks":[${USER_STOP}]}],"PostToolUse":[{"matcher":"Edit","hooks":[${USER_POST}]}]},"model":"opus"}`,
    kept: [USER_STOP, `{"matcher":"Edit","hooks":[${USER_POST}]}`],
  },
  {
    name: "tabs and CRLF, an empty event array of the user's, a look-alike of an old mem handler",
    text: `{\r\n\t"hooks": {"Stop": [ {"matcher": "", "hooks": [ {"type":"command","command":"/usr/bin/node /opt/mem/bin/mem.cjs hook stop"} ]} ],\r\n\t\t"SubagentStart": []},\r\n\t"model": "x"\r\n}\r\n`,
    kept: ['{"matcher": "", "hooks": [ {"type":"command","command":"/usr/bin/node /opt/mem/bin/mem.cjs hook stop"} ]}', '"SubagentStart": []'],
  },
];

describe("the user's handlers keep their exact text", () => {
  for (const f of FILES) {
    test(f.name, () => {
      const s = sandbox();
      writeFileSync(s.file, f.text);
      installToFile({ scope: "user", where: s.where, target: TARGET });
      const installed = readFileSync(s.file, "utf8");
      assert.equal(findMemHooks(parseSettingsText(installed).settings).length, 10);
      for (const k of f.kept) assert.ok(installed.includes(k), `kept as written: ${k}\n${installed}`);
      if (f.text.includes("\r\n")) assert.equal(installed.replace(/\r\n/g, "").includes("\n"), false, "CRLF only");
      uninstallFromFile({ scope: "user", where: s.where });
      assert.equal(readFileSync(s.file, "utf8"), f.text, "uninstall gives back the file byte for byte");
    });
  }
});

describe("editTopLevel, value by value", () => {
  const fmt = parseSettingsText("{}").format;
  const cases: { name: string; text: string; after: JsonObject; want: string }[] = [
    { name: "items taken out at the start, the middle and the end", text: '{"a": [1, 2, 3, 4, 5, 6]}', after: { a: [3, 5] }, want: '{"a": [3, 5]}' },
    { name: "an item changed in place, the others as written", text: '{"a": [ {"x":1}, {"y" :2} ]}', after: { a: [{ x: 1 }, { y: 3 }] }, want: '{"a": [ {"x":1}, {"y" :3} ]}' },
    { name: "a member appended to a one-line object", text: '{"a": {"b":1}}', after: { a: { b: 1, c: 2 } }, want: '{"a": {"b":1, "c": 2}}' },
    { name: "two members taken out", text: '{"a": 1, "b": 2, "c": 3}', after: { b: 2 }, want: '{"b": 2}' },
    { name: "every item taken out: the value written again", text: '{"a": [1, 2]}', after: { a: [] }, want: '{"a": []}' },
  ];
  for (const c of cases) test(c.name, () => assert.equal(editTopLevel(c.text, JSON.parse(c.text), c.after, fmt), c.want));
});

test("a key twice in one object, at the top or deep inside hooks, is refused and the file left as it is", () => {
  assert.equal(duplicateKey('{"a": 1, "b": {"c": [ {"d": 1, "d": 2} ]}}'), "d");
  assert.equal(duplicateKey('{"a": 1, "b": {"a": 2}}'), undefined, "the same key in two objects is fine");
  for (const text of ['{"a": 1, "a": 2}', '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "command": "y"}]}]}}']) {
    const s = sandbox();
    writeFileSync(s.file, text);
    assert.throws(() => installToFile({ scope: "user", where: s.where, target: TARGET }), (e: unknown) => e instanceof SettingsError && /appears twice in one object/.test(e.message));
    assert.equal(readFileSync(s.file, "utf8"), text);
  }
});
