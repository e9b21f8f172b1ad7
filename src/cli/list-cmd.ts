import { shortSession } from "../brief/render.js";
import { ABSOLUTE_HELP, ABSOLUTE_OPTION, timeShower } from "./times.js";
import { EVENT_TYPES } from "../store/event-types.js";
import { note } from "./quiet.js";
import { projectFromArg } from "../project/scope.js";
import { field, prose, safeJson } from "../render/line.js";
import { idOf, shown } from "../service/convert.js";
import { EXPLICIT_KINDS, type Memory, type MemorySource } from "../service/types.js";
import { EXIT, int, isoDate, parse, UsageError } from "./args.js";
import { MEMORY_SHAPE } from "./get-cmd.js";
import type { Command } from "./command.js";
import { recordParts } from "../store/records.js";
import { unknownProjectNote, withService } from "./memory-io.js";
import { TaskStore } from "../store/tasks.js";
import { taskJson, taskLines } from "./task-shape.js";

const SOURCES: readonly MemorySource[] = ["explicit", "tag", "keyword", "captured", "markdown"];
const KINDS = [...new Set<string>([...EVENT_TYPES, ...EXPLICIT_KINDS, "superseded", "proposed"])];

const usage = `Usage: mem list [--kind K]... [--tag T]... [--source S]... [--text WORDS] [--session S]
                [--since D] [--until D] [--project P] [--limit N] [--offset N] [--absolute] [--json]
       mem list --team [--kind K]... [--project P] [--limit N] [--offset N] [--json]

The project's memories, newest first: explicit ones (mem remember), decisions, rejected
approaches, learned facts and preferences (from [MEMORY:] tags and keyword markers), tasks, and
tool events. Each with its id, kind, age, session, salience and whether the files it names
changed since. Then the repository's decision records (docs/adr/…, or a note whose frontmatter
says kind: decision), one a file, with status, date and authors: accepted ones are decisions,
rejected ones rejected approaches, superseded or deprecated ones superseded, proposed ones
proposed (without --source, --tag, --text, --session or dates). Other markdown notes are listed
only with --source markdown (after the rest, by file and line): they are your files, edit them
there (mem query searches them either way). A local memory that a team record states (or that
\`mem share\` wrote as one) is listed once, as the record, "also local".

--team lists the team's memory only: the records in the repository's record folders (the team
folder and the decision folders, docs/decisions, docs/adr, …), one a file, with id, kind, status,
date, authors, file and title, newest first. Teammates share them with \`mem share\` and git.

Options:
  --team        only the team's records (combines with --kind, --limit, --offset, --json)
  --kind K      ${KINDS.join(", ")}
                (repeatable; with --source markdown any kind a note's frontmatter gives).
                task: the project's open tasks too, as \`mem task list\` shows them (after
                the memories; not with --team or --source)
  --tag T       only memories carrying tag T (repeatable; all must match)
  --source S    explicit (mem remember, imports), tag ([MEMORY:] tags), keyword (decision
                markers in prose), captured (tool events), markdown (notes) (repeatable)
  --text WORDS  only memories whose text contains every word (case-insensitive)
  --session S   one session: its whole id, its short form as shown (8bbcceab…a8c6), or a
                start of it of 6 characters or more that only one session begins with
  --since D, --until D   created on or after D, before D (e.g. 2026-11-01)
  --project P   a path, a stored project id, or a project's directory name; default: here
  --limit N     at most N (default 50, up to 1000); --offset N to page
  --json        {"project", "total", "memories": [MEMORY, ...]}, each also with "time" (its
                createdAt, as earlier versions printed); with --kind task also "tasks": [TASK,
                ...], TASK as in \`mem task --help\`
                ${MEMORY_SHAPE}
${ABSOLUTE_HELP}
  -h, --help    this help`;

/** What a record's line says after its file: status, date, authors, whether it is the team's and local too. */
function recordWhere(m: Memory): string {
  const r = m.record!;
  const also = m.alsoLocal?.length ? [`also local ${m.alsoLocal.map((id) => field(id, 20)).join(" ")}`] : [];
  return `${field(m.path ?? "", 120)}  ${[...recordParts(r).map((x) => field(x, 120)), ...(r.team ? ["team"] : []), ...also].join(", ")}`;
}

function line(m: Memory, when: (t: string) => string): string {
  const where = m.record
    ? recordWhere(m)
    : m.source === "markdown" ? `${field(m.path ?? "", 120)}:${m.startLine}-${m.endLine}` : `${m.session ? `session ${shortSession(m.session)}` : "no session"}  salience ${(m.salience ?? 0).toFixed(2)}`;
  const team = m.team ? `\n   (also a team record: ${field(m.team.path, 120)}${m.team.record.status ? `, ${field(m.team.record.status, 60)}` : ""})` : "";
  return `${idOf(m)}  ${field(m.kind, 14).padEnd(14)}  ${when(m.createdAt).padEnd(15)}  ${where}\n   ${prose(m.text, 300)}${m.stale ? `\n   (${field(m.stale, 200)})` : ""}${team}`;
}

