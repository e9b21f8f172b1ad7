/**
 * Where a running `mem ui` can be found: `<data home>/ui.json` ({port, pid}, the user's only) while
 * it runs, so `mem query --open` links into it. The token is in `ui-token` (./guard.ts).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { replacePrivate } from "../util/private-file.cjs";
import { readPrivate } from "../util/private-place.cjs";
import { alive as pidAlive } from "../daemon/lock.js";
import { openLink, storedToken } from "./guard.js";

export const runningPath = (home: string): string => join(home, "ui.json");

export function recordRunning(home: string, port: number, pid: number, now: number): void {
  replacePrivate(runningPath(home), `${JSON.stringify({ port, pid, startedAt: new Date(now).toISOString() })}\n`);
}

export function forgetRunning(home: string, pid: number): void {
  const r = readRunning(home, () => true);
  if (r?.pid === pid) rmSync(runningPath(home), { force: true });
}

/** The running explorer's port and pid; undefined when none runs (no file, a malformed one, one not the user's own, or its process is gone). */
export function readRunning(home: string, alive: (pid: number) => boolean = pidAlive): { port: number; pid: number } | undefined {
  const r = readPrivate(runningPath(home), 64 * 1024);
  if (!r.ok) return undefined;
  try {
    const v = JSON.parse(r.data.toString("utf8")) as { port?: unknown; pid?: unknown };
    if (!Number.isInteger(v.port) || !Number.isInteger(v.pid)) return undefined;
    const port = v.port as number;
    const pid = v.pid as number;
    if (port < 1 || port > 65_535 || pid < 1 || !alive(pid)) return undefined;
    return { port, pid };
  } catch {
    return undefined;
  }
}

/** The running explorer's port and token, and a page's path with its query; undefined when none runs (or its token file is gone). */
function runningPage(home: string, path: string, params: Record<string, string>): { port: number; token: string; page: string } | undefined {
  const r = readRunning(home);
  const token = storedToken(home);
  if (!r || token === undefined) return undefined;
  const q = new URLSearchParams(params).toString();
  return { port: r.port, token, page: `${path}${q ? `?${q}` : ""}` };
}

/** The address of a page of the explorer running for this data home, or undefined when none runs (or its token file is gone). */
export function uiAddress(home: string, path: string, params: Record<string, string>): string | undefined {
  const p = runningPage(home, path, params);
  return p && `http://127.0.0.1:${p.port}/${p.token}${p.page}`;
}

/** A link that opens that page once, without the token in it (for the browser's opener, whose command line others can read). */
export function uiOpenLink(home: string, path: string, params: Record<string, string>, now: number): string | undefined {
  const p = runningPage(home, path, params);
  return p && openLink(p.token, p.port, p.page, now);
}
