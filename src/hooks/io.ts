/**
 * What a hook handler is given besides its payload. Its own file so the handlers (and the spool
 * that replays them) never import run.ts, the dispatcher that loads them.
 */
export interface HookIO {
  env: NodeJS.ProcessEnv;
  now?: () => number;
  /** The hook entry already asked the daemon (and got no answer): do not ask again. */
  daemonTried?: boolean;
}
