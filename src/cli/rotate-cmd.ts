import { indexLock } from "../maintenance/index-lock.js";
import { indexPaths } from "../../indexer/pipeline.js";
import { openApp } from "../app.js";
import { rotateRegistered } from "../maintenance/rotate/registered.js";
import { projectOf, registeredRoots } from "../maintenance/roots.js";
import { projectFromArg } from "../project/scope.js";
import { field, safeJson } from "../render/line.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";

const usage = `Usage: mem rotate [--project P] [--dry-run] [--json] [-q]

Session logs of every indexed memory root (or of project P's):
  - sessions/current.md moves to sessions/YYYY-MM-DD.md, the day it was last written in your time
    zone (maintenance.timeZone, else the system's); an empty one stays;
  - dated logs (sessions/YYYY-MM-DD*.md) older than maintenance.archiveAfterDays (90) move to
    archive/ under the same memory root, keeping their path (archive/sessions/YYYY-MM-DD.md).
A file is never written over: when the target exists, the next free name is used (…-2.md). The
roots where something moved are indexed again. \`mem reindex\` runs this first.

Options:
  --project P  only this project (a path, a stored project id or a project's directory name)
  --dry-run    say what would move; move nothing
  --json       {"dryRun", "rotated": [{"from", "to"}], "archived": [{"from", "to"}], "warnings", "indexed": [project, ...]}
  -q, --quiet  print nothing but warnings and errors
  -h, --help   this help`;

export const rotateCommand: Command = {
  summary: "move sessions/current.md to its dated log; archive old session logs",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { project: { type: "string" }, "dry-run": { type: "boolean" }, json: { type: "boolean" }, quiet: { type: "boolean", short: "q" } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const dryRun = values["dry-run"] === true;
    const app = openApp();
    try {
      const projects = values.project === undefined ? undefined : [projectFromArg(app.db, values.project, process.cwd(), app.config.project.enclosing).id as string];
      if (projects && !registeredRoots(app.db).has(projects[0]!)) throw new Error(`project ${values.project} has no indexed root (index it with \`mem index PATH\`)`);
      const cfg = app.config.maintenance;
      // Files are moved and indexed again under one hold of index.lock: no index run sees them half done.
      const unlock = dryRun ? undefined : await indexLock(app.paths.home, (l) => !values.quiet && process.stderr.write(`${l}\n`));
      const indexed: string[] = [];
      let r: ReturnType<typeof rotateRegistered>;
      try {
        r = rotateRegistered(app.db, { now: Date.now(), timeZone: cfg.timeZone, archiveAfterDays: cfg.archiveAfterDays, dryRun, ...(projects ? { projects } : {}) });
        if (!dryRun && r.changed.length > 0) {
          const providers = await app.providers();
          for (const p of r.changed) {
            const roots = registeredRoots(app.db).get(p)?.present ?? [];
            await indexPaths({ db: app.db, config: app.config, providers, vectors: app.vectors, warn: (m) => r.warnings.push(m) }, { roots, project: projectOf(p), full: false });
            indexed.push(p);
          }
        }
      } finally {
        unlock?.();
      }
      if (values.json) process.stdout.write(`${safeJson({ dryRun, rotated: r.rotated, archived: r.archived, warnings: r.warnings, indexed })}\n`);
      else if (!values.quiet) {
        const verb = dryRun ? "would move" : "moved";
        const lines = [...r.rotated.map((m) => `rotated: ${field(m.from, 300)} → ${field(m.to, 300)}`), ...r.archived.map((m) => `archived: ${field(m.from, 300)} → ${field(m.to, 300)}`)];
        lines.push(`${verb} ${r.rotated.length} current log(s) and ${r.archived.length} old log(s)${indexed.length > 0 ? `; indexed ${indexed.length} project(s) again` : ""}`);
        process.stdout.write(`${lines.join("\n")}\n`);
      }
      if (!values.json) for (const w of r.warnings) process.stderr.write(`warning: ${field(w, 1000)}\n`);
      return EXIT.ok;
    } finally {
      await app.close();
    }
  },
};
