/** Shared body of `mem install` and `mem uninstall`: options, the run, and the report. */
import { join } from "node:path";
import { PACKAGE_ROOT } from "../config/config.js";
import { EXIT, oneOf, parse, UsageError } from "../cli/args.js";
import { installToFile, SCOPES, uninstallFromFile, type Action, type ApplyReport, type Where } from "./files.js";
import { SH, type HookTarget } from "./hooks.js";
import { SettingsError } from "./settings.js";

/**
 * This process's node and this checkout's `bin/mem.cjs`, both absolute; through `bin/mem-hook.sh`
 * when this environment sets NODE_EXTRA_CA_CERTS (not on Windows), which Claude Code, started
 * from the same environment, would pass on to every hook.
 */
export function currentTarget(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): HookTarget {
  const target: HookTarget = { node: process.execPath, bin: join(PACKAGE_ROOT, "bin", "mem.cjs") };
  return env.NODE_EXTRA_CA_CERTS && platform !== "win32" ? { ...target, caWrapper: join(PACKAGE_ROOT, "bin", "mem-hook.sh") } : target;
}

export function scopeHelp(): string {
  return `  --scope S     user (default): $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json
                project: <git top level or cwd>/.claude/settings.json (shared with the team)
                local: <git top level or cwd>/.claude/settings.local.json (this machine only)`;
}

const HUMAN: Record<ApplyReport["status"], string> = {
  installed: "installed mem hooks in",
  updated: "updated mem hooks (new paths or settings) in",
  "already-installed": "mem hooks already installed in",
  uninstalled: "removed mem hooks from",
  "not-installed": "no mem hooks in",
};

const DRY: Partial<Record<ApplyReport["status"], string>> = {
  installed: "would install mem hooks in",
  updated: "would update mem hooks (new paths or settings) in",
  uninstalled: "would remove mem hooks from",
};

export function render(r: ApplyReport, target?: HookTarget): string {
  const lines: string[] = [];
  if (r.dryRun && r.changed) lines.push(r.diff.trimEnd());
  const where = `${r.file} (${r.scope} scope)`;
  if (!r.changed) {
    lines.push(`${HUMAN[r.status]} ${where}; nothing ${r.dryRun ? "would change" : "changed"}`);
  } else {
    const verb = r.dryRun ? `dry run, nothing written: ${DRY[r.status] ?? HUMAN[r.status]}` : HUMAN[r.status];
    lines.push(`${verb} ${where}${r.created ? " (new file)" : ""}`);
    lines.push(`  events: ${r.events.join(", ")}`);
    if (r.action === "install" && target) {
      const run = target.caWrapper ? `${SH} ${target.caWrapper} ${target.node}` : target.node;
      lines.push(`  each runs: ${run} ${target.bin} hook <event>`);
      if (target.caWrapper) lines.push("  (NODE_EXTRA_CA_CERTS is set here: the wrapper keeps Node from parsing that bundle at every hook; the daemon still gets it)");
    }
    if (r.backup) lines.push(`  backup of the previous file: ${r.backup}`);
    if (!r.dryRun && r.action === "install") lines.push("Claude Code reloads settings files by itself; interactive sessions run the hooks once the folder is trusted.");
  }
  return `${lines.join("\n")}\n`;
}

export async function runInstallCommand(action: Action, argv: string[], where: Where = { env: process.env, cwd: process.cwd() }): Promise<number> {
  const { values, positionals } = parse(argv, { scope: { type: "string" }, "dry-run": { type: "boolean" }, json: { type: "boolean" } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const scope = oneOf(values.scope, "scope", SCOPES) ?? "user";
  const dryRun = values["dry-run"] === true;
  const target = action === "install" ? currentTarget(where.env) : undefined;
  let report: ApplyReport;
  try {
    report = target ? installToFile({ scope, where, dryRun, target }) : uninstallFromFile({ scope, where, dryRun });
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    process.stderr.write(`mem ${action}: ${err.message}\n`);
    return EXIT.failure;
  }
  for (const w of report.warnings) process.stderr.write(`warning: ${w}\n`);
  if (values.json) {
    const { scope: s, file, changed, backup, events, status, warnings } = report;
    process.stdout.write(`${JSON.stringify({ scope: s, file, changed, backup, events, status, dryRun, warnings, ...(dryRun ? { diff: report.diff } : {}) })}\n`);
  } else {
    process.stdout.write(render(report, target));
  }
  return EXIT.ok;
}
