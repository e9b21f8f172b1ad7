import { openApp } from "../app.js";
import { indexLock } from "../maintenance/index-lock.js";
import { dataHome } from "../config/paths.cjs";
import { stopDaemon } from "../daemon/stop.js";
import { replay } from "../maintenance/replay.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { safeJson } from "../render/line.js";

const usage = `Usage: mem rebuild [--json] [-q]

Makes the derived stores again from the truth alone: SQLite's events and explicit memories, and
the markdown files of every indexed root. The chunks, the FTS5 text index and every LanceDB vector
table are dropped and made again (vectors by the first healthy embedding provider; with none, the
next \`mem index\` or the daemon embeds them). Memories keep their ids, salience and history.
Stops a running daemon first. Nothing else is touched: what you put or captured stays.

Options:
  --json       {"before": {"chunks", "sources", "vectors", "tables"}, "after": {"chunks", "sources",
               "events", "filesMissing"}, "vectors": [{"status", "embedded", ...}], "warnings",
               "durationMs"}
  -q, --quiet  no progress on stderr
  -h, --help   this help`;

export const rebuildCommand: Command = {
  summary: "make chunks, the text index and vectors again from SQLite and the markdown files",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { json: { type: "boolean" }, quiet: { type: "boolean", short: "q" } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const say = (s: string) => (values.quiet || values.json ? undefined : process.stderr.write(`${s}\n`));
    // The lock first, then the daemon (a daemon stopped before a long wait would be started again).
    const unlock = await indexLock(dataHome(), say);
    let app: ReturnType<typeof openApp> | undefined;
    try {
      if ((await stopDaemon(dataHome())) === "stopped") say("stopped the daemon (it held the stores open)");
      app = openApp();
      say("rebuilding chunks, the text index and the vectors…");
      const r = await replay(app);
      if (values.json) process.stdout.write(`${safeJson(r)}\n`);
      else {
        const embedded = r.vectors.reduce((n, v) => n + v.embedded, 0);
        const skipped = r.vectors.find((v) => v.status === "skipped");
        process.stdout.write(`rebuilt ${r.after.chunks} chunks from ${r.after.sources} sources and ${r.after.events} events (was ${r.before.chunks}); ${embedded} vectors embedded${skipped ? ` (vector step skipped: ${skipped.reason})` : ""}; ${r.after.filesMissing} indexed file(s) no longer on disk; ${(r.durationMs / 1000).toFixed(1)} s\n`);
        for (const w of r.warnings.slice(0, 20)) process.stderr.write(`warning: ${w}\n`);
      }
      return EXIT.ok;
    } finally {
      unlock();
      await app?.close();
    }
  },
};
