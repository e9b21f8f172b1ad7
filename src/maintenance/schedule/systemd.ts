import { join } from "node:path";
import { MARKER, WHEN, type JobCommand } from "./command.js";

/**
 * The systemd way: a user service that runs `mem reindex -q` once, and a user timer that starts it
 * weekly (Persistent: a run missed while the machine was off happens at the next boot). Both files
 * begin with a marker line; `remove` deletes only files that carry it. Pure.
 */
export const UNIT = "mem-reindex";
export const SERVICE = `${UNIT}.service`;
export const TIMER = `${UNIT}.timer`;
export const UNIT_HEADER = `# Written by \`${MARKER} install\` (mem's weekly maintenance run); \`${MARKER} remove\` deletes it.`;

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const pad = (n: number) => String(n).padStart(2, "0");

/** The user unit directory: $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user. */
export function unitDir(env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env.XDG_CONFIG_HOME?.startsWith("/") ? env.XDG_CONFIG_HOME : join(home, ".config");
  return join(xdg, "systemd", "user");
}

/**
 * A word of a unit file's ExecStart= (`exec`: `$` would start a variable) or Environment= value:
 * double-quoted, backslashes and quotes escaped, systemd's specifiers (%) kept literal.
 */
export function unitQuote(s: string, exec: boolean): string {
  const q = s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/%/g, "%%");
  return `"${exec ? q.replace(/\$/g, "$$$$") : q}"`;
}

export function serviceUnit(c: JobCommand): string {
  return [
    UNIT_HEADER,
    "[Unit]",
    "Description=mem: weekly maintenance run (mem reindex)",
    "",
    "[Service]",
    "Type=oneshot",
    ...c.env.map(([k, v]) => `Environment=${unitQuote(`${k}=${v}`, false)}`),
    `ExecStart=${[c.node, c.bin].map((w) => unitQuote(w, true)).join(" ")} ${c.args.join(" ")}`,
    "Nice=10",
    "IOSchedulingClass=idle",
    "",
  ].join("\n");
}

export function timerUnit(): string {
  return [
    UNIT_HEADER,
    "[Unit]",
    "Description=mem: run mem reindex weekly",
    "",
    "[Timer]",
    `OnCalendar=${DAYS[WHEN.weekday]} *-*-* ${pad(WHEN.hour)}:${pad(WHEN.minute)}:00`,
    "Persistent=true",
    "RandomizedDelaySec=10min",
    "",
    "[Install]",
    "WantedBy=timers.target",
    "",
  ].join("\n");
}
