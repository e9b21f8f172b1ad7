import { rmdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { writePrivate } from "../util/private-file.cjs";
import { HOOK_BUDGET_FILE, hookSocketPath } from "./hook-http.js";
import { fallbackPrefix, hookSocketBeside, pointedSocket, pointerPath, privateTmpDir, socketPath } from "./paths.cjs";
import { fallbackSocket, prepareSocketDir } from "./socket-guard.cjs";

/**
 * Where the daemon listens: its main socket (the Node client) and the HTTP one (the curl client),
 * and how the clients find them. The data home when its path fits in a socket address; else
 * $XDG_RUNTIME_DIR when private, else this user's `mem-<uid>` directory under the temp directory;
 * and when that one is squatted (someone else's, open to others, a symlink, a file), a private
 * directory of the daemon's own (`fallbackSocket`) instead of not starting at all. Outside the
 * data home the main socket's path is written to the data home's socket.path for the clients.
 */

export type FirstChoice = { sock: string; unsafe?: undefined } | { sock: string; unsafe: string; fallback: boolean };

/** Before the lock (and SQLite): the usual place, made and checked; `fallback` when a refused one may be replaced by a directory of our own. */
export function firstChoice(home: string, env: NodeJS.ProcessEnv): FirstChoice {
  const sock = socketPath(home, env);
  const unsafe = prepareSocketDir(sock);
  if (unsafe === undefined) return { sock };
  return { sock, unsafe, fallback: dirname(sock) === privateTmpDir() };
}

export interface Place {
  sock: string;
  /** The curl client's socket, or undefined (Windows). */
  hookSock: string | undefined;
  /** Where the curl client reads its time budget: always the data home's hook.budget. */
  budgetFile: string;
  /** Why the usual place was not used, when it was not. */
  instead?: string;
}

/** After the lock: the place to listen, a directory of our own when the usual one is squatted; an error when there is none. */
export function settle(home: string, first: FirstChoice, platform: string = process.platform): Place | { error: string } {
  let sock = first.sock;
  let instead: string | undefined;
  if (first.unsafe !== undefined) {
    if (!first.fallback) return { error: `refusing to listen on ${first.sock}: ${first.unsafe}` };
    const fb = fallbackSocket(home);
    if ("error" in fb) return { error: `refusing to listen on ${first.sock}: ${first.unsafe}; and no private directory of its own: ${fb.error}` };
    sock = fb.sock;
    instead = `${dirname(first.sock)} is not safe (${first.unsafe}); listening in ${dirname(sock)}, a private directory of mem's own, instead`;
  }
  const hookSock = platform === "win32" ? undefined : (hookSocketPath(home, platform) ?? hookSocketBeside(sock));
  return { sock, hookSock, budgetFile: join(home, HOOK_BUDGET_FILE), ...(instead ? { instead } : {}) };
}

/** Tells the clients where the sockets are when they are not in the data home. */
export function publish(home: string, place: Place): void {
  if (dirname(place.sock) !== home) writePrivate(pointerPath(home), `${place.sock}\n`, "replace");
}

/** On shutdown: socket.path when it still names this daemon's socket, and a directory of our own (empty by now). */
export function unpublish(home: string, place: Place): void {
  if (pointedSocket(home) === place.sock) quietly(() => unlinkSync(pointerPath(home)));
  if (dirname(place.sock).startsWith(fallbackPrefix())) quietly(() => rmdirSync(dirname(place.sock)));
}

function quietly(f: () => void): void {
  try {
    f();
  } catch {
    // already gone, or not empty: left for the next daemon
  }
}
