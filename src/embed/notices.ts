/**
 * One-line notices of slow first-time work in the embedding providers (a model downloaded before
 * its first use), for whoever runs them to show. The CLI shows them on stderr (quiet under -q);
 * nobody else listens (hooks, the daemon and the MCP server keep their output for their protocol).
 */

let listener: ((line: string) => void) | undefined;

export function onEmbedNotice(fn: ((line: string) => void) | undefined): void {
  listener = fn;
}

export function embedNotice(line: string): void {
  listener?.(line);
}

/** What is said before transformers.js downloads a model it does not find on disk. Pure. */
export function downloadNotice(model: string, cacheDir: string): string {
  return `downloading the embedding model ${model} into ${cacheDir} (first use only; tens of MB, it may take a while)…`;
}
