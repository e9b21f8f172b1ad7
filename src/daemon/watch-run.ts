import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));

export interface IndexRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `mem index ARGS -q --json` in a child process of the daemon (its walk and SQLite writes never hold up a prompt). */
export function runIndex(args: string[], env: NodeJS.ProcessEnv, started: (child: ChildProcess) => void): Promise<IndexRun> {
  return new Promise<IndexRun>((resolve) => {
    const child = spawn(process.execPath, [BIN, "index", ...args, "-q", "--json"], { env, stdio: ["ignore", "pipe", "pipe"] });
    started(child);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", (err) => resolve({ code: null, stdout, stderr: err.message }));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** One log line from the summary `mem index --json` printed (a run, several, or a `--stale` report). */
export function describeRun(r: IndexRun): string {
  const line = r.stdout.trim().split("\n").pop() ?? "";
  try {
    const j = JSON.parse(line) as { files?: { indexed: number; deleted: number }; runs?: { files: { indexed: number; deleted: number } }[]; stale?: { why: string }[] };
    const runs = j.files ? [j] : (j.runs ?? []);
    const sum = (k: "indexed" | "deleted") => runs.reduce((n, x) => n + (x.files?.[k] ?? 0), 0);
    const stale = j.stale ? `${j.stale.length} root(s) changed${j.stale[0] ? ` (${j.stale[0].why})` : ""}; ` : "";
    return `${stale}${sum("indexed")} file(s) indexed, ${sum("deleted")} removed${r.code === 0 ? "" : ` (exit ${r.code})`}`;
  } catch {
    return `exit ${r.code}${r.stderr.trim() ? `: ${r.stderr.trim().split("\n").slice(-2).join(" / ")}` : ""}`;
  }
}
