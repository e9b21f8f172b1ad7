/**
 * What a hook handler is given besides its payload. Its own file so the handlers (and the spool
 * that replays them) never import run.ts, the dispatcher that loads them.
 */
import type { Adapter } from "../contract/adapter.cjs";

export interface HookIO {
  env: NodeJS.ProcessEnv;
  now?: () => number;
  /** The hook entry already asked the daemon (and got no answer): do not ask again. */
  daemonTried?: boolean;
  /** The assistant whose hook this is (`--assistant`): its output format. Claude Code's without one. */
  adapter?: Adapter;
  /**
   * How long the store may be waited for when another process holds its write lock (SQLite's busy
   * timeout), from the hook's deadline: a hook that waited its 5 s default would be killed by
   * Claude Code before it could keep its capture for later (the spool).
   */
  storeBusyMs?: number;
  /**
   * Work for once the hook has answered (its output written) or given up at its deadline: starting
   * the daemon for next time, whose start-up (a second Node loading mem and its stores) would
   * otherwise take the cores this hook's answer needs within its deadline. Without it, now.
   */
  afterAnswer?: (work: () => Promise<void>) => void;
}

/** The store's busy timeout for a hook that must answer by `deadlineAt`: what is left, less room to spool, within 50 ms to 5 s. */
export function storeBusyMs(deadlineAt: number, now: number): number {
  return Math.max(50, Math.min(5_000, Math.floor(deadlineAt - now - 400)));
}
