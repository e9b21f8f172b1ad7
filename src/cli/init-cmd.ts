import { join } from "node:path";
import { loadAppConfig } from "../app.js";
import { resolveProject } from "../project/identity.js";
import { field, safeJson } from "../render/line.js";
import { initLayout, shown } from "../tiers/init.js";
import { currentUser } from "../tiers/user.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";

const usage = `Usage: mem init [DIR] [--user ID] [--json] [-q]

Creates the tiered memory layout in DIR (default: memory/ at the top of the current project,
that is the git top level, else the current directory):

  identity.md, state.md, references.md   hot: in the briefing at every session start (keep them
                                         small: mem status shows each one's size and budget)
  users/<id>/profile.md                  hot, per user: in the briefing of that user's sessions only
  reference/, sessions/                  warm: searched on demand
  archive/                               cold: searched by mem query --cold only, never briefed

Each file starts as a short template: a heading and a hint in an HTML comment (the briefing
shows no comment, and leaves out a note that has only headings). Nothing that exists is ever
overwritten: run it again and it creates only what is missing. Then index it: mem index DIR.

<id> is the current user: the first that is set of --user, $MEM_USER, tiers.user in
config.json, the login name, $USER. It is written in lower case with letters, digits, . _ and
- only (accents dropped, any other run of characters becomes -, at most 64 characters); the
briefing uses the same rule to find the current user's profile.

Options:
  --user ID     whose profile to create
  --json        {"dir", "user", "created": [PATH...], "kept": [PATH...], "problems": [{"path",
                "reason"}], "next"} (paths relative to dir; directories end in /)
  -q, --quiet   print nothing but errors
  -h, --help    this help

Exit status: 0 done (also when everything was there already), 1 something could not be made
(the rest is made; see problems), 2 bad arguments.`;

export const initCommand: Command = {
  summary: "create the tiered memory files: identity, state, references, your profile",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { user: { type: "string" }, json: { type: "boolean" }, quiet: { type: "boolean", short: "q" } });
    if (positionals.length > 1) throw new UsageError("one directory at most: mem init [DIR]");
    if (values.user !== undefined && values.user.trim() === "") throw new UsageError("--user needs an id");
    const { config } = loadAppConfig(process.env);
    const who = currentUser({ flag: values.user, env: process.env, configured: config.tiers.user });
    if ("error" in who) {
      if (who.error.startsWith("--user")) throw new UsageError(who.error);
      throw new Error(who.error);
    }
    const cwd = process.cwd();
    const dir = positionals[0] ?? join(resolveProject(cwd).root ?? cwd, "memory");
    const report = initLayout(dir, who.user.id, config.tiers.budgets);
    const next = `mem index ${shown(report, "./", cwd)}`;
    if (values.json) {
      process.stdout.write(`${safeJson({ ...report, next })}\n`);
    } else if (!values.quiet) {
      const lines = [`${shown(report, "./", cwd)} (user ${who.user.id}${who.user.raw !== undefined ? `, from ${field(who.user.raw, 80)}` : ""})`];
      for (const p of report.created) if (p !== "./") lines.push(`  created  ${shown(report, p, cwd)}`);
      for (const p of report.kept) if (p !== "./") lines.push(`  kept     ${shown(report, p, cwd)} (there already; left as it is)`);
      if (report.created.filter((p) => p !== "./").length === 0 && report.problems.length === 0) lines.push("  nothing to create: the layout is complete");
      lines.push(`next: ${next}`);
      process.stdout.write(`${lines.join("\n")}\n`);
    }
    for (const p of report.problems) process.stderr.write(`mem init: ${shown(report, p.path, cwd)}: ${p.reason}\n`);
    return report.problems.length > 0 ? EXIT.failure : EXIT.ok;
  },
};
