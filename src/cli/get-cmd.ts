import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { renderMemory, withService } from "./memory-io.js";
import { ABSOLUTE_HELP, ABSOLUTE_OPTION } from "./times.js";
import { safeJson } from "../render/line.js";
import { shown } from "../service/convert.js";

export const MEMORY_SHAPE = `MEMORY: {"id", "project", "kind", "text", "tags", "files", "source" (explicit, tag,
                keyword, captured or markdown), "session", "createdAt", "updatedAt",
                "assistant"? (codex, gemini or copilot: captured in that assistant's
                session; absent for Claude Code's and mem's own), "confidence"?, "salience"?, "uses"?, "stale"?; a memory stated more than once
                (remembered and captured): "sources": [{"id", "source", "session", "time",
                "confidence"?, "text"?}]; a markdown memory: "path", "startLine", "endLine";
                a decision record: "record": {"kind", "status"?, "date"?, "authors",
                "supersededBy"?, "title"?, "team"?, "memId"?}, and a team record a local
                memory states too: "alsoLocal": [ID, ...]; that local memory: "team": {"id",
                "path", "record"};
                with --history: "history": [{"version", "at", "kind", "text", "tags"}]}`;

const usage = `Usage: mem get ID [--history] [--absolute] [--json]

One memory by its id: an explicit or captured memory, or a passage of a markdown note (with the
file and lines it comes from). The id is the one every output shows (mem remember, mem list,
mem query, mem why, the prompt's memories, the MCP tools: 12 characters, e.g. 3f0c9a1b7d2e),
with or without mem: before it, or any start of it (6 characters or more) that only one
memory's id begins with; older forms (mem:…, toolu_…, 8-character short ids) work too. A start
several memories share is refused, listing their ids.

Options:
  --history     its earlier versions too (mem edit keeps each)
  --json        {"memory": MEMORY}
                ${MEMORY_SHAPE}
${ABSOLUTE_HELP}
  -h, --help    this help

Exit status: 0 found, 1 no such memory (or forgotten), 2 bad arguments.`;

export const getCommand: Command = {
  summary: "show one memory by id",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { history: { type: "boolean" }, json: { type: "boolean" }, ...ABSOLUTE_OPTION });
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "a memory ID is required" : `one memory ID, got ${positionals.length}`);
    const json = values.json === true;
    return withService("get", json, ({ svc }) => {
      const m = svc.get(positionals[0]!, { history: values.history === true });
      process.stdout.write(json ? `${safeJson({ memory: shown(m) })}\n` : `${renderMemory(m, Date.now(), true, values.absolute === true)}\n`);
      return EXIT.ok;
    });
  },
};
