import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { backupBase } from "../../src/install/backup.js";
import { dataHome } from "../../src/config/paths.cjs";
import { installToFile, settingsPath, uninstallFromFile, type Where } from "../../src/install/files.js";
import { writeFileAtomic } from "../../src/install/settings-file.js";
import type { HookTarget } from "../../src/install/hooks.js";
import { findMemHooks } from "../../src/install/settings.js";
import { SettingsError, type JsonObject } from "../../src/install/settings-json.js";
import { hasCommand } from "../helpers/has-command.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-install-files-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const TARGET: HookTarget = { node: "/usr/local/bin/node", bin: "/home/ann/src/mem/bin/mem.cjs" };
const MOVED: HookTarget = { node: "/usr/local/bin/node", bin: "/home/ann/elsewhere/mem/bin/mem.cjs" };
const NOW = new Date("2026-03-04T05:06:07.089Z");
const EVENTS = ["Notification", "PostToolUse", "PostToolUseFailure", "PreCompact", "PreToolUse", "SessionEnd", "SessionStart", "Stop", "SubagentStop", "UserPromptSubmit"];

let n = 0;
/** A fresh directory with an empty HOME inside; the environment carries only HOME (never the real one). */
function sandbox(): { dir: string; home: string; where: (cwd?: string, env?: Record<string, string>) => Where } {
  const dir = join(tmp, `s${++n}`);
  const home = join(dir, "home");
  mkdirSync(home, { recursive: true });
  return { dir, home, where: (cwd = dir, env = {}) => ({ cwd, env: { HOME: home, ...env } }) };
}

function realistic(): JsonObject {
  return {
    model: "opus",
    permissions: { allow: ["Bash(npm run test:*)"], deny: ["Read(./.env)"] },
    env: { DEBUG: "app:*" },
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "~/.claude/hooks/bash-guard.sh", timeout: 5 }] }],
      PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "npx prettier --write ." }] }],
    },
    statusLine: { type: "command", command: "~/.claude/statusline.sh" },
  };
}

/** The way Claude Code itself writes settings: two-space JSON and a final newline. */
const text = (o: unknown) => `${JSON.stringify(o, null, 2)}\n`;

function write(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const listing = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
const events = (file: string) => findMemHooks(JSON.parse(readFileSync(file, "utf8"))).map((f) => f.event).sort();


describe("settingsPath", () => {
  test("user: $HOME/.claude/settings.json, or $CLAUDE_CONFIG_DIR/settings.json (relative to cwd; empty ignored)", () => {
    const s = sandbox();
    assert.equal(settingsPath("user", s.where()), join(s.home, ".claude", "settings.json"));
    assert.equal(settingsPath("user", s.where(s.dir, { CLAUDE_CONFIG_DIR: "/etc/cc" })), "/etc/cc/settings.json");
    assert.equal(settingsPath("user", s.where(s.dir, { CLAUDE_CONFIG_DIR: "cfg" })), join(s.dir, "cfg", "settings.json"));
    assert.equal(settingsPath("user", s.where(s.dir, { CLAUDE_CONFIG_DIR: "" })), join(s.home, ".claude", "settings.json"));
  });

  test("project and local: under the git top level (a .git directory or file), else under cwd", () => {
    const s = sandbox();
    const repo = join(s.dir, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "src", "deep"), { recursive: true });
    const deep = join(repo, "src", "deep");
    assert.equal(settingsPath("project", s.where(deep)), join(repo, ".claude", "settings.json"));
    assert.equal(settingsPath("local", s.where(deep)), join(repo, ".claude", "settings.local.json"));
    const worktree = join(s.dir, "wt");
    write(join(worktree, ".git"), "gitdir: /somewhere/.git/worktrees/wt\n");
    mkdirSync(join(worktree, "a"));
    assert.equal(settingsPath("project", s.where(join(worktree, "a"))), join(worktree, ".claude", "settings.json"));
    const plain = join(s.dir, "plain", "sub");
    mkdirSync(plain, { recursive: true });
    assert.equal(settingsPath("local", s.where(plain)), join(plain, ".claude", "settings.local.json"));
  });
});

