/**
 * Reading what `git log` printed for cold search. The output is hostile input: a commit message,
 * a file name or a diff line can hold anything, including text shaped like git's own headers or
 * like another commit. So each commit starts and its message ends with a marker made of a random
 * nonce the repository cannot know (`<nonce>C <hash> <short> <date>`, `<nonce>E`), and a diff is
 * read by its hunk headers' line counts, so an added line that reads `++ b/x` is content, never a
 * file header. Nothing here is redacted or rendered: the caller does both. Pure.
 */
import { termsIn } from "./terms.js";

export interface GitLine {
  path: string;
  change: "added" | "removed";
  text: string;
}

export interface GitCommit {
  hash: string;
  short: string;
  /** The author date, ISO 8601 with its offset. */
  date: string;
  /** The whole message (subject, blank line, body), trailing newlines removed. */
  message: string;
  /** The files it changed (message pass), or the files whose changed lines matched (diff pass). */
  paths: string[];
  /** Changed lines that hold a term (diff pass), at most MAX_LINES. */
  lines: GitLine[];
  /** The terms found, in the message or in those lines. */
  matched: string[];
  via: ("message" | "diff")[];
}

export const MAX_PATHS = 20;
export const MAX_LINES = 6;
export const MAX_LINES_PER_FILE = 3;
/** Longer message or line text is cut here before anything else looks at it. */
export const MAX_MESSAGE_CHARS = 65_536;
export const MAX_LINE_CHARS = 10_000;

/** The `--format` for a pass: the commit line, the message, the end marker. */
export const gitFormat = (nonce: string) => `--format=${nonce}C %H %h %aI%n%B%n${nonce}E`;

/** A path as git prints it: as is, or C-quoted (`"a\nb"`, octal escapes for bytes) when odd. */
export function unquotePath(s: string): string {
  if (!(s.length >= 2 && s.startsWith('"') && s.endsWith('"'))) return s;
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  const esc: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      bytes.push(...Buffer.from(c, "utf8"));
      continue;
    }
    const next = body[i + 1] ?? "";
    const oct = /^[0-3][0-7]{2}/.exec(body.slice(i + 1, i + 4));
    if (oct) {
      bytes.push(Number.parseInt(oct[0], 8));
      i += 3;
    } else if (next in esc) {
      bytes.push(esc[next]!);
      i += 1;
    } else {
      bytes.push(92);
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** `a/x` or `b/x` (quoted or not) → x; `/dev/null` → undefined. */
function sidePath(s: string, prefix: "a/" | "b/"): string | undefined {
  const p = unquotePath(s.trim());
  if (p === "/dev/null") return undefined;
  return p.startsWith(prefix) ? p.slice(2) : p;
}

/** The new side's path from `diff --git a/x b/x` (used when no ---/+++ lines follow: binary files, mode changes). */
function headerPath(rest: string): string {
  const quoted = /"b\/(?:[^"\\]|\\.)*"$/.exec(rest);
  if (quoted) return unquotePath(quoted[0]).slice(2);
  const at = rest.lastIndexOf(" b/");
  return at >= 0 ? rest.slice(at + 3) : rest;
}

const COMMIT = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{4,64}) (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2}))$/;
const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * The commits in `out`, in git's order. `mode` says what follows each message: file names
 * (`--name-only`) or a patch (`-p`). A commit whose start line is malformed is skipped whole.
 * Output cut short (a timeout, the byte cap) gives the commits read so far; the last may lack
 * files or lines, and one whose message was not read to its end marker is dropped.
 */
