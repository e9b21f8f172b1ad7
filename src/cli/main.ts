import { EXIT, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { note, withQuietHelp } from "./quiet.js";

/** Errors whose message says it all; another's class is printed (a TypeError is a bug to report). */
const PLAIN = new Set(["Error", "ConfigError", "SearchError", "StoreDamagedError", "SettingsError", "ScheduleError", "MemoryError", "EmbedError", "LockPathError"]);

/** Commands load lazily so `mem --help` (and later the hooks) never pay for LanceDB or models. */
export const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  init: async () => (await import("./init-cmd.js")).initCommand,
  index: async () => (await import("./index-cmd.js")).indexCommand,
  query: async () => (await import("./query-cmd.js")).queryCommand,
  why: async () => (await import("./why-cmd.js")).whyCommand,
  ui: async () => (await import("./ui-cmd.js")).uiCommand,
  list: async () => (await import("./list-cmd.js")).listCommand,
  rebuild: async () => (await import("./rebuild-cmd.js")).rebuildCommand,
  status: async () => (await import("./status-cmd.js")).statusCommand,
  doctor: async () => (await import("./doctor-cmd.js")).doctorCommand,
  serve: async () => (await import("./serve-cmd.js")).serveCommand,
  install: async () => (await import("./install-cmd.js")).installCommand,
  uninstall: async () => (await import("./uninstall-cmd.js")).uninstallCommand,
  task: async () => (await import("./task-cmd.js")).taskCommand,
  remember: async () => (await import("./remember-cmd.js")).rememberCommand,
  get: async () => (await import("./get-cmd.js")).getCommand,
  edit: async () => (await import("./edit-cmd.js")).editCommand,
  forget: async () => (await import("./forget-cmd.js")).forgetCommand,
  share: async () => (await import("./share-cmd.js")).shareCommand,
  export: async () => (await import("./export-cmd.js")).exportCommand,
  import: async () => (await import("./import-cmd.js")).importCommand,
  sync: async () => (await import("./sync-cmd.js")).syncCommand,
  mcp: async () => (await import("./mcp-cmd.js")).mcpCommand,
  reindex: async () => (await import("./reindex-cmd.js")).reindexCommand,
  rotate: async () => (await import("./rotate-cmd.js")).rotateCommand,
  schedule: async () => (await import("./schedule-cmd.js")).scheduleCommand,
  restore: async () => (await import("./restore-cmd.js")).restoreCommand,
};

const SUMMARIES: Record<string, string> = {
  init: "create the tiered memory files: identity, state, references, your profile",
  index: "index markdown memory files and event logs (BM25 + vectors)",
  query: "search memory: BM25 + vector, fused (weighted RRF or calibrated: --fusion)",
  why: "what the prompt hook would inject for a prompt, and why (floor, budget)",
  ui: "the memory explorer: a local web page to search, browse, correct and trust memory",
  list: "list the project's memories: decisions, lessons, tasks, tool events, notes",
  rebuild: "make chunks, the text index and vectors again from SQLite and the markdown files",
  status: "what is indexed, per project",
  doctor: "check providers, stores and data home; say how to fix problems",
  serve: "run the warm daemon the prompt hook talks to (--status, --stop)",
  install: "register mem's hooks and MCP server in Claude Code (--scope user|project|local)",
  uninstall: "remove mem's hooks and MCP server from Claude Code",
  task: "the project's open tasks across sessions: list, add, done, drop",
  remember: "store an explicit memory (prints its id)",
  get: "show one memory by id (--history: its earlier versions)",
  edit: "edit a memory's text, kind or tags ($EDITOR on a terminal)",
  forget: "forget a memory, a session or a project; --purge the forgotten text",
  share: "write chosen memories into the repository's team folder (MADR files to review and commit)",
  export: "export memories as JSON lines or markdown (redacted, ids kept)",
  import: "import memories from JSON lines (idempotent)",
  sync: "wait until every memory of the project has its vector",
  mcp: "serve mem's memory over MCP (stdio) for Claude Code",
  reindex: "the weekly maintenance run: index every root again, purge, decay, cold tier, compaction",
  rotate: "move sessions/current.md to its dated log; archive old session logs",
  schedule: "register `mem reindex` to run weekly (systemd timer, crontab or launchd): install, remove, status",
  restore: "bring back a snapshot of the store (--list them; --fresh to start over)",
  hook: "what Claude Code's hooks run (the payload on stdin; never fails the session)",
};

