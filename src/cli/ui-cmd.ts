import { openApp } from "../app.js";
import { dataHome } from "../config/paths.cjs";
import { projectFromArg } from "../project/scope.js";
import { safeJson } from "../render/line.js";
import { uiContext } from "../web/context.js";
import { openLink, uiToken } from "../web/guard.js";
import { forgetRunning, readRunning, recordRunning, uiAddress, uiOpenLink } from "../web/running.js";
import { startUi } from "../web/server.js";
import { EXIT, int, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { note } from "./quiet.js";
import { canOpenBrowser, openInBrowser } from "./browser.js";

export const DEFAULT_UI_PORT = 7077;

const usage = `Usage: mem ui [--port N] [--project P] [--open | --no-open] [--new-token] [--json] [-q]

Serves the memory explorer, a local web page over this data home, until Ctrl-C: search (the same
hybrid search as mem query, with its explanation), the memories by kind, open tasks, sessions
and their timelines, what the prompt hook put before each prompt and why, the markdown sources
and their chunks, how search weighs its legs, and the stores' health. Edit, forget, close a
task or add a memory there: the same checks, redaction and storage as the CLI.

One explorer runs per data home: while one runs, mem ui prints its address (and opens it)
instead of starting another. It listens on 127.0.0.1 only. Every address holds a random token (kept in the data home's
ui-token file, readable by you only, so a bookmark keeps working); a request without it, from
another host name, or a change from another site is refused.

Options:
  --port N      the port (default ${DEFAULT_UI_PORT}; 0: any free one)
  --project P   the project the pages show first (default: this directory's); every page can
                show another
  --open        open the address in the browser (the default on a terminal where one can
                be opened: a display, macOS, Windows)
  --no-open     only print the address
  --new-token   a new token: addresses printed before stop working
  --json        print {"url", "port", "pid"} as one JSON line once it listens
  -q, --quiet   print only the address
  -h, --help    this help`;

export const uiCommand: Command = {
  summary: "the memory explorer: a local web page to search, browse and correct memory",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, {
      port: { type: "string" },
      project: { type: "string" },
      open: { type: "boolean" },
      "no-open": { type: "boolean" },
      "new-token": { type: "boolean" },
      json: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.open && values["no-open"]) throw new UsageError("--open and --no-open exclude each other");
    const port = int(values.port, "port", 0, 65_535) ?? DEFAULT_UI_PORT;
    // Opened where a browser can be: on a terminal with a display (macOS, Windows), or when asked.
    const wantOpen = values.open === true || (!values["no-open"] && !values.json && process.stdout.isTTY && canOpenBrowser(process.env));
    // One explorer per data home: a second one would take over ui.json, which `mem query --open` reads.
    // Asked before the store is opened: telling where the running one is needs none.
    const dir = dataHome();
    const running = readRunning(dir);
    if (running) {
      if (values["new-token"]) {
        process.stderr.write(`mem ui: the explorer runs already (pid ${running.pid}, port ${running.port}); stop it (kill ${running.pid}) before --new-token\n`);
        return EXIT.failure;
      }
      const url = uiAddress(dir, "/", {});
      if (url === undefined) {
        process.stderr.write(`mem ui: the explorer runs already (pid ${running.pid}, port ${running.port}) but its token file is gone; stop it (kill ${running.pid}) and run mem ui again\n`);
        return EXIT.failure;
      }
      if (values.json) process.stdout.write(`${safeJson({ url, port: running.port, pid: running.pid, running: true })}\n`);
      else process.stdout.write(`${url}\n`);
      note(`mem ui: the explorer runs already (pid ${running.pid}, port ${running.port}); this is its address`);
      const link = uiOpenLink(dir, "/search", {}, Date.now());
      if (wantOpen && link !== undefined) openInBrowser(dir, link);
      return EXIT.ok;
    }
    const app = openApp();
    const token = uiToken(app.paths.home, values["new-token"] === true);
    const home = projectFromArg(app.db, values.project, process.cwd(), app.config.project.enclosing);
    const log = (l: string) => process.stderr.write(`${l}\n`);
    const ctx = uiContext(app, home, process.cwd(), Date.now, log);
    let server: Awaited<ReturnType<typeof startUi>>;
    try {
      server = await startUi({ ctx, token, port, log });
    } catch (err) {
      await ctx.close();
      await app.close();
      const e = err as NodeJS.ErrnoException;
      if (e.code === "EADDRINUSE") {
        process.stderr.write(`mem ui: port ${port} is in use (another mem ui?); choose another with --port N, or --port 0 for any free one\n`);
        return EXIT.failure;
      }
      throw err;
    }
    recordRunning(app.paths.home, server.port, process.pid, Date.now());
    if (values.json) process.stdout.write(`${safeJson({ url: server.url, port: server.port, pid: process.pid })}\n`);
    else process.stdout.write(`${server.url}\n`);
    note(`mem ui: serving ${home.id} on 127.0.0.1:${server.port}; Ctrl-C stops it`);
    if (wantOpen) openInBrowser(app.paths.home, openLink(token, server.port, "/search", Date.now())); // nothing secret on the opener's command line
    await new Promise<void>((resolve) => {
      for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => resolve());
    });
    forgetRunning(app.paths.home, process.pid);
    await server.close();
    await ctx.close();
    await app.close();
    return EXIT.ok;
  },
};