export function parseGitLog(out: string, nonce: string, mode: "names" | "patch", terms: readonly string[]): GitCommit[] {
  const commits: GitCommit[] = [];
  const start = `${nonce}C `;
  const end = `${nonce}E`;
  let cur: GitCommit | undefined;
  let message: string[] | undefined; // while reading a message
  let path: string | undefined;
  let perFile = 0;
  let removed = 0;
  let added = 0;
  const addPath = (c: GitCommit, p: string) => {
    if (c.paths.length < MAX_PATHS && !c.paths.includes(p)) c.paths.push(p);
  };
  for (const raw of out.split("\n")) {
    if (raw.startsWith(start)) {
      const m = COMMIT.exec(raw.slice(start.length));
      cur = m ? { hash: m[1]!, short: m[2]!, date: m[3]!, message: "", paths: [], lines: [], matched: [], via: [mode === "names" ? "message" : "diff"] } : undefined;
      message = cur ? [] : undefined;
      path = undefined;
      removed = added = 0;
      continue;
    }
    if (!cur) continue;
    if (message) {
      if (raw === end) {
        cur.message = message.join("\n").replace(/\n+$/, "").slice(0, MAX_MESSAGE_CHARS);
        cur.matched = termsIn(cur.message, terms);
        commits.push(cur);
        message = undefined;
      } else if (message.length < 2_000) {
        message.push(raw.slice(0, MAX_MESSAGE_CHARS));
      }
      continue;
    }
    if (mode === "names") {
      if (raw.trim() !== "") addPath(cur, unquotePath(raw));
      continue;
    }
    // A patch: inside a hunk, the counts say how many removed and added lines are left.
    if (removed > 0 || added > 0) {
      const sign = raw[0];
      if (sign === "-" && removed > 0) removed--;
      else if (sign === "+" && added > 0) added--;
      else if (sign === "\\") continue; // "\ No newline at end of file"
      else {
        removed = added = 0; // malformed: leave the hunk and read the line as a header
      }
      if (sign === "-" || sign === "+") {
        if (path === undefined) continue;
        const text = raw.slice(1, 1 + MAX_LINE_CHARS);
        const found = termsIn(text, terms);
        if (found.length === 0) continue;
        for (const t of found) if (!cur.matched.includes(t)) cur.matched.push(t);
        addPath(cur, path);
        if (perFile < MAX_LINES_PER_FILE && cur.lines.length < MAX_LINES) {
          cur.lines.push({ path, change: sign === "+" ? "added" : "removed", text });
          perFile++;
        }
        continue;
      }
    }
    if (raw.startsWith("diff --git ")) {
      path = headerPath(raw.slice("diff --git ".length));
      perFile = 0;
    } else if (raw.startsWith("--- ")) {
      path = sidePath(raw.slice(4), "a/") ?? path;
    } else if (raw.startsWith("+++ ")) {
      path = sidePath(raw.slice(4), "b/") ?? path;
    } else {
      const h = HUNK.exec(raw);
      if (h) {
        removed = h[1] === undefined ? 1 : Number(h[1]);
        added = h[2] === undefined ? 1 : Number(h[2]);
      }
    }
  }
  return commits;
}

/**
 * One list from the two passes: a commit found by both is one result (its message-pass paths
 * kept, its matching lines added). Best first: the most distinct terms found, then both passes
 * over one, then the newest.
 */
export function mergeCommits(byMessage: readonly GitCommit[], byDiff: readonly GitCommit[]): GitCommit[] {
  const out = new Map<string, GitCommit>();
  for (const c of byMessage) out.set(c.hash, { ...c, paths: [...c.paths], lines: [...c.lines], matched: [...c.matched], via: [...c.via] });
  for (const d of byDiff) {
    const m = out.get(d.hash);
    if (!m) {
      out.set(d.hash, { ...d, paths: [...d.paths], lines: [...d.lines], matched: [...d.matched], via: [...d.via] });
      continue;
    }
    m.via.push("diff");
    for (const t of d.matched) if (!m.matched.includes(t)) m.matched.push(t);
    m.lines = d.lines;
    for (const p of d.paths) if (!m.paths.includes(p) && m.paths.length < MAX_PATHS) m.paths.push(p);
  }
  return [...out.values()].sort((a, b) => b.matched.length - a.matched.length || b.via.length - a.via.length || Date.parse(b.date) - Date.parse(a.date) || (a.hash < b.hash ? -1 : 1));
}
