/**
 * How the source watcher (./watch.ts) re-indexes: `mem index` in a child process of the daemon, one
 * run at a time (a queue), each run's summary one log line, and a bounded wait for the run under
 * way when the daemon stops.
 */
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
    const j = JSON.parse(line) as { files?: { indexed: number; deleted: number }; runs?: { files: { indexed: number; deleted: number } }[]; stale?: { why: string }[]; error?: { message?: unknown } };
    if (j.error) return `exit ${r.code}: ${String(j.error.message)}`;
    const runs = j.files ? [j] : (j.runs ?? []);
    const sum = (k: "indexed" | "deleted") => runs.reduce((n, x) => n + (x.files?.[k] ?? 0), 0);
    const stale = j.stale ? `${j.stale.length} root(s) changed${j.stale[0] ? ` (${j.stale[0].why})` : ""}; ` : "";
    return `${stale}${sum("indexed")} file(s) indexed, ${sum("deleted")} removed${r.code === 0 ? "" : ` (exit ${r.code})`}`;
  } catch {
    return `exit ${r.code}${r.stderr.trim() ? `: ${r.stderr.trim().split("\n").slice(-2).join(" / ")}` : ""}`;
  }
}

/** On shutdown, a running re-index gets this long to finish before it is stopped. */
const CLOSE_WAIT_MS = 15_000;

/** Re-indexes run one after another, in the order queued. */
export class ReindexQueue {
  private chain: Promise<void> = Promise.resolve();
  /** Re-indexes queued or running. */
  private pending = 0;
  private runs = 0;
  private child: ChildProcess | undefined;
  private closed = false;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: (line: string) => void,
  ) {}

  /** Re-indexes started since the queue was made. */
  get started(): number {
    return this.runs;
  }

  /** A re-index is running or waiting to. */
  get busy(): boolean {
    return this.pending > 0;
  }

  enqueue(job: () => Promise<void>): void {
    this.pending++;
    this.chain = this.chain
      .then(job)
      .catch((err: Error) => this.log(`re-index failed: ${err.message}`))
      .finally(() => this.pending--);
  }

  /** `mem index ARGS -q --json` in a child process; its summary becomes one log line. Nothing once closed. */
  async run(args: string[], why: string): Promise<void> {
    if (this.closed) return;
    this.runs++;
    const t0 = Date.now();
    const r = await runIndex(args, this.env, (c) => (this.child = c));
    this.child = undefined;
    this.log(`re-index (${why}): ${describeRun(r)} in ${Date.now() - t0} ms`);
  }

  /** Starts no more runs; the one under way may finish (then is stopped). */
  async close(): Promise<void> {
    this.closed = true;
    const stop = setTimeout(() => this.child?.kill("SIGTERM"), CLOSE_WAIT_MS);
    await this.chain;
    clearTimeout(stop);
  }
}
