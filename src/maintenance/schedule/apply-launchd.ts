import { join } from "node:path";
import type { JobCommand } from "./command.js";
import { putFile, readIfAny, takeFile } from "./apply-files.js";
import { LABEL, plist, PLIST_MARKER, plistPath } from "./launchd.js";
import { exec, part, type Part } from "./part.js";
import type { Sys } from "./sys.js";
import type { MethodStatus } from "./types.js";

const domain = (sys: Sys) => `gui/${sys.uid}`;

/** Writes the agent's plist and (re)loads it into the user's launchd domain. */
export function installLaunchd(sys: Sys, c: JobCommand, dataHome: string, dryRun: boolean): Part {
  const p = part("launchd");
  const path = plistPath(sys.home);
  putFile(p, path, plist(c, join(dataHome, "schedule.log")), PLIST_MARKER, dryRun);
  const loaded = !dryRun && sys.run("launchctl", ["print", `${domain(sys)}/${LABEL}`]).status === 0;
  if (p.changed || !loaded) {
    if (loaded) exec(sys, p, dryRun, "launchctl", ["bootout", `${domain(sys)}/${LABEL}`], { tolerate: true });
    exec(sys, p, dryRun, "launchctl", ["bootstrap", domain(sys), path]);
    p.changed = true;
  }
  return p;
}

export function removeLaunchd(sys: Sys, dryRun: boolean): Part {
  const p = part("launchd");
  const path = plistPath(sys.home);
  if (!readIfAny(path)?.includes(PLIST_MARKER)) {
    takeFile(p, path, PLIST_MARKER, true);
    return p;
  }
  exec(sys, p, dryRun, "launchctl", ["bootout", `${domain(sys)}/${LABEL}`], { tolerate: true });
  takeFile(p, path, PLIST_MARKER, dryRun);
  return p;
}

export function statusLaunchd(sys: Sys): MethodStatus {
  const path = plistPath(sys.home);
  if (!readIfAny(path)?.includes(PLIST_MARKER)) return { method: "launchd", installed: false, where: [] };
  const loaded = sys.run("launchctl", ["print", `${domain(sys)}/${LABEL}`]).status === 0;
  return { method: "launchd", installed: true, where: [path], state: loaded ? "loaded" : "not loaded" };
}
