/** Opening the explorer in the user's browser: whether one can be opened here, and the opener. */
import { spawn } from "node:child_process";

/** Whether a browser can be opened here: macOS and Windows always; elsewhere a display is needed. */
export function canOpenBrowser(env: NodeJS.ProcessEnv, platform: string = process.platform): boolean {
  if (platform === "darwin" || platform === "win32") return true;
  return Boolean(env.DISPLAY?.trim() || env.WAYLAND_DISPLAY?.trim());
}

/** Opens an address in the user's browser; a machine without one is no error (the address is printed). */
export function openBrowser(url: string): void {
  // cmd.exe reads `&` as a command separator: escaped, so the whole address reaches `start`.
  const [cmd, args] = process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", url.replace(/[&^%]/g, "^$&")]] : ["xdg-open", [url]];
  try {
    const child = spawn(cmd, args as string[], { detached: true, stdio: "ignore" });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // no opener here: the address is printed
  }
}
