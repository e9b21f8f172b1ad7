/**
 * Where each assistant keeps its hooks and MCP servers, per scope (docs/assistants.md has the
 * sources), and which assistants this machine has (`--for all`).
 *
 *   codex    user: $CODEX_HOME or ~/.codex/{hooks.json,config.toml}; project: <repo>/.codex/…
 *   gemini   user: $GEMINI_CLI_HOME or ~ /.gemini/settings.json; project: <repo>/.gemini/settings.json
 *   copilot  hooks: $COPILOT_HOME or ~/.copilot/hooks/mem.json, <repo>/.github/hooks/mem.json;
 *            MCP: $COPILOT_HOME or ~/.copilot/mcp-config.json, <repo>/.github/mcp.json
 */
import { accessSync, constants, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { ASSISTANTS, type AssistantName } from "../contract/adapter.cjs";
import { projectRoot, userConfigDir, type Where } from "./files.js";

export type AssistantScope = "user" | "project";

/** Every assistant `--for` names: Claude Code and the three with an adapter. */
export const TARGETS = ["claude", ...ASSISTANTS] as const;
export type Target = (typeof TARGETS)[number];

const home = (where: Where) => where.env.HOME || where.env.USERPROFILE || homedir();
const envDir = (where: Where, name: string): string | undefined => {
  const v = where.env[name];
  return v !== undefined && v.trim() !== "" ? resolve(where.cwd, v) : undefined;
};

/** The assistant's own folder for user scope. */
export function userDir(a: AssistantName, where: Where): string {
  if (a === "codex") return envDir(where, "CODEX_HOME") ?? join(home(where), ".codex");
  if (a === "gemini") return join(envDir(where, "GEMINI_CLI_HOME") ?? home(where), ".gemini");
  return envDir(where, "COPILOT_HOME") ?? join(home(where), ".copilot");
}

export interface AssistantFiles {
  /** The JSON file holding mem's hooks. */
  hooks: string;
  /** The file holding mem's MCP server (Codex: config.toml, which also turns hooks on). */
  mcp: string;
  /** The folder install may create, and uninstall remove when empty (the assistant's own, or .github/hooks). */
  base: string;
}

export function assistantFiles(a: AssistantName, scope: AssistantScope, where: Where): AssistantFiles {
  const root = scope === "project" ? projectRoot(where.cwd) : undefined;
  if (a === "codex") {
    const dir = root ? join(root, ".codex") : userDir(a, where);
    return { hooks: join(dir, "hooks.json"), mcp: join(dir, "config.toml"), base: root ?? dir };
  }
  if (a === "gemini") {
    const dir = root ? join(root, ".gemini") : userDir(a, where);
    return { hooks: join(dir, "settings.json"), mcp: join(dir, "settings.json"), base: root ?? dir };
  }
  if (root) return { hooks: join(root, ".github", "hooks", "mem.json"), mcp: join(root, ".github", "mcp.json"), base: root };
  const dir = userDir(a, where);
  return { hooks: join(dir, "hooks", "mem.json"), mcp: join(dir, "mcp-config.json"), base: dir };
}

const BINARIES: Record<Target, string> = { claude: "claude", codex: "codex", gemini: "gemini", copilot: "copilot" };

function onPath(name: string, path: string | undefined): boolean {
  return (path ?? "").split(delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** The assistants this machine has: its command on PATH, or its user folder. */
export function detectTargets(where: Where): Target[] {
  return TARGETS.filter((t) => onPath(BINARIES[t], where.env.PATH) || isDir(t === "claude" ? userConfigDir(where) : userDir(t, where)));
}
