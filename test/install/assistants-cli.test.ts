/**
 * `mem install --for codex|gemini|copilot` and `mem uninstall --for …` through the real CLI
 * (`node bin/mem.cjs`), in temp HOMEs and repos: the users' own files (comments, indentation,
 * hooks and servers of theirs) come back byte for byte, files and folders mem created go, a dry
 * run writes nothing, a file mem cannot parse or write refuses the whole run; `mem doctor` says
 * which assistants are wired and when their hooks last fired.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-install-assistants-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function sandbox() {
  const dir = join(tmp, `s${++n}`);
  const home = join(dir, "home");
  const repo = join(dir, "repo");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(repo, ".git"), { recursive: true });
  const env = { PATH: "/usr/bin:/bin", HOME: home, MEM_HOME: join(dir, "mem-home"), MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1", MEM_WATCH: "0" };
  const mem = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: repo, env, encoding: "utf8", input: "" });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const put = (file: string, text: string) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  return { dir, home, repo, env, mem, put };
}

/** Every file and folder under `root` (the data home left out): path → text, or "<dir>". */
function snapshot(root: string, skip: string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (skip.includes(p)) continue;
      if (lstatSync(p).isDirectory()) {
        out.set(p, "<dir>");
        walk(p);
      } else out.set(p, readFileSync(p, "utf8"));
    }
  };
  walk(root);
  return out;
}

const CODEX_TOML = "# Ann's Codex\nmodel = \"o3\"   # the fast one\n\n[features]   # toggles\nweb_search_request = true\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = [\n  \"--port\", # comment in an array\n  \"7\",\n]";
const CODEX_HOOKS = '{\n  "hooks": {\n    "Stop": [ { "hooks": [ { "type": "command", "command": "~/bin/notify" } ] } ]\n  }\n}\n';
const GEMINI = '{\n    "ui": { "theme": "GitHub" },\n    "mcpServers": {\n        "docs": { "command": "docs-mcp" }\n    },\n    "hooks": {\n        "AfterTool": [ { "matcher": "write_file", "hooks": [ { "type": "command", "command": "prettier -w" } ] } ]\n    }\n}';
const COPILOT_MCP = '{"mcpServers": {"github": {"type": "http", "url": "https://example.invalid/mcp"}}}\n';

