import { indexPaths, type IndexSummary } from "../../indexer/pipeline.js";
import { scrubRewritten, scrubStore } from "../store/scrub.js";
import { openApp } from "../app.js";
import { resolveProject } from "../project/identity.js";
import { EXIT, parse } from "./args.js";
import type { Command } from "./main.js";
import { progressBar } from "./progress.js";

const usage = `Usage: mem index [PATH...] [options]

Indexes markdown memory files (.md, .mdx; YAML frontmatter becomes metadata) and event logs
(*.events.jsonl, events/*.jsonl, or any .jsonl given by name) under PATH (default: .).
Honours .gitignore and index.ignore. Unchanged files cost nothing; edited files re-embed only
their changed chunks; deleted files leave both stores.

Options:
  --project NAME   store under this project (default: the git top level of each PATH, else the directory)
  --full           re-read every file and rebuild this project's vectors (repairs a damaged vector table)
  --strict         exit 3 if the vector step is skipped (for scheduled jobs)
  --json           print a machine-readable summary on stdout
  -q, --quiet      no progress bar, no warnings on stderr
  -h, --help       this help`;

function report(s: IndexSummary): string {
  const f = s.files;
  const c = s.chunks;
  const lines = [
    `${s.project}: ${f.seen} file(s): ${f.indexed} indexed, ${f.unchanged} unchanged, ${f.skipped} skipped, ${f.deleted} removed`,
    `chunks: ${c.total} total (${c.added} added, ${c.removed} removed, ${c.kept} kept)`,
  ];
  const v = s.vector;
  if (v.status === "ok") lines.push(`vectors: ${v.embedded} embedded with ${v.provider} (${v.model}, ${v.dims} dims) into ${v.table}`);
  return lines.join("\n");
}

export const indexCommand: Command = {
  summary: "index memory files",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, {
      project: { type: "string" },
      full: { type: "boolean" },
      strict: { type: "boolean" },
      json: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
    });
    const roots = positionals.length > 0 ? positionals : ["."];
    const app = openApp();
    const quiet = values.quiet === true;
    const warn = (m: string) => {
      if (!quiet) process.stderr.write(`warning: ${m}\n`);
    };
    app.configWarnings.forEach(warn);
    const bar = progressBar(process.stderr, process.stderr.isTTY === true && !quiet && !values.json);
    try {
      // What an older mem stored under older redaction rules is redacted again, once.
      const scrubbed = scrubStore(app.db);
      if (scrubbed && !quiet) process.stderr.write(`redacted again what was stored under older rules: ${scrubRewritten(scrubbed)} row(s) changed of ${scrubbed.scanned}\n`);
      // Each root belongs to its own project unless --project says otherwise.
      const groups = new Map<string, { project: ReturnType<typeof resolveProject>; roots: string[] }>();
      for (const r of roots) {
        const project = resolveProject(r, values.project);
        const g = groups.get(project.id) ?? { project, roots: [] };
        g.roots.push(r);
        groups.set(project.id, g);
      }
      const providers = await app.providers();
      const summaries: IndexSummary[] = [];
      for (const { project, roots: rs } of groups.values()) {
        const summary = await indexPaths(
          {
            db: app.db,
            config: app.config,
            providers,
            vectors: app.vectors,
            warn,
            onProgress: (phase, done, total) => bar.update(phase, done, total),
          },
          { roots: rs, project, full: values.full === true },
        );
        bar.done();
        summaries.push(summary);
        if (summary.vector.status === "skipped") process.stderr.write(`vector step skipped: ${summary.vector.reason}\n`);
        if (!values.json && !quiet) process.stdout.write(`${report(summary)}\n`);
      }
      if (values.json) {
        const out = summaries.length === 1 ? summaries[0] : { runs: summaries };
        process.stdout.write(`${JSON.stringify(out)}\n`);
      }
      const skipped = summaries.some((s) => s.vector.status === "skipped");
      return values.strict && skipped ? EXIT.vectorSkipped : EXIT.ok;
    } finally {
      bar.done();
      await app.close();
    }
  },
};
