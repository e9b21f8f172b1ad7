import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MEM_HOOKS, type HookTarget } from "../../src/install/hooks.js";
import { DEADLINE_MS, HOOK_EVENTS } from "../../src/contract/hook.cjs";
import { unifiedDiff } from "../../src/install/diff.js";
import { memHookName, shellWords } from "../../src/install/ours.js";
import { findLookalikes, findMemHooks, installHooks, uninstallHooks } from "../../src/install/settings.js";
import { formatSettings, parseSettingsText, SettingsError, type JsonObject } from "../../src/install/settings-json.js";

const TARGET_A: HookTarget = { node: "/usr/local/bin/node", bin: "/home/ann/src/mem/bin/mem.cjs" };
const TARGET_B: HookTarget = { node: "/opt/node 20/bin/node", bin: "/home/ann/code/mem moved/bin/mem.cjs" };

/** A realistic user settings file: other hooks on our events and others, permissions, env, plugins. */
function realisticSettings(): JsonObject {
  return {
    $schema: "https://json.schemastore.org/claude-code-settings.json",
    model: "opus",
    permissions: {
      allow: ["Bash(npm run test:*)", "Bash(git diff:*)", "Read(~/.zshrc)"],
      deny: ["Read(./.env)", "Read(./secrets/**)"],
      defaultMode: "acceptEdits",
    },
    env: { CLAUDE_CODE_ENABLE_TELEMETRY: "0", DEBUG: "app:*" },
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/bash-guard.sh', timeout: 5 }] }],
      PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "jq -r .tool_input.file_path | xargs npx prettier --write" }] }],
      Stop: [{ hooks: [{ type: "command", command: "notify-send 'Claude is done'" }] }],
      Notification: [{ matcher: "idle_prompt", hooks: [{ type: "command", command: "say waiting" }] }],
    },
    statusLine: { type: "command", command: "~/.claude/statusline.sh", padding: 0 },
    enabledPlugins: { "formatter@acme-tools": true },
    cleanupPeriodDays: 30,
  };
}

const OUR_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop", "PreCompact", "SessionEnd", "Notification"];

const EXPECTED: Record<string, { name: string; timeout: number; async?: true; matcher?: string }> = {
  SessionStart: { name: "session-start", timeout: 10 },
  UserPromptSubmit: { name: "user-prompt-submit", timeout: 5 },
  PreToolUse: { name: "pre-tool-use", timeout: 5, matcher: "Edit|MultiEdit|Write|Bash" },
  PostToolUse: { name: "post-tool-use", timeout: 30, async: true, matcher: "*" },
  PostToolUseFailure: { name: "post-tool-use-failure", timeout: 30, async: true, matcher: "*" },
  Stop: { name: "stop", timeout: 10 },
  SubagentStop: { name: "subagent-stop", timeout: 10 },
  PreCompact: { name: "pre-compact", timeout: 10 },
  SessionEnd: { name: "session-end", timeout: 2 },
  Notification: { name: "notification", timeout: 10, async: true },
};

type Groups = { matcher?: string; hooks: Record<string, unknown>[] }[];
const hooksOf = (s: JsonObject) => s.hooks as unknown as Record<string, Groups>;