/** A team record on one line: id, kind and status, date, authors, file; then its title. */
function teamLine(m: Memory): string {
  const r = m.record ?? { kind: m.kind, authors: [] };
  const status = r.status && r.status !== m.kind ? ` (${field(r.status, 60)})` : "";
  const succ = r.supersededBy && !(r.status ?? "").includes("superseded by") ? `, superseded by ${field(r.supersededBy, 120)}` : "";
  const by = r.authors.length > 0 ? `by ${r.authors.slice(0, 4).map((a) => field(a, 80)).join(", ")}${r.authors.length > 4 ? ", …" : ""}` : "no author";
  const also = m.alsoLocal?.length ? `  also local ${m.alsoLocal.map((id) => field(id, 20)).join(" ")}` : "";
  const path = m.path ?? "";
  const rel = path.startsWith(`${m.project}/`) ? path.slice(m.project.length + 1) : path; // in the repository: from its top
  return `${idOf(m)}  ${field(m.kind, 12)}${status}${succ}  ${field(r.date ?? "no date", 40)}  ${by}  ${field(rel, 160)}${also}\n   ${prose(r.title ?? m.text, 200)}`;
}

/** What the user reads when the project has no team record: how to get team memory. */
export const NO_TEAM = "The team's memory is the decision records in the repository: share a memory with `mem share ID` (it writes a file to the team folder, docs/decisions by default, for review and commit), or keep ADRs in docs/decisions or docs/adr; SessionStart indexes them, or run `mem index docs/decisions`.";

export const listCommand: Command = {
  summary: "list the project's memories: decisions, lessons, tasks, tool events, notes",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, {
      kind: { type: "string", multiple: true },
      tag: { type: "string", multiple: true },
      source: { type: "string", multiple: true },
      text: { type: "string" },
      session: { type: "string" },
      since: { type: "string" },
      until: { type: "string" },
      project: { type: "string" },
      limit: { type: "string" },
      offset: { type: "string" },
      json: { type: "boolean" },
      team: { type: "boolean" },
      ...ABSOLUTE_OPTION,
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    for (const s of values.source ?? []) if (!(SOURCES as readonly string[]).includes(s)) throw new UsageError(`--source must be one of ${SOURCES.join(", ")}, got "${s}"`);
    const sources = values.source as MemorySource[] | undefined;
    const markdown = sources?.includes("markdown") === true;
    for (const k of values.kind ?? []) {
      if (markdown ? !/^[\p{L}\p{N}_.-]{1,40}$/u.test(k) : !KINDS.includes(k)) throw new UsageError(`--kind must be one of ${KINDS.join(", ")}, got "${k}"`);
    }
    const limit = int(values.limit, "limit", 1, 1000) ?? 50;
    const offset = int(values.offset, "offset", 0, 1e9) ?? 0;
    const since = isoDate(values.since, "since");
    const until = isoDate(values.until, "until");
    const json = values.json === true;
    const team = values.team === true;
    if (team && (sources || values.tag || values.text || values.session || since || until)) throw new UsageError("--team combines with --kind, --project, --limit, --offset and --json only");
    return withService("list", json, ({ app, svc }) => {
      const project = projectFromArg(app.db, values.project, process.cwd(), app.config.project.enclosing).id;
      const now = Date.now();
      const { total, memories } = svc.list({
        project,
        ...(values.kind ? { kinds: values.kind } : {}),
        ...(values.tag ? { tags: values.tag } : {}),
        ...(sources ? { sources } : {}),
        ...(values.text ? { text: values.text } : {}),
        ...(values.session ? { session: values.session } : {}),
        ...(since ? { since } : {}),
        ...(until ? { until } : {}),
        ...(team ? { team } : {}),
        limit,
        offset,
      });
      // Tasks are kept by `mem task`, not as memories: one who asks for tasks gets the open ones.
      const tasks = values.kind?.includes("task") && !team && !sources ? new TaskStore(app.db).list({ project, all: false }) : undefined;
      const staleDays = app.config.brief.staleTaskDays;
      if (json) {
        process.stdout.write(`${safeJson({ project, total, memories: memories.map((m) => ({ ...shown(m), time: m.createdAt })), ...(tasks ? { tasks: tasks.map((t) => taskJson(t, now, staleDays)) } : {}) })}\n`);
        return EXIT.ok;
      }
      const taskPart = () => {
        if (!tasks || offset > 0) return;
        const head = "open tasks (mem task list; `mem task list --all` shows the closed ones too):";
        process.stdout.write(tasks.length > 0 ? `${head}\n${taskLines(tasks, now, staleDays, values.absolute === true).join("\n")}\n` : `no open tasks in ${field(project)} (\`mem task add "TEXT"\` adds one; \`mem task list --all\` shows the closed ones)\n`);
      };
      if (memories.length === 0 && team) {
        process.stdout.write(`no team records${values.kind ? ` of kind ${values.kind.map((k) => field(k, 40)).join(", ")}` : ""} in ${field(project)}\n`);
        if (offset === 0 && total === 0) process.stdout.write(`${NO_TEAM}\n`);
        return EXIT.ok;
      }
      if (memories.length === 0) {
        const others = (values.kind ?? []).filter((k) => !tasks || k !== "task");
        if (!tasks || others.length > 0) process.stdout.write(`no memories${values.kind ? ` of kind ${(tasks ? others : values.kind).map((k) => field(k, 40)).join(", ")}` : ""} in ${field(project)}\n`);
        taskPart();
        note(unknownProjectNote(app.db, project) ?? "");
        return EXIT.ok;
      }
      for (const m of memories) process.stdout.write(`${team ? teamLine(m) : line(m, timeShower(values, now))}\n`);
      if (offset + memories.length < total) process.stdout.write(`… ${total - offset - memories.length} more (--offset ${offset + memories.length})\n`);
      taskPart();
      return EXIT.ok;
    });
  },
};