test("user scope, all three with the user's own files: install wires each, uninstall gives every file back byte for byte", () => {
  const s = sandbox();
  s.put(join(s.home, ".codex", "config.toml"), CODEX_TOML);
  s.put(join(s.home, ".codex", "hooks.json"), CODEX_HOOKS);
  s.put(join(s.home, ".gemini", "settings.json"), GEMINI);
  s.put(join(s.home, ".copilot", "mcp-config.json"), COPILOT_MCP);
  const before = snapshot(s.home);

  const inst = s.mem("install", "--for", "codex,gemini", "--for", "copilot");
  assert.equal(inst.code, 0, inst.stderr);
  assert.match(inst.stdout, /Codex CLI \(user scope\)[\s\S]*Trust all and continue/);
  const toml = readFileSync(join(s.home, ".codex", "config.toml"), "utf8");
  assert.ok(toml.startsWith("# Ann's Codex\nmodel = \"o3\"   # the fast one\n\n[features]   # toggles\nweb_search_request = true\nhooks = true # added by mem install\n\n[mcp_servers.docs]"), toml);
  assert.match(toml, /\[mcp_servers\.mem\] # added by mem install\ncommand = ".+"\nargs = \[".+bin\/mem\.cjs", "mcp"\]\n$/);
  const codexHooks = JSON.parse(readFileSync(join(s.home, ".codex", "hooks.json"), "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  assert.deepEqual(Object.keys(codexHooks.hooks), ["Stop", "SessionStart", "UserPromptSubmit", "PostToolUse", "PreCompact"]);
  assert.equal(codexHooks.hooks.Stop![0]!.hooks[0]!.command, "~/bin/notify", "the user's hook first, as it was");
  const gemini = readFileSync(join(s.home, ".gemini", "settings.json"), "utf8");
  assert.ok(gemini.startsWith('{\n    "ui": { "theme": "GitHub" },\n    "mcpServers": {\n        "docs": { "command": "docs-mcp" },\n        "mem": {'), gemini);
  const copilotHooks = JSON.parse(readFileSync(join(s.home, ".copilot", "hooks", "mem.json"), "utf8")) as { version: number; hooks: Record<string, { bash: string }[]> };
  assert.equal(copilotHooks.version, 1);
  assert.match(copilotHooks.hooks.postToolUse![0]!.bash, /bin\/mem\.cjs hook postToolUse --assistant copilot$/);
  assert.deepEqual(Object.keys((JSON.parse(readFileSync(join(s.home, ".copilot", "mcp-config.json"), "utf8")) as { mcpServers: object }).mcpServers), ["github", "mem"]);

  const again = s.mem("install", "--for", "codex,gemini,copilot", "--json");
  assert.equal(again.code, 0, again.stderr);
  const j = JSON.parse(again.stdout) as { assistants: { assistant: string; changed: boolean; files: { status: string }[] }[] };
  assert.deepEqual(j.assistants.map((a) => [a.assistant, a.changed, a.files.map((f) => f.status)]), [["codex", false, ["already-installed", "already-installed"]], ["gemini", false, ["already-installed"]], ["copilot", false, ["already-installed", "already-installed"]]]);

  const un = s.mem("uninstall", "--for", "codex,gemini,copilot");
  assert.equal(un.code, 0, un.stderr);
  assert.deepEqual(snapshot(s.home), before, "every file as it was; ~/.copilot/hooks/ (mem's) gone");
});

test("project scope from nothing: uninstall removes the files and the folders mem made, not a folder of the team's", () => {
  const s = sandbox();
  s.put(join(s.repo, ".github", "workflows", "ci.yml"), "on: push\n");
  const before = snapshot(s.repo);
  const inst = s.mem("install", "--for", "codex,gemini,copilot", "--scope", "project");
  assert.equal(inst.code, 0, inst.stderr);
  for (const f of [".codex/hooks.json", ".codex/config.toml", ".gemini/settings.json", ".github/hooks/mem.json", ".github/mcp.json"]) assert.ok(existsSync(join(s.repo, f)), f);
  const un = s.mem("uninstall", "--for", "codex,gemini,copilot", "--scope", "project");
  assert.equal(un.code, 0, un.stderr);
  assert.deepEqual(snapshot(s.repo), before);
});

test("--dry-run prints the diffs and writes nothing", () => {
  const s = sandbox();
  s.put(join(s.home, ".codex", "config.toml"), CODEX_TOML);
  const home = snapshot(s.home);
  const r = s.mem("install", "--for", "codex,gemini,copilot", "--dry-run");
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\+hooks = true # added by mem install/);
  assert.match(r.stdout, /\+\+\+ .*\.gemini\/settings\.json/);
  assert.match(r.stdout, /dry run, nothing written: would write mem's hooks in .*\.copilot\/hooks\/mem\.json \(new file\)/);
  assert.deepEqual(snapshot(s.home), home);
  assert.equal(existsSync(join(s.dir, "mem-home", "backups")), false, "no backup either");
});

test("a file mem cannot parse refuses the whole run: a clear error, nothing written anywhere", () => {
  const cases: { name: string; file: string; text: string; why: RegExp }[] = [
    { name: "config.toml that is not TOML", file: ".codex/config.toml", text: 'model = "o3\n', why: /config\.toml: not valid TOML: an unterminated string \(line 1\)/ },
    { name: "settings.json that is not JSON", file: ".gemini/settings.json", text: '{ "ui": ', why: /settings\.json: not valid JSON/ },
    { name: "mcp-config.json whose mcpServers is a list", file: ".copilot/mcp-config.json", text: '{"mcpServers": []}', why: /"mcpServers" must be an object/ },
  ];
  for (const c of cases) {
    const s = sandbox();
    s.put(join(s.home, c.file), c.text);
    const before = snapshot(s.home);
    const r = s.mem("install", "--for", "gemini,codex,copilot");
    assert.equal(r.code, 1, c.name);
    assert.match(r.stderr, c.why, c.name);
    assert.match(r.stderr, /nothing was written/, c.name);
    assert.deepEqual(snapshot(s.home), before, c.name);
  }
});

test("a read-only file, or a symlink to nowhere, is refused; a symlink to a file is written through", () => {
  const s = sandbox();
  s.put(join(s.home, ".gemini", "settings.json"), "{}\n");
  chmodSync(join(s.home, ".gemini", "settings.json"), 0o444);
  const ro = s.mem("install", "--for", "gemini,codex");
  assert.equal(ro.code, 1);
  assert.match(ro.stderr, /settings\.json: it is read-only/);
  assert.equal(existsSync(join(s.home, ".codex")), false, "Codex's files were not written either");

  const t = sandbox();
  mkdirSync(join(t.home, ".codex"), { recursive: true });
  symlinkSync(join(t.dir, "nowhere.toml"), join(t.home, ".codex", "config.toml"));
  const dangling = t.mem("install", "--for", "codex");
  assert.equal(dangling.code, 1);
  assert.match(dangling.stderr, /config\.toml: it is a symlink to .*nowhere\.toml, which does not exist/);

  const u = sandbox();
  u.put(join(u.dir, "dotfiles", "settings.json"), '{"ui": {}}\n');
  mkdirSync(join(u.home, ".gemini"), { recursive: true });
  symlinkSync(join(u.dir, "dotfiles", "settings.json"), join(u.home, ".gemini", "settings.json"));
  assert.equal(u.mem("install", "--for", "gemini").code, 0);
  assert.ok(lstatSync(join(u.home, ".gemini", "settings.json")).isSymbolicLink(), "the link stays a link");
  assert.match(readFileSync(join(u.dir, "dotfiles", "settings.json"), "utf8"), /--assistant gemini/);
  assert.equal(u.mem("uninstall", "--for", "gemini").code, 0);
  assert.equal(readFileSync(join(u.dir, "dotfiles", "settings.json"), "utf8"), '{"ui": {}}\n');
});

test("usage: --scope local is Claude Code's only; an unknown assistant is named", () => {
  const s = sandbox();
  const local = s.mem("install", "--for", "codex", "--scope", "local");
  assert.equal(local.code, 2);
  assert.match(local.stderr, /--scope local is Claude Code's only; codex has user and project scope/);
  const bad = s.mem("install", "--for", "cursor");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown assistant "cursor"/);
  assert.equal(existsSync(join(s.home, ".claude")), false);
});

test("--for all installs for the assistants this machine has (their folders here), and --for claude is today's install", () => {
  const s = sandbox();
  mkdirSync(join(s.home, ".gemini"));
  const r = s.mem("install", "--for", "all", "--json", "--no-mcp");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual((JSON.parse(r.stdout) as { assistants: { assistant: string }[] }).assistants.map((a) => a.assistant), ["gemini"]);
  const c = s.mem("install", "--for", "claude", "--no-mcp", "--json");
  assert.equal(c.code, 0, c.stderr);
  assert.equal((JSON.parse(c.stdout) as { assistants: { assistant: string; status: string }[] }).assistants[0]!.status, "installed");
  assert.ok(existsSync(join(s.home, ".claude", "settings.json")));
});

test("mem doctor: which assistants are wired, and when a Codex hook last brought an event", () => {
  const s = sandbox();
  assert.equal(s.mem("install", "--for", "codex,gemini", "--scope", "project").code, 0);
  const payload = JSON.stringify({ session_id: "s1", cwd: s.repo, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: "a", tool_use_id: "call_1" });
  const hook = spawnSync(process.execPath, [BIN, "hook", "PostToolUse", "--assistant", "codex"], { cwd: s.repo, env: s.env, input: payload, encoding: "utf8" });
  assert.equal(hook.status, 0, hook.stderr);
  const r = s.mem("doctor", "--json");
  const j = JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string }[]; assistants: { assistant: string; scope: string; events: string[]; mcp: string | null; lastEvent: string | null }[] };
  assert.deepEqual(j.assistants.map((a) => [a.assistant, a.scope, a.events.length, a.mcp !== null, a.lastEvent !== null]), [["codex", "project", 5, true, true], ["gemini", "project", 6, true, false]]);
  const codex = j.checks.find((c) => c.name === "assistant codex (project)")!;
  assert.equal(codex.status, "ok");
  assert.match(codex.detail, /hooks in .*\.codex\/hooks\.json \(5 events\); MCP server in .*\.codex\/config\.toml; a hook last fired \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  assert.match(j.checks.find((c) => c.name === "assistants")!.detail, /wired: Codex CLI \(project\), last event .*; Gemini CLI \(project\); not wired: Claude Code, Copilot CLI/);
  // a half-wired one is a warning with the fix
  writeFileSync(join(s.repo, ".codex", "config.toml"), "# emptied by hand\n");
  const half = JSON.parse(s.mem("doctor", "--json").stdout) as { checks: { name: string; status: string; detail: string; fix?: string }[] };
  const c = half.checks.find((x) => x.name === "assistant codex (project)")!;
  assert.deepEqual([c.status, c.fix], ["warn", "`mem install --for codex --scope project`"]);
  assert.match(c.detail, /no MCP server, config\.toml does not turn hooks on/);
});
