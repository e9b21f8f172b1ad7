/**
 * The process Claude Code spawns for every hook (`mem hook <event>`, through bin/mem.cjs), and
 * Codex, Gemini CLI and Copilot CLI too (`mem hook <their event> --assistant <name>`).
 *
 * A spawn is paid on every prompt and every tool call, so this file and what it requires are
 * CommonJS, small and free of heavy imports: no ESM loader, no SQLite, no LanceDB. The hot hooks
 * (a prompt, a tool call) are answered by the warm daemon over its socket; everything else
 * (other events, no daemon, bad input) goes on to the full runner (run.ts) with what was read.
 */
import { writeSync } from "node:fs";
import { CAPTURE_HOOKS, DAEMON_HOOKS, DEADLINE_MS, isHookName, malformedCapture, MAX_STDIN_BYTES, parsePayload, type HookName, type Payload } from "../contract/hook.cjs";
import type { Adapter } from "../contract/adapter.cjs";
import { assistantArg, claudePayload, hookOutput } from "../contract/assistants.cjs";
import { dataHome } from "../config/paths.cjs";
import { Dial } from "../daemon/client.cjs";
import { hookLog } from "./log.cjs";
import { readStdin } from "./stdin.cjs";
import { captureViaDaemon, hookAsk, pretoolViaDaemon, promptViaDaemon } from "./via-daemon.cjs";
import { briefFromEntry } from "./brief-client.cjs";

/** Writes all of `text` to a descriptor that may be non-blocking (EAGAIN is retried). */
function writeAll(fd: number, text: string): void {
  let buf = Buffer.from(text);
  for (let tries = 0; buf.length > 0 && tries < 10_000; tries++) {
    try {
      buf = buf.subarray(writeSync(fd, buf));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") return; // stdout closed: nothing to tell anyone
    }
  }
}

/** The daemon's answer, or undefined when the full runner must take over. `null`: answered, print nothing. */
async function viaDaemon(name: HookName, payload: Payload | undefined, env: NodeJS.ProcessEnv, dial: Dial | undefined, adapter: Adapter | undefined): Promise<string | null | undefined> {
  if (!dial || !payload) return undefined; // a bad payload: the runner logs it
  if (CAPTURE_HOOKS.has(name) && malformedCapture(payload)) return undefined; // the runner logs and skips it
  const asked = hookAsk(name, payload);
  if (asked.kind === "none") return null; // a prompt that needs no memory, a forced continuation of a stop
  if (asked.kind === "capture") return (await captureViaDaemon(payload, env, dial)) ? null : undefined;
  const r = asked.kind === "pretool" ? await pretoolViaDaemon(asked.req, env, dial) : await promptViaDaemon(asked.req, env, dial);
  return r.answered ? (hookOutput(adapter, name, r.text) ?? null) : undefined;
}

/** mem's hook for `event`: Claude Code's own name, or the adapter's mapping of its assistant's event. */
function hookFor(event: string, adapter: Adapter | undefined): HookName | undefined {
  if (adapter) return adapter.hook(event);
  return isHookName(event) ? event : undefined;
}

/**
 * Runs hook `event` for this process and exits it (status 0, whatever happens). `args`: what
 * follows the event on the command line, where `--assistant <name>` picks another assistant's
 * contract (src/contract/assistants.cts); without it, Claude Code's.
 */
export async function hookMain(event: string, env: NodeJS.ProcessEnv, args: readonly string[] = []): Promise<never> {
  try {
    const chosen = assistantArg(args);
    const adapter = chosen.ok ? chosen.adapter : undefined;
    const name = chosen.ok ? hookFor(event, adapter) : undefined;
    if (!chosen.ok) {
      hookLog(env, `unknown assistant "${chosen.given}" ignored`);
    } else if (!name) {
      hookLog(env, adapter ? `${adapter.name}: no mem hook for its event "${event.slice(0, 60)}"; ignored` : `unknown hook "${event}" ignored`);
    } else {
      const deadlineAt = Date.now() + DEADLINE_MS[name];
      // The last guard: whatever is still pending at the deadline, the hook ends without output.
      setTimeout(() => process.exit(0), DEADLINE_MS[name] + 100).unref();
      // Hooks the daemon answers dial it now: the connect overlaps the wait for stdin.
      const dial = (DAEMON_HOOKS.has(name) || name === "session-start") && env.MEM_NO_DAEMON !== "1" ? new Dial(dataHome(env)) : undefined;
      const input = await readStdin(process.stdin, MAX_STDIN_BYTES, DEADLINE_MS[name] / 2);
      const parsed = input.truncated ? undefined : parsePayload(input.text);
      // Another assistant's payload in mem's own terms; Claude Code's as it came.
      const payload = parsed && (adapter ? adapter.payload(name, parsed) : claudePayload(parsed));
      // SessionStart: the daemon's briefing (src/hooks/brief-client.cts); the runner asks only if this did not.
      const brief = name === "session-start" && dial && payload ? await briefFromEntry(payload, env, adapter, dial) : undefined;
      let out = brief ? brief.out : await viaDaemon(name, payload, env, dial, adapter);
      dial?.hangUp(); // unused when the prompt needed no memory or the payload was bad
      const after: (() => Promise<void>)[] = [];
      if (out === undefined) {
        const { answerHook } = await import("./run.js");
        // A payload that parses reached the daemon above (when allowed): the runner must not ask again.
        out = await answerHook(name, input, { env, daemonTried: brief ? brief.asked : dial !== undefined, afterAnswer: (w) => after.push(w), ...(adapter ? { adapter } : {}) }, deadlineAt, payload);
      }
      if (out) writeAll(1, `${out}\n`);
      for (const work of after) await work(); // answered (or given up): starting the daemon no longer delays the answer
    }
  } catch (err) {
    hookLog(env, `${event.slice(0, 60)}: ${(err as Error).stack ?? String(err)}`);
  }
  process.exit(0); // a stdin left open, or a socket, would otherwise keep the process alive
}