/** A reference "minus ours": drops handlers running `…bin/mem.cjs hook …` and the groups/events that empties. */
function withoutOurs(settings: JsonObject): JsonObject {
  const copy = JSON.parse(JSON.stringify(settings)) as JsonObject;
  const hooks = copy.hooks as unknown as Record<string, Groups> | undefined;
  if (!hooks) return copy;
  for (const event of Object.keys(hooks)) {
    const before = hooks[event]!;
    const groups = before
      .map((g) => ({ ...g, hooks: g.hooks.filter((h) => !(Array.isArray(h.args) && h.args[1] === "hook" && /bin\/mem\.c?js$/.test(String(h.args[0])))) }))
      .filter((g, i) => g.hooks.length > 0 || before[i]!.hooks.length === 0);
    if (groups.length === 0) delete hooks[event];
    else hooks[event] = groups;
  }
  if (Object.keys(hooks).length === 0) delete copy.hooks;
  return copy;
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object") {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

function assertOurs(settings: JsonObject, target: HookTarget) {
  const found = findMemHooks(settings);
  assert.deepEqual(found.map((f) => f.event).sort(), [...OUR_EVENTS].sort(), "exactly one handler of ours per event");
  for (const f of found) {
    const want = EXPECTED[f.event]!;
    assert.equal(f.name, want.name);
    assert.equal(f.matcher, want.matcher, `${f.event} matcher`);
    const expected: Record<string, unknown> = { _managed_by: "mem", type: "command", command: target.node, args: [target.bin, "hook", want.name], timeout: want.timeout };
    if (want.async) expected.async = true;
    assert.deepEqual(f.handler, expected, f.event);
  }
}

describe("the hook table", () => {
  test("covers every hook the `mem hook` contract knows, with timeouts (seconds) above its internal deadlines", () => {
    assert.deepEqual(new Set(MEM_HOOKS.map((h) => h.name)), new Set(Object.keys(HOOK_EVENTS)));
    for (const h of MEM_HOOKS) {
      assert.equal(h.event, HOOK_EVENTS[h.name as keyof typeof HOOK_EVENTS], h.name);
      assert.ok(h.timeout * 1000 > DEADLINE_MS[h.name as keyof typeof DEADLINE_MS], `${h.name}: ${h.timeout} s vs ${DEADLINE_MS[h.name as keyof typeof DEADLINE_MS]} ms`);
    }
    // SessionEnd: raises the shared 1.5 s budget a little, no more (HOOKS.md §2.4)
    assert.equal(MEM_HOOKS.find((h) => h.event === "SessionEnd")!.timeout, 2);
    assert.deepEqual(MEM_HOOKS.filter((h) => h.async).map((h) => h.event), ["PostToolUse", "PostToolUseFailure", "Notification"]);
    // The pre-tool check: synchronous (its warning must come before the call), only on the tools it reads.
    assert.deepEqual(MEM_HOOKS.find((h) => h.event === "PreToolUse"), { event: "PreToolUse", name: "pre-tool-use", matcher: "Edit|MultiEdit|Write|Bash", timeout: 5 });
  });
});

describe("recognising our handlers", () => {
  test("ours: marked, or exactly what an older install wrote; anything that merely runs `mem hook …` is the user's", () => {
    const yes: [unknown, string][] = [
      [{ _managed_by: "mem", type: "command", command: "/usr/bin/node", args: ["/x/mem/bin/mem.cjs", "hook", "stop"], timeout: 10 }, "stop"],
      [{ _managed_by: "mem", type: "command", command: "/bin/sh", args: ["/x/bin/mem-hook.sh", "/usr/bin/node", "/x/bin/mem.cjs", "hook", "stop"], timeout: 10 }, "stop"],
      [{ _managed_by: "mem", type: "mcp_tool", server: "my-mem", tool: "prompt_context", input: {}, timeout: 3 }, "user-prompt-submit"],
      // older installs: exec form, these keys only
      [{ type: "command", command: "/usr/bin/node", args: ["/x/mem/bin/mem.cjs", "hook", "stop"] }, "stop"],
      [{ type: "command", command: "/usr/bin/node", args: ["/x/mem/bin/mem.js", "hook", "post-tool-use"], async: true, timeout: 30 }, "post-tool-use"],
      [{ type: "command", command: "/bin/sh", args: ["/x/bin/mem-hook.sh", "/usr/bin/node", "/x/bin/mem.cjs", "hook", "user-prompt-submit"], timeout: 5 }, "user-prompt-submit"],
      [{ type: "command", command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/bin/mem.cjs", "hook", "session-start"], timeout: 3 }, "session-start"],
      [{ type: "command", command: "C:\\Program Files\\nodejs\\node.exe", args: ["C:\\Users\\Ann Lee\\mem\\bin\\mem.js", "hook", "stop"] }, "stop"],
      [{ type: "mcp_tool", server: "mem", tool: "prompt_context", input: { prompt: "${prompt}" }, timeout: 3 }, "user-prompt-submit"],
    ];
    for (const [h, name] of yes) assert.equal(memHookName(h), name, JSON.stringify(h));
    const no: unknown[] = [
      // the review's cases: a user's own handlers that run mem
      { type: "command", command: "env MEM_HOME=/data/work-mem mem hook stop" },
      { type: "command", command: "timeout 3 /usr/bin/node /x/bin/mem.cjs hook stop" },
      { type: "command", command: "/usr/bin/timeout", args: ["3", "/usr/bin/node", "/x/bin/mem.cjs", "hook", "stop"] },
      { type: "command", command: "mem hook notify" },
      { type: "command", command: "mem hook session-end" },
      { type: "command", command: "/usr/local/bin/mem", args: ["hook", "stop"] },
      { type: "command", command: '"/opt/node 20/bin/node" "/home/a b/mem/bin/mem.cjs" hook post-tool-use' },
      // an older install's form that the user changed (another key, a relative path, another hook)
      { type: "command", command: "/usr/bin/node", args: ["/x/mem/bin/mem.cjs", "hook", "stop"], statusMessage: "saving" },
      { type: "command", command: "node", args: ["/x/mem/bin/mem.cjs", "hook", "stop"] },
      { type: "command", command: "/usr/bin/node", args: ["bin/mem.cjs", "hook", "stop"] },
      { type: "command", command: "/usr/bin/node", args: ["/x/mem/bin/mem.cjs", "hook", "notify"] },
      { type: "command", command: "/usr/bin/node", args: ["/x/mem/bin/mem.cjs", "hook", "stop", "--verbose"] },
      { type: "command", command: "/bin/sh", args: ["-c", "/usr/bin/node", "/x/bin/mem.cjs", "hook", "stop"] },
      { type: "mcp_tool", server: "mem", tool: "prompt_context", statusMessage: "recalling" },
      // a mark on something that is no hook of ours
      { _managed_by: "mem", type: "command", command: "echo hi" },
      { _managed_by: "mem", type: "command", command: "/usr/bin/node", args: ["/x/bin/mem.cjs", "hook", "notify"] },
      { _managed_by: "someone else", type: "command", command: "/usr/bin/node", args: ["/x/bin/mem.cjs", "hook", "stop"], timeout: 1 },
      { type: "http", url: "http://localhost/bin/mem.cjs hook stop" },
      { type: "command" },
      "node /x/bin/mem.cjs hook stop",
      null,
    ];
    for (const h of no) assert.equal(memHookName(h), undefined, JSON.stringify(h));
  });

  test("shellWords groups quotes and keeps backslashes", () => {
    assert.deepEqual(shellWords(`"/a b/node"  '/c d/x.js' hook  stop`), ["/a b/node", "/c d/x.js", "hook", "stop"]);
    assert.deepEqual(shellWords(`node "say \\"hi\\"" C:\\x\\y ''`), ["node", 'say "hi"', "C:\\x\\y", ""]);
  });
});

describe("installHooks / uninstallHooks", () => {
  test("install into a realistic file: every event, absolute paths, timeouts and async; everything else unchanged", () => {
    const original = deepFreeze(realisticSettings());
    const r = installHooks(original, TARGET_A);
    assert.equal(r.changed, true);
    assert.equal(r.status, "installed");
    assert.deepEqual(r.events, OUR_EVENTS);
    assert.deepEqual(r.added, OUR_EVENTS);
    assertOurs(r.settings, TARGET_A);
    assert.deepEqual(withoutOurs(r.settings), original, "deep-equal to the original minus ours");
    assert.deepEqual(Object.keys(r.settings), Object.keys(original), "top-level key order kept");
    const hooks = hooksOf(r.settings);
    assert.deepEqual(Object.keys(hooks), ["PreToolUse", "PostToolUse", "Stop", "Notification", "SessionStart", "UserPromptSubmit", "PostToolUseFailure", "SubagentStop", "PreCompact", "SessionEnd"]);
    // existing groups keep their place; ours are appended as separate groups
    assert.equal(hooks.PostToolUse![0]!.matcher, "Edit|Write");
    assert.deepEqual(hooks.PostToolUse![1], { matcher: "*", hooks: [{ _managed_by: "mem", type: "command", command: TARGET_A.node, args: [TARGET_A.bin, "hook", "post-tool-use"], async: true, timeout: 30 }] });
    assert.deepEqual(hooks.Stop![1], { hooks: [{ _managed_by: "mem", type: "command", command: TARGET_A.node, args: [TARGET_A.bin, "hook", "stop"], timeout: 10 }] });
    assert.equal("matcher" in hooks.Stop![1]!, false, "no matcher on Stop (not supported there)");
  });

  test("a second install changes nothing and says so; the text is byte-identical", () => {
    const once = installHooks(realisticSettings(), TARGET_A).settings;
    const twice = installHooks(deepFreeze(once), TARGET_A);
    assert.equal(twice.changed, false);
    assert.equal(twice.status, "already-installed");
    assert.deepEqual(twice.added, []);
    assert.deepEqual(twice.updated, []);
    assert.equal(formatSettings(twice.settings), formatSettings(once));
  });

  test("our handler with reordered keys, or '' instead of '*', is already installed", () => {
    const once = installHooks(realisticSettings(), TARGET_A).settings;
    const edited = JSON.parse(JSON.stringify(once)) as JsonObject;
    const ptu = hooksOf(edited).PostToolUse![1]!;
    ptu.matcher = "";
    const h = ptu.hooks[0]!;
    ptu.hooks[0] = { timeout: h.timeout, async: h.async, args: h.args, command: h.command, type: h.type, _managed_by: h._managed_by };
    const r = installHooks(edited, TARGET_A);
    assert.equal(r.changed, false);
    assert.equal(r.status, "already-installed");
  });

  test("install from a moved checkout rewrites the paths in place: no duplicates, same positions", () => {
    const first = installHooks(realisticSettings(), TARGET_A).settings;
    const before = hooksOf(first);
    const r = installHooks(first, TARGET_B);
    assert.equal(r.changed, true);
    assert.equal(r.status, "updated");
    assert.deepEqual(r.updated, OUR_EVENTS);
    assert.deepEqual(r.added, []);
    assertOurs(r.settings, TARGET_B);
    assert.equal(JSON.stringify(r.settings).includes(TARGET_A.bin), false);
    const after = hooksOf(r.settings);
    assert.deepEqual(Object.keys(after), Object.keys(before));
    for (const e of Object.keys(before)) assert.equal(after[e]!.length, before[e]!.length, e);
    assert.deepEqual(withoutOurs(r.settings), realisticSettings());
  });

  test("through the NODE_EXTRA_CA_CERTS wrapper: /bin/sh runs it with node and bin/mem.cjs; switching form updates in place, and uninstall finds it", () => {
    const wrapped: HookTarget = { ...TARGET_A, caWrapper: "/home/ann/src/mem/bin/mem-hook.sh" };
    const first = installHooks(realisticSettings(), TARGET_A).settings;
    const r = installHooks(first, wrapped);
    assert.equal(r.status, "updated");
    assert.deepEqual(r.added, []);
    assert.deepEqual(hooksOf(r.settings).Stop![1], { hooks: [{ _managed_by: "mem", type: "command", command: "/bin/sh", args: [wrapped.caWrapper, TARGET_A.node, TARGET_A.bin, "hook", "stop"], timeout: 10 }] });
    assert.deepEqual(findMemHooks(r.settings).map((f) => f.name).sort(), MEM_HOOKS.map((h) => h.name).sort());
    assert.equal(installHooks(r.settings, wrapped).changed, false);
    assert.deepEqual(uninstallHooks(r.settings).settings, realisticSettings());
  });

  test("duplicates of ours and ours under a stale matcher collapse to one per event; look-alikes and a user's handler sharing our group stay", () => {
    const s = realisticSettings();
    const hooks = hooksOf(s);
    const userHandler = { type: "command", command: "echo session" };
    const shellForm = { type: "command", command: "node /old/mem/bin/mem.cjs hook session-start", timeout: 60 };
    hooks.SessionStart = [
      { hooks: [userHandler, shellForm] },
      { hooks: [{ type: "command", command: "/old/node", args: ["/old/mem/bin/mem.cjs", "hook", "session-start"] }] },
      { hooks: [{ _managed_by: "mem", type: "command", command: "/old/node", args: ["/old/mem/bin/mem.cjs", "hook", "session-start"], timeout: 10 }] },
    ];
    const viaPath = { type: "command", command: "mem hook post-tool-use" };
    hooks.PostToolUse!.push({ matcher: "Bash", hooks: [viaPath] });
    hooks.PostToolUse!.push({ matcher: "Bash", hooks: [{ _managed_by: "mem", type: "command", command: "/old/node", args: ["/old/mem/bin/mem.cjs", "hook", "post-tool-use"] }] });
    hooks.Setup = [{ hooks: [{ type: "command", command: "mem hook setup" }] }];
    const r = installHooks(s, TARGET_A);
    assertOurs(r.settings, TARGET_A);
    const out = hooksOf(r.settings);
    assert.deepEqual(out.SessionStart, [
      { hooks: [userHandler, shellForm] },
      { hooks: [{ _managed_by: "mem", type: "command", command: TARGET_A.node, args: [TARGET_A.bin, "hook", "session-start"], timeout: 10 }] },
    ]);
    assert.deepEqual(out.Setup, hooks.Setup, "not a hook of ours: left");
    assert.deepEqual(out.PostToolUse!.map((g) => g.matcher), ["Edit|Write", "Bash", "*"]);
    assert.deepEqual(out.PostToolUse![1]!.hooks, [viaPath]);
    assert.deepEqual(findLookalikes(r.settings).map((f) => `${f.event}:${f.name}`), ["PostToolUse:post-tool-use", "SessionStart:session-start"]);
  });

  test("uninstall restores the original exactly; a second uninstall does nothing", () => {
    const original = realisticSettings();
    const installed = installHooks(original, TARGET_A).settings;
    const r = uninstallHooks(deepFreeze(installed));
    assert.equal(r.changed, true);
    assert.equal(r.status, "uninstalled");
    assert.deepEqual([...r.events].sort(), [...OUR_EVENTS].sort());
    assert.deepEqual(r.settings, original);
    assert.equal(formatSettings(r.settings), formatSettings(original), "same key order too");
    const again = uninstallHooks(r.settings);
    assert.equal(again.changed, false);
    assert.equal(again.status, "not-installed");
    assert.deepEqual(again.events, []);
  });

  test("uninstall keeps groups and events that were empty before, and drops `hooks` only when it emptied it", () => {
    // (An empty list on one of OUR events, `"Stop": []`, cannot be told apart afterwards: it is dropped.)
    const s: JsonObject = { hooks: { SubagentStart: [], PreToolUse: [{ matcher: "Bash", hooks: [] }], Stop: [{ hooks: [] }] } };
    const r = uninstallHooks(installHooks(s, TARGET_A).settings);
    assert.deepEqual(r.settings, s);
    const bare: JsonObject = { model: "sonnet" };
    assert.deepEqual(uninstallHooks(installHooks(bare, TARGET_A).settings).settings, bare);
    assert.deepEqual(Object.keys(installHooks({}, TARGET_A).settings), ["hooks"]);
  });

  test("wrong types are refused with a clear SettingsError, and the input is not modified", () => {
    const bad: [unknown, RegExp][] = [
      [[], /must hold a JSON object, not an array/],
      [null, /not null/],
      ["x", /not a string/],
      [{ hooks: [] }, /"hooks" must be an object .* not an array/],
      [{ hooks: null }, /"hooks" must be an object/],
      [{ hooks: "none" }, /"hooks" must be an object/],
    ];
    for (const [s, re] of bad) {
      assert.throws(() => installHooks(s, TARGET_A), (e: Error) => e instanceof SettingsError && re.test(e.message), JSON.stringify(s));
      assert.throws(() => uninstallHooks(s), SettingsError, JSON.stringify(s));
    }
    const s = deepFreeze({ hooks: { PostToolUse: { matcher: "*" } } }) as unknown as JsonObject;
    assert.throws(() => installHooks(s, TARGET_A), /"hooks.PostToolUse" must be an array of matcher groups, not an object/);
    // uninstall leaves a malformed event it does not own alone
    assert.equal(uninstallHooks(s).changed, false);
  });

  test("malformed groups and handlers that are not ours are passed through untouched", () => {
    const s: JsonObject = { hooks: { Stop: ["junk", { hooks: "x" }, { hooks: [7, { type: "prompt", prompt: "p" }] }] } };
    const r = installHooks(s, TARGET_A);
    assert.deepEqual(hooksOf(r.settings).Stop!.slice(0, 3), hooksOf(s).Stop as unknown);
    assert.deepEqual(uninstallHooks(r.settings).settings, s);
  });
});

describe("settings text", () => {
  test("invalid JSON is a SettingsError with line and column; empty text is an empty object", () => {
    assert.throws(
      () => parseSettingsText('{\n  "model": "opus",\n  "hooks": {,}\n}\n'),
      (e: Error) => e instanceof SettingsError && /^not valid JSON \(line 3, column \d+\)/.test(e.message),
    );
    assert.throws(() => parseSettingsText("// comment\n{}"), SettingsError);
    assert.throws(() => parseSettingsText("[1]"), /must hold a JSON object/);
    assert.deepEqual(parseSettingsText("").settings, {});
    assert.deepEqual(parseSettingsText(" \n").settings, {});
  });

  test("indentation, line endings, final newline and BOM are detected and kept", () => {
    const obj = { a: 1, b: { c: [1, "x"] } };
    for (const [indent, eol, finalNewline, bom] of [
      ["  ", "\n", true, false],
      ["\t", "\n", false, false],
      ["    ", "\r\n", true, true],
    ] as const) {
      let text = JSON.stringify(obj, null, indent);
      if (eol === "\r\n") text = text.replace(/\n/g, "\r\n");
      text = `${bom ? "\uFEFF" : ""}${text}${finalNewline ? eol : ""}`;
      const p = parseSettingsText(text);
      assert.deepEqual(p.settings, obj);
      assert.deepEqual(p.format, { indent, eol, finalNewline, bom });
      assert.equal(formatSettings(p.settings, p.format), text);
    }
  });

  test("unifiedDiff: hunks with context; empty for equal texts", () => {
    assert.equal(unifiedDiff("a\nb\n", "a\nb\n", "x", "y"), "");
    const a = Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n");
    const b = a.replace("l5", "L5").replace("l17", "l17\nnew");
    assert.equal(
      unifiedDiff(`${a}\n`, `${b}\n`, "old", "new"),
      ["--- old", "+++ new", "@@ -3,7 +3,7 @@", " l2", " l3", " l4", "-l5", "+L5", " l6", " l7", " l8", "@@ -16,5 +16,6 @@", " l15", " l16", " l17", "+new", " l18", " l19", ""].join("\n"),
    );
    assert.equal(unifiedDiff("", "{}\n", "/dev/null", "f"), "--- /dev/null\n+++ f\n@@ -0,0 +1,1 @@\n+{}\n");
  });
});
