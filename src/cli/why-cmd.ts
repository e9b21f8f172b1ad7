import { statSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { openApp } from "../app.js";
import { resolveProject } from "../project/identity.js";
import { resolveSession } from "../store/session-ids.js";
import { salienceConfig } from "../memory/salience.js";
import { firstHealthy } from "../embed/chain.js";
import type { PromptContext } from "../inject/for-prompt.js";
import { vectorNote, whyPrompt } from "../service/why.js";
import { field, safeJson, visible } from "../render/line.js";
import { EXIT, oneOf, parse, UsageError } from "./args.js";
import { FUSION_METHODS, type FusionMethod } from "../retrieve/fusion.js";
import type { Command } from "./command.js";
import { whyText } from "./why-print.js";
import { whyPretool } from "./why-pretool.js";
import { searchWarningLine } from "../retrieve/warnings.js";

const usage = `Usage: mem why "PROMPT" [--session S] [--cwd DIR] [--fusion F] [--json] [-q]
       mem why --pretool [--cwd DIR] [--json]

Prints what the prompt hook would put before PROMPT in this project, and why: whether the hook
skips the prompt; the search's legs and warnings; the prompt's content words (Porter stems) the
relevance floor looks for; each result of the search in rank order with its score and ranking
factors, whether it is excluded (already shown in the session, another user's profile), the
floor's verdict (the words it holds of those needed) and how many of its pieces (a line, or a
sentence of a long line) were shown or dropped for the budget or the item cap; then the exact
text the hook would inject and its size against the budget (inject.budgetChars).

It runs the hook's own search, floor, selection and redaction, in this process: with an
embedding model configured, vectors come from LanceDB (the daemon searches its copy of the same
table in memory) and the vector leg may wait for the model to load (the daemon's leg has
daemon.vectorBudgetMs); with none, BM25 only, as the daemon. The files in play are the session's
and what git sees changed, as the daemon's. Nothing is recorded: no injection, no use.

The explorer (\`mem ui\`) shows the same for a fresh session as a table on its Legs page
(/legs?q=PROMPT): each candidate's BM25 and vector rank and score, the calibrated weights, the
floor's verdict and whether it would be injected.

With --pretool: the project's last ten pre-tool warnings instead, newest first: the tool call
(an Edit, MultiEdit or Write and its file, or a Bash command), each memory it brought back with
the term found in what the call adds, and the warning as the model saw it (see docs/hooks.md,
PreToolUse).

Options:
  --pretool     the last pre-tool warnings (no PROMPT)
  --session S   the session (its id, as Claude Code gives it to the hook, the short form outputs
                show, or a unique start of 6 characters or more): what was injected into
                its current context window is left out, as the hook leaves it out
                (default: a fresh session)
  --cwd DIR     the directory the prompt is typed in: its project is searched (default: here)
  --fusion F    rrf | calibrated: how the search combines BM25 and the vector leg (default:
                query.fusion, "calibrated" unless config.json says otherwise)
  --json        print the whole report as one JSON object
  -q, --quiet   print only the text that would be injected (nothing when nothing would be); with
                --json, the JSON without warnings
  -h, --help    this help`;

const OPTIONS = {
  pretool: { type: "boolean" },
  session: { type: "string" },
  cwd: { type: "string" },
  fusion: { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
} as const;

/** Checks the command line without touching the data home. */
function parseArgv(argv: string[]) {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.pretool === true) {
    if (positionals.length > 0) throw new UsageError("--pretool takes no prompt");
    return { pretool: true as const, cwd: resolve(values.cwd ?? process.cwd()), json: values.json === true };
  }
  if (positionals.length === 0) throw new UsageError("missing the prompt");
  const prompt = positionals.join(" ");
  if (prompt.trim() === "") throw new UsageError("the prompt is empty");
  if (values.session !== undefined && values.session.trim() === "") throw new UsageError("--session is empty");
  const cwd = resolve(values.cwd ?? process.cwd());
  let dir = false;
  try {
    dir = statSync(cwd).isDirectory();
  } catch {
    // reported below
  }
  if (!dir) throw new UsageError(`--cwd ${field(cwd, 300)} is not a directory`);
  const fusion = oneOf<FusionMethod>(values.fusion, "fusion", FUSION_METHODS);
  return { prompt, cwd, fusion, session: values.session, json: values.json === true, quiet: values.quiet === true };
}

export const whyCommand: Command = {
  summary: "what the prompt hook would inject for a prompt, and why",
  usage,
  async run(argv) {
    const p = parseArgv(argv);
    if ("pretool" in p) return whyPretool(p.cwd, p.json);
    const a = p;
    const app = openApp();
    try {
      if (a.fusion) app.config.query.fusion = a.fusion; // this run only: the config file is not touched
      if (!a.quiet) for (const w of app.configWarnings) process.stderr.write(`warning: ${field(w, 500)}\n`);
      let picked: ReturnType<PromptContext["pickProvider"]> | undefined;
      const pickProvider = () => (picked ??= app.providers().then((ps) => firstHealthy(ps)));
      // A known session by its whole id, its short form as shown, or a unique start; any other id as given (a session mem has not seen yet).
      const known = a.session === undefined ? undefined : resolveSession(app.db, resolveProject(a.cwd).id, a.session);
      const given = known?.ok ? known.session : a.session;
      const session = given ?? `mem-why-${randomUUID()}`;
      const report = await whyPrompt(app, pickProvider, { prompt: a.prompt, cwd: a.cwd, ...(given !== undefined ? { session: given } : {}) }, session);
      // Every surface says the no-model state in the one line (nothing for a BM25-only choice).
      report.warnings = [...new Set(report.warnings.map((w) => searchWarningLine(app.config, w)).filter((w): w is string => w !== undefined))];
      if (a.json) {
        process.stdout.write(`${safeJson(report)}\n`); // with -q too: --json is for a program, -q only quiets the rest
      } else if (a.quiet) {
        if (report.injection) process.stdout.write(`${visible(report.injection.text)}\n`);
      } else {
        process.stdout.write(whyText(report, await vectorNote(report, app.config.embedding.order.length > 0, pickProvider), salienceConfig(app.config.salience)));
      }
      return EXIT.ok;
    } finally {
      await app.close();
    }
  },
};
