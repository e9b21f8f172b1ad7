import { join } from "node:path";
import { PACKAGE_ROOT } from "../config/config.js";
import type { HookTarget } from "./hooks.js";

/**
 * What `mem install` registers from here: this node and this mem's `bin/mem.cjs`; the hot hooks
 * through `bin/mem-hook.sh` (its curl client), or every hook through it when NODE_EXTRA_CA_CERTS is
 * set; Node directly on Windows.
 */
export function currentTarget(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): HookTarget {
  const target: HookTarget = { node: process.execPath, bin: join(PACKAGE_ROOT, "bin", "mem.cjs") };
  if (platform === "win32") return target;
  const script = join(PACKAGE_ROOT, "bin", "mem-hook.sh");
  return env.NODE_EXTRA_CA_CERTS ? { ...target, caWrapper: script } : { ...target, hookClient: script };
}
