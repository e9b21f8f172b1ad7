import { sessionIn } from "../service/session-id.js";
import { confirm } from "./confirm.js";
import { projectFromArg } from "../project/scope.js";
import { field, safeJson } from "../render/line.js";
import { purgeEverywhere, type PurgeScope } from "../maintenance/purge.js";
import { forgetProject, forgetSession } from "../service/forget.js";
import { forgetWithTeam } from "../service/forget-team.js";
import { TeamError } from "../team/place.js";
import { projectTexts } from "../store/purge-copy.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { failure, withService } from "./memory-io.js";

const usage = `Usage: mem forget ID [--purge] [--yes] [--json]
       mem forget --session S [--project P] [--purge] [--yes] [--json]
       mem forget --project [P] [--yes] [--json]
       mem forget --purge [--yes] [--json]

Forgets memories. A forgotten memory is gone at once from mem query, the prompt's memories, the
SessionStart briefing, mem list, mem get and mem export, and never comes back (not from a capture
read again, an import or a put under its key); its text stays in the store's files until it is
purged: by --purge, or the next purge (the weekly mem reindex). Forgetting a whole project purges
at once.

  ID            one memory, by its id as every output shows it (or an unambiguous start of
                it, as mem get takes). A memory from a markdown note is deleted from its
                file, then mem index. A memory shared with mem share, or a team record (a
                file of the team folder): its file is removed and its tombstone added to the
                folder's FORGOTTEN.md, so it is never shared again (review and commit both)
  --session S   every memory of session S in the project (here, or --project P), with the
                session's task list and summary; S: its whole id, its short form as shown
                (8bbcceab…a8c6) or a unique start of 6 characters or more (no such session: exit 1)
  --project [P] everything of project P (default: here): its memories, tasks, session records
                and indexed notes (the note files stay), purged at once. Asks for confirmation
                on a terminal; without one, refuses unless --yes
  --purge       purge now, everywhere in the data home: forgotten memories' text overwritten
                in SQLite, the text index compacted, the WAL truncated; their vectors deleted
                from LanceDB, the files that held them written anew and old versions removed;
                every snapshot and other copy of the store purged the same way, or dropped
                when it cannot be (damaged, another user's, another store's, locked); logs
                and backups holding their text cleaned or dropped. Says which (alone, or
                after forgetting)

Options:
  --yes         never ask (only --project asks; accepted everywhere, so a script can always pass it)
  --json        {"forgotten": {"id"} | {"project", "session", "memories"} | {"project",
                "memories", "sources", "tasks", "sessions"}, "purged"?: {"memories", "vectors",
                "rewritten", "wal": "truncated"|"busy", "copies": [{"file", "action":
                "scrubbed"|"unchanged"|"dropped"|"kept"|"lines removed", "why"?}]},
                "team"?: {"removed"?, "tombstone"?, "warnings"}}
  -h, --help    this help

Exit status: 0 done, 1 failure (no such memory, a markdown memory, not confirmed), 2 bad
arguments (also --project without --yes when stdin is not a terminal).`;

/** `--project` may come without a value (here): given one only when the next word is not an option. */
function normalise(argv: string[]): string[] {
  return argv.map((a, i) => (a === "--project" && (i + 1 >= argv.length || argv[i + 1]!.startsWith("-")) ? "--project=" : a));
}

