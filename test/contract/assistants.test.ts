/**
 * The assistant adapters (src/contract/{codex,gemini,copilot}.cts), table-driven, with payloads
 * shaped as each assistant's own documentation gives them:
 * - Codex: codex-rs/hooks/schema/generated/<event>.command.input.schema.json (openai/codex), whose
 *   required fields are all present below.
 * - Gemini CLI: docs/hooks/reference.md in @google/gemini-cli 0.61.0 ("Base input schema" plus each
 *   event's input fields), tool argument keys from docs/reference/tools.md.
 * - Copilot CLI: GitHub's "Copilot CLI hooks reference" (camelCase and VS Code compatible inputs)
 *   and "Hooks configuration" (the postToolUse example with toolArgs as a JSON string).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ASSISTANT_KEY, type Adapter } from "../../src/contract/adapter.cjs";
import { ADAPTERS, assistantArg, claudePayload, hookOutput } from "../../src/contract/assistants.cjs";
import { patchFiles } from "../../src/contract/codex.cjs";
import { MAX_CONTEXT_CHARS, type HookName, type Payload } from "../../src/contract/hook.cjs";

const CWD = "/home/dev/shop";
const codexBase = { session_id: "019a6c1e-cdx", transcript_path: "/home/dev/.codex/sessions/rollout.jsonl", cwd: CWD, model: "gpt-5.5", permission_mode: "default" };
const geminiBase = { session_id: "gem-7f3a", transcript_path: "/home/dev/.gemini/tmp/chats/session.json", cwd: CWD, timestamp: "2026-11-29T02:00:00.000Z" };

interface Case {
  assistant: keyof typeof ADAPTERS;
  event: string;
  raw: Payload;
  /** mem's hook, or undefined: mem does nothing on this event. */
  hook: HookName | undefined;
  /** Fields the normalized payload must hold (exactly these values). */
  want?: Payload;
}

