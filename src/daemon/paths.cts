import { tmpdir } from "node:os";
import { join } from "node:path";

/** FNV-1a, 32 bits: a short stable tag for a path (node:crypto would cost the hook its load time). */
function tagOf(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/** The daemon's Unix socket (a named pipe on Windows), one per data home. Kept tiny: the hook client imports it. */
export function socketPath(home: string, platform: string = process.platform): string {
  const tag = tagOf(home);
  if (platform === "win32") return `\\\\.\\pipe\\mem-${tag}`;
  const p = join(home, "mem.sock");
  return p.length < 100 ? p : join(tmpdir(), `mem-${tag}.sock`); // sun_path is ~104 bytes
}

export const lockPath = (home: string) => join(home, "daemon.lock");
