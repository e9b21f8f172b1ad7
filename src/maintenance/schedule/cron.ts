import { MARKER, ScheduleError, shellQuote, WHEN, type JobCommand } from "./command.js";

/**
 * The crontab way: one block of three lines, between marker comments, appended to the user's
 * crontab; removing takes exactly that block and leaves every other line as it was. Pure: the
 * crontab's text comes in and goes out (src/maintenance/schedule/run.ts talks to `crontab`).
 */
export const CRON_BEGIN = `# >>> ${MARKER}: weekly \`mem reindex\` (remove with \`mem schedule remove\`) >>>`;
export const CRON_END = `# <<< ${MARKER} <<<`;

/** cron turns an unescaped % into a newline: every % of the command is escaped. */
const cronSafe = (s: string) => s.replace(/%/g, "\\%");

export function cronBlock(c: JobCommand): string[] {
  const cmd = [...c.env.map(([k, v]) => `${k}=${shellQuote(v)}`), shellQuote(c.node), shellQuote(c.bin), ...c.args].map(cronSafe).join(" ");
  return [CRON_BEGIN, `${WHEN.minute} ${WHEN.hour} * * ${WHEN.weekday} ${cmd}`, CRON_END];
}

/** Where mem's block sits in a crontab's lines: [begin, end] inclusive, or undefined. A begin without its end is refused. */
export function findBlock(lines: readonly string[]): [number, number] | undefined {
  const begin = lines.findIndex((l) => l.startsWith(`# >>> ${MARKER}`));
  if (begin < 0) return undefined;
  const end = lines.findIndex((l, i) => i > begin && l.startsWith(`# <<< ${MARKER}`));
  if (end < 0) throw new ScheduleError(`the crontab has mem's opening marker (line ${begin + 1}) without its closing one; fix it with \`crontab -e\``);
  return [begin, end];
}

const linesOf = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));
const textOf = (lines: readonly string[]) => (lines.length === 0 ? "" : `${lines.join("\n")}\n`);

/** The crontab with mem's block in it (replacing an older one in place); `changed` false when it was there already. */
export function withBlock(current: string, c: JobCommand): { text: string; changed: boolean; block: string[] } {
  const lines = linesOf(current);
  const block = cronBlock(c);
  const at = findBlock(lines);
  if (at) {
    const old = lines.slice(at[0], at[1] + 1);
    if (old.join("\n") === block.join("\n")) return { text: current, changed: false, block };
    return { text: textOf([...lines.slice(0, at[0]), ...block, ...lines.slice(at[1] + 1)]), changed: true, block };
  }
  return { text: textOf([...lines, ...block]), changed: true, block };
}

/** The crontab without mem's block, and the lines taken out (none: nothing to remove). */
export function withoutBlock(current: string): { text: string; removed: string[] } {
  const lines = linesOf(current);
  const at = findBlock(lines);
  if (!at) return { text: current, removed: [] };
  return { text: textOf([...lines.slice(0, at[0]), ...lines.slice(at[1] + 1)]), removed: lines.slice(at[0], at[1] + 1) };
}
