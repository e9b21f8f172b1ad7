/**
 * Who shares: the repository's git identity (`user.name <user.email>`, as git would sign a commit
 * there), else the account's name. Git runs only in a repository of this user's (its config could
 * otherwise be another account's), with an argument list (no shell), no filesystem monitor, no
 * variable steering it elsewhere, and a short timeout. The caller redacts what comes back.
 */
import { spawnSync } from "node:child_process";
import { userInfo } from "node:os";
import { gitEnv } from "../cold/git-history.js";
import { ownGitAt, SAFE_GIT_CONFIG } from "../project/git-marker.js";
import { oneLine } from "./madr-file.js";

export const GIT_TIMEOUT_MS = 2_000;

function gitConfig(root: string, key: string): string | undefined {
  const r = spawnSync("git", [...SAFE_GIT_CONFIG, "config", "--get", key], { cwd: root, env: gitEnv(process.env), timeout: GIT_TIMEOUT_MS, encoding: "utf8", maxBuffer: 64 * 1024, stdio: ["ignore", "pipe", "ignore"], windowsHide: true });
  if (r.status !== 0 || typeof r.stdout !== "string") return undefined;
  const v = oneLine(r.stdout).slice(0, 200);
  return v === "" ? undefined : v;
}

/** "Name <email>" from git config; either alone; else the OS user's name; else "unknown". Pure but for git and the OS. */
export function authorOf(root: string): string {
  if (ownGitAt(root)) {
    const name = gitConfig(root, "user.name");
    const email = gitConfig(root, "user.email");
    if (name && email) return `${name} <${email}>`;
    if (name || email) return (name ?? email)!;
  }
  try {
    return oneLine(userInfo().username) || "unknown";
  } catch {
    return "unknown";
  }
}
