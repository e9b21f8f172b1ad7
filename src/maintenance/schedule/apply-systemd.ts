import { join } from "node:path";
import type { JobCommand } from "./command.js";
import { putFile, readIfAny, takeFile } from "./apply-files.js";
import { exec, part, type Part } from "./part.js";
import { serviceUnit, SERVICE, TIMER, timerUnit, UNIT_HEADER, unitDir } from "./systemd.js";
import { systemdWorks, type Sys } from "./sys.js";
import type { MethodStatus } from "./types.js";

const paths = (sys: Sys) => {
  const dir = unitDir(sys.env, sys.home);
  return { dir, service: join(dir, SERVICE), timer: join(dir, TIMER) };
};

/** Writes the two units, reloads systemd and enables the timer (nothing when all is as it should be). */
export function installSystemd(sys: Sys, c: JobCommand, dryRun: boolean): Part {
  const p = part("systemd");
  const f = paths(sys);
  putFile(p, f.service, serviceUnit(c), UNIT_HEADER, dryRun);
  putFile(p, f.timer, timerUnit(), UNIT_HEADER, dryRun);
  const enabled = !p.changed && !dryRun ? sys.run("systemctl", ["--user", "is-enabled", TIMER]).stdout.trim() === "enabled" : false;
  if (p.changed || !enabled) {
    exec(sys, p, dryRun, "systemctl", ["--user", "daemon-reload"]);
    exec(sys, p, dryRun, "systemctl", ["--user", "enable", "--now", TIMER]);
    p.changed = true;
  }
  return p;
}

/** Stops and disables the timer, deletes mem's two units, reloads systemd. */
export function removeSystemd(sys: Sys, dryRun: boolean): Part {
  const p = part("systemd");
  const f = paths(sys);
  const ours = [f.service, f.timer].filter((x) => readIfAny(x)?.includes(UNIT_HEADER));
  if (ours.length === 0) {
    for (const x of [f.service, f.timer]) takeFile(p, x, UNIT_HEADER, true); // warns about a file not ours
    return p;
  }
  const manager = dryRun || systemdWorks(sys);
  if (manager) exec(sys, p, dryRun, "systemctl", ["--user", "disable", "--now", TIMER], { tolerate: true });
  for (const x of ours) takeFile(p, x, UNIT_HEADER, dryRun);
  if (manager) exec(sys, p, dryRun, "systemctl", ["--user", "daemon-reload"], { tolerate: true });
  return p;
}

export function statusSystemd(sys: Sys): MethodStatus {
  const f = paths(sys);
  const where = [f.service, f.timer].filter((x) => readIfAny(x)?.includes(UNIT_HEADER));
  if (where.length === 0) return { method: "systemd", installed: false, where: [] };
  if (!systemdWorks(sys)) return { method: "systemd", installed: true, where, state: "units written; no systemd user manager answers here" };
  const q = (args: string[]) => sys.run("systemctl", ["--user", ...args]).stdout.trim();
  const next = q(["show", TIMER, "--property=NextElapseUSecRealtime", "--value"]);
  return { method: "systemd", installed: true, where, state: `${q(["is-enabled", TIMER]) || "unknown"}, ${q(["is-active", TIMER]) || "unknown"}${next ? `; next run ${next}` : ""}` };
}
