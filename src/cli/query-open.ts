/**
 * `mem query --open`: the explorer's search page for the query, with the same filters. The running
 * `mem ui`'s address when one runs for this data home; else a `mem ui --no-open --port 0` started
 * in the background (its output to <home>/ui.log), waited for until it says where it listens.
 * Then the address is opened in the browser (when there is one) and printed.
 */
import { spawn } from "node:child_process";
import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { withCaCertsBack } from "../hooks/ca-env.js";
import { field, safeJson } from "../render/line.js";
import { readRunning, uiAddress, uiOpenLink } from "../web/running.js";
import { canOpenBrowser, openInBrowser } from "./browser.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));

/** How long a started explorer may take to say where it listens. */
export const START_WAIT_MS = 5_000;

export interface OpenAnswer {
  url: string;
  /** "running": an explorer was running; "started": this command started one (`pid`). */
  ui: "running" | "started";
  pid: number;
  opened: boolean;
}

/** The search page's parameters for a query and its filters (as the page reads them). */
export function searchPageParams(q: { text: string; project: string; allProjects: boolean; kinds?: readonly string[]; tags?: readonly string[]; path?: string; since?: string; until?: string; mode: string; k?: number }): Record<string, string> {
  const p: Record<string, string> = { q: q.text };
  p.project = q.allProjects ? "all" : q.project;
  if (q.kinds && q.kinds.length > 0) p.kind = q.kinds.join(",");
  if (q.tags && q.tags.length > 0) p.tag = q.tags.join(",");
  if (q.path) p.path = q.path;
  if (q.since) p.since = q.since.slice(0, 10);
  if (q.until) p.until = q.until.slice(0, 10);
  if (q.mode !== "hybrid") p.mode = q.mode;
  if (q.k !== undefined) p.k = String(Math.min(100, q.k));
  return p;
}


/** The address of the explorer's search page for `params`, starting an explorer when none runs; says what happened on `say`. */
export async function openSearchPage(home: string, params: Record<string, string>, o: { env: NodeJS.ProcessEnv; cwd: string; say: (line: string) => void; open: boolean }): Promise<OpenAnswer> {
  let ui: OpenAnswer["ui"] = "running";
  let running = readRunning(home);
  if (!running) {
    ui = "started";
    const started = startExplorer(home, o.env, o.cwd);
    const until = Date.now() + START_WAIT_MS;
    while (Date.now() < until) {
      running = readRunning(home);
      if (running?.pid === started) break;
      if (started === undefined) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!running || running.pid !== started) {
      throw new Error(`mem ui did not start within ${START_WAIT_MS / 1000} s (${join(home, "ui.log")} may say why); start it with \`mem ui\` and run the query again`);
    }
    o.say(`mem query: started the explorer in the background (pid ${started}, port ${running.port}; its output goes to ${join(home, "ui.log")}; stop it with \`kill ${started}\`)`);
  } else {
    o.say(`mem query: the explorer runs already (pid ${running.pid}, port ${running.port})`);
  }
  const url = uiAddress(home, "/search", params)!;
  // The browser gets a private page that holds a link working once: no command line holds anything.
  const link = uiOpenLink(home, "/search", params, Date.now());
  const opened = o.open && canOpenBrowser(o.env) && link !== undefined && openInBrowser(home, link);
  o.say(opened ? "mem query: opened the search page in the browser" : "mem query: no browser to open here: open the address printed");
  return { url, ui, pid: running.pid, opened };
}

/** `mem ui --no-open --port 0` in the background, in a session of its own; its pid (undefined when it could not start). */
function startExplorer(home: string, env: NodeJS.ProcessEnv, cwd: string): number | undefined {
  let log: number | "ignore" = "ignore";
  try {
    // Private, never through a link, and only a file of the user's.
    log = openSync(join(home, "ui.log"), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0), 0o600);
    const st = fstatSync(log);
    if (!st.isFile() || (process.getuid && st.uid !== process.getuid())) {
      closeSync(log);
      log = "ignore";
    }
  } catch {
    // no log then: the address is what matters
  }
  try {
    const child = spawn(process.execPath, [BIN, "ui", "--no-open", "--port", "0", "-q"], { cwd, detached: true, stdio: ["ignore", log, log], env: withCaCertsBack(env) });
    child.on("error", (err) => process.stderr.write(`mem query: cannot start mem ui: ${field(err.message, 300)}\n`));
    child.unref();
    return child.pid;
  } finally {
    if (typeof log === "number") closeSync(log);
  }
}

/** `mem query --open` once the command line is checked: prints the address (or, with --json, what happened) on stdout. */
export async function runOpen(home: string, q: Parameters<typeof searchPageParams>[0], o: { json: boolean; quiet: boolean }): Promise<number> {
  const say = (line: string) => {
    if (!o.quiet) process.stderr.write(`${line}\n`);
  };
  const a = await openSearchPage(home, searchPageParams(q), { env: process.env, cwd: process.cwd(), say, open: true });
  process.stdout.write(o.json ? `${safeJson(a)}\n` : `${a.url}\n`);
  return 0;
}
