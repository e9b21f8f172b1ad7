import { sessionFromEnv } from "../capture/claude-env.js";
import { idOf, shown } from "../service/convert.js";
import { projectToStoreIn } from "../project/scope.js";
import { safeJson } from "../render/line.js";
import { note } from "./quiet.js";
import { EXPLICIT_KINDS } from "../service/types.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { nudgeDaemon, readStdin, splitList, withService } from "./memory-io.js";

const usage = `Usage: mem remember "TEXT" [--kind K] [--tags a,b] [--files f1,f2] [--project P [--new-project]] [--key K] [--json]
       mem remember - [options]      (the text on stdin)

Stores an explicit memory in the project and prints its id. It is durable and searchable (BM25)
when the command returns; its vector follows (the daemon's background indexing, or mem sync).
Secrets and <private> spans are redacted before anything is stored.

Options:
  --kind K      ${EXPLICIT_KINDS.join(", ")} (default note)
  --tags a,b    tags (letters, digits, _ . : / # + -; at most 32)
  --files f,g   files the memory is about (at most 64)
  --project P   a path, a stored project id, or a project's directory name; default: here.
                A name nothing is stored under is refused (a typo), unless --new-project
  --key K       a client key: remembering again under the same key returns the memory already
                stored (idempotent), whatever the text
  --json        {"memory": MEMORY, "created": true|false, "confirmed": true|false}
                (MEMORY: see mem get --help)
  -h, --help    this help

The same statement as a decision, rejected approach, lesson, preference or note already in the
project (captured from a session or remembered; the same words once case, punctuation, articles
and a lead-in such as "We decided to" are set aside) is not stored twice: that memory is
confirmed (its confidence raised, this statement added to its sources) and its id printed.

A memory holds at most 5,000 characters: write a longer document as a markdown note and
mem index it. Run by Claude Code (its Bash tool sets CLAUDECODE=1 and CLAUDE_CODE_SESSION_ID),
the memory carries that session, so it converges with the session's edits.
Exit status: 0 stored (or already stored under --key, or confirmed), 1 failure, 2 bad arguments.`;

export const rememberCommand: Command = {
  summary: "store an explicit memory (prints its id)",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, {
      kind: { type: "string" },
      tags: { type: "string" },
      files: { type: "string" },
      project: { type: "string" },
      "new-project": { type: "boolean" },
      key: { type: "string" },
      json: { type: "boolean" },
    });
    if (positionals.length === 0) throw new UsageError('the memory\'s text is required: mem remember "TEXT" (or - to read it from stdin)');
    if (positionals.length > 1) throw new UsageError('one text, in quotes: mem remember "TEXT"');
    if (values.kind !== undefined && !(EXPLICIT_KINDS as readonly string[]).includes(values.kind)) throw new UsageError(`--kind must be one of ${EXPLICIT_KINDS.join(", ")}, got "${values.kind}"`);
    const json = values.json === true;
    return withService("remember", json, async ({ app, svc }) => {
      const text = positionals[0] === "-" ? await readStdin(16 * 1024 * 1024) : positionals[0]!;
      const project = projectToStoreIn(app.db, values.project, process.cwd(), { enclosing: app.config.project.enclosing, create: values["new-project"] === true, how: "add --new-project" }).id;
      const tags = splitList(values.tags);
      const files = splitList(values.files);
      // Run by Claude Code's Bash tool: the session it runs in, so the memory converges with its edits.
      const session = sessionFromEnv(process.env);
      const r = svc.put({ text, project, ...(values.kind ? { kind: values.kind } : {}), ...(tags ? { tags } : {}), ...(files ? { files } : {}), ...(values.key !== undefined ? { clientKey: values.key } : {}), ...(session ? { session } : {}) });
      if (r.created || r.confirmed) await nudgeDaemon(r.memory.project);
      if (json) process.stdout.write(`${safeJson({ memory: shown(r.memory), created: r.created, confirmed: r.confirmed === true })}\n`);
      else {
        process.stdout.write(`${idOf(r.memory)}\n`);
        if (r.confirmed) note(`mem remember: the same as memory ${idOf(r.memory)} (${r.memory.source}), which it confirms: one memory, confidence ${r.memory.confidence ?? 1}, ${r.memory.sources?.length ?? 1} statements of it`);
        else if (!r.created) note(`mem remember: already stored under this key (${idOf(r.memory)}); nothing changed`);
      }
      return EXIT.ok;
    });
  },
};
