/**
 * The pure merge of mem's hooks into Codex's hooks.json, Gemini CLI's settings.json and Copilot
 * CLI's hooks file: the user's own hooks (a look-alike that runs `mem hook` included) are never
 * touched, mem's are rewritten in place from a moved mem, and uninstall takes out only mem's.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assistantHandler, ASSISTANT_HOOKS, foundAssistantHooks, hookCommand, installAssistantHooks, ourEvent, shellQuote, uninstallAssistantHooks } from "../../src/install/assistant-hooks.js";
import type { AssistantName } from "../../src/contract/adapter.cjs";

const R = { node: "/usr/bin/node", bin: "/opt/mem/bin/mem.cjs" };
const MOVED = { node: "/usr/local/bin/node", bin: "/home/ann/my mem/bin/mem.cjs" };

test("the command: absolute node and bin, shell-quoted when they need it", () => {
  assert.equal(hookCommand("codex", "Stop", R), "/usr/bin/node /opt/mem/bin/mem.cjs hook Stop --assistant codex");
  assert.equal(hookCommand("gemini", "AfterTool", MOVED), "/usr/local/bin/node '/home/ann/my mem/bin/mem.cjs' hook AfterTool --assistant gemini");
  assert.equal(shellQuote("it's"), "'it'\\''s'");
});

describe("which handlers are mem's", () => {
  const cases: { name: string; a: AssistantName; h: unknown; want: string | undefined }[] = [
    { name: "codex, as install writes it", a: "codex", h: assistantHandler("codex", { event: "Stop" }, R), want: "Stop" },
    { name: "gemini, a moved mem with a space in its path", a: "gemini", h: assistantHandler("gemini", { event: "AfterTool", timeout: 15000 }, MOVED), want: "AfterTool" },
    { name: "copilot's bash form", a: "copilot", h: assistantHandler("copilot", { event: "agentStop", timeout: 10 }, R), want: "agentStop" },
    { name: "another assistant's handler", a: "gemini", h: assistantHandler("codex", { event: "Stop" }, R), want: undefined },
    { name: "a user's wrapper around mem hook", a: "codex", h: { type: "command", command: "env MEM_HOME=/x mem hook Stop --assistant codex" }, want: undefined },
    { name: "a relative mem", a: "codex", h: { type: "command", command: "node bin/mem.cjs hook Stop --assistant codex" }, want: undefined },
    { name: "mem's command with a key mem never writes", a: "codex", h: { type: "command", command: hookCommand("codex", "Stop", R), statusMessage: "mine" }, want: undefined },
    { name: "not a command", a: "codex", h: { type: "prompt", prompt: "x" }, want: undefined },
  ];
  for (const c of cases) test(c.name, () => assert.equal(ourEvent(c.a, c.h), c.want));
});

describe("install and uninstall keep the user's hooks", () => {
  const user = { type: "command", command: "~/bin/audit.sh" };
  const lookalike = { type: "command", command: "mem hook Stop --assistant codex" };
  for (const a of ["codex", "gemini", "copilot"] as const) {
    test(a, () => {
      const first = ASSISTANT_HOOKS[a][0]!.event;
      const settings = a === "copilot" ? { version: 1, hooks: { [first]: [user] } } : { model: "x", hooks: { [first]: [{ matcher: "*", hooks: [user] }], Stop: [{ hooks: [lookalike] }] } };
      const inst = installAssistantHooks(a, settings, R);
      assert.equal(inst.status, "installed");
      assert.deepEqual(foundAssistantHooks(a, inst.settings).sort(), ASSISTANT_HOOKS[a].map((h) => h.event).sort());
      assert.equal(installAssistantHooks(a, inst.settings, R).changed, false, "idempotent");
      const moved = installAssistantHooks(a, inst.settings, MOVED);
      assert.equal(moved.status, "updated");
      assert.equal(JSON.stringify(Object.keys(moved.settings.hooks as object)), JSON.stringify(Object.keys(inst.settings.hooks as object)), "rewritten in place: same events in the same order");
      assert.deepEqual(uninstallAssistantHooks(a, moved.settings).settings, settings, "only mem's go");
    });
  }

  test("copilot: a new file gets version 1", () => {
    const r = installAssistantHooks("copilot", {}, R);
    assert.equal(r.settings.version, 1);
    assert.deepEqual(Object.keys(r.settings), ["version", "hooks"]);
  });

  test("an empty hooks object of the user's stays when asked (it was there before install)", () => {
    const r = installAssistantHooks("gemini", { hooks: {} }, R);
    assert.deepEqual(uninstallAssistantHooks("gemini", r.settings, true).settings, { hooks: {} });
    assert.deepEqual(uninstallAssistantHooks("gemini", r.settings).settings, {});
  });

  test("a hooks list of the wrong type is refused", () => {
    assert.throws(() => installAssistantHooks("codex", { hooks: { Stop: "nope" } }, R), /"hooks.Stop" must be an array/);
    assert.throws(() => installAssistantHooks("gemini", { hooks: [] }, R), /"hooks" must be an object/);
  });
});
