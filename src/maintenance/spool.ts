import { lstatSync, readdirSync, renameSync, rmSync } from "node:fs";
import { inspectDir, privateDir, readPrivate } from "../util/private-place.cjs";
import { writePrivate } from "../util/private-file.cjs";
import { dirname, join } from "node:path";
import { clean } from "../redact/clean.cjs";
import type { Payload } from "../contract/hook.cjs";
import type { HookIO } from "../hooks/io.js";
import { alive } from "../daemon/lock.js";
import { isStoreDamage, isStoreUnavailable } from "../store/damage.js";
import { fallbackSpoolPath, SPOOL_FILE } from "./flags.js";

/**
 * While the store is damaged, the capture hooks append their payload (redacted) here instead of
 * losing it; a repair, or the next capture that finds the store working, replays it through the
 * same handlers, at the time each was captured. Capture is idempotent, so a replay twice is harmless.
 */
const MAX_SPOOL_BYTES = 32 * 1024 * 1024;

export const SPOOLED_HOOKS: ReadonlySet<string> = new Set(["post-tool-use", "post-tool-use-failure", "stop", "subagent-stop", "pre-compact", "session-end"]);

interface Entry {
  hook: string;
  at: number;
  payload: Payload;
}

export const spoolPath = (home: string) => join(home, SPOOL_FILE);

function append(path: string, line: string): boolean {
  try {
    if (lstatSync(path).size > MAX_SPOOL_BYTES) return false;
  } catch {
    // no spool yet
  }
  writePrivate(path, line, "append");
  return true;
}

/** The data home's spool could not be written, and neither could the fallback: says why both failed. */
export class CaptureNotKept extends Error {
  constructor(home: Error, fallback: string) {
    super(`${home.message}; the fallback spool could not be used either: ${fallback}`);
    this.name = "CaptureNotKept";
  }
}

/**
 * Appends one capture; false when the spool is full (it is never allowed to grow without bound).
 * When the data home's spool cannot be written, the capture goes to the fallback spool, whose
 * directory must be a private one of ours (another account may have made it first: then it is not
 * used); throws CaptureNotKept when neither can be written.
 */
export function spoolCapture(home: string, hook: string, payload: Payload, now: number): boolean {
  const entry: Entry = { hook, at: now, payload: clean(payload) };
  const line = `${JSON.stringify(entry)}\n`;
  try {
    return append(spoolPath(home), line);
  } catch (err) {
    const fallback = fallbackSpoolPath(home);
    const dir = privateDir(dirname(fallback));
    if (!dir.ok) throw new CaptureNotKept(err as Error, `${dir.why}; not used`);
    try {
      return append(fallback, line);
    } catch (e) {
      throw new CaptureNotKept(err as Error, (e as Error).message);
    }
  }
}

/** A spool file's captures (its non-empty lines), read as a replay reads them, or why it is refused (not a regular file of ours, writable by others, a link). */
function spoolLines(path: string): { lines: string[] } | { refused: string } | undefined {
  const r = readPrivate(path, MAX_SPOOL_BYTES * 2);
  if (r.ok) return { lines: r.data.toString("utf8").split("\n").filter((l) => l.trim() !== "") };
  return r.absent ? undefined : { refused: r.why };
}

export type Spooled = { path: string; captures: number } | { path: string; refused: string };

/**
 * The captures waiting, per spool file (the data home's, its fallback), and the spool places
 * refused (another user's directory or file, a link, one others may write): what `mem doctor`
 * reports; empty when none waits and nothing is refused.
 */
export function spooled(home: string): Spooled[] {
  const out: Spooled[] = [];
  const fallback = fallbackSpoolPath(home);
  const dir = inspectDir(dirname(fallback));
  if (dir.state === "refused") out.push({ path: dirname(fallback), refused: `${dir.why}: not used, and nothing in it is read` });
  for (const p of dir.state === "refused" ? [spoolPath(home)] : [spoolPath(home), fallback]) {
    const r = spoolLines(p);
    if (r) out.push("lines" in r ? { path: p, captures: r.lines.length } : { path: p, refused: `${r.refused}: not read` });
  }
  return out;
}

/**
 * The fallback spool's lines, taken over (renamed beside it, read, removed); none when there is
 * none, or when its directory or file is not a private one of ours (another account's lines are
 * never replayed as captures).
 */
function takeFallback(home: string): string[] {
  const path = fallbackSpoolPath(home);
  const dir = inspectDir(dirname(path));
  if (dir.state !== "ours") return [];
  if (dir.loose && !privateDir(dirname(path)).ok) return [];
  const taken = `${path}.replaying-${process.pid}`;
  try {
    renameSync(path, taken);
  } catch {
    return [];
  }
  const r = spoolLines(taken);
  if (r && "lines" in r) {
    rmSync(taken, { force: true });
    return r.lines;
  }
  try {
    renameSync(taken, path); // refused: left where it was, for doctor to name
  } catch {
    // gone meanwhile
  }
  return [];
}

type Handler = (payload: Payload, io: HookIO) => Promise<undefined>;

async function handlerFor(hook: string): Promise<Handler | undefined> {
  const h = await import("../hooks/capture-hooks.js");
  if (hook === "post-tool-use" || hook === "post-tool-use-failure") return h.postToolUse;
  if (hook === "stop" || hook === "subagent-stop") return h.stop;
  if (hook === "pre-compact") return h.preCompact;
  if (hook === "session-end") return h.sessionEnd;
  return undefined;
}

/** Spool files left by a replay whose process died (killed at its deadline), to take over. */
function orphans(home: string): string[] {
  const prefix = `${SPOOL_FILE}.replaying-`;
  return readdirSync(home)
    .filter((n) => n.startsWith(prefix) && !alive(Number(n.slice(prefix.length))))
    .map((n) => join(home, n));
}

/**
 * Replays the spool into the (working) store, until `until` (a time) if given; returns how many
 * captures were replayed. The file is taken over first (renamed), so two processes never replay
 * the same lines; what is left (out of time, or the store broke again) goes back to the spool.
 */
export async function replaySpool(env: NodeJS.ProcessEnv, home: string, until = Number.POSITIVE_INFINITY): Promise<number> {
  const path = spoolPath(home);
  const taken = `${path}.replaying-${process.pid}`;
  const lines: string[] = [];
  for (const f of [path, ...orphans(home)]) {
    try {
      renameSync(f, taken);
    } catch {
      continue; // absent, or another process took it
    }
    const r = spoolLines(taken); // a FIFO, a device, a link, another user's file: not a spool, dropped
    if (r && "lines" in r) lines.push(...r.lines);
    else rmSync(taken, { force: true });
  }
  lines.push(...takeFallback(home));
  if (lines.length === 0) {
    rmSync(taken, { force: true });
    return 0;
  }
  let done = 0;
  let i = 0;
  for (; i < lines.length && Date.now() < until; i++) {
    let entry: Entry;
    try {
      entry = JSON.parse(lines[i]!) as Entry;
    } catch {
      continue; // a line cut short by a crash
    }
    const handler = await handlerFor(entry.hook);
    if (!handler) continue;
    try {
      await handler(entry.payload, { env, now: () => entry.at, daemonTried: true });
      done++;
    } catch (err) {
      if (isStoreDamage(err) || isStoreUnavailable(err)) break; // kept in the spool for the next try
    }
  }
  if (i < lines.length) writePrivate(path, `${lines.slice(i).join("\n")}\n`, "append");
  rmSync(taken, { force: true });
  return done;
}
