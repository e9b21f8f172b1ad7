import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, lstatSync } from "node:fs";
import { delimiter, join } from "node:path";
import { dataHome } from "../config/paths.cjs";
import { hookDrift } from "../install/drift.js";
import { MARK_KEY, MARK_VALUE } from "../install/hooks.js";
import { currentTarget } from "../install/target.js";
import { SCOPES, settingsPath, type Where } from "../install/files.js";
import { readSettingsFile, type SettingsFile } from "../install/settings-file.js";
import { findMemHooks, lookalikeWarning } from "../install/settings.js";
import type { Check } from "./check.js";

/** The absolute `…/bin/mem.cjs` (or earlier `mem.js`) a handler runs, if it names one. */
function binOf(handler: Record<string, unknown>): string | undefined {
  const words = Array.isArray(handler.args) ? (handler.args as unknown[]).filter((a): a is string => typeof a === "string") : [];
  return words.find((w) => /^(\/|[A-Za-z]:[\\/]).*[\\/]bin[\\/]mem\.c?js$/.test(w));
}

/**
 * mem's hooks in the Claude Code settings files of every scope, seen from `where`: present, all
 * ten, runnable (the files they run exist), and as this checkout would install them here (its
 * node, its paths, the NODE_EXTRA_CA_CERTS wrapper when that is set).
 */
export function hookChecks(where: Where, platform: string = process.platform): Check[] {
  const checks: Check[] = [];
  const target = currentTarget(where.env, platform);
  for (const scope of SCOPES) {
    const file = settingsPath(scope, where);
    const name = `hooks (${scope})`;
    let settings: SettingsFile["settings"];
    try {
      const read = readSettingsFile(file);
      if (!read.exists) continue;
      settings = read.settings;
    } catch (err) {
      checks.push({ name, status: "error", detail: `${file}: ${(err as Error).message}`, fix: "fix the file's JSON; Claude Code ignores a settings file it cannot parse" });
      continue;
    }
    const lookalikes = lookalikeWarning(file, settings);
    if (lookalikes) checks.push({ name: `${name}: look-alikes`, status: "warn", detail: lookalikes, fix: "delete a handler left by an older mem by hand; keep one that is yours" });
    const found = findMemHooks(settings);
    if (found.length === 0) continue;
    const missingBins = [...new Set(found.map((f) => binOf(f.handler)).filter((b): b is string => b !== undefined && !existsSync(b)))];
    if (missingBins.length > 0) {
      checks.push({ name, status: "error", detail: `${file}: the hooks run ${missingBins.join(", ")}, which is not there (a moved or removed mem?)`, fix: `\`mem install --scope ${scope}\` with the mem to use (a checkout or an npm install)` });
      continue;
    }
    const r = hookDrift(settings, target);
    const unmarked = found.filter((f) => f.handler[MARK_KEY] !== MARK_VALUE).length;
    const viaMcp = r.viaMcp;
    if (!r.changed) {
      checks.push({ name, status: "ok", detail: `${file}: all ${r.events.length} hooks, as this mem installs them${target.caWrapper ? " (through bin/mem-hook.sh)" : target.hookClient ? " (the hot ones through bin/mem-hook.sh)" : ""}${viaMcp ? " (the prompt's through the MCP server)" : ""}` });
      continue;
    }
    const why = [
      r.added.length > 0 ? `missing ${r.added.join(", ")}` : "",
      r.updated.length > 0 ? `${r.updated.length} differ from what this mem would install (another node or copy of mem${target.caWrapper ? ", or not through bin/mem-hook.sh although NODE_EXTRA_CA_CERTS is set" : target.hookClient ? ", or the hot ones not through bin/mem-hook.sh" : ""}${unmarked > 0 ? `, or written before install marked its hooks "${MARK_KEY}": "${MARK_VALUE}"` : ""})` : "",
      r.removed.length > 0 ? `extra copies under ${r.removed.join(", ")}` : "",
    ].filter(Boolean);
    checks.push({ name, status: "warn", detail: `${file}: ${why.join("; ")}`, fix: `\`mem install --scope ${scope}\`` });
  }
  if (!checks.some((c) => !c.name.endsWith("look-alikes"))) checks.push({ name: "hooks", status: "warn", detail: "no mem hooks in any Claude Code settings file (fine if mem is installed as a plugin)", fix: "`mem install --scope user`" });
  else if (target.hookClient || target.caWrapper) checks.push(curlCheck(where.env));
  return checks;
}

/** Whether bin/mem-hook.sh's curl client can run here: curl on PATH, built with Unix sockets (7.40+). */
export function curlCheck(env: NodeJS.ProcessEnv): Check {
  const name = "hook client";
  let version: string;
  try {
    version = execFileSync("curl", ["--version"], { env: { PATH: env.PATH ?? "" }, timeout: 3_000, stdio: ["ignore", "pipe", "ignore"] }).toString();
  } catch {
    return { name, status: "warn", detail: "no curl on PATH: the hot hooks (a prompt, a tool call, a stop) start Node each time, about 20-30 ms more than curl", fix: "install curl (7.40 or later)" };
  }
  const first = version.split("\n")[0]?.split(" ").slice(0, 2).join(" ") ?? "curl";
  if (!/^Features:.*\bUnixSockets\b/m.test(version)) return { name, status: "warn", detail: `${first} cannot use Unix sockets: the hot hooks start Node each time`, fix: "install curl 7.40 or later, built with Unix socket support" };
  const home = dataHome(env);
  const refused = homeRefusal(home, env);
  if (refused) return { name, status: "warn", detail: `${first} with Unix sockets, but the hot hooks start Node each time: ${refused.why}`, fix: refused.fix };
  return { name, status: "ok", detail: `${first} with Unix sockets: the hot hooks ask the warm daemon without starting Node (MEM_HOOK_CLIENT=node turns it off)` };
}

/** Whether an executable `name` is in one of PATH's directories. */
function onPath(name: string, path: string): boolean {
  return path.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir || ".", name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Why bin/mem-hook.sh would not use the daemon's socket in `home` (it checks the same), if it would not. */
function homeRefusal(home: string, env: NodeJS.ProcessEnv): { why: string; fix: string } | undefined {
  const because = (why: string, fix: string) => ({ why, fix });
  if (!onPath("find", env.PATH ?? "")) return because("no find on PATH to check who may write to the data home", "install find (findutils)");
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(home);
  } catch {
    return undefined; // made private by the first daemon
  }
  if (st.isSymbolicLink()) return because(`the data home ${home} is a symlink`, "set MEM_HOME to the directory it points to");
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) return because(`the data home ${home} is not yours`, "use a data home of your own (MEM_HOME)");
  if ((st.mode & 0o022) !== 0) return because(`others may write to the data home ${home} (mode ${(st.mode & 0o777).toString(8)})`, `chmod 700 ${home}`);
  return undefined;
}

/** Whether a settings file seen from `where` has the prompt hook as an mcp_tool call to mem's MCP server. */
export function promptViaMcp(where: Where): boolean {
  return SCOPES.some((scope) => {
    try {
      return findMemHooks(readSettingsFile(settingsPath(scope, where)).settings).some((f) => f.name === "user-prompt-submit" && f.handler.type === "mcp_tool");
    } catch {
      return false;
    }
  });
}
