import { createReadStream, statSync } from "node:fs";
import { projectFromArg, projectToStoreIn } from "../project/scope.js";
import { isQuiet } from "./quiet.js";
import { field, safeJson } from "../render/line.js";
import { readRegular } from "../util/read-regular.cjs";
import { importLines, type ImportTally } from "../service/import.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { failure, nudgeDaemon, readStdin, withService } from "./memory-io.js";
import { progressBar } from "./progress.js";

const usage = `Usage: mem import FILE|- [--project P [--new-project]] [--keep-projects] [--keep-global] [--json]

Imports memories from JSON lines (FILE, or - for stdin): lines as mem export writes them, or in
the minimal shape {"text", "kind"?, "tags"?, "files"?, "key"?}. Ids, keys, earlier versions
("history", at most 100) and capture metadata (an object of at most 16 KiB) are kept. Idempotent: a
memory whose id (or key, in its project) is already here is skipped and counted, and so is one
forgotten here (it never comes back); a line with neither id nor key gets its content's id, so
importing a file twice changes nothing. Markdown memories in the file are skipped (they are
files). Text passes the redaction boundary as any new memory does. A malformed line is reported
with its line number and the rest is imported. Vectors follow (the daemon, or mem sync).

Every line goes into one project: here (the current directory's), or --project. The project a
line names itself is obeyed only with --keep-projects (and "global", the memory every project
is shown, only with --keep-global), so a file from elsewhere cannot put memories into another
project. A time in the future (createdAt, updatedAt, a version's time) is set to now and counted.

Options:
  --project P       import into P (a path, a stored project id, or a project's directory name;
                    "global" for the user's global memory); default: here. A name nothing is
                    stored under is refused (a typo), unless --new-project
  --keep-projects   file each line into the project it names (lines naming none go to P or
                    here), as mem export --all-projects wrote them; not "global"
  --keep-global     file lines that name "global" into the global memory
  --json            {"imported", "skipped": {"present", "forgotten", "markdown"}, "failed":
                    [{"line", "error"}], "projects": [the projects that received memories],
                    "into": {project: count}, "refiled": lines naming another project filed
                    into P, "clamped": future times set to now}
  -h, --help    this help

Exit status: 0 every line imported or skipped, 1 some line failed (the others are imported),
2 bad arguments.`;

const MAX_INPUT = 512 * 1024 * 1024;

/**
 * The file to import: a regular file of at most MAX_INPUT bytes, or a pipe (`mem import <(...)`),
 * read up to the same cap. A device (/dev/zero, a terminal), a socket or a directory is refused
 * with what it is: never read without end.
 */
async function readInput(file: string): Promise<string> {
  if (statSync(file).isFIFO()) return readStdin(MAX_INPUT, createReadStream(file), `in ${file}`);
  const r = readRegular(file, MAX_INPUT);
  if (!r.ok) throw new Error(r.reason);
  return r.data.toString("utf8");
}

export const importCommand: Command = {
  summary: "import memories from JSON lines (idempotent)",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { project: { type: "string" }, "new-project": { type: "boolean" }, "keep-projects": { type: "boolean" }, "keep-global": { type: "boolean" }, json: { type: "boolean" } });
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "a FILE to import is required (- for stdin)" : `one FILE, got ${positionals.length}`);
    const json = values.json === true;
    const file = positionals[0]!;
    let input: string;
    try {
      input = file === "-" ? await readStdin(MAX_INPUT) : await readInput(file);
    } catch (err) {
      return failure("import", json, `cannot read ${field(file, 300)}: ${(err as Error).message}`, "unreadable");
    }
    return withService("import", json, async ({ app }) => {
      const project = values.project === undefined ? projectFromArg(app.db, undefined, process.cwd(), app.config.project.enclosing).id : projectToStoreIn(app.db, values.project, process.cwd(), { enclosing: app.config.project.enclosing, create: values["new-project"] === true, how: "add --new-project" }).id;
      const bar = progressBar(process.stderr, process.stderr.isTTY === true && !json && !isQuiet());
      const lines = input.split("\n");
      if (lines.at(-1) === "") lines.pop(); // the final newline ends the last line
      const tally = importLines({ db: app.db, config: app.config, projectRoot: app.projectRoot }, lines, { project, keepProjects: values["keep-projects"] === true, keepGlobal: values["keep-global"] === true, onProgress: (done, total) => bar.update("import", done, total) });
      bar.done();
      for (const p of tally.projects) await nudgeDaemon(p);
      for (const f of tally.failed) process.stderr.write(`mem import: line ${f.line}: ${field(f.error, 300)}\n`);
      if (json) process.stdout.write(`${safeJson(tally)}\n`);
      else process.stdout.write(summary(tally));
      return tally.failed.length > 0 ? EXIT.failure : EXIT.ok;
    });
  },
};

/** The text summary: how many went where, what was skipped or failed, and what was changed on the way in. */
function summary(t: ImportTally): string {
  const where = Object.entries(t.into).map(([p, n]) => `${n} into ${field(p, 300)}`);
  const s = t.skipped;
  const lines = [`imported ${t.imported}${where.length > 0 ? ` (${where.join(", ")})` : ""}; skipped ${s.present} already present, ${s.forgotten} forgotten, ${s.markdown} markdown; ${t.failed.length} failed`];
  if (t.refiled > 0) lines.push(`${t.refiled} line${t.refiled === 1 ? "" : "s"} named another project and ${t.refiled === 1 ? "was" : "were"} imported into this one (--keep-projects, --keep-global keep the lines' own projects)`);
  if (t.clamped > 0) lines.push(`warning: ${t.clamped} time${t.clamped === 1 ? "" : "s"} in the future ${t.clamped === 1 ? "was" : "were"} set to now`);
  return `${lines.join("\n")}\n`;
}
