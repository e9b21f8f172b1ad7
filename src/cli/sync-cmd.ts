import { dataHome } from "../config/paths.cjs";
import { ask } from "../daemon/client.cjs";
import { note } from "./quiet.js";
import { projectFromArg } from "../project/scope.js";
import { cleanText } from "../redact/clean.cjs";
import { field, safeJson } from "../render/line.js";
import { indexLock } from "../maintenance/index-lock.js";
import { syncInProcess, type SyncReport } from "../service/sync.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { failure, withService } from "./memory-io.js";

const usage = `Usage: mem sync [--timeout S] [--project P] [--json]

Makes sure every memory of the project has its vector: asks the running daemon to embed what is
missing and waits until it is done (at most --timeout seconds), or, with no daemon running, runs
the vector step here (as mem index does for captured events) until it is done. Then reports
what is still pending and why (no embedding provider; still embedding).

Options:
  --timeout S   wait for the daemon at most S seconds (default 10, up to 120)
  --project P   a path, a stored project id, or a project's directory name; default: here
  --json        {"via": "daemon"|"in-process", "project", "done", "chunks", "pending", "table",
                "provider", "reason"?, "embedded"?}
  -h, --help    this help

Exit status: 0 every chunk has its vector, 1 some are pending (the reason says why), 2 bad
arguments.`;

export const syncCommand: Command = {
  summary: "wait until every memory of the project has its vector",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { timeout: { type: "string" }, project: { type: "string" }, json: { type: "boolean" } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const seconds = values.timeout === undefined ? 10 : Number(values.timeout);
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > 120) throw new UsageError(`--timeout must be a number of seconds from 0 to 120, got "${values.timeout}"`);
    const json = values.json === true;
    return withService("sync", json, async ({ app }) => {
      const project = projectFromArg(app.db, values.project, process.cwd(), app.config.project.enclosing).id;
      let report: SyncReport & { via: string };
      const asked = process.env.MEM_NO_DAEMON === "1" ? undefined : await ask(dataHome(), { op: "sync", project, timeoutMs: Math.round(seconds * 1000) }, seconds * 1000 + 5_000);
      if (asked?.kind === "reply" && asked.reply.ok) {
        const { ok: _ok, ...r } = asked.reply;
        report = { via: "daemon", ...(r as unknown as SyncReport) };
      } else if (asked?.kind === "reply" || asked?.kind === "timeout") {
        // A daemon is there: running the vector step beside it would write the same tables twice.
        if (asked.kind === "timeout") return failure("sync", json, "the daemon did not answer in time", "timeout");
        const r = asked.reply as { error?: unknown; code?: unknown };
        return failure("sync", json, `the daemon failed: ${field(String(r.error), 300)}`, typeof r.code === "string" ? r.code : "daemon");
      } else {
        // As `mem index`: one run writes the vector tables at a time.
        const unlock = await indexLock(app.paths.home, note);
        try {
          report = { via: "in-process", ...(await syncInProcess(app, cleanText(project), (m) => note(`warning: ${m}`))) };
        } finally {
          unlock();
        }
      }
      if (json) process.stdout.write(`${safeJson(report)}\n`);
      else if (report.done) process.stdout.write(`${field(project)}: all ${report.chunks} chunks have their vectors in ${field(report.table ?? "", 120)} (${report.via})\n`);
      else process.stdout.write(`${field(project)}: ${report.pending} of ${report.chunks} chunks still without a vector: ${field(report.reason ?? "", 400)} (${report.via})\n`);
      return report.done ? EXIT.ok : EXIT.failure;
    });
  },
};
