import { dataHome } from "../config/paths.cjs";
import { ask } from "../daemon/client.cjs";
import { holderAlive, readLock } from "../daemon/lock.js";
import { existsSync } from "node:fs";
import { lockPath, SERVE_FOR_HOOK } from "../daemon/paths.cjs";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { safeJson } from "../render/line.js";
import { daemonFigures, memoryLine } from "../health/daemon.js";

const usage = `Usage: mem serve [--status | --stop] [--json] [-q]

Runs the warm daemon for this data home in the foreground: it holds SQLite, LanceDB and the
embedding model open, answers the prompt hook over a Unix socket in the data home (when that
path is too long for a socket: in $XDG_RUNTIME_DIR, else in a private mem-<uid> directory
under the temp directory, or in a private directory of its own when someone else holds that
one; never where others can write), turns captured events into chunks and
vectors in the background, watches the indexed roots and re-indexes one soon after a file in it
changes (index.watch), and exits after daemon.idleMs (30 min) without a request. The prompt
hook starts it on its own when none is running; one runs per data home.

Options:
  --status     is a daemon running? (pid, socket, requests, provider, vectors held in
               memory, its RSS and V8 heap); exit 1 if not
  --stop       ask the running daemon to exit
  --json       machine-readable --status / --stop
  -q, --quiet  no log lines on stderr
  -h, --help   this help`;

/** `, watching 2 root(s) in 14 directories` from the status's `watch` (null when index.watch is off). */
function watching(w: unknown): string {
  if (w === null || typeof w !== "object") return "";
  const { watched, dirs, polled, missing } = w as Record<string, unknown>;
  return `, watching ${String(watched)} root(s) in ${String(dirs)} directories${polled ? `, ${String(polled)} scanned` : ""}${missing ? `, ${String(missing)} missing` : ""}`;
}

export const serveCommand: Command = {
  summary: "run the warm daemon",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { status: { type: "boolean" }, stop: { type: "boolean" }, json: { type: "boolean" }, quiet: { type: "boolean", short: "q" } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.status && values.stop) throw new UsageError("--status and --stop exclude each other");
    const home = dataHome();
    const print = (obj: Record<string, unknown>, text: string) => process.stdout.write(values.json ? `${safeJson(obj)}\n` : `${text}\n`);
    if (values.status || values.stop) {
      const r = await ask(home, { op: values.stop ? "stop" : "status" }, 2_000);
      if (r.kind === "reply" && r.reply.ok) {
        const figures = daemonFigures(r.reply);
        print({ running: true, ...(values.stop ? { stopping: true } : r.reply) }, values.stop ? "daemon stopping" : `daemon running: pid ${String(r.reply.pid)}, socket ${String(r.reply.socket)}, ${String(r.reply.requests)} request(s), provider ${String(r.reply.provider ?? "none (BM25 only)")}${watching(r.reply.watch)}${figures ? `; ${memoryLine(figures)}` : ""}`);
        return EXIT.ok;
      }
      if (r.kind === "refused") {
        print({ running: false, refused: r.reason }, `refused the daemon's socket: ${r.reason}`);
        return EXIT.failure;
      }
      const holder = readLock(lockPath(home));
      const stale = holder !== undefined && !holderAlive(holder);
      const pid = holder?.pid;
      print({ running: false, ...(stale ? { staleLock: pid } : {}) }, `no daemon running for ${home}${stale ? ` (stale lock of pid ${pid} will be taken over)` : ""}`);
      return values.stop ? EXIT.ok : EXIT.failure;
    }
    // A daemon a hook started for next time, whose data home is gone by now: nothing to serve.
    if (process.env[SERVE_FOR_HOOK] === "1" && !existsSync(home)) return EXIT.ok;
    const { serve } = await import("../daemon/server.js");
    return serve({ env: process.env, log: (l) => (values.quiet ? undefined : process.stderr.write(`mem serve: ${l}\n`)) });
  },
};
