/**
 * Whether a path from outside (a hook's payload, a socket request, an MCP argument) is absolute
 * on any platform mem runs on: `/…`, or a drive letter's `C:\…` / `C:/…`. A relative one means
 * something different in every process that reads it (the daemon's directory is whichever
 * session's started it), so the daemon takes none.
 */
export const isAbsolutePath = (p: string): boolean => p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p);
