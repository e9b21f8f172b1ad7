import { createHash } from "node:crypto";
/**
 * `mem install` / `mem uninstall` register and remove mem's MCP server, as spawned commands in
 * temp HOME and project directories: where each scope writes (as `claude mcp add` does), a
 * byte-for-byte restore, an idempotent second install, a dry run that writes nothing,
 * --no-mcp, --prompt-transport mcp, and files that must not be touched.
 */
import { after, describe, test } from "node:test";
import { backupBase } from "../../src/install/backup.js";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-mcp-install-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function sandbox() {
  const dir = join(tmp, `s${++n}`);
  const home = join(dir, "home");
  const repo = join(dir, "repo");
  const sub = join(repo, "pkg", "lib");
  mkdirSync(home, { recursive: true });
  mkdirSync(sub, { recursive: true });
  mkdirSync(join(repo, ".git"));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, MEM_HOME: join(dir, "mem-home") };
  return { dir, home, repo, sub, env };
}

function mem(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
const ENTRY = { type: "stdio", command: process.execPath, args: [BIN, "mcp"], env: {} };
/** The parts of a Claude Code JSON file (~/.claude.json, settings.json) that these tests read. */
type ClaudeJson = { mcpServers: Record<string, unknown>; hooks: Record<string, { hooks: { type: string }[] }[]>; [key: string]: unknown };
const read = (f: string) => JSON.parse(readFileSync(f, "utf8")) as ClaudeJson;
const backups = (dir: string, name: string) => readdirSync(dir).filter((f) => f.startsWith(`${name}.bak-`));

describe("mem install: the MCP server", () => {
  test("user scope: ~/.claude.json's mcpServers.mem beside what Claude Code keeps there; a second install changes nothing; uninstall gives back the file byte for byte", async () => {
    const box = sandbox();
    const file = join(box.home, ".claude.json");
    // Claude Code's own state file, as it writes it (two-space JSON, other servers, projects).
    const original = `${JSON.stringify({ numStartups: 12, mcpServers: { github: { type: "http", url: "https://api.githubcopilot.com/mcp/" } }, projects: { [box.repo]: { allowedTools: [], hasTrustDialogAccepted: true } }, userID: "abc" }, null, 2)}\n`;
    writeFileSync(file, original, { mode: 0o600 });
    const r1 = await mem(["install"], box.sub, box.env);
    assert.equal(r1.code, 0, r1.stderr);
    assert.match(r1.stdout, new RegExp(`\nregistered mem's MCP server in ${file} \\(user scope\\)\n  runs: ${process.execPath} ${BIN} mcp `));
    const installed = read(file);
    assert.deepEqual(Object.keys(installed.mcpServers), ["github", "mem"]);
    assert.deepEqual(installed.mcpServers.mem, ENTRY);
    assert.deepEqual({ ...installed, mcpServers: undefined }, { ...JSON.parse(original), mcpServers: undefined }, "nothing else changed");
    const kept = dirname(backupBase(file, undefined, String(box.env.MEM_HOME)));
    assert.ok(kept.startsWith(join(String(box.env.MEM_HOME), "backups", "install")), kept);
    assert.deepEqual(backups(kept, ".claude.json").map((b) => readFileSync(join(kept, b), "utf8")), [original], "the previous file backed up, in the data home");
    assert.deepEqual(backups(box.home, ".claude.json"), [], "no backup in the home directory");
    const afterInstall = readFileSync(file, "utf8");

    const r2 = await mem(["install", "--json"], box.sub, box.env);
    assert.equal(r2.code, 0, r2.stderr);
    assert.deepEqual((JSON.parse(r2.stdout) as { mcp: unknown }).mcp, { file, changed: false, backup: null, status: "already-registered" });
    assert.equal(readFileSync(file, "utf8"), afterInstall);
    assert.equal(backups(kept, ".claude.json").length, 1, "no backup when nothing changes");

    const dry = await mem(["uninstall", "--dry-run"], box.sub, box.env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /\n- {4}"mem": \{\n/);
    assert.match(dry.stdout, new RegExp(`dry run, nothing written: would remove mem's MCP server from ${file} \\(user scope\\)`));
    assert.equal(readFileSync(file, "utf8"), afterInstall, "a dry run writes nothing");

    const r3 = await mem(["uninstall"], box.sub, box.env);
    assert.equal(r3.code, 0, r3.stderr);
    assert.match(r3.stdout, new RegExp(`removed mem's MCP server from ${file} \\(user scope\\)`));
    assert.equal(readFileSync(file, "utf8"), original, "byte for byte");
  });

  test("$CLAUDE_CONFIG_DIR/.claude.json when CLAUDE_CONFIG_DIR is set (what Claude Code reads then); local scope under projects.<git top level>", async () => {
    const box = sandbox();
    const cfg = join(box.dir, "claude-config");
    const c = await mem(["install", "--json"], box.sub, { ...box.env, CLAUDE_CONFIG_DIR: cfg });
    assert.equal(c.code, 0, c.stderr);
    assert.equal((JSON.parse(c.stdout) as { mcp: { file: string } }).mcp.file, join(cfg, ".claude.json"));
    assert.deepEqual(read(join(cfg, ".claude.json")).mcpServers.mem, ENTRY);
    assert.equal(existsSync(join(box.home, ".claude.json")), false);

    const l = await mem(["install", "--scope", "local"], box.sub, box.env);
    assert.equal(l.code, 0, l.stderr);
    const state = read(join(box.home, ".claude.json"));
    assert.deepEqual(state, { projects: { [box.repo]: { mcpServers: { mem: ENTRY } } } });
    const u = await mem(["uninstall", "--scope", "local"], box.sub, box.env);
    assert.equal(u.code, 0, u.stderr);
    assert.equal(existsSync(join(box.home, ".claude.json")), false, "the file install created, left holding nothing, is gone again");
  });

  test("user scope: a ~/.claude.json and settings.json install created are removed by uninstall; a user's own empty `\"hooks\": {}` stays byte for byte", async () => {
    const box = sandbox();
    const claudeJson = join(box.home, ".claude.json");
    const i = await mem(["install"], box.sub, box.env);
    assert.equal(i.code, 0, i.stderr);
    assert.ok(existsSync(claudeJson));
    const u = await mem(["uninstall"], box.sub, box.env);
    assert.equal(u.code, 0, u.stderr);
    assert.equal(existsSync(claudeJson), false, "not left as {}");
    assert.equal(existsSync(join(box.home, ".claude", "settings.json")), false);

    const other = sandbox();
    const settings = join(other.home, ".claude", "settings.json");
    mkdirSync(dirname(settings), { recursive: true });
    for (const original of ['{\n  "model": "opus",\n  "hooks": {}\n}\n', '{ "hooks": {} }']) {
      writeFileSync(settings, original);
      const a = await mem(["install"], other.sub, other.env);
      assert.equal(a.code, 0, a.stderr);
      assert.ok(Object.keys(read(settings).hooks).length > 0, "mem's hooks went into the user's hooks");
      const b = await mem(["uninstall"], other.sub, other.env);
      assert.equal(b.code, 0, b.stderr);
      assert.equal(readFileSync(settings, "utf8"), original, "the empty hooks object is the user's: kept");
    }
    // Without an empty hooks object before, uninstall still takes away the one install added.
    writeFileSync(settings, '{\n  "model": "opus"\n}\n');
    assert.equal((await mem(["install"], other.sub, other.env)).code, 0);
    assert.equal((await mem(["uninstall"], other.sub, other.env)).code, 0);
    assert.equal(readFileSync(settings, "utf8"), '{\n  "model": "opus"\n}\n');
  });

  test("project scope: <git top level>/.mcp.json; a dry run writes nothing; uninstall deletes the file it alone filled", async () => {
    const box = sandbox();
    const file = join(box.repo, ".mcp.json");
    const dry = await mem(["install", "--scope", "project", "--dry-run"], box.sub, box.env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, new RegExp(`--- /dev/null\n\\+\\+\\+ ${file}\n`));
    assert.match(dry.stderr, /warning: \.mcp\.json is usually committed/);
    assert.deepEqual(readdirSync(box.repo), [".git", "pkg"], "nothing written");
    const r = await mem(["install", "--scope", "project"], box.sub, box.env);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(read(file), { mcpServers: { mem: ENTRY } });
    const u = await mem(["uninstall", "--scope", "project"], box.sub, box.env);
    assert.equal(u.code, 0, u.stderr);
    assert.equal(existsSync(file), false);
    assert.deepEqual(readdirSync(box.repo), [".git", "pkg"], "the repository as it was: no backup in it");
    const kept = join(String(box.env.MEM_HOME), "backups", "install", `repo-${createHash("sha256").update(box.repo).digest("hex").slice(0, 8)}`);
    assert.deepEqual(backups(kept, ".mcp.json").map((b) => JSON.parse(readFileSync(join(kept, b), "utf8"))), [{ mcpServers: { mem: ENTRY } }], "a backup of what was deleted, in the data home");
    // A .mcp.json with other servers keeps them, exactly.
    const shared = `{\n    "mcpServers": {\n        "db": { "command": "db-mcp" }\n    }\n}\n`;
    writeFileSync(file, shared);
    await mem(["install", "--scope", "project"], box.sub, box.env);
    assert.deepEqual(Object.keys(read(file).mcpServers), ["db", "mem"]);
    await mem(["uninstall", "--scope", "project"], box.sub, box.env);
    assert.equal(JSON.stringify(read(file)), JSON.stringify(JSON.parse(shared)));
  });

  test("--no-mcp leaves the MCP files alone; --prompt-transport mcp needs the server; a server of someone else's named mem is kept", async () => {
    const box = sandbox();
    const r = await mem(["install", "--no-mcp", "--json"], box.sub, box.env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { mcp: unknown }).mcp, null);
    assert.equal(existsSync(join(box.home, ".claude.json")), false);
    assert.ok(existsSync(join(box.home, ".claude", "settings.json")), "the hooks are installed");
    const bad = await mem(["install", "--prompt-transport", "mcp", "--no-mcp"], box.sub, box.env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--prompt-transport mcp calls mem's MCP server: leave out --no-mcp/);
    const wrong = await mem(["install", "--prompt-transport", "http"], box.sub, box.env);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--prompt-transport must be one of command, mcp, got "http"/);

    const theirs = { mcpServers: { mem: { command: "python", args: ["-m", "other_memory"] } } };
    writeFileSync(join(box.home, ".claude.json"), JSON.stringify(theirs));
    const c = await mem(["install"], box.sub, box.env);
    assert.equal(c.code, 0, c.stderr);
    assert.match(c.stderr, /registers another MCP server named "mem" .*mem left it as it is/);
    assert.match(c.stdout, /not registered: another MCP server is named "mem" in/);
    assert.deepEqual(read(join(box.home, ".claude.json")), theirs);
    const u = await mem(["uninstall"], box.sub, box.env);
    assert.equal(u.code, 0, u.stderr);
    assert.deepEqual(read(join(box.home, ".claude.json")), theirs);
  });

  test("--prompt-transport mcp: UserPromptSubmit becomes an mcp_tool call to mem/prompt_context; installing without it switches back in place", async () => {
    const box = sandbox();
    const settings = join(box.home, ".claude", "settings.json");
    const r = await mem(["install", "--prompt-transport", "mcp"], box.sub, box.env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /except UserPromptSubmit: an mcp_tool hook, the tool prompt_context of the MCP server "mem"/);
    const prompt = read(settings).hooks.UserPromptSubmit;
    assert.deepEqual(prompt, [{ hooks: [{ _managed_by: "mem", type: "mcp_tool", server: "mem", tool: "prompt_context", input: { prompt: "${prompt}", cwd: "${cwd}", session_id: "${session_id}" }, timeout: 3 }] }]);
    assert.equal(read(settings).hooks.Stop![0]!.hooks[0]!.type, "command");
    const back = await mem(["install"], box.sub, box.env);
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stdout, /^updated mem hooks/);
    assert.deepEqual(read(settings).hooks.UserPromptSubmit, [{ hooks: [{ _managed_by: "mem", type: "command", command: "/bin/sh", args: [fileURLToPath(new URL("../../../bin/mem-hook.sh", import.meta.url)), process.execPath, BIN, "hook", "user-prompt-submit"], timeout: 5 }] }]);
  });

  test("a ~/.claude.json that is not valid JSON: exit 1 and nothing written anywhere, the hooks' file included", async () => {
    const box = sandbox();
    const file = join(box.home, ".claude.json");
    writeFileSync(file, '{"mcpServers": {');
    const r = await mem(["install"], box.sub, box.env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^mem install: refusing to change ${file}: not valid JSON`));
    assert.equal(readFileSync(file, "utf8"), '{"mcpServers": {');
    assert.equal(existsSync(join(box.home, ".claude")), false);
    writeFileSync(file, '{"mcpServers": []}');
    const arr = await mem(["install", "--scope", "user"], box.sub, box.env);
    assert.equal(arr.code, 1);
    assert.match(arr.stderr, /"mcpServers" must be an object, not an array; nothing was written/);
  });
});
