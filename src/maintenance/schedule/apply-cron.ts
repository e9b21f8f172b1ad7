import { ScheduleError, type JobCommand } from "./command.js";
import { findBlock, withBlock, withoutBlock } from "./cron.js";
import { exec, part, type Part } from "./part.js";
import type { Sys } from "./sys.js";
import type { MethodStatus } from "./types.js";

/** The user's crontab as `crontab -l` prints it ("" when there is none yet); undefined when crontab is not installed. */
function readCrontab(sys: Sys): string | undefined {
  const r = sys.run("crontab", ["-l"]);
  if (r.missing) return undefined;
  if (r.status === 0) return r.stdout;
  if (/no crontab/i.test(r.stderr)) return "";
  throw new ScheduleError(`crontab -l failed: ${(r.stderr.trim() || `exit status ${r.status}`).slice(0, 500)}`);
}

/** Adds mem's block to the user's crontab (replacing an older one); nothing when it is there already. */
export function installCron(sys: Sys, c: JobCommand, dryRun: boolean): Part {
  const p = part("cron");
  const current = readCrontab(sys);
  if (current === undefined) throw new ScheduleError("crontab is not installed");
  const next = withBlock(current, c);
  if (!next.changed) return p;
  p.changed = true;
  p.writes.push({ target: "crontab", content: `${next.block.join("\n")}\n` });
  exec(sys, p, dryRun, "crontab", ["-"], { input: next.text });
  return p;
}

/** Takes mem's block (and nothing else) out of the user's crontab. */
export function removeCron(sys: Sys, dryRun: boolean): Part {
  const p = part("cron");
  const current = readCrontab(sys);
  if (current === undefined) return p;
  const next = withoutBlock(current);
  if (next.removed.length === 0) return p;
  p.changed = true;
  p.removes.push({ target: "crontab", content: `${next.removed.join("\n")}\n` });
  exec(sys, p, dryRun, "crontab", ["-"], { input: next.text });
  return p;
}

export function statusCron(sys: Sys): MethodStatus {
  const current = readCrontab(sys);
  const lines = current === undefined || current === "" ? [] : current.replace(/\n$/, "").split("\n");
  const at = findBlock(lines);
  return at ? { method: "cron", installed: true, where: ["crontab"], state: lines.slice(at[0] + 1, at[1]).join("; ") } : { method: "cron", installed: false, where: [] };
}
