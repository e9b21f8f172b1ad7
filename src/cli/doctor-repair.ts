import { dataHome } from "../config/paths.cjs";
import { indexLock } from "../maintenance/index-lock.js";
import { note } from "./quiet.js";
import { repair, type RepairReport } from "../maintenance/repair.js";
import { EXIT } from "./args.js";
import { safeJson } from "../render/line.js";

/** The way back from a snapshot, in one line. */
function restoreLine(r: RepairReport): string {
  const s = r.restore;
  if (!s) return "";
  return `the newest snapshot, ${s.id} (taken ${s.takenAt.replace("T", " ").replace(/\.\d+Z$/, " UTC")}), holds ${s.events} events, ${s.memories} memories, ${s.tasks} tasks and ${s.chunks} chunks: \`${s.command}\` brings it back (the current file is moved aside, never deleted)`;
}

function human(r: RepairReport): string {
  if (r.sqlite.status === "lost") {
    return [
      r.daemon === "stopped" ? "stopped the daemon first" : "",
      `the SQLite store was lost: ${r.sqlite.reason}`,
      "nothing was repaired: there is nothing left in it to salvage, and an empty store is not a repair",
      restoreLine(r),
      ...r.notes.map((n) => `note: ${n}`),
    ].filter(Boolean).join("\n");
  }
  if (!r.changed) {
    return [`nothing to repair: the SQLite store ${r.sqlite.status === "absent" ? "does not exist yet" : "and every vector table read fine"}; no changes made`, ...r.notes].join("\n");
  }
  const c = r.recovered;
  const lost = (n: number | null) => (n === null ? "an unknown number of" : String(n));
  const lines = [
    r.daemon === "stopped" ? "stopped the daemon first" : "",
    r.sqlite.status === "damaged" ? `SQLite store damaged: ${r.sqlite.reason}` : "",
    ...r.vectorTables.map((t) => `vector table ${t.name} damaged (${t.reason}): moved into the backup, rebuilt`),
    r.backup ? `the damaged files are kept in ${r.backup}` : "",
    r.sqlite.status === "damaged"
      ? `recovered: ${c.events} captured event(s), ${c.sessions} session(s), ${c.roots} indexed root(s); ${c.markdownFiles} file(s) re-indexed from disk`
      : "",
    r.sqlite.status === "damaged" ? `lost: ${lost(r.lost.events)} event(s) and ${lost(r.lost.sessions)} session(s) on unreadable pages; ${r.lost.filesMissing} indexed file(s) no longer on disk` : "",
    c.spooled > 0 ? `replayed ${c.spooled} capture(s) kept aside while the store was damaged` : "",
    `now: ${c.chunks} chunk(s), ${c.vectors} vector(s); ${r.vectors.detail}`,
    r.snapshot ? `a snapshot of the store as it was is kept: ${r.snapshot} (\`mem restore --list\`)` : "",
    ...r.notes.map((n) => `note: ${n}`),
    restoreLine(r),
    `done in ${(r.durationMs / 1000).toFixed(1)} s`,
  ];
  return lines.filter(Boolean).join("\n");
}

/** `mem doctor --repair [--json]`. */
export async function runRepair(json: boolean): Promise<number> {
  // No index run may write the stores while they are moved aside and rebuilt.
  const unlock = await indexLock(dataHome(process.env), note);
  let report: RepairReport;
  try {
    report = await repair(process.env);
  } finally {
    unlock();
  }
  process.stdout.write(json ? `${safeJson(report)}\n` : `${human(report)}\n`);
  return report.ok ? EXIT.ok : EXIT.failure;
}
