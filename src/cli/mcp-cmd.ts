import { parse, UsageError } from "./args.js";
import type { Command } from "./command.js";

const usage = `Usage: mem mcp [--project P [--new-project]] [-q]

Serves mem's memory to an MCP client (Claude Code) over stdio: JSON-RPC on stdin and stdout,
log lines on stderr. Claude Code starts it itself once it is registered (\`mem install\` does
that; or \`claude mcp add --scope user mem -- node <mem's directory>/bin/mem.cjs mcp\`).
The store is opened once and kept open; the server exits when its stdin ends or on SIGTERM.

Tools (Claude Code names them mcp__mem__<tool>):
  search          hybrid search of the project's memory and notes (query, k, kinds, tags, since, until)
  remember        store an explicit memory (text, kind, tags, files, key: idempotent)
  get             one memory by id (history: its earlier versions)
  list            the project's memories, newest first (kind, tag, source, session, since, until,
                  text, limit, offset)
  forget          forget a memory by id, or every memory of a session
  tasks           the project's tasks across sessions: list, add, done, drop
  prompt_context  for the UserPromptSubmit hook (mem install --prompt-transport mcp)
The server is bound to one project: the one Claude Code runs in (CLAUDE_PROJECT_DIR, else the
server's directory), or --project. Its tools read, store, edit and forget only there; they take
no project argument (one given is refused), and a memory of another project is answered as an
unknown id. The user's global memories are searched and read too (query.includeGlobal), and
listed or stored with global: true; storing or forgetting there only when config.json says
"mcp": {"globalWrites": true}. To look into another project, use the CLI (mem query --project).

Options:
  --project P   bind the server to P (a path, a stored project id or a project's directory
                name) instead of the session's directory; for .mcp.json, the user's choice.
                A name nothing is stored under is refused (the server does not start), with
                the stored names it resembles; "global" is read-only unless mcp.globalWrites
  --new-project P is a new project's name: start it
  -q, --quiet   no log lines on stderr
  -h, --help    this help`;

export const mcpCommand: Command = {
  summary: "serve mem's memory over MCP (stdio) for Claude Code",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { quiet: { type: "boolean", short: "q" }, project: { type: "string" }, "new-project": { type: "boolean" } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.project !== undefined && values.project.trim() === "") throw new UsageError("--project needs a project (a path, a stored id or a name)");
    if (values["new-project"] && values.project === undefined) throw new UsageError("--new-project goes with --project NAME");
    const { runMcpServer } = await import("../mcp/server.js");
    return runMcpServer({ env: process.env, ...(values.project !== undefined ? { project: values.project } : {}), newProject: values["new-project"] === true, log: (l) => (values.quiet ? undefined : process.stderr.write(`mem mcp: ${l}\n`)) });
  },
};
