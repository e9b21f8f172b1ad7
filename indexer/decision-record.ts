/**
 * Decision records in a repository are decisions: a note whose frontmatter gives a decision-like
 * `kind`, or a file in one of the repository's decision folders (`docs/adr`, `docs/decisions`, …;
 * `index.decisionFolders`, src/config/config.ts), written in MADR (frontmatter `status`, `date`, `decision-makers`) or
 * in Nygard's and adr-tools' form (a `Date:` line, a `## Status` section). Its status says what it
 * is now: an accepted record is a decision, a rejected one a rejected approach, a superseded or
 * deprecated one history (never briefed as current), a proposed one not decided yet. Pure.
 */
import { basename, dirname, sep } from "node:path";

/** The kinds a record can have, by its status. */
export type RecordKind = "decision" | "rejected" | "learned" | "preference" | "superseded" | "proposed";

export interface DecisionRecord {
  kind: RecordKind;
  /** The status as written (its first line, lower case, at most 80 characters); absent when none is given. */
  status?: string;
  /** The record's date as written (YYYY-MM-DD or a timestamp). */
  date?: string;
  /** Who made it (MADR `decision-makers`, older `deciders`, `authors`, `author`). */
  authors: string[];
  /** What replaces it, as the status names it ("ADR-0057", "0015-dns-infrastructure.md"). */
  supersededBy?: string;
  /** The first `# ` heading. */
  title?: string;
  /** A record of the team tier: a file in a record folder of a repository (`teamRecord`). */
  team?: true;
  /** The local memory it was shared from (frontmatter `mem-id`, written by `mem share`): the two are one memory. */
  memId?: string;
}

/** Kinds a note may give itself in its frontmatter that make it a record. */
const OWN_KINDS: ReadonlySet<string> = new Set(["decision", "rejected", "learned", "preference", "superseded", "proposed"]);

/** Files in a decision folder that are no record: its index, its templates and its tombstones (FORGOTTEN.md, src/team/tombstones.ts). */
const NOT_RECORDS = /^(readme|index|template|adr-template|_template|toc|summary|forgotten)(\.[a-z]+)?\.mdx?$/i;

const STATUS_WORDS: [RegExp, RecordKind][] = [
  [/^(superseded|deprecated|obsolete|replaced|retired|outdated)\b/, "superseded"],
  [/^(rejected|declined|discarded|abandoned|withdrawn|refused|not accepted)\b/, "rejected"],
  [/^(proposed|draft|pending|open|in review|under review|under discussion|discussing|wip|work in progress|suggested|requested)\b/, "proposed"],
];

/** The kind a status gives a record: accepted (and anything else a team writes for "in force") is a decision. */
export function kindOfStatus(status: string | undefined): RecordKind {
  const s = (status ?? "").trim().toLowerCase().replace(/^[*_~`"'[(]+/, "");
  for (const [re, kind] of STATUS_WORDS) if (re.test(s)) return kind;
  return "decision";
}

/** Is `path` (absolute) a file directly inside one of `folders` (relative, `/`-separated)? */
/** A file name a record folder's record can have: markdown, and not the folder's index, a template or its tombstones. Pure. */
export function recordFileName(name: string): boolean {
  return /\.mdx?$/i.test(name) && !NOT_RECORDS.test(name);
}

export function inDecisionFolder(path: string, folders: readonly string[]): boolean {
  if (NOT_RECORDS.test(basename(path))) return false;
  const dir = dirname(path).split(sep).join("/").toLowerCase();
  return folders.some((f) => {
    const want = f.replace(/^\/+|\/+$/g, "").toLowerCase();
    return want !== "" && (dir === want || dir.endsWith(`/${want}`));
  });
}

const one = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : typeof v === "number" ? String(v) : undefined);

function people(v: unknown): string[] {
  // Spaces made one first: a split on `\s*[,;]\s*` backtracked quadratically on a long run of them.
  const raw = Array.isArray(v) ? v : typeof v === "string" ? v.replace(/\s+/g, " ").split(/ ?[,;] ?| and /) : [];
  return [...new Set(raw.map(one).filter((x): x is string => x !== undefined).map((x) => x.slice(0, 80)))].slice(0, 20);
}

/** The line after a `## Status` heading (adr-tools), or a `Status: …` line near the top. */
function statusInBody(body: string): string | undefined {
  const lines = body.split(/\r?\n/).slice(0, 80);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    // The prefix by a regular expression, the rest by hand: a lazy capture before `\s*$` backtracked quadratically on a long line.
    const head = /^[*_]{0,2}status[*_]{0,2}\s*:\s*[*_]{0,2}/i.exec(l);
    const inline = head ? l.slice(head[0].length).replace(/[*_]{1,2}$/, "") : "";
    if (inline !== "") return inline;
    if (/^#{2,4}\s+status\s*$/i.test(l)) {
      for (let j = i + 1; j < lines.length && !/^#/.test(lines[j]!.trim()); j++) {
        const s = lines[j]!.trim().replace(/^[-*]\s+/, "");
        if (s !== "") return s;
      }
      return undefined;
    }
  }
  return undefined;
}

/** A `Date: 2017-06-30` line near the top (Nygard, adr-tools). */
function dateInBody(body: string): string | undefined {
  for (const l of body.split(/\r?\n/).slice(0, 20)) {
    const m = /^(?:[*_]{0,2})date(?:[*_]{0,2})\s*:\s*(?:[*_]{0,2})(\d{4}-\d{2}-\d{2})/i.exec(l.trim());
    if (m) return m[1];
  }
  return undefined;
}

/** "superseded by ADR-0057", "Superseded by [DNS Infrastructure](0015-dns-infrastructure.md)": what replaces it. */
function successorOf(status: string): string | undefined {
  const m = /\b(?:superseded|replaced)\s+by\s+(.+)$/i.exec(status);
  if (!m) return undefined;
  const link = /\[([^\]]*)\]\(([^)\s]+)\)/.exec(m[1]!);
  return (link ? link[2]! : m[1]!.trim()).slice(0, 200);
}

