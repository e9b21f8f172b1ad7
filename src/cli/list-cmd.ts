import { eventChunkId } from "../../indexer/captured.js";
import { staleFlags } from "../anchor/staleness.js";
import { openApp } from "../app.js";
import { ago, shortSession } from "../brief/render.js";
import { EVENT_TYPES } from "../capture/types.js";
import { effectiveSalience, salienceConfig } from "../memory/salience.js";
import { projectFromArg } from "../project/scope.js";
import { field, prose } from "../render/line.js";
import { EventStore } from "../store/events.js";
import { usesOf } from "../store/salience.js";
import { EXIT, int, isoDate, parse, UsageError } from "./args.js";
import type { Command } from "./main.js";

const usage = `Usage: mem list [--kind K]... [--source tag|keyword|captured] [--session S] [--since D] [--until D]
                [--project P] [--limit N] [--offset N] [--json]

The memories captured in this project's sessions, newest first: decisions, rejected approaches,
learned facts and preferences (from [MEMORY:] tags and keyword markers), tasks, and tool events.
Each with its id, kind, age, session, salience and whether the files it names changed since.
Markdown notes are not listed: they are your files (mem query searches them).

Options:
  --kind K      decision, rejected, learned, preference, task, file_modified, file_explored,
                command_run, error, tool, snapshot, session_end (repeatable)
  --source S    tag ([MEMORY:] tags), keyword (decision markers in prose), captured (tool events)
  --session S   one session (its id as stored)
  --since D, --until D   captured on or after D, before D (e.g. 2026-11-01)
  --project P   a path, a stored project id, or a project's directory name; default: here
  --limit N     at most N (default 50, up to 1000); --offset N to page
  --json        {"project", "total", "memories": [{"id", "kind", "text", "time", "session", "files",
                "source", "confidence"?, "salience", "uses", "stale"}]}
  -h, --help    this help`;

export const listCommand: Command = {
  summary: "list captured memories: decisions, lessons, tasks, tool events",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, {
      kind: { type: "string", multiple: true },
      source: { type: "string" },
      session: { type: "string" },
      since: { type: "string" },
      until: { type: "string" },
      project: { type: "string" },
      limit: { type: "string" },
      offset: { type: "string" },
      json: { type: "boolean" },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    for (const k of values.kind ?? []) if (!(EVENT_TYPES as readonly string[]).includes(k)) throw new UsageError(`--kind must be one of ${EVENT_TYPES.join(", ")}, got "${k}"`);
    if (values.source !== undefined && !["tag", "keyword", "captured"].includes(values.source)) throw new UsageError(`--source must be tag, keyword or captured, got "${values.source}"`);
    const limit = int(values.limit, "limit", 1, 1000) ?? 50;
    const offset = int(values.offset, "offset", 0, 1e9) ?? 0;
    const since = isoDate(values.since, "since");
    const until = isoDate(values.until, "until");
    const app = openApp();
    try {
      const scope = projectFromArg(app.db, values.project, process.cwd());
      const project = scope.id;
      const now = Date.now();
      const { total, rows } = new EventStore(app.db).list(project, {
        ...(values.kind ? { kinds: values.kind } : {}),
        ...(values.session ? { session: values.session } : {}),
        ...(values.source ? { source: values.source } : {}),
        ...(since ? { since } : {}),
        ...(until ? { until } : {}),
        limit,
        offset,
      });
      const uses = usesOf(app.db, rows.map((r) => eventChunkId(project, r.id)));
      const flags = staleFlags(app.db, rows.map((r) => r.id), scope.root, now);
      const cfg = salienceConfig(app.config.salience);
      const memories = rows.map((r) => {
        const use = uses.get(eventChunkId(project, r.id));
        const eff = effectiveSalience({ kind: r.type, source: "captured", createdAt: Date.parse(r.time) }, use, now, cfg);
        const source = typeof r.metadata.source === "string" ? r.metadata.source : "captured";
        return { id: r.id, kind: r.type, text: r.text, time: r.time, session: r.session, files: r.files, source, ...(r.confidence !== undefined ? { confidence: r.confidence } : {}), salience: Math.round(eff.value * 1000) / 1000, uses: eff.uses, stale: flags.get(r.id)?.text ?? null };
      });
      if (values.json) {
        process.stdout.write(`${JSON.stringify({ project, total, memories })}\n`);
        return EXIT.ok;
      }
      if (memories.length === 0) {
        process.stdout.write(`no memories${values.kind ? ` of kind ${values.kind.join(", ")}` : ""} in ${field(project)}\n`);
        return EXIT.ok;
      }
      for (const m of memories) {
        process.stdout.write(`${field(m.id, 40)}  ${field(m.kind, 14).padEnd(14)}  ${ago(m.time, now).padEnd(15)}  session ${shortSession(m.session)}  salience ${m.salience.toFixed(2)}\n   ${prose(m.text, 300)}${m.stale ? `\n   (${field(m.stale, 200)})` : ""}\n`);
      }
      if (offset + memories.length < total) process.stdout.write(`… ${total - offset - memories.length} more (--offset ${offset + memories.length})\n`);
      return EXIT.ok;
    } finally {
      await app.close();
    }
  },
};
