/**
 * The private directories this process found open to other users and closed (their modes before),
 * so `mem doctor` can say so even when the app closed them before its checks ran. CommonJS and
 * tiny, as ./private-dir.cts is.
 */
const closed = new Map<string, number>();

/** `dir` was open to others (mode `before`) and was closed to 0700. */
export function noteClosed(dir: string, before: number): void {
  closed.set(dir, before & 0o7777);
}

/** The mode `dir` had before this process closed it, if it did. */
export function closedFrom(dir: string): number | undefined {
  return closed.get(dir);
}