describe("installToFile / uninstallFromFile", () => {
  test("round trip on a realistic file: backup of the original, idempotent second run, uninstall restores it byte for byte", () => {
    const s = sandbox();
    const file = write(join(s.home, ".claude", "settings.json"), text(realistic()));
    const original = readFileSync(file, "utf8");

    const r1 = installToFile({ scope: "user", where: s.where(), target: TARGET, now: NOW });
    assert.equal(r1.file, file);
    assert.equal(r1.changed, true);
    assert.equal(r1.status, "installed");
    assert.equal(r1.created, false);
    const kept = backupBase(file, undefined, dataHome(s.where().env));
    assert.ok(kept.startsWith(join(dataHome(s.where().env), "backups", "install")), kept);
    assert.equal(r1.backup, `${kept}.bak-2026-03-04T05-06-07-089Z`, "the backup goes to the data home");
    assert.equal(readFileSync(r1.backup!, "utf8"), original, "the backup holds the original bytes");
    assert.deepEqual(events(file), EVENTS);
    const installed = JSON.parse(readFileSync(file, "utf8")) as JsonObject;
    for (const k of ["model", "permissions", "env", "statusLine"]) assert.deepEqual(installed[k], realistic()[k], k);
    const hooks = installed.hooks as Record<string, unknown[]>;
    assert.deepEqual(hooks.PreToolUse![0], (realistic().hooks as Record<string, unknown[]>).PreToolUse![0], "the user's own PreToolUse group first, ours after it");
    assert.deepEqual(hooks.PostToolUse![0], (realistic().hooks as Record<string, unknown[]>).PostToolUse![0]);
    assert.deepEqual(listing(dirname(file)), ["settings.json"], "no backup, no temp file beside the user's file");

    const afterInstall = readFileSync(file, "utf8");
    const mtime = statSync(file).mtimeMs;
    const r2 = installToFile({ scope: "user", where: s.where(), target: TARGET, now: new Date(NOW.getTime() + 1000) });
    assert.equal(r2.changed, false);
    assert.equal(r2.status, "already-installed");
    assert.equal(r2.backup, null);
    assert.equal(r2.diff, "");
    assert.equal(readFileSync(file, "utf8"), afterInstall, "byte-identical");
    assert.equal(statSync(file).mtimeMs, mtime, "not even rewritten");
    assert.equal(listing(dirname(kept)).length, 1, "no second backup");

    const r3 = uninstallFromFile({ scope: "user", where: s.where(), now: new Date(NOW.getTime() + 2000) });
    assert.equal(r3.changed, true);
    assert.equal(r3.status, "uninstalled");
    assert.deepEqual([...r3.events].sort(), EVENTS);
    assert.equal(readFileSync(file, "utf8"), original, "uninstall gives back the original bytes");
    assert.equal(readFileSync(r3.backup!, "utf8"), afterInstall, "uninstall backs up the installed file first");

    const r4 = uninstallFromFile({ scope: "user", where: s.where() });
    assert.equal(r4.changed, false);
    assert.equal(r4.status, "not-installed");
    assert.equal(r4.backup, null);
  });

  test("an install from a moved checkout replaces the paths instead of adding a second set", () => {
    const s = sandbox();
    const file = write(join(s.home, ".claude", "settings.json"), text(realistic()));
    installToFile({ scope: "user", where: s.where(), target: TARGET, now: NOW });
    const r = installToFile({ scope: "user", where: s.where(), target: MOVED, now: new Date(NOW.getTime() + 1) });
    assert.equal(r.status, "updated");
    assert.deepEqual(events(file), EVENTS);
    const body = readFileSync(file, "utf8");
    assert.equal(body.includes(TARGET.bin), false);
    assert.equal(body.split(MOVED.bin).length - 1, 10);
  });

  test("--dry-run writes nothing: no file, no directory, no backup; it reports the diff", () => {
    const s = sandbox();
    const file = write(join(s.home, ".claude", "settings.json"), text(realistic()));
    const before = readFileSync(file);
    const mtime = statSync(file).mtimeMs;
    const r = installToFile({ scope: "user", where: s.where(), target: TARGET, dryRun: true });
    assert.equal(r.changed, true);
    assert.equal(r.dryRun, true);
    assert.equal(r.backup, null);
    assert.match(r.diff, new RegExp(`^--- ${file}\n\\+\\+\\+ ${file}\n@@ `));
    assert.match(r.diff, /^\+ {14}"\/home\/ann\/src\/mem\/bin\/mem\.cjs",$/m);
    assert.deepEqual(readFileSync(file), before);
    assert.equal(statSync(file).mtimeMs, mtime);
    assert.deepEqual(listing(dirname(file)), ["settings.json"]);

    const fresh = join(s.dir, "nowhere", "cfg");
    const r2 = installToFile({ scope: "user", where: s.where(s.dir, { CLAUDE_CONFIG_DIR: fresh }), target: TARGET, dryRun: true });
    assert.equal(r2.created, true);
    assert.match(r2.diff, /^--- \/dev\/null\n/);
    assert.equal(existsSync(join(s.dir, "nowhere")), false);

    installToFile({ scope: "user", where: s.where(), target: TARGET });
    const installed = readFileSync(file, "utf8");
    const u = uninstallFromFile({ scope: "user", where: s.where(), dryRun: true });
    assert.equal(u.changed, true);
    assert.equal(readFileSync(file, "utf8"), installed);
  });

  test("a missing file (and its directories) is created, with no backup", () => {
    const s = sandbox();
    const cfg = join(s.dir, "deep", "nested", "claude-config");
    const r = installToFile({ scope: "user", where: s.where(s.dir, { CLAUDE_CONFIG_DIR: cfg }), target: TARGET });
    const file = join(cfg, "settings.json");
    assert.equal(r.file, file);
    assert.equal(r.created, true);
    assert.equal(r.backup, null);
    assert.equal(r.status, "installed");
    assert.deepEqual(events(file), EVENTS);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(file, "utf8"))), ["hooks"]);
    assert.equal(existsSync(join(s.home, ".claude")), false, "HOME untouched when CLAUDE_CONFIG_DIR is set");
    assert.match(readFileSync(file, "utf8"), /^\{\n {2}"hooks": \{\n[\s\S]*\n\}\n$/);
  });

  test("invalid JSON, a non-object top level or non-object hooks: refused, file untouched, nothing else written", () => {
    const s = sandbox();
    const cases: [string, RegExp][] = [
      ['{\n  "model": "opus",\n}\n', /not valid JSON \(line 3, column 1\)/],
      ['{ "hooks": [] }\n', /"hooks" must be an object/],
      ['{ "hooks": null }\n', /"hooks" must be an object/],
      ['["not", "an", "object"]\n', /must hold a JSON object, not an array/],
      ['{ "hooks": { "Stop": {} } }\n', /"hooks.Stop" must be an array/],
    ];
    for (const [content, re] of cases) {
      const file = write(join(s.home, ".claude", "settings.json"), content);
      for (const run of [
        () => installToFile({ scope: "user", where: s.where(), target: TARGET }),
        () => installToFile({ scope: "user", where: s.where(), target: TARGET, dryRun: true }),
      ]) {
        assert.throws(run, (e: Error) => e instanceof SettingsError && e.message.startsWith(`refusing to change ${file}: `) && re.test(e.message) && /nothing was written$/.test(e.message), content);
        assert.equal(readFileSync(file, "utf8"), content);
        assert.deepEqual(listing(dirname(file)), ["settings.json"]);
      }
    }
    write(join(s.home, ".claude", "settings.json"), "{ nope");
    assert.throws(() => uninstallFromFile({ scope: "user", where: s.where() }), /refusing to change .*not valid JSON/);
    assert.equal(readFileSync(join(s.home, ".claude", "settings.json"), "utf8"), "{ nope");
  });

  test("a settings path that is a FIFO or a device is refused at once, never read", () => {
    const s = sandbox();
    const file = join(s.home, ".claude", "settings.json");
    mkdirSync(dirname(file), { recursive: true });
    execFileSync("mkfifo", [file]);
    assert.throws(() => installToFile({ scope: "user", where: s.where(), target: TARGET }), (e: Error) => e instanceof SettingsError && /not a regular file \(a FIFO\)/.test(e.message));
    rmSync(file);
    symlinkSync("/dev/zero", file);
    assert.throws(() => uninstallFromFile({ scope: "user", where: s.where() }), (e: Error) => e instanceof SettingsError && /not a regular file \(a character device\)/.test(e.message));
  });

  test("project and local scopes write under the git top level, not the subdirectory", () => {
    const s = sandbox();
    const repo = join(s.dir, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "pkg", "src"), { recursive: true });
    const cwd = join(repo, "pkg", "src");
    const p = installToFile({ scope: "project", where: s.where(cwd), target: TARGET });
    const l = installToFile({ scope: "local", where: s.where(cwd), target: TARGET });
    assert.equal(p.file, join(repo, ".claude", "settings.json"));
    assert.equal(l.file, join(repo, ".claude", "settings.local.json"));
    assert.deepEqual(events(p.file), EVENTS);
    assert.deepEqual(events(l.file), EVENTS);
    assert.equal(existsSync(join(cwd, ".claude")), false);
    assert.equal(existsSync(join(s.home, ".claude")), false);
    assert.ok(p.warnings.some((w) => /project settings are usually committed/.test(w)), p.warnings.join("\n"));
  });

  test("the file's style (tabs, CRLF, no final newline) and mode are kept; a symlinked file is updated through the link", () => {
    const s = sandbox();
    const dotfiles = write(join(s.dir, "dotfiles", "claude.json"), text(realistic()).replace(/\n$/, "").replace(/ {2}/g, "\t").replace(/\n/g, "\r\n"));
    if (process.platform !== "win32") chmodSync(dotfiles, 0o600);
    const link = join(s.home, ".claude", "settings.json");
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(dotfiles, link);
    const r = installToFile({ scope: "user", where: s.where(), target: TARGET, now: NOW });
    assert.equal(lstatSync(link).isSymbolicLink(), true, "the link is kept");
    assert.equal(readlinkSync(link), dotfiles);
    const body = readFileSync(dotfiles, "utf8");
    assert.match(body, /^\{\r\n\t"model": "opus",\r\n/);
    assert.equal(body.endsWith("}"), true);
    assert.equal(body.replace(/\r\n/g, "").includes("\n"), false, "CRLF only");
    assert.deepEqual(events(dotfiles), EVENTS);
    if (process.platform !== "win32") assert.equal(statSync(dotfiles).mode & 0o777, 0o600);
    assert.equal(r.backup, `${backupBase(link, undefined, dataHome(s.where().env))}.bak-2026-03-04T05-06-07-089Z`, "the backup goes to the data home");
    assert.deepEqual(listing(dirname(link)), ["settings.json"], "nothing beside the link");
    assert.deepEqual(listing(join(s.dir, "dotfiles")), ["claude.json"], "nothing added to the dotfiles directory");
  });

  test("warnings: the plugin enabled as well, and mem hooks with other paths in another scope", () => {
    const s = sandbox();
    const repo = join(s.dir, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    write(join(s.home, ".claude", "settings.json"), text({ enabledPlugins: { "mem@local": true } }));
    installToFile({ scope: "local", where: s.where(repo), target: MOVED });
    const r = installToFile({ scope: "user", where: s.where(repo), target: TARGET });
    assert.ok(r.warnings.some((w) => /the mem plugin is enabled in .*settings\.json: .*twice/.test(w)), r.warnings.join("\n"));
    assert.ok(r.warnings.some((w) => w.includes(`also installed in ${join(repo, ".claude", "settings.local.json")}`)), r.warnings.join("\n"));
    const same = installToFile({ scope: "local", where: s.where(repo), target: TARGET });
    assert.equal(same.warnings.some((w) => /also installed/.test(w)), false, "identical handlers in two settings files run once");
    const u = uninstallFromFile({ scope: "user", where: s.where(repo) });
    assert.ok(u.warnings.some((w) => /still installed in .*settings\.local\.json .*--scope local/.test(w)), u.warnings.join("\n"));
  });

  test("local scope: warns when .claude/settings.local.json is not git-ignored", { skip: !hasCommand("git") && "git not available" }, () => {
    const s = sandbox();
    const repo = join(s.dir, "repo");
    mkdirSync(repo, { recursive: true });
    execFileSync("git", ["init", "-q", repo], { stdio: "ignore" });
    // git must not see the developer's global excludes (Claude Code may have added this very path there)
    const gitEnv = { XDG_CONFIG_HOME: join(s.home, ".config"), GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: join(s.home, ".gitconfig") };
    const r = installToFile({ scope: "local", where: s.where(repo, gitEnv), target: TARGET });
    assert.ok(r.warnings.some((w) => /\.claude\/settings\.local\.json is not git-ignored/.test(w)), r.warnings.join("\n"));
    write(join(repo, ".gitignore"), ".claude/settings.local.json\n");
    const again = installToFile({ scope: "local", where: s.where(repo, gitEnv), target: TARGET });
    assert.deepEqual(again.warnings, []);
  });
});

describe("writeFileAtomic", () => {
  test("refuses when the file changed since it was read; leaves it and no temp file", () => {
    const s = sandbox();
    const file = write(join(s.dir, "settings.json"), "{}\n");
    assert.throws(() => writeFileAtomic(file, '{"a":1}\n', '{"other":true}\n'), /changed while mem was updating it/);
    assert.equal(readFileSync(file, "utf8"), "{}\n");
    assert.deepEqual(listing(s.dir), ["home", "settings.json"]);
    writeFileAtomic(file, '{"a":1}\n', "{}\n");
    assert.equal(readFileSync(file, "utf8"), '{"a":1}\n');
    assert.deepEqual(listing(s.dir), ["home", "settings.json"]);
  });
});
