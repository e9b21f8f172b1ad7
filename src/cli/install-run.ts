/** Shared body of `mem install` and `mem uninstall`: options, the run, and the report. */
import { dataHome } from "../config/paths.cjs";
import { field } from "../render/line.js";
import { EXIT, oneOf, parse, UsageError } from "./args.js";
import { note } from "./quiet.js";
import { installToFile, SCOPES, uninstallFromFile, type Action, type ApplyReport, type Where } from "../install/files.js";
import { refuseReadOnly } from "../install/settings-file.js";
import { SH, type HookTarget } from "../install/hooks.js";
import { MCP_SERVER_KEY, type McpTarget } from "../install/mcp-config.js";
import { applyMcp, type McpReport } from "../install/mcp-files.js";
import { SettingsError } from "../install/settings-json.js";
import { currentTarget } from "../install/target.js";
import { isAssistantName } from "../contract/adapter.cjs";
import { checkWritable, commit, type AssistantFileReport } from "../install/assistant-files.js";
import { assistantJson, assistantScope, planAll, renderAssistant, targetsOf, trustCodex } from "./install-assistants.js";


/**
 * This process's node and this checkout's `bin/mem.cjs`, both absolute. Not on Windows: the hot
 * hooks through `bin/mem-hook.sh` (its curl client), and every hook through it when this
 * environment sets NODE_EXTRA_CA_CERTS, which Claude Code, started from the same environment,
 * would pass on to every hook.
 */
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
    if (r.removed) lines.push(`  the file held nothing else: ${r.dryRun ? "it would be removed" : "removed"}`);
    if (r.action === "install" && target) {
      if (target.caWrapper) lines.push(`  each runs: ${SH} ${target.caWrapper} ${target.node} ${target.bin} hook <event>`);
      else if (target.hookClient) {
        lines.push(`  UserPromptSubmit, PreToolUse, PostToolUse(Failure), Stop, SubagentStop and Notification run: ${SH} ${target.hookClient} ${target.node} ${target.bin} hook <event>`);
        lines.push("    (asks the warm daemon with curl, a few ms; else runs the Node hook. MEM_HOOK_CLIENT=node: always Node)");
        lines.push(`  the others run: ${target.node} ${target.bin} hook <event>`);
      } else lines.push(`  each runs: ${target.node} ${target.bin} hook <event>`);
      if (target.promptServer) lines.push(`  except UserPromptSubmit: an mcp_tool hook, the tool prompt_context of the MCP server "${target.promptServer}" (no process spawned)`);
      if (target.caWrapper) lines.push("  (NODE_EXTRA_CA_CERTS is set here: the wrapper keeps Node from parsing that bundle at every hook; the daemon still gets it)");
    }
    if (r.backup) lines.push(`  backup of the previous file: ${r.backup}`);
    if (!r.dryRun && r.action === "install") lines.push("Claude Code reloads settings files by itself; interactive sessions run the hooks once the folder is trusted.");
  }
  return `${lines.join("\n")}\n`;
}

const MCP_HUMAN: Record<McpReport["status"], string> = {
  registered: "registered mem's MCP server in",
  updated: "updated mem's MCP server (new paths) in",
  "already-registered": "mem's MCP server already registered in",
  conflict: 'not registered: another MCP server is named "mem" in',
  removed: "removed mem's MCP server from",
  "not-registered": "no mem MCP server in",
  "not-ours": 'left as it is: the MCP server named "mem" is not mem\'s in',
};

export function renderMcp(r: McpReport, target?: McpTarget): string {
  const lines: string[] = [];
  if (r.dryRun && r.changed) lines.push(r.diff.trimEnd());
  const where = `${r.file} (${r.scope} scope)`;
  if (!r.changed) lines.push(`${MCP_HUMAN[r.status]} ${where}${r.status === "already-registered" || r.status === "not-registered" ? `; nothing ${r.dryRun ? "would change" : "changed"}` : ""}`);
  else {
    const verb = MCP_HUMAN[r.status].replace(/^(registered|updated|removed)/, (v) => (r.dryRun ? `dry run, nothing written: would ${{ registered: "register", updated: "update", removed: "remove" }[v]}` : v));
    lines.push(`${verb} ${where}${r.created ? " (new file)" : ""}`);
    if (r.action === "install" && target) lines.push(`  runs: ${target.node} ${target.bin} mcp (tools mcp__mem__search, remember, get, list, forget, tasks, prompt_context)`);
    if (r.backup) lines.push(`  backup of the previous file: ${r.backup}`);
    if (!r.dryRun && r.action === "install") lines.push("Claude Code starts MCP servers when a session starts: a session already running gets it after a restart.");
  }
  return `${lines.join("\n")}\n`;
}

/** `mem uninstall --all`'s own options (src/cli/remove-all.ts), for an unknown option's "did you mean". */
const REMOVE_ALL_OPTIONS = { all: { type: "boolean" as const }, data: { type: "boolean" as const }, yes: { type: "boolean" as const } };

