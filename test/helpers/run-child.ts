import { spawn, type SpawnOptions } from "node:child_process";

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to close. */
  ms: number;
}

export interface RunOptions extends SpawnOptions {
  /** Written to the child's stdin (when it is a pipe). */
  input?: string | Buffer;
  /** Leave stdin open after `input` (a caller that never closes its end). Default: close it. */
  keepStdinOpen?: boolean;
}

/** Spawns a process, feeds its stdin, and collects what it prints until it closes. */
export function runChild(command: string, args: string[], { input, keepStdinOpen = false, ...options }: RunOptions): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, options);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started }));
    if (!child.stdin) return;
    child.stdin.on("error", () => undefined); // the child may stop reading a huge input early
    if (input !== undefined) child.stdin.write(input);
    if (!keepStdinOpen) child.stdin.end();
  });
}
