/**
 * Taking mem out again: `mem uninstall` gives `~/.claude.json` back as it was (or removes it when
 * install made it), the help says where backups really go, and `mem uninstall --all` shows its
 * plan, changes nothing without a yes, then removes the hooks, the MCP entries, the weekly job,
 * the daemon and (only with --data) the data home. Real CLI runs on a temp HOME, data home, git
 * repository and crontab (a fake `crontab` program first on PATH, so the user's is never touched).
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, runMem, show } from "../helpers/mem-cli.js";
import { daemonUp } from "../helpers/daemon.js";
import { inPty, noPty } from "../helpers/pty.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-remove-all-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
/** A temp HOME, data home, git repository and a crontab file behind a fake `crontab` (no systemd user manager). */
function sandbox() {
  const dir = join(tmp, `s${++n}`);
  const home = join(dir, "home");
  const memHome = join(dir, "data");
  const repo = join(dir, "repo");
  const bin = join(dir, "bin");
  for (const d of [home, repo, bin]) mkdirSync(d, { recursive: true });
  execFileSync("git", ["init", "-q", repo], { stdio: "ignore" });
  const crontab = join(dir, "crontab.txt");
  writeFileSync(join(bin, "crontab"), `#!/bin/sh\ncase "$1" in\n  -l) [ -f "$FAKE_CRONTAB" ] || { echo "no crontab" >&2; exit 1; }; while IFS= read -r l || [ -n "$l" ]; do printf '%s\\n' "$l"; done < "$FAKE_CRONTAB" ;;\n  -) : > "$FAKE_CRONTAB"; while IFS= read -r l || [ -n "$l" ]; do printf '%s\\n' "$l" >> "$FAKE_CRONTAB"; done ;;\n  *) exit 2 ;;\nesac\n`);
  writeFileSync(join(bin, "systemctl"), "#!/bin/sh\necho 'Failed to connect to bus' >&2\nexit 1\n");
  chmodSync(join(bin, "crontab"), 0o755);
  chmodSync(join(bin, "systemctl"), 0o755);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("MEM_") && !k.startsWith("CLAUDE") && !k.startsWith("GIT_") && k !== "NODE_TEST_CONTEXT" && k !== "NODE_OPTIONS" && k !== "NODE_EXTRA_CA_CERTS") env[k] = v;
  Object.assign(env, { HOME: home, MEM_HOME: memHome, XDG_CONFIG_HOME: join(home, ".config"), PATH: `${bin}:${process.env.PATH}`, FAKE_CRONTAB: crontab, MEM_EMBED_ORDER: "none", MEM_WATCH: "0" });
  const mem = (args: string[], o: { input?: string } = {}) => runMem(args, { env, cwd: repo, ...o });
  return { dir, home, memHome, repo, crontab, env, mem, claudeJson: join(home, ".claude.json") };
}

/** What Claude Code itself keeps in ~/.claude.json: empty objects among them, and its own indentation. */
const claudeOwn = (repo: string) => `{\n    "numStartups": 7,\n    "mcpServers": {},\n    "projects": {\n        ${JSON.stringify(repo)}: {\n            "allowedTools": [],\n            "mcpServers": {},\n            "hasTrustDialogAccepted": true\n        }\n    }\n}\n`;

describe("mem uninstall and ~/.claude.json", () => {
  for (const scope of ["user", "local"] as const) {
    test(`--scope ${scope}: a ~/.claude.json install created is gone after uninstall, not left holding {}`, async () => {
      const s = sandbox();
      const i = await s.mem(["install", "--scope", scope]);
      assert.equal(i.code, 0, show(i));
      assert.ok(existsSync(s.claudeJson), "install created it");
      const u = await s.mem(["uninstall", "--scope", scope]);
      assert.equal(u.code, 0, show(u));
      assert.ok(!existsSync(s.claudeJson), `left behind: ${existsSync(s.claudeJson) ? readFileSync(s.claudeJson, "utf8") : ""}`);
    });

    test(`--scope ${scope}: a ~/.claude.json that was there goes back byte for byte, its empty "mcpServers" objects kept`, async () => {
      const s = sandbox();
      const before = claudeOwn(s.repo);
      writeFileSync(s.claudeJson, before);
      const i = await s.mem(["install", "--scope", scope]);
      assert.equal(i.code, 0, show(i));
      assert.notEqual(readFileSync(s.claudeJson, "utf8"), before, "install registered the server");
      const u = await s.mem(["uninstall", "--scope", scope]);
      assert.equal(u.code, 0, show(u));
      assert.equal(readFileSync(s.claudeJson, "utf8"), before);
    });
  }
});

