import { join } from "node:path";
import { MARKER, WHEN, type JobCommand } from "./command.js";

/**
 * The macOS way: a launchd agent in ~/Library/LaunchAgents that runs `mem reindex -q` every
 * Sunday at 03:17 (launchd runs a missed calendar job when the Mac wakes), loaded with `launchctl
 * bootstrap gui/<uid>`. The plist carries a marker comment; `remove` deletes only a file that
 * does. Pure.
 */
export const LABEL = "dev.mem.reindex";
export const PLIST_MARKER = `<!-- Written by ${MARKER} install (mem's weekly maintenance run); ${MARKER} remove deletes it. -->`;

export function plistPath(home: string): string {
  return join(home, "Library", "LaunchAgents", `${LABEL}.plist`);
}

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
const str = (s: string) => `<string>${xml(s)}</string>`;

/** `logFile`: where launchd writes the job's output (the data home's schedule.log). */
export function plist(c: JobCommand, logFile: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    PLIST_MARKER,
    '<plist version="1.0">',
    "<dict>",
    `  <key>Label</key>${str(LABEL)}`,
    "  <key>ProgramArguments</key>",
    "  <array>",
    ...[c.node, c.bin, ...c.args].map((a) => `    ${str(a)}`),
    "  </array>",
    ...(c.env.length > 0 ? ["  <key>EnvironmentVariables</key>", "  <dict>", ...c.env.map(([k, v]) => `    <key>${xml(k)}</key>${str(v)}`), "  </dict>"] : []),
    "  <key>StartCalendarInterval</key>",
    `  <dict><key>Weekday</key><integer>${WHEN.weekday}</integer><key>Hour</key><integer>${WHEN.hour}</integer><key>Minute</key><integer>${WHEN.minute}</integer></dict>`,
    `  <key>StandardOutPath</key>${str(logFile)}`,
    `  <key>StandardErrorPath</key>${str(logFile)}`,
    "  <key>LowPriorityIO</key><true/>",
    "  <key>Nice</key><integer>10</integer>",
    "</dict>",
    "</plist>",
    "",
  ].join("\n");
}
