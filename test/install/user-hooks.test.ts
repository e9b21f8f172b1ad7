/**
 * `mem install` touches only the handlers it wrote. The review's cases: a user's Stop hook that
 * runs mem with another data home (`env MEM_HOME=… mem hook stop`), one under `timeout 3`, a
 * `mem hook notify` of their own, and hooks of theirs that merely mention mem, all survive
 * install, reinstall and uninstall byte for byte; mem's own handlers (marked, or an older
 * install's exact form) are upgraded in place and removed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { hookChecks } from "../../src/health/hooks.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-user-hooks-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

type Handler = Record<string, unknown>;
type Settings = { hooks: Record<string, { matcher?: string; hooks: Handler[] }[]>; [k: string]: unknown };

/** The user's own handlers that run or mention mem: none of them is mem's to change. */
const THEIRS: Record<string, Handler> = {
  envWrapper: { type: "command", command: "env MEM_HOME=/data/work-mem mem hook stop" },
  timeoutWrapper: { type: "command", command: "timeout 3 mem hook user-prompt-submit", timeout: 5 },
  timeoutExec: { type: "command", command: "/usr/bin/timeout", args: ["3", process.execPath, BIN, "hook", "post-tool-use"], async: true },
  notify: { type: "command", command: "mem hook notify" },
  mentions: { type: "command", command: "mem export --json > ~/mem-backup.json" },
  withStatus: { type: "command", command: process.execPath, args: [BIN, "hook", "session-start"], statusMessage: "Loading my memory", timeout: 10 },
};

function userSettings(): Settings {
  return {
    model: "opus",
    hooks: {
      Stop: [{ hooks: [THEIRS.envWrapper!] }],
      UserPromptSubmit: [{ hooks: [THEIRS.timeoutWrapper!] }],
      PostToolUse: [{ matcher: "Bash", hooks: [THEIRS.timeoutExec!] }],
      Notification: [{ hooks: [THEIRS.notify!] }],
      PreCompact: [{ hooks: [THEIRS.mentions!] }],
      SessionStart: [{ hooks: [THEIRS.withStatus!] }],
    },
  };
}

let n = 0;
function box() {
  const dir = join(tmp, `b${n++}`);
  const home = join(dir, "home");
  mkdirSync(join(home, ".claude"), { recursive: true });
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, MEM_HOME: join(dir, "mem-home"), XDG_CONFIG_HOME: join(home, ".config") };
  return { dir, home, env, file: join(home, ".claude", "settings.json") };
}

function mem(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { env, cwd, encoding: "utf8", timeout: 30_000 });
  assert.equal(r.status, 0, `${args.join(" ")}: ${r.stdout}\n${r.stderr}`);
  return r;
}

/** Every handler object's JSON text in the file, in order: what "byte for byte" is checked on. */
function handlerTexts(text: string): string[] {
  const s = JSON.parse(text) as Settings;
  return Object.values(s.hooks ?? {}).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => JSON.stringify(h))));
}

const theirsText = Object.values(THEIRS).map((h) => JSON.stringify(h));