const CASES: Case[] = [
  // Codex (schema: session-start / user-prompt-submit / post-tool-use / pre-compact / stop .command.input)
  { assistant: "codex", event: "SessionStart", raw: { ...codexBase, hook_event_name: "SessionStart", source: "startup" }, hook: "session-start", want: { hook_event_name: "SessionStart", session_id: "019a6c1e-cdx", cwd: CWD, source: "startup" } },
  { assistant: "codex", event: "UserPromptSubmit", raw: { ...codexBase, turn_id: "t1", hook_event_name: "UserPromptSubmit", prompt: "why do we cache prices?" }, hook: "user-prompt-submit", want: { hook_event_name: "UserPromptSubmit", prompt: "why do we cache prices?" } },
  {
    assistant: "codex",
    event: "PostToolUse",
    raw: { ...codexBase, turn_id: "t1", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: "15 passing", tool_use_id: "call_abc" },
    hook: "post-tool-use",
    want: { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: "15 passing", tool_use_id: "call_abc" },
  },
  {
    assistant: "codex",
    event: "PostToolUse",
    raw: { ...codexBase, turn_id: "t1", hook_event_name: "PostToolUse", tool_name: "apply_patch", tool_input: { command: "*** Begin Patch\n*** Update File: src/cart.ts\n@@\n-a\n+b\n*** Add File: src/price.ts\n+x\n*** End Patch" }, tool_response: "Done", tool_use_id: "call_patch" },
    hook: "post-tool-use",
    want: { tool_name: "Edit", tool_use_id: "call_patch" },
  },
  // update_plan as Codex 0.171.0 sent it to PostToolUse (arguments: codex-rs/protocol/src/plan_tool.rs): a TodoWrite.
  {
    assistant: "codex",
    event: "PostToolUse",
    raw: { ...codexBase, turn_id: "t1", hook_event_name: "PostToolUse", tool_name: "update_plan", tool_input: { explanation: "release work", plan: [{ step: "Ship the tasks table", status: "in_progress" }, { step: "Write the docs", status: "pending" }, { step: "Cut 0.3", status: "completed" }] }, tool_response: "Plan updated", tool_use_id: "call_plan" },
    hook: "post-tool-use",
    want: { tool_name: "TodoWrite", tool_input: { todos: [{ content: "Ship the tasks table", status: "in_progress" }, { content: "Write the docs", status: "pending" }, { content: "Cut 0.3", status: "completed" }] }, tool_use_id: "call_plan" },
  },
  // A plan that is not a list is no task list: a plain tool call.
  { assistant: "codex", event: "PostToolUse", raw: { ...codexBase, hook_event_name: "PostToolUse", tool_name: "update_plan", tool_input: { plan: "step one" }, tool_response: "x", tool_use_id: "call_p2" }, hook: "post-tool-use", want: { tool_name: "update_plan", tool_input: { plan: "step one" } } },
  { assistant: "codex", event: "PreCompact", raw: { ...codexBase, turn_id: "t1", hook_event_name: "PreCompact", trigger: "auto" }, hook: "pre-compact", want: { hook_event_name: "PreCompact", trigger: "auto" } },
  { assistant: "codex", event: "Stop", raw: { ...codexBase, turn_id: "t1", hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "We decided to cache prices for 5 minutes." }, hook: "stop", want: { hook_event_name: "Stop", last_assistant_message: "We decided to cache prices for 5 minutes." } },
  { assistant: "codex", event: "PreToolUse", raw: { ...codexBase, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "c" }, hook: "pre-tool-use", want: { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "c" } },
  {
    assistant: "codex",
    event: "PreToolUse",
    raw: { ...codexBase, hook_event_name: "PreToolUse", tool_name: "apply_patch", tool_input: { command: "*** Begin Patch\n*** Update File: src/auth.ts\n@@\n-alg: 'ES256'\n+alg: 'HS256'\n*** End Patch" }, tool_use_id: "call_p" },
    hook: "pre-tool-use",
    want: { tool_name: "Edit", tool_input: { file_path: "src/auth.ts", files: ["src/auth.ts"], patch: "*** Begin Patch\n*** Update File: src/auth.ts\n@@\n-alg: 'ES256'\n+alg: 'HS256'\n*** End Patch" } },
  },
  { assistant: "codex", event: "PermissionRequest", raw: { ...codexBase, hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "ls" } }, hook: undefined },
  // Gemini CLI (docs/hooks/reference.md)
  { assistant: "gemini", event: "SessionStart", raw: { ...geminiBase, hook_event_name: "SessionStart", source: "resume" }, hook: "session-start", want: { hook_event_name: "SessionStart", session_id: "gem-7f3a", source: "resume" } },
  { assistant: "gemini", event: "BeforeAgent", raw: { ...geminiBase, hook_event_name: "BeforeAgent", prompt: "why do we cache prices?" }, hook: "user-prompt-submit", want: { hook_event_name: "UserPromptSubmit", prompt: "why do we cache prices?" } },
  {
    assistant: "gemini",
    event: "AfterTool",
    raw: { ...geminiBase, hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_input: { command: "npm test", description: "run tests", dir_path: "." }, tool_response: { llmContent: "15 passing", returnDisplay: "15 passing" } },
    hook: "post-tool-use",
    want: { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "npm test", description: "run tests", dir_path: "." }, tool_response: "15 passing" },
  },
  {
    assistant: "gemini",
    event: "AfterTool",
    raw: { ...geminiBase, hook_event_name: "AfterTool", tool_name: "read_file", tool_input: { file_path: "src/missing.ts" }, tool_response: { llmContent: "", returnDisplay: "", error: "File not found: src/missing.ts" } },
    hook: "post-tool-use",
    want: { hook_event_name: "PostToolUseFailure", tool_name: "Read", tool_input: { file_path: "src/missing.ts" }, error: "File not found: src/missing.ts" },
  },
  // As Gemini CLI 0.61.0 sent it under `gemini -p`: SessionStart's context prepended to the prompt.
  {
    assistant: "gemini",
    event: "BeforeAgent",
    raw: { ...geminiBase, hook_event_name: "BeforeAgent", prompt: "<hook_context>Project memory from mem (…)\n&lt;mem-briefing&gt;\n## Decisions\n- Deploys freeze in December.\n&lt;/mem-briefing&gt;</hook_context>\n\nwhy did we choose SQLite over Postgres" },
    hook: "user-prompt-submit",
    want: { prompt: "why did we choose SQLite over Postgres" },
  },
  { assistant: "gemini", event: "AfterTool", raw: { ...geminiBase, hook_event_name: "AfterTool", tool_name: "grep_search", tool_input: { pattern: "cache", dir_path: "src" }, tool_response: { llmContent: "src/cart.ts:3" } }, hook: "post-tool-use", want: { tool_name: "Grep", tool_input: { pattern: "cache", path: "src" } } },
  // write_todos (docs/tools/todos.md: todos of { description, status }; statuses pending, in_progress, completed, cancelled, blocked): a TodoWrite.
  {
    assistant: "gemini",
    event: "AfterTool",
    raw: {
      ...geminiBase,
      hook_event_name: "AfterTool",
      tool_name: "write_todos",
      tool_input: { todos: [{ description: "Ship the tasks table", status: "in_progress" }, { description: "Drop the cache", status: "cancelled" }, { description: "Wait for review", status: "blocked" }, { description: "Cut 0.3", status: "completed" }, { description: "Odd", status: "someday" }, "junk", { status: "pending" }] },
      tool_response: { llmContent: "Successfully updated the todo list.", returnDisplay: "" },
    },
    hook: "post-tool-use",
    want: {
      tool_name: "TodoWrite",
      tool_input: {
        todos: [
          { content: "Ship the tasks table", status: "in_progress" },
          { content: "Drop the cache", status: "deleted" },
          { content: "Wait for review", status: "pending" },
          { content: "Cut 0.3", status: "completed" },
          { content: "Odd", status: "pending" },
          { content: "", status: "pending" },
        ],
      },
    },
  },
  { assistant: "gemini", event: "AfterAgent", raw: { ...geminiBase, hook_event_name: "AfterAgent", prompt: "p", prompt_response: "Decided: cache prices for 5 minutes.", stop_hook_active: false }, hook: "stop", want: { hook_event_name: "Stop", last_assistant_message: "Decided: cache prices for 5 minutes." } },
  { assistant: "gemini", event: "PreCompress", raw: { ...geminiBase, hook_event_name: "PreCompress", trigger: "manual" }, hook: "pre-compact", want: { hook_event_name: "PreCompact", trigger: "manual" } },
  { assistant: "gemini", event: "SessionEnd", raw: { ...geminiBase, hook_event_name: "SessionEnd", reason: "exit" }, hook: "session-end", want: { hook_event_name: "SessionEnd", reason: "exit" } },
  { assistant: "gemini", event: "BeforeTool", raw: { ...geminiBase, hook_event_name: "BeforeTool", tool_name: "write_file", tool_input: {} }, hook: undefined },
  // Copilot CLI ("Copilot CLI hooks reference", "Hooks configuration")
  {
    assistant: "copilot",
    event: "postToolUse",
    raw: { sessionId: "cop-1", timestamp: 1704614700000, cwd: CWD, toolName: "bash", toolArgs: '{"command":"npm test"}', toolResult: { resultType: "success", textResultForLlm: "All tests passed (15/15)" } },
    hook: "post-tool-use",
    want: { hook_event_name: "PostToolUse", session_id: "cop-1", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: "All tests passed (15/15)" },
  },
  {
    assistant: "copilot",
    event: "PostToolUse",
    raw: { hook_event_name: "PostToolUse", session_id: "cop-2", timestamp: "2026-11-29T02:00:00Z", cwd: CWD, tool_name: "edit", tool_input: { path: "src/cart.ts", old_str: "a", new_str: "b" }, tool_result: { result_type: "success", text_result_for_llm: "edited" } },
    hook: "post-tool-use",
    want: { session_id: "cop-2", tool_name: "Edit", tool_input: { file_path: "src/cart.ts", old_string: "a", new_string: "b" } },
  },
  {
    assistant: "copilot",
    event: "postToolUse",
    raw: { sessionId: "cop-1", timestamp: 1704614800000, cwd: CWD, toolName: "bash", toolArgs: '{"command":"npm run build"}', toolResult: { resultType: "failure", textResultForLlm: "tsc: 2 errors" } },
    hook: "post-tool-use",
    want: { hook_event_name: "PostToolUseFailure", error: "tsc: 2 errors" },
  },
  { assistant: "copilot", event: "postToolUseFailure", raw: { sessionId: "cop-1", timestamp: 1, cwd: CWD, toolName: "view", toolArgs: { path: "src/gone.ts" }, error: "no such file" }, hook: "post-tool-use-failure", want: { hook_event_name: "PostToolUseFailure", tool_name: "Read", tool_input: { file_path: "src/gone.ts" }, error: "no such file" } },
  { assistant: "copilot", event: "agentStop", raw: { sessionId: "cop-1", timestamp: 1, cwd: CWD, transcriptPath: "/home/dev/.copilot/t.jsonl", stopReason: "end_turn" }, hook: "stop", want: { hook_event_name: "Stop", session_id: "cop-1" } },
  { assistant: "copilot", event: "preCompact", raw: { sessionId: "cop-1", timestamp: 1, cwd: CWD, transcriptPath: "/t", trigger: "auto", customInstructions: "" }, hook: "pre-compact", want: { trigger: "auto" } },
  { assistant: "copilot", event: "sessionEnd", raw: { sessionId: "cop-1", timestamp: 1704618000000, cwd: CWD, reason: "complete" }, hook: "session-end", want: { hook_event_name: "SessionEnd", reason: "complete" } },
  // GitHub's reference says their output is not processed; Copilot CLI 1.0.102 reads a top-level additionalContext from both.
  { assistant: "copilot", event: "sessionStart", raw: { sessionId: "cop-1", timestamp: 1704614400000, cwd: CWD, source: "new", initialPrompt: "Create a new feature" }, hook: "session-start", want: { hook_event_name: "SessionStart", session_id: "cop-1", source: "startup" } },
  { assistant: "copilot", event: "SessionStart", raw: { hook_event_name: "SessionStart", session_id: "cop-3", timestamp: "2026-11-29T05:13:20.638Z", cwd: CWD, source: "resume", initial_prompt: "go on" }, hook: "session-start", want: { session_id: "cop-3", source: "resume" } },
  { assistant: "copilot", event: "userPromptSubmitted", raw: { sessionId: "cop-1", timestamp: 1704614500000, cwd: CWD, prompt: "Fix the authentication bug" }, hook: "user-prompt-submit", want: { hook_event_name: "UserPromptSubmit", prompt: "Fix the authentication bug" } },
  { assistant: "copilot", event: "UserPromptSubmit", raw: { hook_event_name: "UserPromptSubmit", session_id: "cop-3", timestamp: "2026-11-29T05:13:20.973Z", cwd: CWD, prompt: "say hello" }, hook: "user-prompt-submit", want: { session_id: "cop-3", prompt: "say hello" } },
  { assistant: "copilot", event: "preToolUse", raw: { sessionId: "cop-1", timestamp: 1, cwd: CWD, toolName: "bash", toolArgs: "{}" }, hook: undefined },
];

