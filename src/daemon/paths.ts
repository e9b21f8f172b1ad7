import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The daemon's Unix socket (a named pipe on Windows), one per data home. Kept tiny: the hook client imports it. */
export function socketPath(home: string, platform: string = process.platform): string {
  const tag = createHash("sha1").update(home).digest("hex").slice(0, 12);
  if (platform === "win32") return `\\\\.\\pipe\\mem-${tag}`;
  const p = join(home, "mem.sock");
  return p.length < 100 ? p : join(tmpdir(), `mem-${tag}.sock`); // sun_path is ~104 bytes
}

export const lockPath = (home: string) => join(home, "daemon.lock");
