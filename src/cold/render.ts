/**
 * How a commit found by cold search is shown: every value redacted already (src/cold/git-history.ts)
 * and rendered here by src/render/line.ts (one line, control characters escaped, markup defused),
 * so a commit message or a diff line can never pose as instructions, as another result or as the
 * end of the frame around them. Pure.
 */
import { bracket, field, prose } from "../render/line.js";
import type { ColdCommit } from "./git-history.js";

/** The author day, YYYY-MM-DD. */
export const commitDay = (c: ColdCommit): string => field(c.date.slice(0, 10), 10);

/** `[cold · git a1b2c3d · 2024-05-01 · src/db.ts, README.md]` */
export function commitMeta(c: ColdCommit, maxPaths = 3): string {
  const paths = c.paths.slice(0, maxPaths).map((p) => field(p, 160));
  const more = c.paths.length > maxPaths ? ` +${c.paths.length - maxPaths} more` : "";
  return bracket(["cold", `git ${field(c.short, 16)}`, commitDay(c), paths.length > 0 ? `${paths.join(", ")}${more}` : ""]);
}

/** A changed line: `removed in src/db.ts: "…"`. */
export function changeText(l: ColdCommit["lines"][number], maxText = 200): string {
  return `${l.change} in ${field(l.path, 160)}: "${prose(l.text, maxText)}"`;
}

/** The whole commit on one line: meta, its message (on one line), then the changed lines that hold the query's words. */
export function commitLine(c: ColdCommit, maxMessage = 500): string {
  const lines = c.lines.map((l) => changeText(l)).join("; ");
  return `- ${commitMeta(c)} ${prose(c.message, maxMessage)}${lines ? ` (${lines})` : ""}`;
}

/**
 * A commit as JSON (the CLI's --json, the MCP tool's structured content): the same values,
 * rendered the same way, since a program may hand them to a model.
 */
export function commitJson(c: ColdCommit): Record<string, unknown> {
  return {
    cold: "git",
    commit: field(c.short, 16),
    hash: field(c.hash, 64),
    date: field(c.date, 40),
    subject: prose(c.subject, 300),
    message: prose(c.message),
    paths: c.paths.map((p) => field(p, 1_024)),
    lines: c.lines.map((l) => ({ path: field(l.path, 1_024), change: l.change, text: prose(l.text) })),
    matched: c.matched,
    via: c.via,
  };
}