const HOOK_USAGE = `Usage: mem hook <event>   (run by Claude Code; reads the hook payload on stdin)

Events: session-start, user-prompt-submit, post-tool-use, post-tool-use-failure, stop,
subagent-stop, pre-compact, session-end. Always exits 0; problems go to <data home>/hooks.log.
Install the hooks with \`mem install\`.`;

export const MAIN_USAGE = `mem: local-first semantic memory for AI coding assistants

Usage: mem <command> [options]

Commands:
${Object.entries(SUMMARIES)
  .map(([c, s]) => `  ${c.padEnd(10)} ${s}`)
  .join("\n")}

Run \`mem <command> --help\` for a command's options. Every command takes -q (--quiet): no notes,
warnings or progress on stderr; errors still, and the same exit status.
Data home: $MEM_HOME, else the platform data dir (~/.local/share/mem on Linux).
Exit status: 0 ok, 1 failure, 2 bad arguments, 3 vector step skipped (index --strict, reindex).`;

/** What a mistyped command gets: the command as typed (one line, markup defused), the closest ones, where the list is. */
export async function unknownCommand(name: string): Promise<string> {
  const { closeMatches } = await import("../util/edit-distance.js");
  const { field } = await import("../render/line.js");
  const near = closeMatches(name.slice(0, 64), [...Object.keys(COMMANDS), "hook", "help"]);
  const hint = near.length > 0 ? ` Did you mean ${near.map((c) => `\`mem ${c}\``).join(" or ")}?` : "";
  return `mem: unknown command "${field(name, 64)}".${hint} \`mem --help\` lists the commands.`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "hook") {
    // Claude Code hooks: always exit 0, print only what the contract allows (src/contract/hook.cts).
    if (rest[0] === "--help" || rest[0] === "-h") {
      process.stdout.write(`${HOOK_USAGE}\n`);
      return EXIT.ok;
    }
    const { runHook } = await import("../hooks/run.js");
    return runHook(rest[0] ?? "", { stdin: process.stdin, stdout: process.stdout, env: process.env });
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    if (name === "help" && rest[0] && Object.hasOwn(COMMANDS, rest[0])) {
      process.stdout.write(`${withQuietHelp((await COMMANDS[rest[0]]!()).usage)}\n`);
      return EXIT.ok;
    }
    (name === undefined ? process.stderr : process.stdout).write(`${MAIN_USAGE}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-V") {
    const { readFileSync } = await import("node:fs");
    const { PACKAGE_ROOT } = await import("../config/config.js");
    process.stdout.write(`${(JSON.parse(readFileSync(`${PACKAGE_ROOT}/package.json`, "utf8")) as { version: string }).version}\n`);
    return EXIT.ok;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined; // not "constructor" or "__proto__"
  if (!load) {
    process.stderr.write(`${await unknownCommand(name)}\n`);
    return EXIT.usage;
  }
  const cmd = await load();
  const options = rest.indexOf("--") < 0 ? rest : rest.slice(0, rest.indexOf("--")); // after `--`, "-h" is text
  if (options.includes("--help") || options.includes("-h")) {
    process.stdout.write(`${withQuietHelp(cmd.usage)}\n`);
    return EXIT.ok;
  }
  // A model downloaded on first use is said on stderr (the wait would be silent), quiet under -q.
  (await import("../embed/notices.js")).onEmbedNotice(note);
  try {
    return await cmd.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.brief) {
        process.stderr.write(`mem ${name}: ${err.message}${err.brief === "options" ? `. \`mem ${name} --help\` lists its options.` : ""}\n`);
        return EXIT.usage;
      }
      process.stderr.write(`mem ${name}: ${err.message}\n\n${withQuietHelp(cmd.usage)}\n`);
      return EXIT.usage;
    }
    const e = err as Error;
    process.stderr.write(`mem ${name}: ${PLAIN.has(e.name) ? "" : `${e.name}: `}${e.message}\n`);
    if (process.env.MEM_DEBUG) process.stderr.write(`${e.stack ?? ""}\n`);
    // Under --json (and query --batch, whose output is JSON lines) a failure is JSON on stdout too,
    // whichever command it came from.
    if (options.includes("--json") || (name === "query" && options.some((o) => o === "--batch" || o.startsWith("--batch=")))) {
      const { errorCode } = await import("./error-code.js");
      process.stdout.write(`${(await import("../render/line.js")).safeJson({ error: { code: errorCode(e), message: e.message } })}\n`);
    }
    return EXIT.failure;
  }
}