export const forgetCommand: Command = {
  summary: "forget a memory, a session or a project; purge forgotten text",
  usage,
  async run(argv) {
    const { values, positionals } = parse(normalise(argv), { session: { type: "string" }, project: { type: "string" }, purge: { type: "boolean" }, yes: { type: "boolean" }, json: { type: "boolean" } });
    if (positionals.length > 1) throw new UsageError(`one memory ID, got ${positionals.length}`);
    const id = positionals[0];
    const whole = values.project !== undefined && values.session === undefined && id === undefined;
    if (id !== undefined && (values.session !== undefined || values.project !== undefined)) throw new UsageError("an ID names one memory: no --session or --project with it");
    if (id === undefined && values.session === undefined && values.project === undefined && !values.purge) throw new UsageError("what to forget: an ID, --session S, --project [P], or --purge");
    if (values.session === "") throw new UsageError("--session needs a session id");
    const terminal = process.stdin.isTTY === true;
    if (whole && !values.yes && !terminal) throw new UsageError("refusing to forget a whole project without --yes: stdin is not a terminal to confirm on");
    const json = values.json === true;
    return withService("forget", json, async ({ app, svc }) => {
      const now = Date.now();
      const out: Record<string, unknown> = {};
      const lines: string[] = [];
      const project = () => projectFromArg(app.db, values.project || undefined, process.cwd(), app.config.project.enclosing).id;
      const scope: PurgeScope & { projects: string[]; sessions: { project: string; session: string }[]; texts: string[] } = { projects: [], sessions: [], texts: [] };
      let purging = values.purge === true;
      if (id !== undefined) {
        let done: ReturnType<typeof forgetWithTeam>;
        try {
          done = forgetWithTeam(app.db, svc, app.config, id, now);
        } catch (err) {
          if (err instanceof TeamError) return failure("forget", json, err.message, "refused");
          throw err;
        }
        out.forgotten = done.forgotten;
        lines.push(`forgot ${done.forgotten.id}`);
        if (done.team) {
          out.team = done.team;
          if (done.team.removed) lines.push(`removed ${field(done.team.removed, 300)} from the team folder${done.team.tombstone ? ` and added its tombstone to ${field(done.team.tombstone, 300)}` : ""}: review and commit both`);
          for (const w of done.team.warnings) lines.push(`warning: ${field(w, 400)}`);
        }
      } else if (values.session !== undefined) {
        const p = project();
        const session = sessionIn(app.db, p, values.session); // the whole id, the short form shown, or a unique start; an unknown one fails
        const n = forgetSession(app.db, p, session, now);
        scope.sessions.push({ project: p, session });
        out.forgotten = { project: p, session, memories: n };
        lines.push(`forgot ${n} memor${n === 1 ? "y" : "ies"} of session ${field(session, 80)} in ${field(p)}`);
      } else if (whole) {
        const p = project();
        const live = svc.list({ project: p, limit: 1 }).total;
        if (!values.yes && !(await confirm(`Forget everything of project ${field(p)}: ${live} memor${live === 1 ? "y" : "ies"}, its tasks, session records and indexed notes? [y/N] `))) {
          process.stderr.write("mem forget: not confirmed; nothing forgotten\n");
          if (json) process.stdout.write(`${safeJson({ error: { code: "not_confirmed", message: "not confirmed; nothing forgotten" } })}\n`);
          return EXIT.failure;
        }
        scope.texts.push(...projectTexts(app.db, p)); // its notes' chunks go now: looked for in other files by the purge
        const r = forgetProject(app.db, p, now);
        scope.projects.push(p);
        purging = true;
        out.forgotten = { project: p, ...r };
        lines.push(`forgot project ${field(p)}: ${r.memories} memories, ${r.sources} indexed sources, ${r.tasks} tasks, ${r.sessions} session records`);
      }
      if (purging) {
        const { ms: _ms, ...r } = await purgeEverywhere(app, scope, now);
        out.purged = r;
        lines.push(`purged ${r.memories} forgotten memor${r.memories === 1 ? "y" : "ies"} and ${r.vectors} vector${r.vectors === 1 ? "" : "s"}${r.rewritten > 0 ? ` (${r.rewritten} other vectors written anew, so the files that held them could go)` : ""}; the WAL ${r.wal === "truncated" ? "truncated" : "is in use by another process: truncated at its next checkpoint"}`);
        const n = (a: string) => r.copies.filter((c) => c.action === a).length;
        const counts = ["scrubbed", "dropped", "kept", "lines removed", "unchanged"].filter((a) => n(a) > 0).map((a) => `${n(a)} ${a === "unchanged" ? "held none of it" : a}`);
        if (counts.length > 0) lines.push(`copies in the data home: ${counts.join(", ")}`);
        for (const c of r.copies.filter((c) => c.action !== "unchanged")) lines.push(`  ${c.action} ${field(c.file, 300)}${c.why ? ` (${field(c.why, 300)})` : ""}`);
      } else lines.push("(the text stays in the store's files until the next purge: mem forget --purge)");
      process.stdout.write(json ? `${safeJson(out)}\n` : `${lines.join("\n")}\n`);
      return EXIT.ok;
    });
  },
};
