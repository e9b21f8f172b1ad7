import { once } from "node:events";
import { closeSync, openSync, writeSync } from "node:fs";
import { note } from "./quiet.js";
import { projectFromArg } from "../project/scope.js";
import { field, safeJson } from "../render/line.js";
import { exportMemories, toMarkdown, type Exported } from "../service/export.js";
import { memoryProjects } from "../store/memories.js";
import { EXIT, oneOf, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { withService } from "./memory-io.js";

const usage = `Usage: mem export [--project P | --all-projects] [--format jsonl|md] [--output FILE] [--json]

Writes the project's memories (explicit ones and those captured from sessions), newest first:
redacted (as stored, and through the redaction rules again on the way out), with their ids, so
mem import brings them back, into this store or another, without duplicates. Forgotten
memories are never exported. Markdown notes are not exported either: they are files already
(copy the files; mem index makes them memories again).

Options:
  --project P     a path, a stored project id, or a project's directory name; default: here
  --all-projects  every project with memories
  --format F      jsonl (default): one MEMORY per line, without "salience", "uses" and "stale"
                  (computed when read; see mem get --help); "id" is the id every output
                  shows, "storedId" the id as stored (what mem import keeps); with "key" (its client key),
                  "history" (its earlier versions) and "metadata" (what its capture recorded
                  besides the text) when it has them; md: readable markdown, a section
                  per project, a subsection per kind, one line per memory
  --output FILE   write to FILE (created readable by you alone) instead of stdout
  --json          with --output: print {"exported", "projects", "format", "file"}
  -h, --help      this help`;

export const exportCommand: Command = {
  summary: "export memories as JSON lines or markdown (redacted, ids kept)",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { project: { type: "string" }, "all-projects": { type: "boolean" }, format: { type: "string" }, output: { type: "string", short: "o" }, json: { type: "boolean" } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.project !== undefined && values["all-projects"]) throw new UsageError("--project and --all-projects exclude each other");
    if (values.json && values.output === undefined) throw new UsageError("--json needs --output FILE: without it the export itself is on stdout");
    const format = oneOf(values.format, "format", ["jsonl", "md"] as const) ?? "jsonl";
    return withService("export", values.json === true, async ({ app, svc }) => {
      const projects = values["all-projects"] ? memoryProjects(app.db) : [projectFromArg(app.db, values.project, process.cwd(), app.config.project.enclosing).id];
      let fd: number | undefined;
      try {
        fd = values.output === undefined ? undefined : openSync(values.output, "w", 0o600);
      } catch (err) {
        throw new Error(`cannot write ${field(values.output!, 300)}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "its folder does not exist" : (err as Error).message}`);
      }
      const write = async (text: string) => {
        if (fd !== undefined) writeSync(fd, text);
        else if (!process.stdout.write(text)) await once(process.stdout, "drain");
      };
      let n = 0;
      const counted = function* (): Generator<Exported> {
        for (const m of exportMemories(svc, app.db, projects)) {
          n++;
          yield m;
        }
      };
      try {
        if (format === "md") await write(toMarkdown(counted(), new Date()));
        else for (const m of counted()) await write(`${safeJson(m)}\n`);
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
      if (values.output !== undefined) {
        if (values.json) process.stdout.write(`${safeJson({ exported: n, projects, format, file: values.output })}\n`);
        else note(`exported ${n} memor${n === 1 ? "y" : "ies"} of ${projects.length} project${projects.length === 1 ? "" : "s"} to ${field(values.output, 300)}`);
      }
      return EXIT.ok;
    });
  },
};
