import { shownTime } from "../render/time.js";

/**
 * `--absolute`, the option of every command that prints times (list, get, task list, status,
 * query): times as UTC dates and times instead of how long ago. `--json` gives absolute times always.
 */
export const ABSOLUTE_OPTION = { absolute: { type: "boolean" } } as const;

/** The option's line in a command's usage. */
export const ABSOLUTE_HELP = `  --absolute    times as UTC date and time (2026-11-29T04:44:05Z), not "5 min ago"`;

/** A time as the command prints it, by whether --absolute was given. */
export const timeShower =
  (values: { absolute?: boolean | undefined }, now: number) =>
  (time: string | number): string =>
    shownTime(time, now, values.absolute === true);
