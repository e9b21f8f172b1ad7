import { openApp } from "../app.js";
import { indexLock } from "../maintenance/index-lock.js";
import { dataHome } from "../config/paths.cjs";
import { stopDaemon } from "../daemon/stop.js";
import { recordFailedStart, runReindex } from "../maintenance/reindex/job.js";
import { renderReport } from "../maintenance/reindex/report.js";
import { field, safeJson } from "../render/line.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { progressBar } from "./progress.js";

const usage = `Usage: mem reindex [--forget-missing] [--json] [-q]

The weekly maintenance run (\`mem schedule install\` registers it; run it any time: a second run
changes nothing). In order:
  - a snapshot of the SQLite store into <data home>/snapshots/ (the newest
    maintenance.keepSnapshots (5) are kept; \`mem restore\` brings one back);
  - session logs: sessions/current.md moved to sessions/YYYY-MM-DD.md, logs older than
    maintenance.archiveAfterDays (90) moved under archive/ (as \`mem rotate\`);
  - every registered root of every project indexed again (incrementally), captured events
    chunked and embedded;
  - forgotten memories purged from SQLite, the text index and every LanceDB table;
  - decay recomputed; warm memories unused for maintenance.coldAfterDays (90) moved to the cold
    tier (decisions and rejected approaches never), cold ones used again back to warm;
  - LanceDB tables compacted and their old versions removed, the FTS5 index optimized, SQLite
    vacuumed when worth it; the store's size before and after printed.
A running daemon is stopped first (the next prompt starts it again). The run is recorded (the
store and <data home>/maintenance.log); while the last one failed, the SessionStart briefing says
so in one line.

Options:
  --forget-missing  drop registered roots that no longer exist (and what was indexed under them)
                    instead of failing on them
  --json            the full report: {"ok", "problems", "failed", "rotate", "projects", "purge",
                    "salience", "tiers", "compaction", "size": {"before", "after"}, ...}
  -q, --quiet       no progress, no report on success (problems still go to stderr)
  -h, --help        this help

Exit status: 0 ok; 1 a root is missing or a step failed; 3 only the vector step was skipped
(no embedding provider answered; with embedding.order empty, vectors are off and that is fine).`;

export const reindexCommand: Command = {
  summary: "the weekly maintenance run: index every root again, purge, decay, tiers, compaction",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { "forget-missing": { type: "boolean" }, json: { type: "boolean" }, quiet: { type: "boolean", short: "q" } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const quiet = values.quiet === true;
    const say = (s: string) => (quiet || values.json ? undefined : process.stderr.write(`${s}\n`));
    // The lock first, then the daemon: a daemon stopped before a long wait for the lock would be
    // started again by the next prompt and run beside this job.
    let problem: string | undefined;
    let unlock: (() => void) | undefined;
    try {
      unlock = await indexLock(dataHome(), say);
      if ((await stopDaemon(dataHome())) === "stopped") say("stopped the daemon (it held the stores open; the next prompt starts it again)");
    } catch (err) {
      problem = unlock ? `the daemon could not be stopped: ${(err as Error).message}` : (err as Error).message;
    }
    const app = openApp();
    if (problem !== undefined || !unlock) {
      // A scheduled run has no terminal: the store, the log and the next briefing say why it did not run.
      const why = problem ?? "index.lock not taken";
      recordFailedStart(app.db, app.paths.home, why, Date.now());
      unlock?.();
      await app.close();
      throw new Error(why);
    }
    const release = unlock;
    const bar = progressBar(process.stderr, process.stderr.isTTY === true && !quiet && !values.json);
    try {
      for (const w of app.configWarnings) say(`warning: ${w}`);
      const report = await runReindex({
        db: app.db,
        config: app.config,
        paths: app.paths,
        providers: app.providers,
        vectors: app.vectors,
        now: Date.now,
        forgetMissing: values["forget-missing"] === true,
        warn: (m) => {
          bar.done();
          say(`warning: ${m}`);
        },
        say: (step) => {
          bar.done();
          say(`${step}…`);
        },
        onProgress: (label, done, total) => bar.update(label, done, total),
      });
      bar.done();
      if (values.json) process.stdout.write(`${safeJson(report)}\n`);
      else if (!quiet) process.stdout.write(`${renderReport(report)}\n`);
      if (report.ok) return EXIT.ok;
      for (const p of report.problems) process.stderr.write(`mem reindex: ${field(p, 1000)}\n`);
      return report.failed.rootsMissing > 0 || report.failed.errors > 0 ? EXIT.failure : EXIT.vectorSkipped;
    } finally {
      bar.done();
      release();
      await app.close();
    }
  },
};