describe("mem uninstall from another shell than install's", () => {
  test("install with a throwaway MEM_HOME, uninstall without it: the ~/.claude.json install created goes", async () => {
    const s = sandbox();
    const throwaway = join(s.dir, "throwaway");
    const i = await runMem(["install", "--scope", "local"], { env: { ...s.env, MEM_HOME: throwaway }, cwd: s.repo });
    assert.equal(i.code, 0, show(i));
    assert.match(i.stderr, /MEM_HOME is set in this shell/);
    rmSync(throwaway, { recursive: true, force: true }); // a mktemp -d folder, long gone
    const { MEM_HOME: _, ...noMemHome } = s.env;
    const u = await runMem(["uninstall", "--scope", "local"], { env: noMemHome, cwd: s.repo });
    assert.equal(u.code, 0, show(u));
    assert.ok(!existsSync(s.claudeJson), `left behind: ${existsSync(s.claudeJson) ? readFileSync(s.claudeJson, "utf8") : ""}`);
    assert.ok(!existsSync(join(s.repo, ".claude")), "the settings file and its folder, which install made, are gone too");
    assert.doesNotMatch(u.stderr, /now holds nothing/);
  });
});

describe("mem install --help / uninstall --help name where the backups go", () => {
  test("the data home's backups/install/, where a real install puts them; nothing beside the file", async () => {
    const s = sandbox();
    for (const cmd of ["install", "uninstall"]) {
      const h = await s.mem([cmd, "--help"]);
      assert.equal(h.code, 0, show(h));
      assert.match(h.stdout, /<data home>\/backups\/install\/<folder>-<hash>\/<file>\.bak-<time>/, h.stdout);
      assert.ok(!/backed up to <file>\.bak-<time>/.test(h.stdout), h.stdout);
    }
    writeFileSync(s.claudeJson, claudeOwn(s.repo));
    const i = await s.mem(["install", "--scope", "user", "--json"]);
    assert.equal(i.code, 0, show(i));
    const backup = (JSON.parse(i.stdout) as { mcp: { backup: string } }).mcp.backup;
    assert.ok(backup.startsWith(`${join(s.memHome, "backups", "install")}/`), backup);
    assert.match(backup, /\.claude\.json\.bak-[0-9T-]+Z$/);
    assert.deepEqual(readdirSync(s.home).filter((f) => f.includes(".bak")), [], "no backup beside the file");
  });
});

