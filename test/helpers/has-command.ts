import { execFileSync } from "node:child_process";

/** Whether `command --version` runs here (a tool some tests need and skip without). */
export function hasCommand(command: string): boolean {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