describe("mem install touches only the hooks it wrote", () => {
  test("the user's hooks that run or mention mem survive install, reinstall and uninstall byte for byte; the file comes back as it was", () => {
    const b = box();
    const original = `${JSON.stringify(userSettings(), null, 2)}\n`;
    writeFileSync(b.file, original);

    const first = mem(["install", "--scope", "user", "--no-mcp"], b.env, b.dir);
    const installed = readFileSync(b.file, "utf8");
    const texts = handlerTexts(installed);
    for (const t of theirsText) assert.ok(texts.includes(t), `kept as it was: ${t}`);
    const ours = (JSON.parse(installed) as Settings).hooks;
    const marked = Object.values(ours).flatMap((gs) => gs.flatMap((g) => g.hooks)).filter((h) => h._managed_by === "mem");
    assert.equal(marked.length, 10, "one marked handler of mem's per event");
    assert.equal(texts.length, theirsText.length + 10, "nothing else added, nothing removed");
    // their groups keep their places; ours come after them
    assert.deepEqual(ours.Stop![0]!.hooks, [THEIRS.envWrapper]);
    assert.deepEqual(ours.Notification![0], { hooks: [THEIRS.notify] }, "theirs first, ours after it");
    // one line, on stderr, about the look-alikes that run one of mem's hooks (not `notify`, not `export`)
    const warned = first.stderr.split("\n").filter((l) => /mem install never wrote/.test(l));
    assert.equal(warned.length, 1, first.stderr);
    assert.match(warned[0]!, /4 handlers under Stop, UserPromptSubmit, PostToolUse, SessionStart/);

    mem(["install", "--scope", "user", "--no-mcp"], b.env, b.dir);
    assert.equal(readFileSync(b.file, "utf8"), installed, "a reinstall changes nothing");

    const un = mem(["uninstall", "--scope", "user", "--no-mcp"], b.env, b.dir);
    assert.equal(readFileSync(b.file, "utf8"), original, "uninstall leaves exactly the user's file");
    assert.equal(un.stderr.split("\n").filter((l) => /mem install never wrote/.test(l)).length, 1, un.stderr);
    mem(["uninstall", "--scope", "user", "--no-mcp"], b.env, b.dir);
    assert.equal(readFileSync(b.file, "utf8"), original);
  });

  test("an older install's unmarked handlers are mem's: upgraded in place (marked), then removed; the user's stay", () => {
    const b = box();
    const s = userSettings();
    const old = (name: string, timeout: number): Handler => ({ type: "command", command: "/old/node", args: ["/old/mem/bin/mem.cjs", "hook", name], timeout });
    s.hooks.Stop![0]!.hooks.push(old("stop", 10));
    s.hooks.SessionEnd = [{ hooks: [old("session-end", 2)] }];
    s.hooks.SubagentStop = [{ hooks: [{ type: "command", command: "/bin/sh", args: ["/old/mem/bin/mem-hook.sh", "/old/node", "/old/mem/bin/mem.cjs", "hook", "subagent-stop"], timeout: 10 }] }];
    writeFileSync(b.file, `${JSON.stringify(s, null, 2)}\n`);

    mem(["install", "--scope", "user", "--no-mcp"], b.env, b.dir);
    const installed = JSON.parse(readFileSync(b.file, "utf8")) as Settings;
    const stop = installed.hooks.Stop![0]!.hooks;
    assert.deepEqual(stop[0], THEIRS.envWrapper, "the user's handler, first as it was");
    assert.equal(stop[1]!._managed_by, "mem", "the old handler rewritten in place, marked");
    assert.notEqual(stop[1]!.command, "/old/node");
    assert.equal(installed.hooks.Stop!.length, 1, "no second Stop group");
    assert.equal(installed.hooks.SessionEnd![0]!.hooks[0]!._managed_by, "mem");
    assert.equal(installed.hooks.SubagentStop![0]!.hooks[0]!._managed_by, "mem");
    assert.equal(JSON.stringify(installed).includes("/old/"), false, "no old path left");

    mem(["uninstall", "--scope", "user", "--no-mcp"], b.env, b.dir);
    assert.equal(readFileSync(b.file, "utf8"), `${JSON.stringify(userSettings(), null, 2)}\n`, "only the user's hooks are left, as they were");
  });

  test("doctor agrees: the user's look-alikes are a warning of their own, never drift of mem's hooks", () => {
    const b = box();
    writeFileSync(b.file, `${JSON.stringify(userSettings(), null, 2)}\n`);
    const where = { env: b.env, cwd: b.dir };
    const before = hookChecks(where, "linux");
    assert.deepEqual(before.map((c) => [c.name, c.status]), [["hooks (user): look-alikes", "warn"], ["hooks", "warn"]], JSON.stringify(before));
    assert.match(before[1]!.detail, /no mem hooks/);
    mem(["install", "--scope", "user", "--no-mcp"], b.env, b.dir);
    const after = hookChecks(where, "linux");
    assert.deepEqual(after.slice(0, 2).map((c) => [c.name, c.status]), [["hooks (user): look-alikes", "warn"], ["hooks (user)", "ok"]], JSON.stringify(after));
    assert.match(after[0]!.detail, /4 handlers under Stop, UserPromptSubmit, PostToolUse, SessionStart .*mem install never wrote/);
  });
});
