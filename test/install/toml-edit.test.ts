/**
 * The small TOML editor behind `mem install --for codex`: config.toml is cut into statements
 * (multi-line strings and arrays, quoted and dotted keys, comments), and installing then
 * uninstalling mem gives every hand-written file back byte for byte; malformed text is refused.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { addTrust, codexConfigState, installCodexConfig, removeTrust, uninstallCodexConfig } from "../../src/install/codex-config.js";
import { untrustedOurs } from "../../src/install/codex-trust.js";
import { fullPath, MARK, statements, stringsOf, TomlError } from "../../src/install/toml-edit.js";

const ENTRY = { command: "/usr/local/bin/node", args: ["/opt/mem/bin/mem.cjs", "mcp"], withMcp: true };
const MCP_BLOCK = `[mcp_servers.mem] ${MARK}\ncommand = "/usr/local/bin/node"\nargs = ["/opt/mem/bin/mem.cjs", "mcp"]\n`;

describe("statements: what a config.toml is cut into", () => {
  const cases: { name: string; text: string; want: [string, string][] }[] = [
    { name: "keys, a table, comments, blank lines", text: '# top\nmodel = "o3" # fast\n\n[features]\nweb_search = true\n', want: [["comment", ""], ["kv", "model"], ["blank", ""], ["table", "features"], ["kv", "features.web_search"]] },
    { name: "quoted and dotted keys, spaces around dots", text: '[projects."/home/ann/a b"]\ntrust_level = "trusted"\nfeatures . hooks = true\n', want: [["table", "projects./home/ann/a b"], ["kv", "projects./home/ann/a b.trust_level"], ["kv", "projects./home/ann/a b.features.hooks"]] },
    { name: "a multi-line string holding a [header] and a # is one statement", text: 'instructions = """\n[not a table]\n# not a comment\n"""\n[t]\n', want: [["kv", "instructions"], ["table", "t"]] },
    { name: "a multi-line array with comments inside", text: 'args = [\n  "a", # first\n  "b",\n]\nx = 1', want: [["kv", "args"], ["kv", "x"]] },
    { name: "arrays of tables", text: "[[profiles]]\nname = 'x'\n", want: [["array", "profiles"], ["kv", "profiles.name"]] },
    { name: "a date-time with a space, numbers with underscores, inline tables", text: "when = 1979-05-27 07:32:00Z\nn = 1_000\nt = { a = 1, b = [2] }\n", want: [["kv", "when"], ["kv", "n"], ["kv", "t"]] },
    { name: "CRLF line ends", text: "a = 1\r\n\r\n[b]\r\nc = 'd'\r\n", want: [["kv", "a"], ["blank", ""], ["table", "b"], ["kv", "b.c"]] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = statements(c.text);
      assert.deepEqual(got.map((s) => [s.kind, s.kind === "kv" || s.kind === "table" || s.kind === "array" ? fullPath(s).join(".") : ""]), c.want);
      assert.equal(got.map((s) => c.text.slice(s.start, s.end)).join(""), c.text, "the statements cover the text exactly");
    });
  }

  const bad: { name: string; text: string; line: number }[] = [
    { name: "an unterminated string", text: 'a = 1\nb = "oops\n', line: 2 },
    { name: "an unclosed array", text: "a = [1,\n2\n", line: 1 },
    { name: "a header not closed", text: "[features\nhooks = true\n", line: 1 },
    { name: "a line that is no statement", text: "model = 'o3'\njust words\n", line: 2 },
    { name: "text after a value", text: "a = 1 2\n", line: 1 },
    { name: "a key without a value", text: "a =\n", line: 1 },
  ];
  for (const c of bad) {
    test(`refused: ${c.name}`, () => {
      assert.throws(() => statements(c.text), (e: Error) => e instanceof TomlError && e.message.includes(`line ${c.line}`));
    });
  }
});

test("stringsOf reads a string or an array of strings, basic or literal", () => {
  assert.deepEqual(stringsOf('"a\\"b"'), ['a"b']);
  assert.deepEqual(stringsOf("['/x y', \"mcp\" ] "), ["/x y", "mcp"]);
  assert.deepEqual(stringsOf('["a,b", "c"]'), ["a,b", "c"]);
  assert.equal(stringsOf("[1, 2]"), undefined);
  assert.equal(stringsOf("true"), undefined);
});

describe("install then uninstall: config.toml back byte for byte", () => {
  const cases: { name: string; text: string; installed: string }[] = [
    { name: "no file yet (empty text)", text: "", installed: `[features] ${MARK}\nhooks = true ${MARK}\n\n${MCP_BLOCK}` },
    {
      name: "hand-written, comments everywhere, an existing [features] table in the middle",
      text: '# my codex\nmodel = "o3"   # fast one\n\n[features]   # toggles\nweb_search = true # yes\n\n# providers below\n[model_providers.x]\nname = "x"\n',
      installed: `# my codex\nmodel = "o3"   # fast one\n\n[features]   # toggles\nweb_search = true # yes\nhooks = true ${MARK}\n\n# providers below\n[model_providers.x]\nname = "x"\n\n${MCP_BLOCK}`,
    },
    { name: "no final newline", text: "model = 'o3'", installed: `model = 'o3'\n\n[features] ${MARK}\nhooks = true ${MARK}\n\n${MCP_BLOCK}` },
    { name: "[features] is the last table and has no final newline", text: "[features]\nweb_search = true", installed: `[features]\nweb_search = true\nhooks = true ${MARK}\n\n${MCP_BLOCK}` },
    { name: "dotted features keys at the root", text: "features.web_search = true\nmodel = 'o3'\n", installed: `features.web_search = true\nfeatures.hooks = true ${MARK}\nmodel = 'o3'\n\n${MCP_BLOCK}` },
    { name: "trailing blank lines kept", text: "a = 1\n\n\n", installed: `a = 1\n\n\n\n[features] ${MARK}\nhooks = true ${MARK}\n\n${MCP_BLOCK}` },
    { name: "hooks already on: only the server", text: "[features]\nhooks = true\n", installed: `[features]\nhooks = true\n\n${MCP_BLOCK}` },
    { name: "the older codex_hooks = true counts as on", text: "[features]\ncodex_hooks = true\n", installed: `[features]\ncodex_hooks = true\n\n${MCP_BLOCK}` },
    { name: "hooks = false: the user's choice is left (a warning says so)", text: "[features]\nhooks = false\n", installed: `[features]\nhooks = false\n\n${MCP_BLOCK}` },
    {
      name: "CRLF line ends",
      text: "model = 'o3'\r\n[features]\r\nx = 1\r\n",
      installed: `model = 'o3'\r\n[features]\r\nx = 1\r\nhooks = true ${MARK}\r\n\r\n${MCP_BLOCK.replace(/\n/g, "\r\n")}`,
    },
    { name: "another MCP server of the user's stays", text: '[mcp_servers.docs]\ncommand = "docs-mcp"\n', installed: `[mcp_servers.docs]\ncommand = "docs-mcp"\n\n[features] ${MARK}\nhooks = true ${MARK}\n\n${MCP_BLOCK}` },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const inst = installCodexConfig(c.text, ENTRY);
      assert.equal(inst.text, c.installed);
      assert.equal(installCodexConfig(inst.text, ENTRY).changed, false, "a second install changes nothing");
      const un = uninstallCodexConfig(inst.text);
      // A text without a final line end gets it back through the install record (assistant-files.ts); here it ends with one.
      assert.equal(un.text, c.text.endsWith("\n") || c.text === "" ? c.text : `${c.text}\n`);
      assert.equal(uninstallCodexConfig(un.text).changed, false, "a second uninstall changes nothing");
    });
  }
});

test("a moved mem: the server's table rewritten in place, the user's lines after it kept", () => {
  const text = `[features]\nhooks = true\n\n${MCP_BLOCK}\n[after]\nb = 2\n`;
  const moved = installCodexConfig(text, { ...ENTRY, command: "/new/node" });
  assert.equal(moved.mcp, "updated");
  assert.equal(moved.text, text.replace('command = "/usr/local/bin/node"', 'command = "/new/node"'));
  assert.equal(uninstallCodexConfig(moved.text).text, "[features]\nhooks = true\n\n[after]\nb = 2\n");
});

test("a server named mem of the user's is never touched: install says conflict (or registered when it runs mem), uninstall leaves it", () => {
  const theirs = '[mcp_servers.mem]\ncommand = "other-tool"\n';
  assert.equal(installCodexConfig(theirs, ENTRY).mcp, "conflict");
  assert.equal(uninstallCodexConfig(theirs).mcp, "not-ours");
  assert.equal(uninstallCodexConfig(theirs).text, theirs);
  const handMade = "[mcp_servers.mem]\ncommand = 'mem'\nargs = ['mcp']\n";
  assert.equal(installCodexConfig(handMade, ENTRY).mcp, "already-registered");
  assert.equal(codexConfigState(handMade).mcp, "runs-mem");
  // a marked header with keys of the user's elsewhere under that name is not ours alone
  const mixed = `${MCP_BLOCK}\n[mcp_servers.mem.env]\nTOKEN = "x"\n`;
  assert.equal(uninstallCodexConfig(mixed).text, mixed);
});

test("a hooks = true the user wrote stays at uninstall; only the marked line goes", () => {
  const text = "[features]\nhooks = true\n";
  assert.equal(uninstallCodexConfig(text).text, text);
  assert.equal(uninstallCodexConfig(text).features, "none");
});

test("forms mem will not guess at are refused: an inline features or mcp_servers table", () => {
  assert.throws(() => installCodexConfig("features = { web_search = true }\n", ENTRY), /inline table/);
  assert.throws(() => installCodexConfig('[features]\nhooks = true\n\n[x]\nmcp_servers = 1\n', ENTRY) && installCodexConfig("mcp_servers = { }\n", ENTRY), /inline table/);
});

test("--no-mcp: only the hooks feature", () => {
  const r = installCodexConfig("", { ...ENTRY, withMcp: false });
  assert.equal(r.text, `[features] ${MARK}\nhooks = true ${MARK}\n`);
  assert.equal(uninstallCodexConfig(r.text, false).text, "");
});

describe("Codex's hook trust: recorded as Codex computed it, taken out at uninstall", () => {
  const HOOKS = "/home/ann/.codex/hooks.json";
  const listed = {
    data: [
      {
        hooks: [
          { key: `${HOOKS}:stop:1:0`, handlerType: "command", command: "/usr/bin/node /opt/mem/bin/mem.cjs hook Stop --assistant codex", sourcePath: HOOKS, currentHash: `sha256:${"a".repeat(64)}`, trustStatus: "untrusted" },
          { key: `${HOOKS}:stop:0:0`, handlerType: "command", command: "~/bin/notify", sourcePath: HOOKS, currentHash: `sha256:${"b".repeat(64)}`, trustStatus: "untrusted" },
          { key: `${HOOKS}:session_start:0:0`, handlerType: "command", command: "/usr/bin/node /opt/mem/bin/mem.cjs hook SessionStart --assistant codex", sourcePath: HOOKS, currentHash: `sha256:${"c".repeat(64)}`, trustStatus: "trusted" },
          { key: "/elsewhere/hooks.json:stop:0:0", handlerType: "command", command: "/usr/bin/node /opt/mem/bin/mem.cjs hook Stop --assistant codex", sourcePath: "/elsewhere/hooks.json", currentHash: `sha256:${"d".repeat(64)}`, trustStatus: "untrusted" },
          { key: `${HOOKS}:stop:2:0`, handlerType: "command", command: "/usr/bin/node /opt/mem/bin/mem.cjs hook Stop --assistant codex", sourcePath: HOOKS, currentHash: "md5:x", trustStatus: "modified" },
        ],
      },
    ],
  };

  test("only mem's untrusted hooks of that hooks.json, with a well-formed hash", () => {
    assert.deepEqual(untrustedOurs(listed, HOOKS), [{ key: `${HOOKS}:stop:1:0`, hash: `sha256:${"a".repeat(64)}` }]);
    assert.deepEqual(untrustedOurs({ nope: 1 }, HOOKS), []);
  });

  test("addTrust appends marked tables; removeTrust gives the text back; a user's own table is never touched", () => {
    const text = "# mine\nmodel = 'o3'\n";
    const t = addTrust(text, [{ key: `${HOOKS}:stop:1:0`, hash: "sha256:1" }, { key: `${HOOKS}:post_tool_use:0:0`, hash: "sha256:2" }]);
    assert.equal(t.text, `${text}\n[hooks.state."${HOOKS}:stop:1:0"] ${MARK}\ntrusted_hash = "sha256:1"\n\n[hooks.state."${HOOKS}:post_tool_use:0:0"] ${MARK}\ntrusted_hash = "sha256:2"\n`);
    assert.equal(addTrust(t.text, [{ key: `${HOOKS}:stop:1:0`, hash: "sha256:3" }]).text.match(/trusted_hash = "sha256:3"/g)?.length, 1, "re-recorded in place of the old one");
    assert.equal(removeTrust(t.text, HOOKS), text);
    assert.equal(removeTrust(t.text, "/other/hooks.json"), t.text);
    const theirs = `[hooks.state."${HOOKS}:stop:0:0"]\ntrusted_hash = "sha256:9"\n`;
    assert.deepEqual(addTrust(theirs, [{ key: `${HOOKS}:stop:0:0`, hash: "sha256:1" }]), { text: theirs, added: [] });
    assert.equal(removeTrust(theirs, HOOKS), theirs);
  });
});
