import { createHash } from "node:crypto";
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const SCRIPT = fileURLToPath(new URL("../../../bin/mem-hook.sh", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-install-cli-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop", "PreCompact", "SessionEnd", "Notification"];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let n = 0;
/** A temp HOME, MEM_HOME and git repo (with a subdirectory to run from). */
function sandbox() {
  const dir = join(tmp, `c${++n}`);
  const home = join(dir, "home");
  const memHome = join(dir, "mem-home");
  const repo = join(dir, "repo");
  const sub = join(repo, "src", "lib");
  mkdirSync(home, { recursive: true });
  mkdirSync(sub, { recursive: true });
  try {
    execFileSync("git", ["init", "-q", repo], { stdio: "ignore" });
  } catch {
    mkdirSync(join(repo, ".git"), { recursive: true }); // no git: a .git directory marks the top level all the same
  }
  return { dir, home, memHome, repo, sub };
}

/** The parent's environment minus anything that steers mem, Claude Code paths or how the hooks are installed, with a temp HOME and MEM_HOME. */
function env(box: { home: string; memHome: string }, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("MEM_") || k.startsWith("CLAUDE") || k === "NODE_TEST_CONTEXT" || k === "NODE_OPTIONS" || k === "NODE_EXTRA_CA_CERTS" || k === "USERPROFILE") continue;
    out[k] = v;
  }
  // git must not read the developer's global config or excludes
  for (const k of Object.keys(out)) if (k.startsWith("GIT_") || k === "XDG_CONFIG_HOME") delete out[k];
  return { ...out, HOME: box.home, MEM_HOME: box.memHome, XDG_CONFIG_HOME: join(box.home, ".config"), GIT_CONFIG_NOSYSTEM: "1", ...extra };
}

function mem(args: string[], cwd: string, e: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: e, stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => (signal ? reject(new Error(`killed by ${signal}: ${stderr}`)) : resolve({ code, stdout, stderr })));
  });
}

