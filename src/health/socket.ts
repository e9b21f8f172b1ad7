import { dirname } from "node:path";
import { dataHome } from "../config/paths.cjs";
import { fallbackPrefix, pointedSocket, privateTmpDir, socketPath } from "../daemon/paths.cjs";
import { inspectSocketDir } from "../daemon/socket-guard.cjs";
import type { Check } from "./check.js";

/**
 * Where the daemon's socket goes when the data home's path is too long for one: this user's
 * `mem-<uid>` directory under the temp directory, unless someone squatted it (another user's,
 * open to others, a symlink, a file), which mem then leaves alone and listens in a private
 * directory of its own. Undefined when the socket is in the data home (or $XDG_RUNTIME_DIR, or
 * on Windows): nothing to say.
 */
export function socketDirCheck(env: NodeJS.ProcessEnv, platform: string = process.platform): Check | undefined {
  if (platform === "win32") return undefined;
  const home = dataHome(env);
  const dir = dirname(socketPath(home, env, platform));
  if (dir !== privateTmpDir()) return undefined;
  const name = "daemon socket";
  const seen = inspectSocketDir(dir);
  if (seen.state !== "squatted") return { name, status: "ok", detail: `the data home's path is too long for a socket: the daemon listens in ${dir}, private to you${seen.state === "absent" ? " (made when it starts)" : ""}` };
  const pointed = pointedSocket(home);
  const own = pointed !== undefined && dirname(pointed).startsWith(fallbackPrefix()) ? dirname(pointed) : undefined;
  const instead = own ? `mem's daemon listens in ${own}, a private directory of its own, instead` : `mem's daemon will listen in a private directory of its own (${fallbackPrefix()}XXXXXX) instead when it starts`;
  return {
    name,
    status: "warn",
    detail: `${dir} is ${seen.kind} of uid ${seen.uid}, mode ${seen.mode}, not a private directory of yours: someone may be squatting the daemon's socket place; ${instead}`,
    fix: `find out who made ${dir}, and remove it (as its owner or root); or set XDG_RUNTIME_DIR to a private directory, or MEM_HOME to a shorter path`,
  };
}
