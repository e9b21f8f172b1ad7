/**
 * The UserPromptSubmit entry point: bin/mem.js routes `hook user-prompt-submit` here before
 * loading anything else, so the process loads only the prompt path (a few small modules over
 * node:net), not the CLI dispatcher or the stores. Always exits 0.
 */
import { contextOutput, DEADLINE_MS, parsePayload, readStdin, withDeadline } from "./contract.js";
import { hookLog, MAX_STDIN_BYTES } from "./run.js";
import { userPromptSubmit } from "./user-prompt.js";

export async function promptHook(env: NodeJS.ProcessEnv = process.env): Promise<0> {
  try {
    const deadline = DEADLINE_MS["user-prompt-submit"];
    const started = Date.now();
    const input = await readStdin(process.stdin, MAX_STDIN_BYTES, deadline / 2);
    const payload = input.truncated ? undefined : parsePayload(input.text);
    if (!payload) return 0;
    const text = await withDeadline(userPromptSubmit(payload, { stdin: process.stdin, stdout: process.stdout, env }), deadline - (Date.now() - started), () =>
      hookLog(env, `user-prompt-submit: deadline of ${deadline} ms reached; answered nothing`),
    );
    const out = contextOutput("UserPromptSubmit", text);
    if (out) process.stdout.write(`${out}\n`);
  } catch (err) {
    hookLog(env, `user-prompt-submit: ${(err as Error).stack ?? String(err)}`);
  }
  return 0;
}