const show = (r: Run) => `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
const json = (r: Run) => {
  const lines = r.stdout.split("\n").filter((l) => l.trim() !== "");
  assert.equal(lines.length, 1, show(r));
  return JSON.parse(lines[0]!) as Record<string, unknown>;
};

describe("mem install / uninstall (CLI)", () => {
  test("--scope project --dry-run in a subdirectory of a git repo: the diff for <top>/.claude/settings.json, nothing written", async () => {
    const box = sandbox();
    const r = await mem(["install", "--scope", "project", "--dry-run"], box.sub, env(box));
    assert.equal(r.code, 0, show(r));
    const file = join(box.repo, ".claude", "settings.json");
    assert.match(r.stdout, new RegExp(`^--- /dev/null\n\\+\\+\\+ ${file}\n@@ -0,0 \\+1,\\d+ @@\n\\+\\{\n`));
    assert.ok(r.stdout.includes(`+            "command": ${JSON.stringify(process.execPath)},`), r.stdout);
    assert.ok(r.stdout.includes(`+              ${JSON.stringify(BIN)},`), r.stdout);
    assert.match(r.stdout, new RegExp(`dry run, nothing written: would install mem hooks in ${file} \\(project scope\\) \\(new file\\)\n`));
    assert.match(r.stderr, /^warning: project settings are usually committed/m);
    assert.equal(existsSync(join(box.repo, ".claude")), false);
    assert.equal(existsSync(join(box.home, ".claude")), false);

    const j = await mem(["install", "--scope", "project", "--dry-run", "--json"], box.sub, env(box));
    assert.equal(j.code, 0, show(j));
    const out = json(j);
    assert.deepEqual(Object.keys(out), ["scope", "file", "changed", "backup", "events", "status", "dryRun", "warnings", "diff", "mcp", "promptTransport"]);
    assert.deepEqual({ ...out, warnings: undefined, diff: undefined, mcp: undefined }, { scope: "project", file, changed: true, backup: null, events: EVENTS, status: "installed", dryRun: true, warnings: undefined, diff: undefined, mcp: undefined, promptTransport: "command" });
    const mcp = out.mcp as { file: string; changed: boolean; status: string; diff: string };
    assert.deepEqual([mcp.file, mcp.changed, mcp.status], [join(box.repo, ".mcp.json"), true, "registered"]);
    assert.match(mcp.diff, /^--- \/dev\/null\n/);
    assert.equal(existsSync(join(box.repo, ".claude")), false);
    assert.equal(existsSync(join(box.repo, ".mcp.json")), false, "nothing written");
  });

  test("install, install again, uninstall: --json reports; the second run is 'already installed'; a backup each time something changes", async () => {
    const box = sandbox();
    const file = join(box.repo, ".claude", "settings.json");
    const original = `${JSON.stringify({ permissions: { allow: ["Bash(npm test)"] }, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }] }] } }, null, 2)}\n`;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, original);

    const r1 = await mem(["install", "--scope", "project", "--json"], box.sub, env(box));
    assert.equal(r1.code, 0, show(r1));
    const j1 = json(r1);
    assert.equal(j1.file, file);
    assert.equal(j1.changed, true);
    assert.equal(j1.status, "installed");
    assert.deepEqual(j1.events, EVENTS);
    const kept = join(box.memHome, "backups", "install", `repo-${createHash("sha256").update(box.repo).digest("hex").slice(0, 8)}`, ".claude");
    assert.match(String(j1.backup), new RegExp(`^${join(kept, "settings.json")}\\.bak-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z$`), "a project's backup goes to the data home, not the repository");
    assert.equal(readFileSync(String(j1.backup), "utf8"), original);
    const installed = JSON.parse(readFileSync(file, "utf8")) as { hooks: Record<string, { hooks: { command: string; args: string[] }[] }[]> };
    assert.deepEqual(Object.keys(installed.hooks), ["PreToolUse", ...EVENTS.filter((e) => e !== "PreToolUse")]);
    const stop = installed.hooks.Stop![0]!.hooks[0]!;
    // A hot hook through bin/mem-hook.sh (its curl client), the others straight to node.
    assert.equal(stop.command, "/bin/sh");
    assert.deepEqual(stop.args, [SCRIPT, process.execPath, BIN, "hook", "stop"]);
    const start = installed.hooks.SessionStart![0]!.hooks[0]!;
    assert.deepEqual([start.command, start.args], [process.execPath, [BIN, "hook", "session-start"]]);
    const afterInstall = readFileSync(file, "utf8");

    const r2 = await mem(["install", "--scope", "project"], box.sub, env(box));
    assert.equal(r2.code, 0, show(r2));
    assert.equal(r2.stdout, `mem hooks already installed in ${file} (project scope); nothing changed\nmem's MCP server already registered in ${join(box.repo, ".mcp.json")} (project scope); nothing changed\n`);
    assert.equal(readFileSync(file, "utf8"), afterInstall);
    assert.equal(readdirSync(kept).filter((f) => f.includes(".bak-")).length, 1);
    assert.deepEqual(readdirSync(dirname(file)), ["settings.json"], "no backup in the repository");

    const r3 = await mem(["uninstall", "--scope", "project"], box.sub, env(box));
    assert.equal(r3.code, 0, show(r3));
    assert.match(r3.stdout, new RegExp(`^removed mem hooks from ${file} \\(project scope\\)\n  events: `));
    assert.match(r3.stdout, /\n {2}backup of the previous file: .*\.bak-/);
    assert.equal(readFileSync(file, "utf8"), original);

    const r4 = await mem(["uninstall", "--scope", "project", "--json"], box.sub, env(box));
    assert.equal(r4.code, 0, show(r4));
    assert.deepEqual({ ...json(r4), file: undefined }, { scope: "project", file: undefined, changed: false, backup: null, events: [], status: "not-installed", removed: false, dryRun: false, warnings: [], mcp: { file: join(box.repo, ".mcp.json"), changed: false, backup: null, status: "not-registered" } });
  });

  test("install then uninstall in project scope leaves the repository as it found it: no backups, no empty settings.json, no .claude folder", async () => {
    const box = sandbox();
    const before = readdirSync(box.repo).sort();
    const i = await mem(["install", "--scope", "project"], box.sub, env(box));
    assert.equal(i.code, 0, show(i));
    assert.ok(existsSync(join(box.repo, ".claude", "settings.json")) && existsSync(join(box.repo, ".mcp.json")));
    const dry = await mem(["uninstall", "--scope", "project", "--dry-run"], box.sub, env(box));
    assert.match(dry.stdout, /\+\+\+ \/dev\/null\n[\s\S]*the file held nothing else: it would be removed\n/);
    assert.ok(existsSync(join(box.repo, ".claude", "settings.json")), "a dry run removes nothing");
    const u = await mem(["uninstall", "--scope", "project", "--json"], box.sub, env(box));
    assert.equal(u.code, 0, show(u));
    const j = json(u);
    assert.equal(j.removed, true);
    assert.deepEqual(readdirSync(box.repo).sort(), before, "the repository as it was");
    assert.ok(String(j.backup).startsWith(join(box.memHome, "backups", "install")), String(j.backup));
    assert.match(readFileSync(String(j.backup), "utf8"), /"UserPromptSubmit"/, "the backup holds what was removed");
    const plain = await mem(["install", "--scope", "project"], box.sub, env(box));
    assert.equal(plain.code, 0, show(plain));
    const u2 = await mem(["uninstall", "--scope", "project"], box.sub, env(box));
    assert.match(u2.stdout, /\n {2}the file held nothing else: removed\n/);
    // A .claude folder holding anything else stays, and a settings file with other keys is kept.
    mkdirSync(join(box.repo, ".claude", "agents"), { recursive: true });
    writeFileSync(join(box.repo, ".claude", "settings.json"), '{"model": "opus"}\n');
    await mem(["install", "--scope", "project"], box.sub, env(box));
    const u3 = await mem(["uninstall", "--scope", "project", "--json"], box.sub, env(box));
    assert.equal(json(u3).removed, false);
    assert.deepEqual(JSON.parse(readFileSync(join(box.repo, ".claude", "settings.json"), "utf8")), { model: "opus" });
    assert.deepEqual(readdirSync(join(box.repo, ".claude")).sort(), ["agents", "settings.json"]);
  });

  test("a settings file or .mcp.json the user had before install stays after uninstall, even holding nothing", async () => {
    const box = sandbox();
    const settings = join(box.repo, ".claude", "settings.json");
    const mcpFile = join(box.repo, ".mcp.json");
    mkdirSync(dirname(settings), { recursive: true });
    writeFileSync(settings, "{}\n");
    writeFileSync(mcpFile, '{"mcpServers": {}}\n');
    assert.equal((await mem(["install", "--scope", "project"], box.sub, env(box))).code, 0);
    const u = await mem(["uninstall", "--scope", "project", "--json"], box.sub, env(box));
    assert.equal(u.code, 0, show(u));
    assert.equal(json(u).removed, false);
    assert.deepEqual(JSON.parse(readFileSync(settings, "utf8")), {}, "the committed {} stays");
    assert.ok(existsSync(mcpFile), "the .mcp.json that was there stays");
    assert.equal(readFileSync(mcpFile, "utf8"), '{"mcpServers": {}}\n', "the .mcp.json goes back as it was, its empty mcpServers kept");
    assert.match(u.stderr, new RegExp(`warning: ${settings} now holds nothing \\(\\{\\}\\); it stays, as mem's install did not create it`));
    assert.doesNotMatch(u.stderr, new RegExp(`${mcpFile} now holds nothing`), "the .mcp.json holds what it held");

    // Files install created, later turned into symlinks by a dotfile manager: never unlinked, their targets change.
    rmSync(mcpFile);
    rmSync(settings);
    assert.equal((await mem(["install", "--scope", "project"], box.sub, env(box))).code, 0, "creates both, recorded");
    for (const [file, name] of [[mcpFile, "mcp"], [settings, "settings"]] as const) {
      const target = join(box.dir, `dotfiles-${name}.json`);
      writeFileSync(target, readFileSync(file));
      rmSync(file);
      symlinkSync(target, file);
    }
    const unlinked = await mem(["uninstall", "--scope", "project"], box.sub, env(box));
    assert.equal(unlinked.code, 0, show(unlinked));
    assert.ok(lstatSync(mcpFile).isSymbolicLink() && lstatSync(settings).isSymbolicLink(), "the links stay");
    assert.doesNotMatch(readFileSync(join(box.dir, "dotfiles-mcp.json"), "utf8"), /"mem"/, "mem's server is gone from the target");
    assert.deepEqual(JSON.parse(readFileSync(join(box.dir, "dotfiles-settings.json"), "utf8")), {}, "the hooks are gone from the target");
    assert.match(unlinked.stderr, /now holds nothing \(\{\}\); it stays, as it is a symlink/);

    // A symlink to nothing yet: install refuses rather than replace the link with a file.
    rmSync(settings);
    symlinkSync(join(box.dir, "dotfiles-missing.json"), settings);
    const refused = await mem(["install", "--scope", "project", "--no-mcp"], box.sub, env(box));
    assert.equal(refused.code, 1, show(refused));
    assert.match(refused.stderr, /refusing to change .*settings\.json: it is a symlink to .*dotfiles-missing\.json, which does not exist; create that file/);
    assert.ok(lstatSync(settings).isSymbolicLink(), "the link left as it was");
  });

  test("user scope: $HOME/.claude/settings.json, or $CLAUDE_CONFIG_DIR/settings.json when set; local scope warns about .gitignore", async () => {
    const box = sandbox();
    const r = await mem(["install"], box.sub, env(box));
    assert.equal(r.code, 0, show(r));
    const file = join(box.home, ".claude", "settings.json");
    assert.match(r.stdout, new RegExp(`^installed mem hooks in ${file} \\(user scope\\) \\(new file\\)\n  events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, Stop, SubagentStop, PreCompact, SessionEnd, Notification\n  UserPromptSubmit, PreToolUse, PostToolUse\\(Failure\\), Stop, SubagentStop and Notification run: /bin/sh \\S+mem-hook\\.sh \\S+ \\S+ hook <event>\n.*curl.*\n  the others run: \\S+ \\S+ hook <event>\n`));
    assert.ok(existsSync(file));

    const cfg = join(box.dir, "claude-config");
    const c = await mem(["install", "--json"], box.sub, env(box, { CLAUDE_CONFIG_DIR: cfg }));
    assert.equal(c.code, 0, show(c));
    assert.equal(json(c).file, join(cfg, "settings.json"));
    assert.ok(existsSync(join(cfg, "settings.json")));

    const l = await mem(["install", "--scope", "local", "--json"], box.sub, env(box));
    assert.equal(l.code, 0, show(l));
    assert.equal(json(l).file, join(box.repo, ".claude", "settings.local.json"));
    if (existsSync(join(box.repo, ".git", "HEAD"))) assert.match(l.stderr, /warning: \.claude\/settings\.local\.json is not git-ignored/);
  });

  test("an invalid settings file is refused: exit 1, a clear message, the file untouched", async () => {
    const box = sandbox();
    const file = join(box.home, ".claude", "settings.json");
    mkdirSync(dirname(file), { recursive: true });
    const broken = '{\n  "model": "opus",\n  "hooks": {\n}\n';
    writeFileSync(file, broken);
    for (const args of [["install"], ["install", "--dry-run"], ["uninstall", "--json"]]) {
      const r = await mem(args, box.repo, env(box));
      assert.equal(r.code, 1, show(r));
      assert.equal(r.stdout, "");
      assert.match(r.stderr, new RegExp(`^mem ${args[0]}: refusing to change ${file}: not valid JSON \\(line \\d+, column \\d+\\): .*; nothing was written\n$`));
      assert.equal(readFileSync(file, "utf8"), broken);
      assert.deepEqual(readdirSync(dirname(file)), ["settings.json"]);
    }
    writeFileSync(file, '{"hooks": ["x"]}');
    const h = await mem(["install"], box.repo, env(box));
    assert.equal(h.code, 1, show(h));
    assert.match(h.stderr, /"hooks" must be an object \(event → matcher groups\), not an array; nothing was written/);
  });

  test("usage: --help, a bad --scope, a stray argument; main help lists both commands", async () => {
    const box = sandbox();
    const help = await mem(["install", "--help"], box.repo, env(box));
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: mem install \[--for A\[,B…\]\] \[--scope user\|project\|local\] \[--prompt-transport command\|mcp\]\n +\[--no-mcp\] \[--dry-run\] \[--json\]/);
    const uhelp = await mem(["help", "uninstall"], box.repo, env(box));
    assert.match(uhelp.stdout, /^Usage: mem uninstall /);
    const bad = await mem(["install", "--scope", "global"], box.repo, env(box));
    assert.equal(bad.code, 2, show(bad));
    assert.match(bad.stderr, /^mem install: --scope must be one of user, project, local, got "global"/);
    const unknown = await mem(["uninstall", "--force"], box.repo, env(box));
    assert.equal(unknown.code, 2, show(unknown));
    // --all (and what goes with it) is dispatched before the options are read: a typo of it is still matched.
    for (const [typed, near] of [["--al", "--all"], ["--dat", "--data"], ["--yess", "--yes"]]) {
      const typo = await mem(["uninstall", typed!], box.repo, env(box));
      assert.equal(typo.code, 2, show(typo));
      assert.match(typo.stderr, new RegExp(`^mem uninstall: unknown option ${typed} \\(did you mean ${near}\\?\\)`), show(typo));
    }
    const alone = await mem(["uninstall", "--data"], box.repo, env(box));
    assert.equal(alone.code, 2, show(alone));
    assert.match(alone.stderr, /^mem uninstall: --data goes with --all/, show(alone));
    assert.equal(existsSync(join(box.home, ".claude")), false);
    const stray = await mem(["install", "user"], box.repo, env(box));
    assert.equal(stray.code, 2, show(stray));
    assert.match(stray.stderr, /^mem install: unexpected argument "user"/);
    const main = await mem(["--help"], box.repo, env(box));
    assert.match(main.stdout, /\n {2}install +register mem's hooks/);
    assert.match(main.stdout, /\n {2}uninstall +remove mem's hooks/);
    assert.equal(existsSync(join(box.home, ".claude")), false);
  });
});

describe("install says when this shell's MEM_HOME is not what the hooks will use", () => {
  test("memHomeWarning (table)", async () => {
    const { memHomeWarning } = await import("../../src/cli/install-run.js");
    const cases: [NodeJS.ProcessEnv, boolean][] = [
      [{ HOME: "/home/u" }, false],
      [{ HOME: "/home/u", MEM_HOME: "" }, false],
      [{ HOME: "/home/u", MEM_HOME: "/home/u/.local/share/mem" }, false],
      [{ HOME: "/home/u", MEM_HOME: "/tmp/tmp.x1" }, true],
      [{ HOME: "/home/u", XDG_DATA_HOME: "/data", MEM_HOME: "/data/mem" }, false],
    ];
    for (const [env, warns] of cases) {
      const w = memHomeWarning(env);
      assert.equal(w.length > 0, warns, JSON.stringify(env));
      if (warns) assert.match(w[0]!, /MEM_HOME is set in this shell \(\/tmp\/tmp\.x1\); .* use \/home\/u\/\.local\/share\/mem unless Claude Code is started with the same MEM_HOME/);
    }
  });
});
