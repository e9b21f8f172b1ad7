import { installCron, removeCron, statusCron } from "./apply-cron.js";
import { installLaunchd, removeLaunchd, statusLaunchd } from "./apply-launchd.js";
import { installSystemd, removeSystemd, statusSystemd } from "./apply-systemd.js";
import { jobCommand, ScheduleError, shown } from "./command.js";
import type { Part } from "./part.js";
import { cronWorks, systemdWorks, type Sys } from "./sys.js";
import type { MethodStatus } from "./types.js";

/**
 * `mem schedule install|remove|status`: `mem reindex` weekly, with what the platform has. On
 * Linux a systemd user timer when `systemctl --user` answers, else the user's crontab; on macOS a
 * launchd agent. Install shows exactly what it writes, and takes mem's entry out of the other
 * method if one is there (one schedule, never two); remove takes exactly mem's entries out,
 * wherever they are; `--dry-run` says all of it and changes nothing.
 */
export type Via = "systemd" | "cron" | "launchd";
export const VIAS: readonly Via[] = ["systemd", "cron", "launchd"];

export interface ScheduleReport {
  action: "install" | "remove" | "status";
  dryRun: boolean;
  /** The method installed with (install), else null. */
  method: Via | null;
  changed: boolean;
  /** The job, as it is (or would be) scheduled. */
  command: string;
  parts: Part[];
  status: MethodStatus[];
}

/** The methods this platform can have mem's schedule in. */
export function methodsOf(sys: Sys): Via[] {
  return sys.platform === "darwin" ? ["launchd", "cron"] : ["systemd", "cron"];
}

export function chooseMethod(sys: Sys, via?: Via): Via {
  if (via) {
    if (!methodsOf(sys).includes(via)) throw new ScheduleError(`${via} is not a way to schedule jobs on ${sys.platform} (use ${methodsOf(sys).join(" or ")})`);
    return via;
  }
  if (sys.platform === "darwin") return "launchd";
  if (sys.platform === "win32") throw new ScheduleError("scheduling is not supported on Windows: run `mem reindex` weekly with the Task Scheduler");
  if (systemdWorks(sys)) return "systemd";
  if (cronWorks(sys)) return "cron";
  throw new ScheduleError("neither a systemd user manager (`systemctl --user`) nor `crontab` is available; run `mem reindex` weekly yourself");
}

const remover: Record<Via, (sys: Sys, dryRun: boolean) => Part> = { systemd: removeSystemd, cron: removeCron, launchd: removeLaunchd };
const stater: Record<Via, (sys: Sys) => MethodStatus> = { systemd: statusSystemd, cron: statusCron, launchd: statusLaunchd };

export function scheduleStatus(sys: Sys): MethodStatus[] {
  return methodsOf(sys).map((m) => stater[m](sys));
}

export function scheduleInstall(sys: Sys, o: { via?: Via; dryRun: boolean; dataHome: string }): ScheduleReport {
  const method = chooseMethod(sys, o.via);
  const c = jobCommand(sys.env);
  const main = method === "systemd" ? installSystemd(sys, c, o.dryRun) : method === "cron" ? installCron(sys, c, o.dryRun) : installLaunchd(sys, c, o.dataHome, o.dryRun);
  const others = methodsOf(sys)
    .filter((m) => m !== method && stater[m](sys).installed)
    .map((m) => remover[m](sys, o.dryRun));
  const parts = [main, ...others];
  return { action: "install", dryRun: o.dryRun, method, changed: parts.some((p) => p.changed), command: shown(c), parts, status: o.dryRun ? [] : scheduleStatus(sys) };
}

export function scheduleRemove(sys: Sys, o: { dryRun: boolean }): ScheduleReport {
  const parts = methodsOf(sys).map((m) => remover[m](sys, o.dryRun));
  return { action: "remove", dryRun: o.dryRun, method: null, changed: parts.some((p) => p.changed), command: shown(jobCommand(sys.env)), parts, status: o.dryRun ? [] : scheduleStatus(sys) };
}
