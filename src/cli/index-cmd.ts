import { realOr } from "../util/walls.cjs";
import { indexLock } from "../maintenance/index-lock.js";
import { indexPaths, NoSourcesError, type IndexSummary } from "../../indexer/pipeline.js";
import { reindexStale } from "../../indexer/reindex-stale.js";
import { scrubRewritten, scrubStore } from "../store/scrub.js";
import { openApp } from "../app.js";
import { snapshotIfDue } from "../store/snapshots.js";
import { homedir } from "node:os";
import { projectOf } from "../maintenance/roots.js";
import { indexedProject, resolveProject, type Project } from "../project/identity.js";
import type { Db } from "../store/db.js";
import { projectsOfRoot } from "../store/roots.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { progressBar } from "./progress.js";
import { sayNoModelNow, vectorSkippedNote } from "./vector-note.js";
import { NO_MODEL_LINE } from "../retrieve/warnings.js";
import { field, safeJson } from "../render/line.js";

const usage = `Usage: mem index [PATH...] [options]
       mem index --stale [ROOT...] [--project P]... [options]

Indexes markdown memory files (.md, .mdx; YAML frontmatter becomes metadata) and event logs
(*.events.jsonl, events/*.jsonl, or any .jsonl given by name) under PATH (default: .).
Honours .gitignore and index.ignore. Unchanged files cost nothing; edited files re-embed only
their changed chunks; deleted files leave both stores. A PATH that does not exist, or holds no
such file and was never indexed, fails the command (exit 1, after the other PATHs are indexed;
nothing is stored for it); so does a PATH indexed before and gone now (its notes leave the index).
Symbolic links are followed only inside PATH: a link out of it (to /etc, to /, to another
folder) is skipped with one warning naming it, unless index.followExternalLinks in config.json
lists PATH (never into /proc, /sys or /dev). FIFOs, sockets and devices are never read; the
whole file system (/, or a link to it) is never a PATH.

--stale re-indexes the recorded roots (every project's, those of --project P, or the ROOTs
given) in which a file is new, gone or changed since they were last indexed; a root that is
missing is reported and left as it is, except a decision or team folder git removed from its
repository (its records are forgotten). The daemon and \`mem query\` run it in the background.

Options:
  --project NAME   store under this project (default: the git top level of each PATH, else the
                   directory); with --stale, only that project's roots (repeatable)
  --full           re-read every file and rebuild this project's vectors (repairs a damaged vector table)
  --stale          re-index only the recorded roots that changed (above)
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


/** The project a root is indexed into with no --project: the one it was indexed into before (only one), else by the folder rule. */
function ownerOf(db: Db, root: string): Project {
  const before = projectsOfRoot(db, realOr(root));
  return before.length === 1 ? projectOf(before[0]!) : indexedProject(root, process.cwd(), homedir());
}

export const indexCommand: Command = {
  summary: "index memory files",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, {
      project: { type: "string", multiple: true },
      full: { type: "boolean" },
      stale: { type: "boolean" },
      strict: { type: "boolean" },
      json: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
    });
    const projects = values.project ?? [];
    if (projects.length > 1 && !values.stale) throw new UsageError("--project may be given once (more than once only with --stale)");
    if (values.stale && values.full) throw new UsageError("--stale and --full exclude each other");
    const roots = positionals.length > 0 ? positionals : ["."];
    const app = openApp();
    const quiet = values.quiet === true;
    const warn = (m: string) => {
      if (!quiet) process.stderr.write(`warning: ${m}\n`);
    };
    app.configWarnings.forEach(warn);
    const bar = progressBar(process.stderr, process.stderr.isTTY === true && !quiet && !values.json);
    let unlock: (() => void) | undefined;
    try {
      unlock = await indexLock(app.paths.home, (l) => !quiet && process.stderr.write(`${l}\n`));
      // What an older mem stored under older redaction rules is redacted again, once.
      const scrubbed = scrubStore(app.db);
      if (scrubbed && !quiet) process.stderr.write(`redacted again what was stored under older rules: ${scrubRewritten(scrubbed)} row(s) changed of ${scrubbed.scanned}\n`);
      const providers = await app.providers();
      const ctx = { db: app.db, config: app.config, providers, vectors: app.vectors, warn, onProgress: (phase: "scan" | "embed", done: number, total: number) => bar.update(phase, done, total) };
      const summaries: IndexSummary[] = [];
      let missing: string[] = [];
      let unmatched: string[] = [];
      if (values.stale) {
        const r = await reindexStale(ctx, { ...(projects.length > 0 ? { projects } : {}), ...(positionals.length > 0 ? { paths: positionals.map(realOr) } : {}) });
        bar.done();
        summaries.push(...r.runs);
        for (const m of r.missing) warn(`${m.path} (project ${m.project}) is missing or unreadable; its notes are kept as they were indexed`);
        if (values.json) process.stdout.write(`${safeJson({ checked: r.checked, stale: r.stale, missing: r.missing, runs: r.runs })}\n`);
        else if (!quiet) process.stdout.write(`${r.checked} root(s) checked, ${r.stale.length} changed${r.runs.length > 0 ? `\n${r.runs.map(report).join("\n")}` : ""}\n`);
      } else {
        // Each root belongs to its own project unless --project says otherwise.
        const groups = new Map<string, { project: ReturnType<typeof resolveProject>; roots: string[] }>();
        for (const r of roots) {
          const project = projects[0] !== undefined && projects[0].trim() !== "" ? resolveProject(r, projects[0]) : ownerOf(app.db, r);
          const g = groups.get(project.id) ?? { project, roots: [] };
          g.roots.push(r);
          groups.set(project.id, g);
        }
        for (const { project, roots: rs } of groups.values()) {
          let summary: IndexSummary;
          try {
            summary = await indexPaths(ctx, { roots: rs, project, full: values.full === true, requireFiles: true });
          } catch (err) {
            if (!(err instanceof NoSourcesError)) throw err;
            bar.done();
            unmatched = [...unmatched, ...err.roots.map((r) => `${r.path}: ${r.reason}`)];
            continue;
          }
          bar.done();
          summaries.push(summary);
          missing = [...missing, ...summary.missingRoots];
          unmatched = [...unmatched, ...summary.unmatched.map((r) => `${r.path}: ${r.reason}`)];
          if (!values.json && !quiet) process.stdout.write(`${report(summary)}\n`);
        }
        if (values.json && summaries.length > 0) {
          const out = summaries.length === 1 ? summaries[0] : { runs: summaries };
          process.stdout.write(`${safeJson(out)}\n`);
        } else if (values.json && unmatched.length > 0) {
          process.stdout.write(`${safeJson({ error: { code: "unmatched", message: `nothing indexed: ${unmatched.join("; ")}` } })}\n`);
        }
      }
      // A store the weekly job never runs on still gets a snapshot a week (and its first now).
      const snap = snapshotIfDue(app.db, app.paths.sqlite, app.config.maintenance.keepSnapshots);
      if (snap && "error" in snap) warn(`could not take the weekly snapshot: ${snap.error}`);
      // One line per run, whatever the number of projects; none when BM25 only was the choice.
      const skipped = summaries.find((s) => s.vector.status === "skipped");
      const note = skipped && vectorSkippedNote(app.config, skipped.vector);
      if (note && !quiet && (note !== NO_MODEL_LINE || sayNoModelNow(app.paths.home))) process.stderr.write(`${note}\n`); // the no-model line once a day per data home
      // A PATH that names nothing fails the command (after the others are indexed): a typo in a job must not pass for a success.
      for (const u of unmatched) process.stderr.write(`mem index: ${u}; nothing indexed from it\n`);
      for (const m of missing) process.stderr.write(`mem index: ${m}: no such file or directory; what was indexed from it before has left the index\n`);
      if (unmatched.length > 0 || missing.length > 0) return EXIT.failure;
      if (values.strict && skipped) {
        // Exit 3 is never silent: with vectors off on purpose no note was printed above.
        if (!note && !quiet) process.stderr.write(`mem index: --strict: exit 3, no vectors (${field(skipped.vector.reason ?? "the vector step was skipped", 300)})\n`);
        return EXIT.vectorSkipped;
      }
      return EXIT.ok;
    } finally {
      bar.done();
      unlock?.();
      await app.close();
    }
  },
};