/** The status of a record whose file still holds a merge's conflict markers. */
export const CONFLICT_STATUS = "unresolved merge conflict";

/** Does `text` hold git's conflict markers (`<<<<<<< `, `=======`, `>>>>>>> `, each at a line's start, in that order)? Pure. */
export function hasConflictMarkers(text: string): boolean {
  // One pass over the lines (a regular expression spanning lines backtracked for minutes on a file of markers that never close).
  const marks = [/^<{7}(?: |$)/, /^={7}\r?$/, /^>{7}(?: |$)/];
  let at = 0;
  for (const line of text.split("\n")) if (marks[at]!.test(line) && ++at === marks.length) return true;
  return false;
}

export interface RecordInput {
  /** The file's absolute path. */
  path: string;
  /** The frontmatter's `kind` (or `type`), lower case, if any. */
  kind?: string;
  /** The frontmatter's `date` (or `updated`, `created`), if any. */
  date?: string;
  /** Every other frontmatter key. */
  extra: Record<string, unknown>;
  /** The body after the frontmatter. */
  body: string;
  /** The whole file holds merge conflict markers (a pull that conflicted, not resolved yet). */
  conflicted?: boolean;
}

/**
 * The text of the first `# ` heading, its closing hashes dropped, at most 200 characters. Line by
 * line (a regular expression over the body backtracked for minutes on a heading of many spaces).
 */
function firstHeading(body: string): string | undefined {
  for (const line of body.split(/\r\n|[\n\r\u2028\u2029]/)) {
    if (!/^#\s/.test(line)) continue;
    const text = line.slice(1).trim().replace(/#+$/, "").trimEnd();
    if (text !== "") return text.slice(0, 200);
  }
  return undefined;
}

/** What a conflicted file still says plainly: the title of its first version. */
function unresolved(note: RecordInput): Pick<DecisionRecord, "authors" | "title"> {
  const title = firstHeading(note.body);
  return { authors: [], ...(title ? { title } : {}) };
}

/**
 * Whether a record is the team's: its file lies in one of the record folders (`folders`) inside
 * the repository whose top level is `repo` (undefined: the project is no repository, so no file
 * is the team's). A note elsewhere that only gives itself a `kind` is the user's own record.
 */
export function teamRecord(path: string, folders: readonly string[], repo: string | undefined): boolean {
  if (repo === undefined || repo === "") return false;
  const top = repo.endsWith(sep) ? repo : `${repo}${sep}`;
  if (!path.startsWith(top) || !inDecisionFolder(path, folders)) return false;
  // The repository's own folder (docs/adr from its top), not one deeper in it (vendor/lib/docs/adr: a library's).
  const dir = dirname(path.slice(top.length)).split(sep).join("/").toLowerCase();
  return folders.some((f) => f.replace(/^\/+|\/+$/g, "").toLowerCase() === dir);
}

/** A `mem-id` as a memory id can be: one line of letters, digits and `:_.-`, at most 100 characters. */
function memIdOf(v: unknown): string | undefined {
  const s = one(v);
  return s !== undefined && /^[\w:.-]{1,100}$/.test(s) ? s : undefined;
}

/** The record a note is, or undefined when it is none. */
export function decisionRecord(note: RecordInput, folders: readonly string[], repo?: string): DecisionRecord | undefined {
  const own = note.kind !== undefined && OWN_KINDS.has(note.kind);
  if (!own && !inDecisionFolder(note.path, folders)) return undefined;
  // Two versions in one file: neither is in force until the team resolves it; listed, marked, never briefed as current.
  if (note.conflicted) return { ...unresolved(note), kind: "proposed", status: CONFLICT_STATUS };
  const written = one(note.extra.status) ?? statusInBody(note.body);
  // As written, its links as their text: "superseded by [3. Use Kafka](0003-use-kafka.md)" reads "superseded by 3. use kafka".
  const status = written?.split(/\r?\n/)[0]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[*_`]/g, "").trim().toLowerCase().slice(0, 80) || undefined;
  // A kind the note gives itself stands, but a decision's status can still say it was rejected or replaced.
  const kind: RecordKind = own && (status === undefined || (note.kind !== "decision" && note.kind !== "rejected")) ? (note.kind as RecordKind) : kindOfStatus(status);
  const authors = people(note.extra["decision-makers"] ?? note.extra.deciders ?? note.extra.authors ?? note.extra.author);
  const date = note.date ?? dateInBody(note.body);
  const title = firstHeading(note.body);
  const successor = status !== undefined && kind === "superseded" ? successorOf(written!) : undefined;
  const memId = memIdOf(note.extra["mem-id"]);
  const team = teamRecord(note.path, folders, repo);
  return { kind, ...(status !== undefined ? { status } : {}), ...(date ? { date } : {}), authors, ...(successor ? { supersededBy: successor } : {}), ...(title ? { title } : {}), ...(team ? { team: true as const } : {}), ...(memId ? { memId } : {}) };
}
