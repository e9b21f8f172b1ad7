import { openApp } from "../app.js";
import { dataHome } from "../config/paths.cjs";
import { WHEN } from "../maintenance/schedule/command.js";
import { scheduleInstall, scheduleRemove, scheduleStatus, VIAS, type ScheduleReport, type Via } from "../maintenance/schedule/schedule.js";
import { realSys } from "../maintenance/schedule/sys.js";
import type { MethodStatus } from "../maintenance/schedule/types.js";
import { lastFinishedJob } from "../store/jobs.js";
import { EXIT, oneOf, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { safeJson } from "../render/line.js";

const usage = `Usage: mem schedule install|remove|status [--via systemd|cron|launchd] [--dry-run] [--json]

Runs \`mem reindex -q\` (the weekly maintenance run) every Sunday at 03:17 local time, with what the
platform has: on Linux a systemd user timer (~/.config/systemd/user/mem-reindex.{service,timer})
when \`systemctl --user\` answers, else a block of three lines in your crontab between
"# >>> mem schedule" and "# <<< mem schedule" markers; on macOS a launchd agent
(~/Library/LaunchAgents/dev.mem.reindex.plist). The job runs this node and this checkout's
bin/mem.cjs, with MEM_HOME, XDG_DATA_HOME and the MEM_*/OLLAMA_HOST embedding settings as they are
now.

  install   write it (printing exactly what is written) and enable it; a second install changes
            nothing; mem's entry in the other method, if any, is removed (one schedule, never two)
  remove    take out exactly what install wrote (only files and crontab lines carrying mem's
            marker), wherever it is
  status    where it is installed, what the scheduler says of it, and the last run's outcome

Options:
  --via M      install with systemd, cron or launchd instead of the platform's first choice
  --dry-run    print what would be written, removed and run; change nothing
  --json       {"action", "dryRun", "method", "changed", "command", "parts": [{"method", "changed",
               "writes": [{"target", "content"}], "removes": [...], "commands", "warnings"}],
               "status": [{"method", "installed", "where", "state"}], "lastRun"}
  -h, --help   this help`;

const indent = (text: string) => text.replace(/\n$/, "").split("\n").map((l) => `    | ${l}`);

function lastRun(): { status: string; finishedAt: string; problems: string[] } | null | string {
  try {
    const app = openApp(process.env, { tolerateConfigErrors: true });
    try {
      const r = lastFinishedJob(app.db, "reindex");
      return r ? { status: r.status, finishedAt: new Date(r.finished_at ?? r.started_at).toISOString(), problems: JSON.parse(r.problems) as string[] } : null;
    } finally {
      void app.close();
    }
  } catch (err) {
    return `unknown (${(err as Error).message})`;
  }
}

function statusLines(status: readonly MethodStatus[]): string[] {
  const on = status.filter((s) => s.installed);
  if (on.length === 0) return ["not scheduled (`mem schedule install` schedules it)"];
  return on.map((s) => `scheduled with ${s.method}: ${s.where.join(", ")}${s.state ? ` (${s.state})` : ""}`);
}

export function renderSchedule(r: ScheduleReport): string {
  const would = r.dryRun;
  const lines: string[] = [];
  if (r.action === "install") lines.push(`${would ? "would schedule" : "scheduled"} with ${r.method}: ${r.command}, weekly on Sunday at ${String(WHEN.hour).padStart(2, "0")}:${String(WHEN.minute).padStart(2, "0")}`);
  for (const p of r.parts) {
    for (const w of p.writes) lines.push(`${would ? "would write" : "wrote"} ${w.target}:`, ...indent(w.content));
    for (const x of p.removes) lines.push(`${would ? "would remove" : "removed"} ${x.target === "crontab" ? "from the crontab" : x.target}:`, ...indent(x.content));
    for (const c of p.commands) lines.push(`${would ? "would run" : "ran"}: ${c}`);
    for (const w of p.warnings) lines.push(`warning: ${w}`);
  }
  if (!r.changed) lines.push(r.action === "install" ? "already scheduled as it should be: nothing changed" : "nothing of mem's was scheduled: nothing changed");
  if (!would) lines.push(...statusLines(r.status));
  return lines.join("\n");
}

export const scheduleCommand: Command = {
  summary: "register `mem reindex` to run weekly: install, remove, status",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { via: { type: "string" }, "dry-run": { type: "boolean" }, json: { type: "boolean" } });
    const action = oneOf(positionals[0], "action", ["install", "remove", "status"] as const, "the action");
    if (!action) throw new UsageError("say install, remove or status");
    if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
    const via = oneOf(values.via, "via", VIAS) as Via | undefined;
    if (via && action !== "install") throw new UsageError("--via is for install (remove and status look everywhere)");
    const dryRun = values["dry-run"] === true;
    if (dryRun && action === "status") throw new UsageError("--dry-run is for install and remove");
    const sys = realSys();
    if (action === "status") {
      const status = scheduleStatus(sys);
      const last = lastRun();
      if (values.json) process.stdout.write(`${safeJson({ action, status, lastRun: last })}\n`);
      else {
        const lastLine = last === null ? "no `mem reindex` has run yet" : typeof last === "string" ? `last run: ${last}` : `last run: ${last.finishedAt}, ${last.status}${last.problems.length > 0 ? `: ${last.problems.join("; ")}` : ""}`;
        process.stdout.write(`${[...statusLines(status), lastLine].join("\n")}\n`);
      }
      return EXIT.ok;
    }
    const report = action === "install" ? scheduleInstall(sys, { ...(via ? { via } : {}), dryRun, dataHome: dataHome() }) : scheduleRemove(sys, { dryRun });
    process.stdout.write(`${values.json ? safeJson(report) : renderSchedule(report)}\n`);
    return EXIT.ok;
  },
};