export async function runInstallCommand(action: Action, argv: string[], where: Where = { env: process.env, cwd: process.cwd() }): Promise<number> {
  const { values, positionals } = parse(argv, { scope: { type: "string" }, for: { type: "string", multiple: true }, "dry-run": { type: "boolean" }, json: { type: "boolean" }, "no-mcp": { type: "boolean" }, ...(action === "install" ? { "prompt-transport": { type: "string" as const } } : REMOVE_ALL_OPTIONS) });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  // `mem uninstall --all` goes to remove-all.ts before this: its options are known here only to be matched when mistyped.
  for (const o of ["data", "yes"] as const) if ((values as Record<string, unknown>)[o] !== undefined) throw new UsageError(`--${o} goes with --all: mem uninstall --all --${o}`);
  const scope = oneOf(values.scope, "scope", SCOPES) ?? "user";
  const dryRun = values["dry-run"] === true;
  const withMcp = values["no-mcp"] !== true;
  const transport = oneOf((values as { "prompt-transport"?: string })["prompt-transport"], "prompt-transport", ["command", "mcp"] as const) ?? "command";
  if (transport === "mcp" && !withMcp) throw new UsageError("--prompt-transport mcp calls mem's MCP server: leave out --no-mcp");
  // --for: which assistants (without it, Claude Code as always).
  const targets = targetsOf(values.for as string[] | undefined, where, action);
  const others = (targets ?? []).filter(isAssistantName);
  const claude = targets === undefined || targets.includes("claude");
  const otherScope = others.length > 0 ? assistantScope(scope, others) : "user";
  const base = action === "install" ? currentTarget(where.env) : undefined;
  const target = base && transport === "mcp" ? { ...base, promptServer: MCP_SERVER_KEY } : base;
  const mcpTarget: McpTarget | undefined = base ? { node: base.node, bin: base.bin } : undefined;
  let report: ApplyReport | undefined;
  let mcp: McpReport | undefined;
  let theirs: AssistantFileReport[] = [];
  try {
    // Every assistant's files read and worked out first: one that cannot be changed refuses the run before anything is written.
    const plans = planAll(action, others, otherScope, where, mcpTarget, withMcp);
    if (!dryRun) checkWritable(plans);
    if (claude && withMcp) {
      const planned = applyMcp({ action, scope, where, ...(mcpTarget ? { target: mcpTarget } : {}), dryRun: true }); // refuses an unreadable file before anything is written
      if (planned.changed && !dryRun) refuseReadOnly(planned.file); // and a read-only one
    }
    if (claude) report = target ? installToFile({ scope, where, dryRun, target }) : uninstallFromFile({ scope, where, dryRun });
    if (claude && withMcp) mcp = applyMcp({ action, scope, where, ...(mcpTarget ? { target: mcpTarget } : {}), dryRun });
    theirs = commit(plans, { where, dryRun });
    if (action === "install" && !dryRun && others.includes("codex") && mcpTarget) {
      const t = await trustCodex(otherScope, where, mcpTarget, withMcp);
      theirs.push(...t.reports);
      for (const w of t.warnings) note(`warning: ${w}`);
    }
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    process.stderr.write(`mem ${action}: ${err.message}\n`);
    return EXIT.failure;
  }
  const warnings = [...(report?.warnings ?? []), ...(mcp?.warnings ?? []), ...theirs.flatMap((r) => r.warnings), ...(action === "install" ? memHomeWarning(process.env, claude && others.length === 0 ? "Claude Code" : claude ? "the assistant" : others.length === 1 ? NAME[others[0]!] : "the assistant") : [])];
  for (const w of warnings) note(`warning: ${w}`);
  const byAssistant = others.map((a) => ({ a, reports: theirs.filter((r) => r.assistant === a) }));
  if (values.json) {
    let claudeJson: Record<string, unknown> | undefined;
    if (report) {
      const { scope: s, file, changed, backup, events, status, removed } = report;
      const m = mcp ? { file: mcp.file, changed: mcp.changed, backup: mcp.backup, status: mcp.status, ...(dryRun ? { diff: mcp.diff } : {}) } : null;
      claudeJson = { scope: s, file, changed, backup, events, status, ...(action === "uninstall" ? { removed } : {}), dryRun, warnings, ...(dryRun ? { diff: report.diff } : {}), mcp: m, ...(action === "install" ? { promptTransport: transport } : {}) };
    }
    const out = targets === undefined ? claudeJson : { dryRun, warnings, assistants: [...(claudeJson ? [{ assistant: "claude", ...claudeJson }] : []), ...byAssistant.map((x) => assistantJson(x.a, otherScope, x.reports, dryRun))] };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } else {
    if (report) process.stdout.write(render(report, target));
    if (mcp) process.stdout.write(renderMcp(mcp, mcpTarget));
    for (const x of byAssistant) process.stdout.write(renderAssistant(x.a, action, otherScope, x.reports, dryRun));
  }
  return EXIT.ok;
}

const NAME: Record<string, string> = { codex: "Codex CLI", gemini: "Gemini CLI", copilot: "Copilot CLI" };

/**
 * The data home of this shell is not written into the hooks: they run with Claude Code's
 * environment. A MEM_HOME set here (the quick start's throwaway one, say) is said, so that the
 * hooks do not silently use another store. Pure.
 */
export function memHomeWarning(env: NodeJS.ProcessEnv, who = "Claude Code"): string[] {
  if (!env.MEM_HOME || env.MEM_HOME.trim() === "") return [];
  const others = dataHome({ ...env, MEM_HOME: "" });
  const here = dataHome(env);
  if (here === others) return [];
  return [`MEM_HOME is set in this shell (${field(here, 300)}); the hooks and the MCP server run with ${who}'s environment and use ${field(others, 300)} unless ${who} is started with the same MEM_HOME`];
}
