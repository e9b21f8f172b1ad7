import { join } from "node:path";
import { PACKAGE_ROOT } from "../../config/config.js";

/**
 * What the scheduler runs, and when: this node and this checkout's `bin/mem.cjs`, as `reindex -q`,
 * every Sunday at 03:17 local time, with the variables that decide which data home and which
 * embedding provider mem uses, as they are when the schedule is installed (a scheduler starts jobs
 * with an environment of its own).
 */
export interface JobCommand {
  node: string;
  bin: string;
  args: string[];
  env: [string, string][];
}

/** Variables carried into the scheduled job when set at install time. */
export const PASSED_ENV = ["MEM_HOME", "XDG_DATA_HOME", "MEM_EMBED_ORDER", "MEM_OLLAMA_HOST", "OLLAMA_HOST", "MEM_OLLAMA_MODEL", "MEM_TRANSFORMERS_MODEL", "MEM_MODELS_DIR", "MEM_ALLOW_REMOTE_MODELS"] as const;

/** Sunday (0) at 03:17, local time. */
export const WHEN = { weekday: 0, hour: 3, minute: 17 } as const;

/** Written into every file and block mem schedules, so that `remove` takes exactly those. */
export const MARKER = "mem schedule";

export class ScheduleError extends Error {
}

/** A value that cannot go into a unit file, a crontab line or a plist intact is refused, not mangled. */
function checked(what: string, value: string): string {
  if (/[\0\n\r]/.test(value)) throw new ScheduleError(`${what} holds a newline or NUL; it cannot be written into a schedule`);
  return value;
}

export function jobCommand(env: NodeJS.ProcessEnv, node: string = process.execPath, bin: string = join(PACKAGE_ROOT, "bin", "mem.cjs")): JobCommand {
  const vars: [string, string][] = [];
  for (const k of PASSED_ENV) {
    const v = env[k];
    if (v !== undefined && v !== "") vars.push([k, checked(k, v)]);
  }
  return { node: checked("the node path", node), bin: checked("mem's path", bin), args: ["reindex", "-q"], env: vars };
}

/** The job as a person would type it (for what `status` and `--dry-run` print). */
export function shown(c: JobCommand): string {
  return [...c.env.map(([k, v]) => `${k}=${shellQuote(v)}`), shellQuote(c.node), shellQuote(c.bin), ...c.args].join(" ");
}

/** POSIX sh single quoting. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
