import { parseArgs, type ParseArgsConfig } from "node:util";
import { closeMatches } from "../util/edit-distance.js";
import { QUIET_OPTION, setQuiet } from "./quiet.js";

/**
 * A bad command line: exit 2 with the reason and the usage. A `brief` one says its one line
 * instead of the whole usage: "options" (an unknown option) with where the options are, "alone"
 * (an id too short or ambiguous) by itself.
 */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    readonly brief: false | "options" | "alone" = false,
  ) {
    super(message);
  }
}

/**
 * The one line for an option the command does not take: the option as typed (cut, one line) and the
 * closest of the command's options (by the edit distance a mistyped command is matched with).
 */
export function unknownOptionMessage(typed: string, options: Options): string {
  const shown = typed.replace(/[^\x21-\x7e]/g, "?").slice(0, 64);
  const names = Object.entries(options).flatMap(([long, o]) => [`--${long}`, ...(o.short ? [`-${o.short}`] : [])]);
  const bare = shown.replace(/=.*$/s, "");
  const near = bare.startsWith("--") ? closeMatches(bare, names.filter((n) => n.startsWith("--")), 2) : [];
  return `unknown option ${shown}${near.length > 0 ? ` (did you mean ${near.join(" or ")}?)` : ""}`;
}

export type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * Parses a command's options strictly (unknown options and bad values are usage errors). `--help`
 * is handled by the dispatcher. Every command takes `-q`/`--quiet` (./quiet.ts), declared or not.
 */
export function parse<T extends Options>(argv: string[], options: T) {
  const parsed = strictParse(argv, { ...QUIET_OPTION, ...options });
  setQuiet((parsed.values as { quiet?: boolean }).quiet === true);
  return parsed;
}

function strictParse<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    const e = err as Error & { code?: string };
    const typed = e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /^Unknown option '(.*?)'(?:\. To specify|$)/s.exec(e.message)?.[1] : undefined;
    if (typed !== undefined) throw new UsageError(unknownOptionMessage(typed, options), "options");
    throw new UsageError(e.message.replace(/\. To specify a positional argument.*$/s, ""));
  }
}

export function int(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

export function isoDate(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(Date.parse(value))) throw new UsageError(`--${name} must be a date like 2026-01-31, got "${value}"`);
  return value;
}

/** `value` when it is one of `allowed`; `what` names it in the error (an option `--name` by default, or a positional's name). */
export function oneOf<T extends string>(value: string | undefined, name: string, allowed: readonly T[], what = `--${name}`): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${what} must be one of ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

/** Exit statuses. */
export const EXIT = { ok: 0, failure: 1, usage: 2, vectorSkipped: 3 } as const;
