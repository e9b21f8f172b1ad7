/**
 * `-q` / `--quiet`, which every command takes: no notes, warnings or progress on stderr (errors
 * still, and exit statuses are unchanged). The argument parser (./args.ts) accepts it for every
 * command and records it here; what a command prints that is not an error goes through `note`.
 */

let quiet = false;

/** The option as the parser declares it. */
export const QUIET_OPTION = { quiet: { type: "boolean", short: "q" } } as const;

/** The command-line forms of the option (before `--`). */
export const QUIET_FLAGS: ReadonlySet<string> = new Set(["-q", "--quiet"]);

/** Set by the parser from the command line (the last parse wins: one command a process). */
export function setQuiet(on: boolean): void {
  quiet = on;
}

export function isQuiet(): boolean {
  return quiet;
}

/** A line for stderr that is no error (a note, a warning, a progress line): dropped under -q. Empty: nothing. */
export function note(line: string): void {
  if (!quiet && line !== "") process.stderr.write(line.endsWith("\n") ? line : `${line}\n`);
}

/** The help line main.ts adds to a command's usage that does not describe -q itself. */
export function withQuietHelp(usage: string): string {
  if (/--quiet\b/.test(usage)) return usage;
  const m = /^( *)-h, --help( +)/m.exec(usage);
  if (!m) return `${usage}\n\n  -q, --quiet   no notes or warnings on stderr (errors still)`;
  const width = "-h, --help".length + m[2]!.length;
  return usage.replace(m[0], `${m[1]}${"-q, --quiet".padEnd(width)}no notes or warnings on stderr (errors still)\n${m[0]}`);
}
