import { ScheduleError } from "./command.js";
import { cmdline, type Sys } from "./sys.js";

/** What one scheduling method did (or, on a dry run, would do). */
export interface Part {
  method: "systemd" | "cron" | "launchd";
  changed: boolean;
  /** Files (or "crontab") written, with exactly what is written. */
  writes: { target: string; content: string }[];
  /** Files (or "crontab") taken away, with exactly what is removed. */
  removes: { target: string; content: string }[];
  /** Programs run (or that would run). */
  commands: string[];
  warnings: string[];
}

export const part = (method: Part["method"]): Part => ({ method, changed: false, writes: [], removes: [], commands: [], warnings: [] });

/** Runs a program for `p` (only names it on a dry run); a failure throws with what it said, unless `tolerate`. */
export function exec(sys: Sys, p: Part, dryRun: boolean, cmd: string, args: string[], o: { input?: string; tolerate?: boolean } = {}): boolean {
  p.commands.push(cmdline(cmd, args));
  if (dryRun) return true;
  const r = sys.run(cmd, args, o.input);
  if (r.status === 0) return true;
  const why = r.missing ? `${cmd} is not installed` : (r.stderr.trim() || `exit status ${r.status}`).slice(0, 500);
  if (o.tolerate) {
    p.warnings.push(`${cmdline(cmd, args)}: ${why}`);
    return false;
  }
  throw new ScheduleError(`${cmdline(cmd, args)} failed: ${why}`);
}
