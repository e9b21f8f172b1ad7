/**
 * The steps of `mem uninstall --all`, in the order they run: first what starts mem (the Claude
 * Code hooks, the MCP server entries, the weekly job), then the daemon, then, only when asked, the
 * data home. Each step runs twice: once as a dry run (the plan shown before anything changes),
 * then for real. Codex's, Gemini's and Copilot's hooks and MCP entries are a step per scope.
 */
import { existsSync, lstatSync, readdirSync, rmSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { ask } from "../daemon/client.cjs";
import { holderAlive, readLock } from "../daemon/lock.js";
import { lockPath } from "../daemon/paths.cjs";
import { stopDaemon } from "../daemon/stop.js";
import { uninstallFromFile, type Where } from "../install/files.js";
import { refuseReadOnly } from "../install/settings-file.js";
import { applyMcp } from "../install/mcp-files.js";
import type { Scope } from "../install/files.js";
import { scheduleRemove } from "../maintenance/schedule/schedule.js";
import type { Sys } from "../maintenance/schedule/sys.js";
import { ASSISTANTS, type AssistantName } from "../contract/adapter.cjs";
import { checkWritable, commit } from "../install/assistant-files.js";
import type { AssistantScope } from "../install/assistant-paths.js";
import { planAll, renderAssistant } from "./install-assistants.js";
import { render, renderMcp } from "./install-run.js";
import { renderSchedule } from "./schedule-cmd.js";

export interface RemoveContext {
  where: Where;
  /** The data home. */
  home: string;
  /** Remove the data home too (`--data`). */
  data: boolean;
  sys: Sys;
}

export interface StepOutcome {
  /** Something is (or, in a dry run, would be) changed. */
  changes: boolean;
  /** What it did or would do, for people: diffs, files, commands. */
  text: string;
}

export interface RemoveStep {
  name: string;
  /** Left out of the plan shown when it changes nothing (an assistant the user never wired). */
  quiet?: boolean;
  run(ctx: RemoveContext, dryRun: boolean): Promise<StepOutcome>;
}

/** The warnings worth showing here: not that another scope still holds mem's hooks, which a later step removes. */
const warned = (ws: readonly string[]) =>
  ws
    .filter((w) => !w.startsWith("mem hooks are still installed in "))
    .map((w) => `warning: ${w}\n`)
    .join("");

/** Claude Code's hooks in one scope's settings file (the file goes when it holds nothing else and mem created it). */
function claudeHooks(scope: Scope): RemoveStep {
  return {
    name: `Claude Code hooks (${scope} scope)`,
    async run(ctx, dryRun) {
      const r = uninstallFromFile({ scope, where: ctx.where, dryRun });
      if (dryRun && r.changed) refuseReadOnly(r.file); // refused in the plan, not halfway through
      // A file that goes whole needs no diff: it held mem's hooks and nothing else.
      return { changes: r.changed, text: render(r.removed ? { ...r, diff: "" } : r).replace(/^\n/, "") + warned(r.warnings) };
    },
  };
}

/** mem's entry in Claude Code's MCP servers of one scope (~/.claude.json or .mcp.json). */
function claudeMcp(scope: Scope): RemoveStep {
  return {
    name: `Claude Code MCP server (${scope} scope)`,
    async run(ctx, dryRun) {
      const r = applyMcp({ action: "uninstall", scope, where: ctx.where, dryRun });
      if (dryRun && r.changed) refuseReadOnly(r.file);
      return { changes: r.changed, text: renderMcp(r) + warned(r.warnings) };
    },
  };
}

/** Another assistant's hooks, MCP server (and, for Codex, the trust install recorded) in one scope. */
function assistantStep(assistant: AssistantName, scope: AssistantScope): RemoveStep {
  return {
    name: `${assistant} hooks and MCP server (${scope} scope)`,
    quiet: true,
    async run(ctx, dryRun) {
      const plans = planAll("uninstall", [assistant], scope, ctx.where, undefined, true);
      if (dryRun) checkWritable(plans); // refused in the plan, not halfway through
      const reports = commit(plans, { where: ctx.where, dryRun });
      const changes = reports.some((r) => r.changed);
      return { changes, text: changes ? renderAssistant(assistant, "uninstall", scope, reports, dryRun) : `no hooks or MCP server of mem's for ${assistant} (${scope} scope)\n` };
    },
  };
}

const weeklyJob: RemoveStep = {
  name: "the weekly maintenance job (mem schedule remove)",
  async run(ctx, dryRun) {
    const r = scheduleRemove(ctx.sys, { dryRun });
    return { changes: r.changed, text: `${renderSchedule(r)}\n` };
  },
};

const daemon: RemoveStep = {
  name: "the daemon (mem serve --stop)",
  async run(ctx, dryRun) {
    const holder = readLock(lockPath(ctx.home));
    const running = holder !== undefined && holderAlive(holder);
    if (dryRun) {
      const up = running || (await ask(ctx.home, { op: "status" }, 1_000)).kind === "reply";
      return { changes: up, text: up ? `would stop the daemon of ${ctx.home}${holder ? ` (pid ${holder.pid})` : ""}\n` : `no daemon running for ${ctx.home}\n` };
    }
    const done = await stopDaemon(ctx.home);
    return { changes: done === "stopped", text: done === "stopped" ? `stopped the daemon of ${ctx.home}\n` : `no daemon running for ${ctx.home}\n` };
  },
};

/** Files a data home of mem holds; a folder with none of them is not removed. */
const MARKS = ["mem.sqlite", "vectors", "config.json", "install-created.json", "hooks.log", "backups", "snapshots", "models"];

/** Why `home` must not be removed wholesale (the user's home, a folder holding it or the current one, not mem's), else undefined. Reads only. */
export function dataHomeRefusal(home: string, where: Where): string | undefined {
  const h = resolve(home);
  const inside = (child: string) => {
    const rel = relative(h, resolve(child));
    return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  };
  const userHome = where.env.HOME;
  if (h === resolve("/") || (userHome && inside(userHome))) return `${h} is or holds your home folder`;
  if (inside(where.cwd)) return `${h} is or holds the current folder`;
  if (lstatSync(h).isSymbolicLink()) return `${h} is a symlink; remove what it points to yourself`;
  const names = new Set(readdirSync(h));
  if (names.size > 0 && !MARKS.some((m) => names.has(m))) return `${h} holds none of mem's files (${MARKS.slice(0, 3).join(", ")}, …); remove it yourself if it is mem's`;
  return undefined;
}

function sizeOf(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        files++;
        try {
          bytes += lstatSync(p).size;
        } catch {
          // gone meanwhile
        }
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

const dataHomeStep: RemoveStep = {
  name: "the data home (memories, index, snapshots, backups)",
  async run(ctx, dryRun) {
    if (!existsSync(ctx.home)) return { changes: false, text: `no data home at ${ctx.home}\n` };
    if (!ctx.data) return { changes: false, text: `kept: ${ctx.home} (add --data to remove it, with every memory, the index, the snapshots and the install backups)\n` };
    const why = dataHomeRefusal(ctx.home, ctx.where);
    if (why) throw new Error(`refusing to remove the data home: ${why}`);
    const { files, bytes } = sizeOf(ctx.home);
    const what = `${ctx.home} (${files} file(s), ${(bytes / 1_048_576).toFixed(1)} MB: every memory, the index, the snapshots and the backups of your settings files)`;
    if (dryRun) return { changes: true, text: `would remove ${what}\n` };
    rmSync(ctx.home, { recursive: true, force: true });
    return { changes: true, text: `removed ${what}\n` };
  },
};

/** Every step of `mem uninstall --all`, in order. */
export function removeSteps(): RemoveStep[] {
  const scopes: Scope[] = ["local", "project", "user"];
  const others = (["project", "user"] as const).flatMap((scope) => ASSISTANTS.map((a) => assistantStep(a, scope)));
  return [...scopes.map(claudeHooks), ...scopes.map(claudeMcp), ...others, weeklyJob, daemon, dataHomeStep];
}
