import { safeJson } from "../render/line.js";
import { idOf, shown } from "../service/convert.js";
import { EXPLICIT_KINDS } from "../service/types.js";
import { MemoryError } from "../util/memory-error.js";
import { EXIT, parse, UsageError } from "./args.js";
import { editInEditor } from "./editor.js";
import type { Command } from "./command.js";
import { failure, nudgeDaemon, splitList, withService } from "./memory-io.js";

const usage = `Usage: mem edit ID [--text T] [--kind K] [--tags a,b] [--editor] [--json]

Edits an explicit or captured memory (ID as mem get takes it: its id as every output shows it,
or a start of it); its previous version is kept (mem get ID --history). With
no option on a terminal, opens the text in $EDITOR (else $VISUAL, else vi) in a temporary file
only you can read, removed afterwards; save and quit to apply, quit with an error status (:cq in
vi) or empty the file to change nothing. A memory from a markdown note is edited in its file
(mem edit says which file and lines), then mem index.

Options:
  --text T      the new text (at most 5,000 characters)
  --kind K      the new kind: ${EXPLICIT_KINDS.join(", ")}
  --tags a,b    the new tags (replace the old ones; --tags "" removes them all)
  --editor      open the text in the editor even with --kind/--tags or without a terminal
  --json        {"memory": MEMORY (with "history"), "changed": true|false}
  -h, --help    this help

Exit status: 0 edited (or unchanged), 1 failure (no such memory, a markdown memory, the editor
failed), 2 bad arguments (also: an empty --text, nothing to change, no terminal for an editor).`;

export const editCommand: Command = {
  summary: "edit a memory (text, kind, tags; $EDITOR on a terminal)",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { text: { type: "string" }, kind: { type: "string" }, tags: { type: "string" }, editor: { type: "boolean" }, json: { type: "boolean" } });
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "a memory ID is required" : `one memory ID, got ${positionals.length}`);
    if (values.kind !== undefined && !(EXPLICIT_KINDS as readonly string[]).includes(values.kind)) throw new UsageError(`--kind must be one of ${EXPLICIT_KINDS.join(", ")}, got "${values.kind}"`);
    if (values.text !== undefined && values.editor) throw new UsageError("--text and --editor exclude each other");
    const flags = values.text !== undefined || values.kind !== undefined || values.tags !== undefined;
    const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
    const useEditor = values.editor === true || (!flags && terminal);
    if (!flags && !useEditor) throw new UsageError("nothing to change, and no terminal to open an editor on: give --text, --kind or --tags (or --editor to run $EDITOR anyway)");
    const id = positionals[0]!;
    const json = values.json === true;
    return withService("edit", json, async ({ svc }) => {
      const before = svc.get(id);
      if (before.source === "markdown") throw new MemoryError("markdown", `memory ${idOf(before)} comes from ${before.path}:${before.startLine}-${before.endLine}: edit the file there, then \`mem index\``);
      let text = values.text;
      if (useEditor) {
        const r = editInEditor(before.text, process.env);
        if ("failed" in r) return failure("edit", json, r.failed, "editor");
        text = r.text.trim();
        if (text === "") return failure("edit", json, "the text is empty; nothing changed (mem forget removes a memory)", "empty");
        if (text === before.text) text = undefined;
      }
      const tags = splitList(values.tags);
      if (text === undefined && values.kind === undefined && tags === undefined) {
        if (json) process.stdout.write(`${safeJson({ memory: shown(svc.get(id, { history: true })), changed: false })}\n`);
        else process.stdout.write(`${idOf(before)} unchanged\n`);
        return EXIT.ok;
      }
      const m = svc.patch(id, { ...(text !== undefined ? { text } : {}), ...(values.kind !== undefined ? { kind: values.kind } : {}), ...(tags !== undefined ? { tags } : {}) });
      await nudgeDaemon(m.project);
      if (json) process.stdout.write(`${safeJson({ memory: shown(m), changed: true })}\n`);
      else process.stdout.write(`edited ${idOf(m)}; the previous version is kept (mem get ${idOf(m)} --history)\n`);
      return EXIT.ok;
    });
  },
};
