/**
 * `npm run bench:assistants`: each assistant's hooks as it runs them (`node bin/mem.cjs hook <its
 * event> [--assistant …]`, its payload on stdin) with the daemon warm, against a bare `node -e 0`
 * spawn paired with every hook spawn (both see the same machine load). Claude Code's hooks are run
 * the same way (Node, no curl client) so the figures compare the adapters, not the clients. Not a test.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ask } from "../src/daemon/client.cjs";
import { percentile } from "./bench/metrics.js";
import { BIN, run } from "./bench/spawn.js";

const N = Number(process.env.MEM_BENCH_RUNS ?? 60);
const log = (s: string) => process.stdout.write(`${s}\n`);
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95) };
};

const work = mkdtempSync(join(tmpdir(), "mem-bench-assistants-"));
try {
  const home = join(work, "home");
  const proj = join(work, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.json"), JSON.stringify({ embedding: { order: [] }, daemon: { clientBudgetMs: 2_000 } }));
  for (let i = 0; i < 200; i++) writeFileSync(join(proj, `note-${i}.md`), `# Topic ${i}\n\nWe chose option ${i} for the cache layer because of latency budget ${i}.\n`);
  const env = { PATH: process.env.PATH, HOME: work, MEM_HOME: home, MEM_EMBED_ORDER: "none", MEM_WATCH: "0", MEM_HOOK_CLIENT: "node" };
  await run([BIN, "index", proj, "-q"], "", env);
  log(`mem bench:assistants — node ${process.version}, ${new Date().toISOString()}, ${N} runs each, daemon warm`);

  const prompt = "why did we choose option 42 for the cache layer";
  const KINDS: [string, readonly string[], (i: number) => unknown, readonly string[], (i: number) => unknown][] = [
    // [assistant, prompt hook args, its payload, capture hook args, its payload]
    ["claude", ["user-prompt-submit"], (i) => ({ session_id: `c${i}`, cwd: proj, hook_event_name: "UserPromptSubmit", prompt }), ["post-tool-use"], (i) => ({ session_id: "c", cwd: proj, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: `make ${i}` }, tool_response: "ok", tool_use_id: `toolu_${i}` })],
    ["codex", ["UserPromptSubmit", "--assistant", "codex"], (i) => ({ session_id: `x${i}`, turn_id: "t", transcript_path: null, cwd: proj, hook_event_name: "UserPromptSubmit", model: "m", permission_mode: "default", prompt }), ["PostToolUse", "--assistant", "codex"], (i) => ({ session_id: "x", turn_id: "t", transcript_path: null, cwd: proj, hook_event_name: "PostToolUse", model: "m", permission_mode: "default", tool_name: "Bash", tool_input: { command: `make ${i}` }, tool_response: "ok", tool_use_id: `call_${i}` })],
    ["gemini", ["BeforeAgent", "--assistant", "gemini"], (i) => ({ session_id: `g${i}`, transcript_path: "/x", cwd: proj, hook_event_name: "BeforeAgent", timestamp: new Date().toISOString(), prompt }), ["AfterTool", "--assistant", "gemini"], (i) => ({ session_id: "g", transcript_path: "/x", cwd: proj, hook_event_name: "AfterTool", timestamp: `t${i}`, tool_name: "run_shell_command", tool_input: { command: `make ${i}` }, tool_response: { llmContent: "ok" } })],
    ["copilot", ["userPromptSubmitted", "--assistant", "copilot"], (i) => ({ sessionId: `p${i}`, timestamp: i, cwd: proj, prompt }), ["postToolUse", "--assistant", "copilot"], (i) => ({ sessionId: "p", timestamp: i, cwd: proj, toolName: "bash", toolArgs: `{"command":"make ${i}"}`, toolResult: { resultType: "success", textResultForLlm: "ok" } })],
  ];
  // Warm: a prompt starts the daemon; wait until it answers, then a few prompts for its caches.
  await run([BIN, "hook", "user-prompt-submit"], JSON.stringify(KINDS[0]![2](0)), env);
  for (let i = 0; i < 100 && (await ask(home, { op: "ping" }, 300)).kind !== "reply"; i++) await new Promise((r) => setTimeout(r, 100));
  for (let i = 0; i < 5; i++) await run([BIN, "hook", "user-prompt-submit"], JSON.stringify(KINDS[0]![2](1_000 + i)), env);

  for (const [name, promptArgs, promptPayload, captureArgs, capturePayload] of KINDS) {
    for (const [what, args, payload] of [["prompt", promptArgs, promptPayload], ["capture", captureArgs, capturePayload]] as const) {
      const bare: number[] = [];
      const hook: number[] = [];
      let printed = 0;
      for (let i = 0; i < N; i++) {
        bare.push((await run(["-e", "0"], "", env)).ms);
        const r = await run([BIN, "hook", ...args], JSON.stringify(payload(i)), env);
        hook.push(r.ms);
        if (r.stdout.includes("additionalContext")) printed++;
      }
      const b = stats(bare);
      const h = stats(hook);
      log(`${name.padEnd(8)} ${what.padEnd(8)} p50 ${h.p50.toFixed(0)} ms, p95 ${h.p95.toFixed(0)} ms; bare spawn p50 ${b.p50.toFixed(0)} ms, p95 ${b.p95.toFixed(0)} ms; over bare p50 +${(h.p50 - b.p50).toFixed(0)} ms${what === "prompt" ? `; ${printed}/${N} got context` : ""}`);
    }
  }
  await ask(home, { op: "stop" }, 2_000);
} finally {
  rmSync(work, { recursive: true, force: true });
}
