import { readIdentity } from "../store/identity.js";
import { closedFrom } from "../util/closed-dirs.cjs";
import type { RefusedSnapshot } from "../store/snapshot-trust.js";
import { listSnapshots, snapshotDir } from "../store/snapshots.js";
import type { StoreDamagedError } from "../store/damage.js";
import type { Db } from "../store/db.js";
import { needsScrub, scrubbedVersion } from "../store/scrub.js";
import { REDACTION_VERSION } from "../redact/redact.cjs";
import type { Check } from "./check.js";

/** Snapshots older than this are worth a warning: the weekly job is not running. */
const STALE_DAYS = 14;

const DAY_MS = 86_400_000;
const age = (iso: string, now: number) => {
  const d = (now - Date.parse(iso)) / DAY_MS;
  return d < 1 / 24 ? "less than an hour" : d < 1 ? `${Math.round(d * 24)} h` : `${Math.round(d)} day${Math.round(d) === 1 ? "" : "s"}`;
};

/** The newest snapshot in words, or undefined: for the fix of a lost store. */
export function newestSnapshot(sqlite: string, now = Date.now()): string | undefined {
  const s = listSnapshots(sqlite)[0];
  return s ? `${s.id}, ${age(s.takenAt, now)} old: ${s.counts.events} events, ${s.counts.memories} memories, ${s.counts.tasks} tasks` : undefined;
}

/** A store its identity says was lost (missing, emptied, replaced, older): the failed check, with the ways back. */
export function lostCheck(sqlite: string, err: StoreDamagedError, now = Date.now()): Check {
  const newest = newestSnapshot(sqlite, now);
  const adopt = /another store|older copy/.test(err.reason) ? "; if you put this file there on purpose, `mem restore --adopt`" : "";
  return {
    name: "sqlite",
    status: "error",
    detail: `${sqlite} was lost: ${err.reason}; mem did not create a new store over it, and captures wait in the spool`,
    fix: newest
      ? `\`mem restore latest\` (the newest snapshot, ${newest}); or \`mem doctor --repair\` to salvage what is readable; or \`mem restore --fresh\` to start over on purpose${adopt}`
      : `no snapshot to restore: \`mem doctor --repair\` salvages what is readable, \`mem restore --fresh\` starts over on purpose (the old file is kept aside)${adopt}`,
  };
}

/** The identity beside an opened store (it matched, or opening would have failed), and the snapshots there are. */
export function storeIdentityChecks(sqlite: string, events: number, now = Date.now()): Check[] {
  const id = readIdentity(sqlite);
  const identity: Check = id
    ? { name: "identity", status: "ok", detail: `store ${id.storeId.slice(0, 8)}, generation ${id.generation}; ${id.counts.events} events, ${id.counts.memories} memories, ${id.counts.tasks} tasks, ${id.counts.chunks} chunks recorded ${id.updatedAt ? `at ${id.updatedAt}` : ""} (${id.reason})` }
    : { name: "identity", status: "warn", detail: "no mem.identity.json beside the store (a read-only data home?): a store lost later could not be told from a new one", fix: "run any command that writes (`mem index`): it records one" };
  const refused: RefusedSnapshot[] = [];
  const snaps = listSnapshots(sqlite, refused);
  const newest = snaps[0];
  let snapshots: Check;
  if (!newest) {
    // Not a warning on a new install: the first `mem index` takes one.
    snapshots = { name: "snapshots", status: "ok", detail: `none yet${events > 0 ? ` for ${events} events` : ""}: the next \`mem index\` or daemon start takes one, then one a week (\`mem schedule install\` runs the weekly job)` };
  } else {
    const days = (now - Date.parse(newest.takenAt)) / DAY_MS;
    const detail = `${snaps.length} kept; newest ${newest.id}, ${age(newest.takenAt, now)} old (${newest.reason}): ${newest.counts.events} events, ${newest.counts.memories} memories`;
    snapshots = days > STALE_DAYS
      ? { name: "snapshots", status: "warn", detail, fix: "the weekly `mem reindex` has not run lately: `mem reindex`, and `mem schedule status`" }
      : { name: "snapshots", status: "ok", detail };
  }
  const planted: Check[] = refused.map((r) => ({
    name: "snapshots",
    status: "warn",
    detail: `refused ${r.id}: ${r.why}; it is never restored (another account may have planted it)`,
    fix: `look at it, then remove it (\`rm ${r.id.startsWith("/") ? r.id : `${snapshotDir(sqlite)}/${r.id}.*`}\`, as its owner or root)`,
  }));
  const was = closedFrom(snapshotDir(sqlite));
  const closed: Check[] = was === undefined ? [] : [{ name: "snapshots", status: "warn", detail: `${snapshotDir(sqlite)} was open to other users (mode ${was.toString(8)}), and its copies hold what was captured: mem closed it (mode 700)`, fix: "nothing left to do; if it opens again, look for what changes it (a chmod, a sync tool)" }];
  return [identity, snapshots, ...closed, ...planted];
}

/** Whether what is stored was redacted under the current rules (older rules may have missed a secret). */
export function redactionCheck(db: Db): Check {
  return needsScrub(db)
    ? { name: "redaction", status: "warn", detail: `data stored under older redaction rules (version ${scrubbedVersion(db)}, now ${REDACTION_VERSION}) may still hold secrets they missed`, fix: "run `mem index` or `mem doctor --repair`: either redacts it again" }
    : { name: "redaction", status: "ok", detail: `stored data redacted with the current rules (version ${REDACTION_VERSION})` };
}
