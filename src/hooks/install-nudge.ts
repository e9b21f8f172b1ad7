/**
 * After an upgrade, the hooks in Claude Code's settings stay as the older mem wrote them until
 * `mem install` runs again: hot hooks (a prompt, a tool call, a stop) that start Node each time
 * instead of asking the warm daemon through bin/mem-hook.sh. SessionStart tells the user so, in a
 * `systemMessage` (shown to the user, never to the model). The settings are read at most once a
 * day per data home, and only that shape is reported: hooks the user removed, timeouts changed,
 * or an environment that differs from the install shell's (NODE_EXTRA_CA_CERTS) are not, as
 * `mem install` would not change what they see (`mem doctor` reports every difference).
 */
import { SCOPES, settingsPath, type Scope } from "../install/files.js";
import { readSettingsFile } from "../install/settings-file.js";
import { findMemHooks } from "../install/settings.js";
import { DAEMON_HOOKS, isHookName } from "../contract/hook.cjs";
import { writePrivate } from "../util/private-file.cjs";

import { nudgedRecently, nudgeStamp } from "./nudge-stamp.cjs";

export { NUDGE_EVERY_MS, nudgeStamp } from "./nudge-stamp.cjs";

/**
 * Whether a settings object holds a hot hook of mem's that runs Node directly: its command and
 * arguments name no `mem-hook.sh` (an install older than the curl client; a hand-written
 * `sh …/mem-hook.sh …` string is not one).
 */
export function predatesHookClient(settings: unknown): boolean {
  return findMemHooks(settings).some((h) => {
    if (!isHookName(h.name) || !DAEMON_HOOKS.has(h.name) || h.handler.type !== "command") return false;
    const args = Array.isArray(h.handler.args) ? (h.handler.args as unknown[]) : [];
    const words = [h.handler.command, ...args].filter((w): w is string => typeof w === "string");
    return !words.some((w) => /(?:^|[\\/\s])mem-hook\.sh(?:\s|$)/.test(w));
  });
}

/**
 * The notice for the user, or undefined: nothing to say, checked less than a day ago, not a
 * platform with the curl client (Windows), or a data home that cannot take the stamp. Never throws.
 */
export function installNudge(o: { env: NodeJS.ProcessEnv; cwd: string; home: string; now: number; platform?: string }): string | undefined {
  if ((o.platform ?? process.platform) === "win32") return undefined;
  if (nudgedRecently(o.home, o.now)) return undefined;
  try {
    writePrivate(nudgeStamp(o.home), `${new Date(o.now).toISOString()}\n`, "replace"); // 0600, never through a link
  } catch {
    return undefined; // a data home that cannot be written would check at every session
  }
  const stale: { scope: Scope; file: string }[] = [];
  for (const scope of SCOPES) {
    const file = settingsPath(scope, { env: o.env, cwd: o.cwd });
    try {
      const read = readSettingsFile(file);
      if (read.exists && predatesHookClient(read.settings)) stale.push({ scope, file });
    } catch {
      // an unreadable file is `mem doctor`'s to report
    }
  }
  if (stale.length === 0) return undefined;
  const where = stale.map((s) => s.file).join(" and ");
  const fix = stale.map((s) => `\`mem install --scope ${s.scope}\``).join(", ");
  return `mem: the hooks in ${where} are an older mem's: each prompt, tool call and stop starts Node (20-30 ms) instead of asking the warm daemon. Run ${fix} to update them (it also puts back any mem hook taken out); \`mem doctor\` says more. (Checked at most once a day.)`;
}
