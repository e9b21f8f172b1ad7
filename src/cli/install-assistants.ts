/**
 * `mem install --for …` / `mem uninstall --for …`: which assistants (`--for codex,gemini`,
 * repeated, or `all`: those this machine has), and the run and report for Codex CLI, Gemini CLI
 * and Copilot CLI. Claude Code keeps its own path (install-run.ts).
 */
import { isAssistantName, type AssistantName } from "../contract/adapter.cjs";
import { checkWritable, codexTrustPlan, commit, planAssistant, type AssistantFileReport, type Plan } from "../install/assistant-files.js";
import { assistantFiles, detectTargets, TARGETS, type AssistantScope, type Target } from "../install/assistant-paths.js";
import { codexHookHashes, findCodex } from "../install/codex-trust.js";
import { projectRoot, type Action, type Where } from "../install/files.js";
import { UsageError } from "./args.js";

/** `--for` in `mem install --help` and `mem uninstall --help`. */
export function forHelp(action: Action): string {
  const all = action === "install" ? "those found here: on PATH, or a folder in your home" : "every one";
  return `  --for A       which assistants: claude, codex, gemini, copilot, several (codex,gemini, or the
                flag repeated), or all (${all}). Without it: Claude Code.
                Codex: hooks.json and config.toml in ~/.codex/ or <repo>/.codex/; Gemini CLI:
                settings.json in ~/.gemini/ or <repo>/.gemini/; Copilot CLI: ~/.copilot/hooks/mem.json
                and mcp-config.json, or <repo>/.github/hooks/mem.json and .github/mcp.json
                (docs/assistants.md). These take --scope user or project.${action === "install" ? "\n                With codex on PATH, Codex's trust of mem's hooks is recorded." : ""}`;
}

/** The assistants `--for` names, in TARGETS order; undefined without `--for` (Claude Code, as before). */
export function targetsOf(given: string[] | undefined, where: Where, action: Action = "install"): Target[] | undefined {
  if (given === undefined || given.length === 0) return undefined;
  const words = given.flatMap((g) => g.split(",")).map((w) => w.trim().toLowerCase()).filter((w) => w !== "");
  if (words.length === 0) throw new UsageError(`--for needs one of: ${TARGETS.join(", ")}, all`);
  const out = new Set<Target>();
  for (const w of words) {
    // install: the assistants this machine has; uninstall: every one (where mem is not, nothing changes)
    if (w === "all") for (const t of action === "install" ? detectTargets(where) : TARGETS) out.add(t);
    else if (w === "claude" || w === "claude-code") out.add("claude");
    else if (isAssistantName(w)) out.add(w);
    else throw new UsageError(`--for: unknown assistant "${w.slice(0, 40)}" (one of: ${TARGETS.join(", ")}, all)`);
  }
  if (out.size === 0) throw new UsageError("--for all: no coding assistant found here (no claude, codex, gemini or copilot on PATH, nor their folders in your home)");
  return TARGETS.filter((t) => out.has(t));
}

/** `--scope` for these assistants: user or project (local is Claude Code's only). */
export function assistantScope(scope: string, others: AssistantName[]): AssistantScope {
  if (scope === "user" || scope === "project") return scope;
  throw new UsageError(`--scope ${scope} is Claude Code's only; ${others.join(", ")} ${others.length === 1 ? "has" : "have"} user and project scope`);
}

/** Every file the assistants' run changes, worked out before anything is written. @throws SettingsError */
export function planAll(action: Action, assistants: AssistantName[], scope: AssistantScope, where: Where, runner: { node: string; bin: string } | undefined, withMcp: boolean): Plan[] {
  return assistants.flatMap((assistant) => planAssistant({ action, assistant, scope, where, withMcp, ...(runner ? { runner } : {}) }));
}

const MANUAL_TRUST = "Codex runs a new or changed hook only once you trust it: start `codex`, choose \"Trust all and continue\" at \"Hooks need review\" (or review them under /hooks).";

/**
 * After Codex's hooks are written: asks the installed Codex (`codex` on PATH) for their hashes and
 * records its trust of mem's hooks, and of nothing else, in the user's config.toml. Without Codex,
 * or when it cannot answer, a warning says so and the user trusts them in Codex (MANUAL_TRUST).
 */