describe("mem uninstall --all", () => {
  /** Everything mem sets up: hooks in two scopes, the MCP server in both, the weekly job, a memory, a running daemon. */
  async function everything() {
    const s = sandbox();
    writeFileSync(s.claudeJson, claudeOwn(s.repo));
    writeFileSync(s.crontab, "MAILTO=me@example.com\n0 2 * * * /usr/local/bin/backup\n");
    for (const args of [["install", "--scope", "local"], ["install", "--scope", "user"], ["schedule", "install", "--via", "cron"], ["remember", "we deploy on Fridays", "--kind", "decision"]]) {
      const r = await s.mem(args);
      assert.equal(r.code, 0, show(r));
    }
    assert.match(readFileSync(s.crontab, "utf8"), /mem schedule/);
    const daemon = spawn(process.execPath, [BIN, "serve", "-q"], { env: s.env, cwd: s.repo, stdio: "ignore" });
    children.push(daemon);
    await until(() => daemonUp(s.memHome));
    const files = { local: join(s.repo, ".claude", "settings.local.json"), user: join(s.home, ".claude", "settings.json") };
    for (const f of Object.values(files)) assert.ok(existsSync(f), f);
    return { ...s, files, daemon };
  }
  const snapshot = (s: { claudeJson: string; crontab: string; files: Record<string, string> }) => [s.claudeJson, s.crontab, ...Object.values(s.files)].map((f) => (existsSync(f) ? readFileSync(f, "utf8") : null));

  test("--dry-run shows every step's plan and changes nothing; without --yes (no terminal) nothing is done either", async () => {
    const s = await everything();
    const before = snapshot(s);
    const dry = await s.mem(["uninstall", "--all", "--data", "--dry-run"]);
    assert.equal(dry.code, 0, show(dry));
    assert.doesNotMatch(dry.stdout + dry.stderr, /mem hooks are still installed in/, "no warning about hooks a later step of the plan removes");
    for (const step of ["Claude Code hooks (local scope)", "Claude Code hooks (user scope)", "Claude Code MCP server (local scope)", "Claude Code MCP server (user scope)", "the weekly maintenance job", "the daemon", "the data home"]) assert.ok(dry.stdout.includes(`== ${step}`), `${step}\n${dry.stdout}`);
    assert.ok(dry.stdout.includes(`would remove mem hooks from ${s.files.local}`), dry.stdout);
    assert.ok(dry.stdout.includes("would remove from the crontab:"), dry.stdout);
    assert.ok(dry.stdout.includes(`would remove ${s.memHome} (`), dry.stdout);
    assert.match(dry.stdout, /would stop the daemon/);
    assert.match(dry.stdout, /npm uninstall -g mem-local/);
    const asked = await s.mem(["uninstall", "--all", "--data"]);
    assert.equal(asked.code, 1, show(asked));
    assert.match(asked.stderr, /nothing was changed.*--yes/);
    assert.deepEqual(snapshot(s), before, "nothing changed");
    assert.ok(existsSync(s.memHome));
    assert.ok(await daemonUp(s.memHome), "the daemon still runs");
  });

  test("--yes: hooks, MCP entries, weekly job and daemon gone, ~/.claude.json and the crontab as they were; the data home kept without --data", async () => {
    const s = await everything();
    const r = await s.mem(["uninstall", "--all", "--yes"]);
    assert.equal(r.code, 0, show(r));
    for (const f of Object.values(s.files)) assert.ok(!existsSync(f), `${f} holds only mem's hooks: removed`);
    assert.equal(readFileSync(s.claudeJson, "utf8"), claudeOwn(s.repo));
    assert.equal(readFileSync(s.crontab, "utf8"), "MAILTO=me@example.com\n0 2 * * * /usr/local/bin/backup\n");
    assert.equal(await daemonUp(s.memHome), false);
    assert.ok(existsSync(join(s.memHome, "mem.sqlite")), "kept without --data");
    assert.match(r.stdout, new RegExp(`kept: ${s.memHome.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(add --data`));
    const again = await s.mem(["uninstall", "--all", "--yes"]);
    assert.equal(again.code, 0, show(again));
    assert.match(again.stdout, /nothing of mem's to remove here/);
  });

  test("in a terminal it asks after the plan: n changes nothing, y does it all", { skip: noPty }, async () => {
    const s = await everything();
    const before = snapshot(s);
    const ask = (typed: string) => {
      let sent = false;
      const answer = (out: string) => {
        if (sent || !out.includes("[y/N] ")) return undefined;
        sent = true;
        return `${typed}\n`;
      };
      return inPty([process.execPath, BIN, "uninstall", "--all"], { env: s.env, cwd: s.repo, answer });
    };
    const no = await ask("n");
    assert.equal(no.code, 1, no.out);
    assert.match(no.out, /The plan \(nothing is changed yet\)/);
    assert.match(no.out, /Do the \d+ change\(s\) above\? \[y\/N\]/);
    assert.match(no.out, /nothing was changed/);
    assert.deepEqual(snapshot(s), before);
    assert.ok(await daemonUp(s.memHome));
    const yes = await ask("y");
    assert.equal(yes.code, 0, yes.out);
    for (const f of Object.values(s.files)) assert.ok(!existsSync(f), f);
    assert.equal(readFileSync(s.claudeJson, "utf8"), claudeOwn(s.repo));
    assert.equal(await daemonUp(s.memHome), false);
  });

  test("--data --yes --json removes the data home too, and says what it did", async () => {
    const s = await everything();
    const r = await s.mem(["uninstall", "--all", "--data", "--yes", "--json"]);
    assert.equal(r.code, 0, show(r));
    const out = JSON.parse(r.stdout) as { ok: boolean; dataHome: string; done: { name: string }[] };
    assert.equal(out.ok, true);
    assert.equal(out.dataHome, s.memHome);
    assert.ok(out.done.some((d) => d.name.startsWith("the data home")), r.stdout);
    assert.ok(!existsSync(s.memHome));
    assert.equal(readFileSync(s.claudeJson, "utf8"), claudeOwn(s.repo));
    // The copy of install's record kept in the default data home (for an uninstall from another shell) goes too.
    const usual = join(s.home, ".local", "share", "mem");
    assert.ok(!existsSync(join(usual, "install-created.json")), "no record of [] left behind");
    assert.ok(!existsSync(usual), "nor the folder made to hold it");
  });

  test("a read-only settings file is refused in the plan: nothing of any step is done", async () => {
    const s = await everything();
    chmodSync(s.files.user, 0o444);
    const before = snapshot(s);
    const r = await s.mem(["uninstall", "--all", "--yes"]);
    assert.equal(r.code, 1, show(r));
    assert.match(r.stderr, /read-only[\s\S]*nothing was changed/);
    assert.deepEqual(snapshot(s), before);
    assert.ok(await daemonUp(s.memHome), "the daemon still runs");
    assert.match(readFileSync(s.crontab, "utf8"), /mem schedule/);
  });

  test("a data home that is the home folder, or holds none of mem's files, is refused before anything changes", async () => {
    const s = await everything();
    const before = snapshot(s);
    const stranger = join(s.dir, "photos");
    mkdirSync(stranger);
    writeFileSync(join(stranger, "cat.jpg"), "not mem's");
    for (const [home, why] of [[s.home, /is or holds your home folder/], [stranger, /holds none of mem's files/]] as const) {
      const r = await runMem(["uninstall", "--all", "--data", "--yes"], { env: { ...s.env, MEM_HOME: home }, cwd: s.repo });
      assert.equal(r.code, 1, show(r));
      assert.match(r.stderr, why);
      assert.match(r.stderr, /nothing was changed/);
    }
    assert.deepEqual(snapshot(s), before);
    assert.ok(existsSync(join(stranger, "cat.jpg")));
    assert.ok(readdirSync(s.home).length > 0);
  });
});

describe("mem uninstall --all and the other assistants", () => {
  test("Codex, Gemini and Copilot wired in both scopes: --all removes mem's entries and gives the users' files back byte for byte", async () => {
    const s = sandbox();
    const own = {
      codexToml: join(s.home, ".codex", "config.toml"),
      gemini: join(s.repo, ".gemini", "settings.json"),
    };
    mkdirSync(join(s.home, ".codex"), { recursive: true });
    mkdirSync(join(s.repo, ".gemini"), { recursive: true });
    const toml = '# my codex\nmodel = "o4"   # odd spacing kept\n\n[features]\nweb_search = true\n';
    const gemini = '{\n  "theme": "Dracula",\n  "mcpServers": {}\n}\n';
    writeFileSync(own.codexToml, toml);
    writeFileSync(own.gemini, gemini);
    for (const args of [["install", "--for", "codex,gemini,copilot", "--scope", "user"], ["install", "--for", "gemini,copilot", "--scope", "project"]]) {
      const r = await s.mem(args);
      assert.equal(r.code, 0, show(r));
    }
    assert.notEqual(readFileSync(own.codexToml, "utf8"), toml, "install wrote mem's lines");
    const made = [join(s.home, ".codex", "hooks.json"), join(s.home, ".gemini", "settings.json"), join(s.home, ".copilot", "hooks", "mem.json"), join(s.repo, ".github", "hooks", "mem.json")];
    for (const f of made) assert.ok(existsSync(f), `install made ${f}`);

    const dry = await s.mem(["uninstall", "--all", "--dry-run"]);
    assert.equal(dry.code, 0, show(dry));
    for (const step of ["codex hooks and MCP server (user scope)", "gemini hooks and MCP server (project scope)", "copilot hooks and MCP server (project scope)"]) assert.ok(dry.stdout.includes(`== ${step}`), `${step}\n${dry.stdout}`);
    assert.ok(!dry.stdout.includes("== codex hooks and MCP server (project scope)"), "a scope nothing was wired in is left out of the plan");
    assert.equal(readFileSync(own.codexToml, "utf8") === toml, false, "the dry run changed nothing");

    const r = await s.mem(["uninstall", "--all", "--yes"]);
    assert.equal(r.code, 0, show(r));
    assert.equal(readFileSync(own.codexToml, "utf8"), toml);
    assert.equal(readFileSync(own.gemini, "utf8"), gemini);
    for (const f of made) assert.ok(!existsSync(f), `${f} held only mem's entries: removed`);
  });
});
