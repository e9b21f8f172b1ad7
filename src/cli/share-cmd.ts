import { resolveProject } from "../project/identity.js";
import { field, safeJson, visible } from "../render/line.js";
import { SHAREABLE_KINDS } from "../team/madr-file.js";
import { TeamError } from "../team/place.js";
import { share } from "../service/share.js";
import { EXIT, isoDate, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { failure, withService } from "./memory-io.js";
import { note } from "./quiet.js";

const usage = `Usage: mem share ID... [--folder F] [--dry-run] [--json]
       mem share --kind K [--since DATE|Nd] [--folder F] [--dry-run] [--json]

Writes memories of this project into the repository's team folder, one MADR file each, for the
team to review as an ordinary diff and commit (mem commits and pushes nothing). Each file holds
the memory's status (a rejected approach is rejected, the rest accepted), date, author (git config
user.name and user.email of the repository), kind, its id (mem-id), the files it concerns, the
session it came from, a title and its text, all redacted. Sharing a memory again rewrites its
file. Only decisions, rejected approaches, learned facts, preferences and notes are shared; tool
events, prompts and tasks are refused, and so is a memory listed in the folder's FORGOTTEN.md
(mem forget of a shared memory adds it there).

  ID            a memory, by its id as mem list shows it (or any id mem get takes)
  --kind K      instead of IDs: every memory of kind K (repeatable; default with --since: all
                of ${SHAREABLE_KINDS.join(", ")})
  --since D     with --kind or alone: made on or after D (2026-11-01), or in the last N days (7d)
  --folder F    the team folder, relative to the repository (default: team.folder in the config,
                else the first of index.decisionFolders the repository has, else docs/decisions)
  --dry-run     print each file and what would be written; write nothing
  --json        {"folder", "dryRun", "results": [{"id", "status": "written"|"unchanged"|"would
                write"|"skipped", "file"?, "memId"?, "why"?, "content"?}], "warnings"}
  -h, --help    this help

Exit status: 0 done, 1 refused (no repository, an untrusted folder) or a memory named by ID not
shared (each line says why), 2 bad arguments.`;

const DAY_MS = 86_400_000;

/** `--since`: a date, or `Nd` (the last N days). */
export function sinceOf(value: string | undefined, now: number): string | undefined {
  if (value === undefined) return undefined;
  const days = /^(\d{1,5})d$/.exec(value.trim());
  if (days) return new Date(now - Number(days[1]) * DAY_MS).toISOString();
  return isoDate(value, "since");
}

export const shareCommand: Command = {
  summary: "write chosen memories into the repository's team folder as MADR files",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { kind: { type: "string", multiple: true }, since: { type: "string" }, folder: { type: "string" }, "dry-run": { type: "boolean" }, json: { type: "boolean" } });
    const now = Date.now();
    const kinds = values.kind ?? [];
    for (const k of kinds) if (!SHAREABLE_KINDS.includes(k)) throw new UsageError(`--kind must be one of ${SHAREABLE_KINDS.join(", ")} (tool events, prompts and tasks are never shared), got "${field(k, 40)}"`);
    const since = sinceOf(values.since, now);
    if (positionals.length > 0 && (kinds.length > 0 || since !== undefined)) throw new UsageError("give IDs, or --kind/--since to choose memories: not both");
    if (positionals.length === 0 && kinds.length === 0 && since === undefined) throw new UsageError("what to share: IDs, or --kind K and/or --since D");
    if (values.folder !== undefined && values.folder.trim() === "") throw new UsageError("--folder needs a folder");
    const json = values.json === true;
    const dryRun = values["dry-run"] === true;
    return withService("share", json, ({ app, svc }) => {
      const project = resolveProject(process.cwd());
      let report: ReturnType<typeof share>;
      try {
        report = share(app.db, svc, app.config, { project: project.id, root: project.root, ids: positionals, kinds, ...(since ? { since } : {}), ...(values.folder !== undefined ? { folder: values.folder } : {}), dryRun, now });
      } catch (err) {
        if (err instanceof TeamError) return failure("share", json, err.message, "refused");
        throw err;
      }
      const named = positionals.length > 0;
      const failed = named && report.results.some((r) => r.status === "skipped");
      if (json) {
        process.stdout.write(`${safeJson({ folder: report.folder, dryRun, results: report.results, warnings: report.warnings })}\n`);
        return failed ? EXIT.failure : EXIT.ok;
      }
      for (const w of report.warnings) note(`mem share: warning: ${w}\n`);
      const out: string[] = [];
      for (const r of report.results) {
        const what = `${r.status.padEnd(11)} ${field(r.id, 80)}${r.file ? `  ${field(r.file, 300)}` : ""}${r.why ? `  (${field(r.why, 300)})` : ""}`;
        out.push(what);
        if (r.content !== undefined) out.push(...visible(r.content).trimEnd().split("\n").map((l) => `    | ${l}`));
      }
      if (report.results.length === 0) out.push(`nothing to share${kinds.length > 0 ? ` of kind ${kinds.join(", ")}` : ""}${values.since ? ` since ${field(values.since, 40)}` : ""}`);
      if (dryRun) out.push("dry run: nothing written");
      else if (report.results.some((r) => r.status === "written")) out.push(`review with \`git diff ${report.folder}\` (new files: \`git status ${report.folder}\`), then commit`);
      process.stdout.write(`${out.join("\n")}\n`);
      return failed ? EXIT.failure : EXIT.ok;
    });
  },
};