describe("assistant adapters: their payloads in, mem's hook request out", () => {
  for (const c of CASES) {
    test(`${c.assistant} ${c.event} → ${c.hook ?? "nothing"}`, () => {
      const adapter: Adapter = ADAPTERS[c.assistant];
      assert.equal(adapter.hook(c.event), c.hook);
      if (!c.hook) return;
      const p = adapter.payload(c.hook, structuredClone(c.raw));
      assert.equal(p[ASSISTANT_KEY], c.assistant);
      assert.equal(p.transcript_path, undefined, "another assistant's transcript format is never handed to mem's reader");
      assert.equal(p.cwd, CWD);
      for (const [k, v] of Object.entries(c.want ?? {})) assert.deepEqual(p[k], v, `${k}`);
      if (c.hook.startsWith("post-tool-use")) assert.match(String(p.tool_use_id), /^(call_|gemini_|copilot_)/);
    });
  }

  test("a call with no id of its own gets the same id each time, and another call another id", () => {
    const raw = CASES.find((c) => c.assistant === "gemini" && c.event === "AfterTool")!.raw;
    const a = ADAPTERS.gemini.payload("post-tool-use", structuredClone(raw)).tool_use_id;
    const b = ADAPTERS.gemini.payload("post-tool-use", structuredClone(raw)).tool_use_id;
    const other = ADAPTERS.gemini.payload("post-tool-use", { ...raw, timestamp: "2026-11-29T02:00:01.000Z" }).tool_use_id;
    assert.equal(a, b);
    assert.notEqual(a, other);
  });

  test("an apply_patch names every file it touches; the edit is filed under the first", () => {
    assert.deepEqual(patchFiles("*** Begin Patch\n*** Update File: src/cart.ts\n*** Add File: src/price.ts\n*** Delete File: old.ts\n*** Update File: src/cart.ts\n*** End Patch"), ["src/cart.ts", "src/price.ts", "old.ts"]);
    const c = CASES.find((x) => x.raw.tool_name === "apply_patch")!;
    const p = ADAPTERS.codex.payload("post-tool-use", c.raw);
    assert.deepEqual((p.tool_input as Record<string, unknown>).files, ["src/cart.ts", "src/price.ts"]);
    assert.equal((p.tool_input as Record<string, unknown>).file_path, "src/cart.ts");
  });

  test("hostile fields are dropped, not passed on: non-string ids, a forged assistant, nested junk", () => {
    const p = ADAPTERS.gemini.payload("user-prompt-submit", { session_id: { $gt: 1 }, cwd: 42, prompt: ["x"], [ASSISTANT_KEY]: "claude" });
    assert.deepEqual(p, { hook_event_name: "UserPromptSubmit", [ASSISTANT_KEY]: "gemini" });
    assert.deepEqual(ADAPTERS.copilot.payload("post-tool-use", { toolArgs: "{not json", toolName: "bash", toolResult: "x" }).tool_input, {});
    assert.deepEqual(claudePayload({ prompt: "p", [ASSISTANT_KEY]: "codex" }), { prompt: "p" });
  });
});

