/** Opening the explorer in the user's browser: whether one can be opened here, and the opener. */
import { spawn } from "node:child_process";
import { writeOpenPage } from "../web/open-page.js";

/** Whether a browser can be opened here: macOS and Windows always; elsewhere a display is needed. */
export function canOpenBrowser(env: NodeJS.ProcessEnv, platform: string = process.platform): boolean {
  if (platform === "darwin" || platform === "win32") return true;
  return Boolean(env.DISPLAY?.trim() || env.WAYLAND_DISPLAY?.trim());
}

/** The opener's command and arguments for an address (file:// or http://). Pure. */
export function openerCommand(url: string, platform: string = process.platform): [string, string[]] {
  // cmd.exe reads `&` as a command separator: escaped, so the whole address reaches `start`.
  return platform === "darwin" ? ["open", [url]] : platform === "win32" ? ["cmd", ["/c", "start", "", url.replace(/[&^%]/g, "^$&")]] : ["xdg-open", [url]];
}

/** Runs the opener on an address; a machine without one is no error (the address is printed). */
function runOpener(url: string): void {
  const [cmd, args] = openerCommand(url);
  try {
    const child = spawn(cmd, args, { detached: true, stdio: "ignore" });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // no opener here: the address is printed
  }
}

/**
 * Opens an explorer page in the user's browser by its opening link (`/open?…&sig=`), the way
 * Jupyter does: the link goes into a private page in the data home (../web/open-page.ts) and the
 * opener is given that file's address, so no command line holds anything another account could
 * use. False when the page could not be written (nothing is opened then: the address is printed).
 */
export function openInBrowser(home: string, link: string): boolean {
  let page: string;
  try {
    page = writeOpenPage(home, link);
  } catch {
    return false;
  }
  runOpener(page);
  return true;
}
