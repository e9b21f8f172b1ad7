import { spawn } from "node:child_process";
import { hasCommand } from "./has-command.js";

/** Why a test that needs a pseudo-terminal cannot run here (util-linux `script` provides one), or false. */
export const noPty: string | false = hasCommand("script") ? false : "no `script` (util-linux) for a pseudo-terminal";

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/**
 * Runs a command on a pseudo-terminal (stdin and stdout are a TTY for it) through `script`;
 * `answer` sees the output so far and may type into the terminal (once per call that returns a string).
 */
export function inPty(argv: string[], o: { env: NodeJS.ProcessEnv; cwd: string; answer?: (out: string) => string | undefined; timeoutMs?: number }): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", argv.map(quote).join(" "), "/dev/null"], { cwd: o.cwd, env: o.env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), o.timeoutMs ?? 30_000);
    const take = (d: Buffer) => {
      out += d.toString();
      const typed = o.answer?.(out);
      if (typed !== undefined) child.stdin.write(typed);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.stdin.on("error", () => undefined);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}
