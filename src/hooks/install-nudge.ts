/**
 * After an upgrade, the hooks in Claude Code's settings stay as the older mem wrote them (the hot
 * ones starting Node each time) until `mem install` runs again. SessionStart tells the user so, in
 * a `systemMessage` (shown to the user, never to the model), at most once a day per data home.
 */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hookDrift } from "../install/drift.js";
import { readSettingsFile, SCOPES, settingsPath, type Scope } from "../install/files.js";
import { currentTarget } from "../install/target.js";
import { withCaCertsBack } from "./ca-env.js";

export const NUDGE_EVERY_MS = 24 * 3600_000;

/** The stamp whose mtime is when the user was last told. */
export const nudgeStamp = (home: string) => join(home, "install-nudge");

/**
 * The notice for the user, or undefined: nothing differs, or they were told less than a day ago.
 * Reads the three settings files (a few KB); never throws.
 */
export function installNudge(o: { env: NodeJS.ProcessEnv; cwd: string; home: string; now: number }): string | undefined {
  try {
    if (o.now - statSync(nudgeStamp(o.home)).mtimeMs < NUDGE_EVERY_MS) return undefined;
  } catch {
    // never told
  }
  const target = currentTarget(withCaCertsBack(o.env)); // as `mem install` saw it, before bin/mem-hook.sh moved the certificates aside
  const stale: { scope: Scope; file: string }[] = [];
  for (const scope of SCOPES) {
    const file = settingsPath(scope, { env: o.env, cwd: o.cwd });
    try {
      const read = readSettingsFile(file);
      if (!read.exists) continue;
      const d = hookDrift(read.settings, target);
      if (d.found > 0 && (d.updated.length > 0 || d.added.length > 0)) stale.push({ scope, file });
    } catch {
      // an unreadable file is `mem doctor`'s to report
    }
  }
  if (stale.length === 0) return undefined;
  try {
    writeFileSync(nudgeStamp(o.home), `${new Date(o.now).toISOString()}\n`);
  } catch {
    return undefined; // a data home that cannot be written would repeat it at every session
  }
  const where = stale.map((s) => s.file).join(" and ");
  const fix = stale.map((s) => `\`mem install --scope ${s.scope}\``).join(", ");
  return `mem: the hooks in ${where} are not the ones this mem installs (an older version's, or another copy's: the prompt's hook may start Node each time). Run ${fix} to update them; \`mem doctor\` says more. (Shown at most once a day.)`;
}
