/**
 * The running daemon as `mem doctor` and the explorer's Health page see it: asked for its status
 * over its socket, its resident memory (RSS), V8 heap and the bytes its vector copies hold, and a
 * warning when the RSS is over `daemon.rssWarnMB`. The reply is another process's: every figure is
 * checked before it is shown.
 */
import { ask, type ClientResult } from "../daemon/client.cjs";
import type { Check } from "./check.js";

/** What the daemon's status says of its memory, in bytes. */
export interface DaemonFigures {
  pid: number;
  rss: number;
  heapUsed: number;
  vectorBytes: number;
  /** The code copies' int8 rows kept in a file (page cache, not RSS); absent from an older daemon's reply. */
  vectorFileBytes?: number;
}

export interface DaemonSeen {
  result: ClientResult;
  /** Undefined unless the daemon answered with well-formed figures. */
  figures: DaemonFigures | undefined;
}

const count = (x: unknown): number | undefined => (typeof x === "number" && Number.isSafeInteger(x) && x >= 0 ? x : undefined);

/** The figures of a status reply; undefined when any is missing or not a byte count (an older or foreign daemon). */
export function daemonFigures(reply: Record<string, unknown>): DaemonFigures | undefined {
  const m = reply.memory;
  if (m === null || typeof m !== "object" || Array.isArray(m)) return undefined;
  const { rss, heapUsed, vectorBytes, vectorFileBytes } = m as Record<string, unknown>;
  const f = { pid: count(reply.pid), rss: count(rss), heapUsed: count(heapUsed), vectorBytes: count(vectorBytes) };
  if (!Object.values(f).every((v) => v !== undefined)) return undefined;
  // Optional (a daemon before the rows' file says nothing of it); a malformed one is left out, not trusted.
  const file = count(vectorFileBytes);
  return { ...(f as DaemonFigures), ...(file !== undefined ? { vectorFileBytes: file } : {}) };
}

/** Asks the daemon of `home` for its status within `budgetMs`. */
export async function seeDaemon(home: string, budgetMs: number): Promise<DaemonSeen> {
  const result = await ask(home, { op: "status" }, budgetMs);
  return { result, figures: result.kind === "reply" && result.reply.ok ? daemonFigures(result.reply) : undefined };
}

/** Bytes as whole MiB, written "MB" as the rest of mem's output does. */
export const megabytes = (b: number): string => `${Math.round(b / 2 ** 20).toLocaleString("en")} MB`;

/**
 * The daemon's memory in one line: `RSS 412 MB (V8 heap 80 MB; vector copies 300 MB)`, and where a
 * code copy keeps its int8 rows in a file, `; their int8 rows in a file 734 MB` (disk and page
 * cache, outside the RSS).
 */
export const memoryLine = (f: DaemonFigures): string =>
  `RSS ${megabytes(f.rss)} (V8 heap ${megabytes(f.heapUsed)}; vector copies ${megabytes(f.vectorBytes)}${f.vectorFileBytes ? `; their int8 rows in a file ${megabytes(f.vectorFileBytes)}` : ""})`;

/** Whether the RSS is over the threshold (MiB). */
export const overRss = (f: DaemonFigures, warnMB: number): boolean => f.rss > warnMB * 2 ** 20;

/** The fix for a daemon that holds too much: a smaller copy budget, then a fresh daemon. */
export const RSS_FIX =
  "lower `daemon.vectorMemoryMB` in config.json (a vector table over it is searched in LanceDB instead of held in memory), then `mem serve --stop` (the next prompt starts a fresh daemon)";

/** `mem doctor`'s line for the daemon; `warnMB` is `daemon.rssWarnMB`. */
export function daemonCheck(seen: DaemonSeen, warnMB: number, budgetMs: number): Check {
  const name = "daemon";
  const { result: r, figures: f } = seen;
  if (r.kind === "absent") return { name, status: "ok", detail: "not running (the hooks start it on the next prompt, or `mem serve`)" };
  if (r.kind === "timeout") return { name, status: "warn", detail: `did not answer its status within ${budgetMs} ms (busy?)` };
  if (r.kind === "refused") return { name, status: "warn", detail: `its socket was not trusted: ${r.reason}` };
  if (r.kind === "error") return { name, status: "warn", detail: `could not be asked: ${r.error}` };
  if (!r.reply.ok) return { name, status: "warn", detail: `answered its status with an error: ${r.reply.error}` };
  if (!f) return { name, status: "warn", detail: "running, but says nothing of its memory (a daemon of an older mem?)", fix: "`mem serve --stop`: the next prompt starts the daemon of this mem" };
  if (overRss(f, warnMB)) return { name, status: "warn", detail: `pid ${f.pid}: ${memoryLine(f)} is over daemon.rssWarnMB (${warnMB.toLocaleString("en")} MB)`, fix: RSS_FIX };
  return { name, status: "ok", detail: `pid ${f.pid}: ${memoryLine(f)}` };
}