export async function trustCodex(scope: AssistantScope, where: Where, runner: { node: string; bin: string }, withMcp: boolean): Promise<{ reports: AssistantFileReport[]; warnings: string[] }> {
  const codex = findCodex(where.env);
  if (!codex) return { reports: [], warnings: ["no `codex` on PATH to ask for the hooks' hashes: trust them in Codex"] };
  const hooksFile = assistantFiles("codex", scope, where).hooks;
  try {
    const entries = await codexHookHashes(codex, where.env, scope === "project" ? projectRoot(where.cwd) : where.cwd, hooksFile);
    if (entries.length === 0) return { reports: [], warnings: [] };
    const plan = codexTrustPlan({ action: "install", assistant: "codex", scope, where, runner, withMcp }, entries);
    checkWritable([plan]);
    return { reports: commit([plan], { where, dryRun: false }), warnings: [] };
  } catch (err) {
    return { reports: [], warnings: [`could not record Codex's trust of mem's hooks (${(err as Error).message.slice(0, 300)}): trust them in Codex`] };
  }
}

const NAMES: Record<AssistantName, string> = { codex: "Codex CLI", gemini: "Gemini CLI", copilot: "Copilot CLI" };

const VERB: Record<AssistantFileReport["status"], [string, string]> = {
  installed: ["wrote mem's", "would write mem's"],
  updated: ["updated mem's", "would update mem's"],
  "already-installed": ["mem's", "mem's"],
  uninstalled: ["removed mem's", "would remove mem's"],
  "not-installed": ["no", "no"],
};

/** What to tell the user once an assistant is wired (or unwired). */
export function afterword(assistant: AssistantName, action: Action, scope: AssistantScope, reports: AssistantFileReport[]): string[] {
  if (action !== "install" || !reports.some((r) => r.changed && r.events.length > 0)) return [];
  if (assistant === "codex") {
    const trusted = reports.some((r) => r.holds === "hook trust" && r.changed);
    return [
      trusted ? "Codex's trust of these hooks is recorded (their hashes as Codex computed them); /hooks in Codex lists them." : MANUAL_TRUST,
      ...(scope === "project" ? ["Codex reads <repo>/.codex/ only in a project it trusts (it asks the first time you start it there)."] : []),
    ];
  }
  if (assistant === "gemini") return scope === "project" ? ["Gemini CLI runs a project's hooks only in a folder you trust (it asks; /permissions changes it)."] : [];
  return [];
}

/** The human report of one assistant's files. */
export function renderAssistant(assistant: AssistantName, action: Action, scope: AssistantScope, reports: AssistantFileReport[], dryRun: boolean): string {
  const lines: string[] = [`${NAMES[assistant]} (${scope} scope):`];
  for (const r of reports) {
    if (dryRun && r.changed) lines.push(r.diff.trimEnd());
    const [done, would] = VERB[r.status];
    const verb = r.changed && dryRun ? `dry run, nothing written: ${would}` : done;
    const what = r.status === "not-installed" ? `${r.holds.replace(/^hooks feature/, "mark")} of mem's in` : `${r.holds} ${r.status === "already-installed" ? "already in" : action === "install" ? "in" : "from"}`;
    lines.push(`  ${verb} ${what} ${r.file}${r.created ? " (new file)" : ""}${r.removed ? (dryRun ? " (it would be removed: nothing else was in it)" : " (removed: nothing else was in it)") : ""}${!r.changed ? `; nothing ${dryRun ? "would change" : "changed"}` : ""}`);
    if (r.changed && r.events.length > 0) lines.push(`    events: ${r.events.join(", ")}`);
    if (r.backup) lines.push(`    backup of the previous file: ${r.backup}`);
  }
  if (!dryRun) for (const a of afterword(assistant, action, scope, reports)) lines.push(`  ${a}`);
  return `${lines.join("\n")}\n`;
}

/** The JSON report of one assistant's files. */
export function assistantJson(assistant: AssistantName, scope: AssistantScope, reports: AssistantFileReport[], dryRun: boolean): Record<string, unknown> {
  return {
    assistant,
    scope,
    changed: reports.some((r) => r.changed),
    files: reports.map((r) => ({ file: r.file, holds: r.holds, status: r.status, changed: r.changed, created: r.created, removed: r.removed, backup: r.backup, events: r.events, ...(r.mcp ? { mcp: r.mcp } : {}), ...(dryRun ? { diff: r.diff } : {}) })),
  };
}