describe("assistant adapters: mem's answer in, their stdout out", () => {
  const OUT: [string, HookName, string | undefined, string | undefined][] = [
    // [assistant, hook, context, expected stdout]
    ["codex", "session-start", "briefing", JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "briefing" } })],
    ["codex", "user-prompt-submit", "memories", JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "memories" } })],
    ["codex", "stop", "never context at a stop", undefined],
    ["codex", "pre-tool-use", "mem: the team rejected HS256", JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "mem: the team rejected HS256" } })],
    ["codex", "user-prompt-submit", undefined, undefined],
    ["gemini", "session-start", "briefing", JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "briefing" } })],
    ["gemini", "user-prompt-submit", "memories", JSON.stringify({ hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "memories" } })],
    ["gemini", "post-tool-use", "x", undefined],
    ["gemini", "session-end", "x", undefined],
    ["copilot", "session-start", "briefing", JSON.stringify({ additionalContext: "briefing" })],
    ["copilot", "user-prompt-submit", "memories", JSON.stringify({ additionalContext: "memories" })],
    ["copilot", "user-prompt-submit", undefined, undefined],
    ["copilot", "post-tool-use", "x", undefined],
    ["copilot", "stop", "x", undefined],
  ];
  for (const [assistant, name, context, want] of OUT) {
    test(`${assistant} ${name} ${context === undefined ? "(nothing to say)" : ""}`, () => {
      assert.equal(hookOutput(ADAPTERS[assistant as keyof typeof ADAPTERS], name, context), want);
    });
  }

  test("Claude Code's format is unchanged without an adapter, notice included", () => {
    assert.equal(hookOutput(undefined, "session-start", "b", "n"), JSON.stringify({ systemMessage: "n", hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "b" } }));
    assert.equal(hookOutput(undefined, "stop", "b"), undefined);
  });

  test("context past the limit is cut for every assistant; a user notice never reaches another assistant", () => {
    const long = "x".repeat(MAX_CONTEXT_CHARS + 500);
    for (const a of ["codex", "gemini", "copilot"] as const) {
      const o = JSON.parse(hookOutput(ADAPTERS[a], "user-prompt-submit", long)!) as { hookSpecificOutput?: { additionalContext: string }; additionalContext?: string };
      assert.equal((o.hookSpecificOutput?.additionalContext ?? o.additionalContext)?.length, MAX_CONTEXT_CHARS);
      assert.equal(hookOutput(ADAPTERS[a], "session-start", undefined, "older install"), undefined);
    }
  });
});

describe("--assistant on the command line", () => {
  const ARGS: [string[], string | undefined | false][] = [
    [[], undefined],
    [["--assistant", "codex"], "codex"],
    [["--assistant=gemini"], "gemini"],
    [["--assistant", "copilot"], "copilot"],
    [["--assistant", "claude"], undefined],
    [["--assistant", "cursor"], false],
    [["--assistant"], false],
    [["--assistant", "__proto__"], false],
  ];
  for (const [args, want] of ARGS) {
    test(JSON.stringify(args), () => {
      const r = assistantArg(args);
      if (want === false) assert.equal(r.ok, false);
      else assert.deepEqual(r.ok ? r.adapter?.name : "refused", want);
    });
  }
});
