/**
 * `mem doctor`'s view of the coding assistants: which are wired to mem here (their hooks file and
 * mem's MCP server, per scope, as `mem install --for …` writes them) and when a hook of each last
 * fired (the newest event captured from it: every event from Codex, Gemini or Copilot carries
 * `metadata.assistant`; Claude Code's carry none).
 */
import { ASSISTANTS, type AssistantName } from "../contract/adapter.cjs";
import { ASSISTANT_HOOKS, foundAssistantHooks } from "../install/assistant-hooks.js";
import { assistantFiles, type AssistantScope, type Target } from "../install/assistant-paths.js";
import { codexConfigState } from "../install/codex-config.js";
import { SCOPES, settingsPath, type Where } from "../install/files.js";
import { readSettingsFile } from "../install/settings-file.js";
import { isMemMcpEntry } from "../install/mcp-config.js";
import { mcpRegistrations } from "../install/mcp-files.js";
import { findMemHooks } from "../install/settings.js";
import { isObject } from "../install/settings-json.js";
import { readRegular } from "../util/read-regular.cjs";
import type { Check } from "./check.js";

export interface Wiring {
  assistant: Target;
  scope: string;
  /** The file holding mem's hooks, and the events they cover. */
  hooks: string | null;
  events: string[];
  /** Of the events mem installs. */
  expected: number;
  /** The file registering mem's MCP server. */
  mcp: string | null;
  /** Codex: whether config.toml turns hooks on. */
  hooksFeature?: boolean;
  problem?: string;
}

const NAMES: Record<Target, string> = { claude: "Claude Code", codex: "Codex CLI", gemini: "Gemini CLI", copilot: "Copilot CLI" };

function wiringOf(a: AssistantName, scope: AssistantScope, where: Where): Wiring | undefined {
  const f = assistantFiles(a, scope, where);
  const w: Wiring = { assistant: a, scope, hooks: null, events: [], expected: ASSISTANT_HOOKS[a].length, mcp: null };
  try {
    const read = readSettingsFile(f.hooks);
    w.events = foundAssistantHooks(a, read.settings);
    if (w.events.length > 0) w.hooks = f.hooks;
    if (a !== "codex") {
      const m = a === "gemini" ? read : readSettingsFile(f.mcp);
      const entry = isObject(m.settings.mcpServers) ? m.settings.mcpServers.mem : undefined;
      if (entry !== undefined && isMemMcpEntry(entry)) w.mcp = f.mcp;
    }
  } catch (err) {
    w.problem = `${f.hooks}: ${(err as Error).message}`;
  }
  if (a === "codex") {
    const got = readRegular(f.mcp, 16 * 1024 * 1024);
    if (got.ok) {
      try {
        const state = codexConfigState(got.data.toString("utf8"));
        w.hooksFeature = state.hooksOn;
        if (state.mcp === "ours" || state.mcp === "runs-mem") w.mcp = f.mcp;
      } catch (err) {
        w.problem = `${f.mcp}: ${(err as Error).message}`;
      }
    }
  }
  return w.hooks || w.mcp || w.problem ? w : undefined;
}

/** Every assistant and scope where something of mem's is wired, seen from `where`. */
export function assistantWiring(where: Where): Wiring[] {
  const out: Wiring[] = [];
  for (const scope of SCOPES) {
    let events: string[] = [];
    try {
      events = [...new Set(findMemHooks(readSettingsFile(settingsPath(scope, where)).settings).map((h) => h.event))];
    } catch {
      // hookChecks reports an unreadable settings file
    }
    const mcp = mcpRegistrations(where).find((r) => r.scope === scope && r.ours)?.file ?? null;
    if (events.length > 0 || mcp) out.push({ assistant: "claude", scope, hooks: events.length > 0 ? settingsPath(scope, where) : null, events, expected: 8, mcp });
  }
  for (const a of ASSISTANTS) for (const scope of ["user", "project"] as const) {
    const w = wiringOf(a, scope, where);
    if (w) out.push(w);
  }
  return out;
}

/** The newest captured event of each assistant (ISO time), Claude Code's being those with a session and no assistant. */
export function lastEvents(db: { prepare(sql: string): { all(): unknown[] } }): Partial<Record<Target, string>> {
  const rows = db.prepare("SELECT coalesce(json_extract(metadata, '$.assistant'), 'claude') AS a, max(time) AS last FROM events WHERE session IS NOT NULL AND json_valid(metadata) GROUP BY a").all() as { a: string; last: string }[];
  const out: Partial<Record<Target, string>> = {};
  for (const r of rows) if (r.a === "claude" || (ASSISTANTS as readonly string[]).includes(r.a)) out[r.a as Target] = r.last;
  return out;
}

const when = (iso: string | undefined) => (iso ? `a hook last fired ${iso.slice(0, 16).replace("T", " ")} UTC (its newest captured event)` : "no event captured from it yet");

/** One check per assistant wired in a scope (Claude Code's hooks have their own checks: only its last event is said here), and a summary. */
export function assistantChecks(wiring: Wiring[], last: Partial<Record<Target, string>>): Check[] {
  const checks: Check[] = [];
  for (const w of wiring) {
    if (w.assistant === "claude") continue;
    const name = `assistant ${w.assistant} (${w.scope})`;
    const fix = `\`mem install --for ${w.assistant} --scope ${w.scope}\``;
    if (w.problem) {
      checks.push({ name, status: "error", detail: w.problem, fix: "fix the file; the assistant cannot read it either" });
      continue;
    }
    const missing = [
      w.events.length === 0 ? "no hooks" : w.events.length < w.expected ? `hooks for ${w.events.length} of ${w.expected} events` : "",
      w.mcp ? "" : "no MCP server",
      w.assistant === "codex" && w.hooksFeature !== true && w.events.length > 0 ? "config.toml does not turn hooks on ([features] hooks = true)" : "",
    ].filter(Boolean);
    const where = [w.hooks && `hooks in ${w.hooks} (${w.events.length} events)`, w.mcp && `MCP server in ${w.mcp}`].filter(Boolean).join("; ");
    checks.push(missing.length === 0 ? { name, status: "ok", detail: `${where}; ${when(last[w.assistant])}` } : { name, status: "warn", detail: `${where ? `${where}; ` : ""}${missing.join(", ")}; ${when(last[w.assistant])}`, fix });
  }
  const wired = [...new Set(wiring.map((w) => w.assistant))];
  const parts = wired.map((a) => `${NAMES[a]} (${wiring.filter((w) => w.assistant === a).map((w) => w.scope).join(", ")})${last[a] ? `, last event ${last[a]!.slice(0, 16).replace("T", " ")}` : ""}`);
  const unwired = (["claude", ...ASSISTANTS] as Target[]).filter((a) => !wired.includes(a));
  checks.push({ name: "assistants", status: "ok", detail: `${wired.length > 0 ? `wired: ${parts.join("; ")}` : "none wired here"}${unwired.length > 0 ? `; not wired: ${unwired.map((a) => NAMES[a]).join(", ")} (\`mem install --for ${unwired.join(",")}\`)` : ""}` });
  return checks;
}
