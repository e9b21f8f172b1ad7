import { dataHome, homePaths } from "../config/paths.cjs";
import { indexLock } from "../maintenance/index-lock.js";
import { note } from "./quiet.js";
import { restoreStore, type RestoreReport, type RestoreWhat } from "../maintenance/restore-snapshot.js";
import { readIdentity } from "../store/identity.js";
import type { RefusedSnapshot } from "../store/snapshot-trust.js";
import { findSnapshot, listSnapshots, type Snapshot } from "../store/snapshots.js";
import { field, safeJson } from "../render/line.js";
import { EXIT, parse, UsageError } from "./args.js";
import type { Command } from "./command.js";
import { confirm } from "./confirm.js";

const usage = `Usage: mem restore [latest | <snapshot id>] [--yes] [--json]
       mem restore --list [--json]
       mem restore --fresh [--yes] [--json]
       mem restore --adopt [--yes] [--json]

Brings back a snapshot of the SQLite store (taken by the weekly \`mem reindex\`, before every
migration and before every repair; kept in <data home>/snapshots/, the newest
maintenance.keepSnapshots (5)). A running daemon is stopped first; the store's files in place
are moved into <data home>/before-restore-<time>/, never deleted; captures kept in the spool
while the store was lost are written into the restored one. What comes back: events, memories
(with their history), tasks, sessions, chunks and the text index as they were when the snapshot
was taken. The vectors are not in snapshots (they are derived): the next \`mem index\`, or the
daemon, reconciles the vector tables with the restored chunks and embeds what they lack.

Arguments:
  latest          the newest snapshot (the default)
  <snapshot id>   one of \`mem restore --list\` (a unique prefix will do)

Options:
  --list       the snapshots, newest first: id, when, why, size, what each holds; then
               those refused, with why (another user's, writable by others, a link, a copy
               of another store): never restored
  --fresh      start over with an empty store on purpose (the old store and its vectors are
               moved aside, never deleted)
  --adopt      keep the store file that is in place now (after you put another one there on
               purpose): its identity is recorded again
  --yes        do not ask for confirmation (required when stdin is not a terminal)
  --json       the snapshots (--list) or the restore report as JSON
  -h, --help   this help

Exit status: 0 restored, 1 failure or not confirmed, 2 bad arguments (also no --yes without a
terminal).`;

const when = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$/, " UTC");
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
const holds = (c: Snapshot["counts"]) => `${c.events} events, ${c.memories} memories, ${c.tasks} tasks, ${c.chunks} chunks`;

function printList(snaps: Snapshot[], refused: RefusedSnapshot[], json: boolean): void {
  if (json) {
    process.stdout.write(`${safeJson({ snapshots: snaps.map(({ file: _f, ...s }) => s), refused })}\n`);
    return;
  }
  if (snaps.length === 0) process.stdout.write("no snapshots yet: the weekly `mem reindex` takes one (so do migrations and repairs)\n");
  for (const s of snaps) process.stdout.write(`${s.id}  ${when(s.takenAt)}  ${s.reason}  ${mib(s.bytes)}  ${holds(s.counts)}\n`);
  for (const r of refused) process.stdout.write(`refused  ${field(r.id, 200)}: ${field(r.why, 400)}\n`);
}

function human(r: RestoreReport): string {
  return [
    r.daemon === "stopped" ? "stopped the daemon first" : "",
    r.action === "restore" ? `restored snapshot ${r.snapshot!.id} (taken ${when(r.snapshot!.takenAt)}, ${r.snapshot!.reason})` : r.action === "fresh" ? "started a new, empty store" : "kept the store file in place as the store",
    r.movedAside ? `the files that were in place are kept in ${r.movedAside}` : "",
    `the store now holds ${holds(r.counts)} (generation ${r.generation})`,
    r.replayed > 0 ? `wrote ${r.replayed} capture(s) kept in the spool while the store was lost` : "",
    `vectors: ${r.vectors}`,
  ].filter(Boolean).join("\n");
}

export const restoreCommand: Command = {
  summary: "bring back a snapshot of the store (--list them; --fresh to start over)",
  usage,
  async run(argv) {
    const { values, positionals } = parse(argv, { list: { type: "boolean" }, fresh: { type: "boolean" }, adopt: { type: "boolean" }, yes: { type: "boolean" }, json: { type: "boolean" } });
    if (positionals.length > 1) throw new UsageError(`one snapshot, got ${positionals.length}`);
    const modes = [values.list, values.fresh, values.adopt, positionals.length > 0].filter(Boolean).length;
    if (modes > 1) throw new UsageError("one of: a snapshot, --list, --fresh, --adopt");
    const json = values.json === true;
    const sqlite = homePaths(dataHome()).sqlite;
    if (values.list) {
      const refused: RefusedSnapshot[] = [];
      printList(listSnapshots(sqlite, refused), refused, json);
      return EXIT.ok;
    }
    let what: RestoreWhat;
    let question: string;
    if (values.fresh) {
      what = { fresh: true };
      const id = readIdentity(sqlite);
      question = `Start over with an empty store${id ? ` (the current one, ${holds(id.counts)} when last written, is moved aside)` : ""}? [y/N] `;
    } else if (values.adopt) {
      what = { adopt: true };
      question = `Keep the file ${sqlite} as the store from now on? [y/N] `;
    } else {
      const ref = positionals[0] ?? "latest";
      if (ref !== "latest" && !/^[0-9A-Za-z-]{1,64}$/.test(ref)) throw new UsageError(`a snapshot id looks like 20261127T151358123Z-reindex, got "${field(ref, 80)}"`);
      const snap = findSnapshot(sqlite, ref);
      if (!snap) {
        const refused: RefusedSnapshot[] = [];
        const none = listSnapshots(sqlite, refused).length === 0;
        const named = refused.find((r) => r.id === ref || (ref !== "latest" && r.id.startsWith(ref)));
        const message = named ? `snapshot ${named.id} is refused: ${named.why}` : none ? `there are no snapshots yet${refused.length > 0 ? ` of yours (${refused.length} refused: \`mem restore --list\`)` : ""}` : `no snapshot ${ref} (\`mem restore --list\`)`;
        process.stderr.write(`mem restore: ${field(message, 600)}; nothing was changed\n`);
        if (json) process.stdout.write(`${safeJson({ error: { code: named ? "refused_snapshot" : "no_snapshot", message } })}\n`);
        return EXIT.failure;
      }
      what = { snapshot: snap };
      question = `Restore snapshot ${snap.id} (taken ${when(snap.takenAt)}: ${holds(snap.counts)})? The store in place is moved aside. [y/N] `;
    }
    if (!values.yes) {
      if (process.stdin.isTTY !== true) throw new UsageError("refusing to replace the store without --yes: stdin is not a terminal to confirm on");
      if (!(await confirm(question))) {
        process.stderr.write("mem restore: not confirmed; nothing was changed\n");
        if (json) process.stdout.write(`${safeJson({ error: { code: "not_confirmed", message: "not confirmed; nothing was changed" } })}\n`);
        return EXIT.failure;
      }
    }
    // No index run writes the store while it is replaced; the daemon is stopped inside.
    const unlock = await indexLock(dataHome(), (l) => (json ? undefined : note(l)));
    let report: RestoreReport;
    try {
      report = await restoreStore(process.env, what);
    } finally {
      unlock();
    }
    process.stdout.write(json ? `${safeJson(report)}\n` : `${human(report)}\n`);
    return EXIT.ok;
  },
};
