import { field } from "../../render/line.js";
import type { ReindexReport } from "./types.js";

/** How a reindex run is told: the CLI's text, the log's one line, the summary the store keeps. Pure. */

export function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 2 : 1)} MiB`;
}

const sum = <T>(xs: readonly T[], f: (x: T) => number) => xs.reduce((n, x) => n + f(x), 0);

function totals(r: ReindexReport) {
  const ps = r.projects;
  return {
    projects: ps.length,
    indexed: sum(ps, (p) => p.files?.indexed ?? 0),
    unchanged: sum(ps, (p) => p.files?.unchanged ?? 0),
    deleted: sum(ps, (p) => p.files?.deleted ?? 0),
    added: sum(ps, (p) => p.chunks?.added ?? 0),
    removed: sum(ps, (p) => p.chunks?.removed ?? 0),
    events: sum(ps, (p) => p.events),
    embedded: sum(ps, (p) => p.vector.embedded),
  };
}

/** What `maintenance_runs.summary` keeps of a run: counts and sizes, no lists of paths. */
export function storedSummary(r: ReindexReport): Record<string, unknown> {
  return {
    durationMs: r.durationMs,
    rotated: r.rotate.rotated.length,
    archived: r.rotate.archived.length,
    ...totals(r),
    purged: r.purge,
    merged: r.merged,
    salience: r.salience,
    tiers: r.tiers,
    versionsRemoved: sum(r.compaction.tables, (t) => t.oldVersionsRemoved),
    vacuumed: r.compaction.sqlite?.vacuumed ?? false,
    snapshot: r.snapshot?.id ?? null,
    size: r.size,
    warnings: r.warnings.length,
  };
}

/** The run on one line, for maintenance.log. */
export function reportLine(r: ReindexReport): string {
  const t = totals(r);
  const head = r.ok ? `reindex ok${r.vectors === "bm25-only" ? " (BM25 only)" : r.vectors === "off" ? " (BM25 only, by your choice)" : ""}` : `reindex FAILED: ${r.problems.join("; ")}`;
  return `${head} | ${t.projects} project(s), ${t.indexed} file(s) indexed, ${t.embedded} embedded, ${r.purge.memories} purged, ${r.tiers.toCold} to cold, ${r.rotate.rotated.length} rotated, ${r.rotate.archived.length} archived, size ${mib(r.size.before.total)} → ${mib(r.size.after.total)}, ${(r.durationMs / 1000).toFixed(1)} s`;
}

/** The run as `mem reindex` prints it. */
export function renderReport(r: ReindexReport): string {
  const t = totals(r);
  const lines = [`mem reindex: ${r.ok ? "ok" : "FAILED"} in ${(r.durationMs / 1000).toFixed(1)} s`];
  const moves = (label: string, ms: typeof r.rotate.rotated) => (ms.length === 0 ? [] : [`  ${label}: ${ms.length}`, ...ms.slice(0, 10).map((m) => `    ${field(m.from, 300)} → ${field(m.to, 300)}`), ...(ms.length > 10 ? [`    … ${ms.length - 10} more`] : [])]);
  lines.push(...moves("session logs rotated", r.rotate.rotated), ...moves("session logs archived", r.rotate.archived));
  for (const f of r.forgottenRoots) lines.push(`  root dropped: ${field(f.path, 300)} of ${field(f.project, 300)} (${f.sources} file(s) left the index)`);
  lines.push(`  indexed: ${t.projects} project(s): ${t.indexed} file(s) indexed, ${t.unchanged} unchanged, ${t.deleted} removed; chunks ${t.added} added, ${t.removed} removed; ${t.events} captured event(s) chunked`);
  lines.push(r.vectors === "off" ? "  vectors: BM25 only, by your choice (embedding.order is empty; `mem doctor --use-vectors` undoes it)" : r.vectors === "bm25-only" ? "  vectors: BM25 only: no embedding model has answered here yet (`mem doctor` says how to add one)" : `  vectors: ${t.embedded} embedded`);
  if (r.merged > 0) lines.push(`  merged: ${r.merged} statement(s) stored twice, now part of the memory that says the same`);
  lines.push(`  purged: ${r.purge.memories} forgotten memor${r.purge.memories === 1 ? "y" : "ies"}, ${r.purge.vectors} vector(s)${r.purge.copies.length > 0 ? `; copies in the data home: ${r.purge.copies.map((c) => `${field(c.file, 300)} ${c.action}`).join(", ")}` : ""}`);
  const s = r.salience;
  lines.push(`  decay: ${s.memories} memories, ${s.decaying} decaying, ${s.faded} faded below 0.1, ${s.floored} held at the floor, ${s.used} ever used; ${s.orphansRemoved} use record(s) of gone chunks removed`);
  const ti = r.tiers;
  lines.push(`  tiers: ${ti.toCold} moved to cold (unused ${ti.coldAfterDays} days), ${ti.toWarm} back to warm, ${ti.exempt} old decision(s)/rejected approach(es) kept warm`);
  for (const c of r.compaction.tables) {
    lines.push(`  compacted ${field(c.table)}: ${c.rows} rows; versions ${c.versionsBefore} → ${c.versionsAfter}; fragments ${c.fragmentsRemoved} merged into ${c.fragmentsAdded}; ${mib(c.bytesRemoved)} of old versions removed`);
  }
  if (r.compaction.sqlite) lines.push(`  text index optimized; SQLite ${r.compaction.sqlite.vacuumed ? `vacuumed (${mib(r.compaction.sqlite.freeBytes)} free)` : "not vacuumed (little free space)"}`);
  if (r.snapshot) lines.push(`  snapshot of the store: ${r.snapshot.id} (${mib(r.snapshot.bytes)}, ${(r.snapshot.durationMs / 1000).toFixed(1)} s)${r.snapshot.pruned.length ? `; ${r.snapshot.pruned.length} older one(s) removed` : ""}`);
  const b = r.size.before;
  const a = r.size.after;
  lines.push(`  store size: ${mib(b.total)} → ${mib(a.total)} (SQLite ${mib(b.sqlite)} → ${mib(a.sqlite)}, vectors ${mib(b.vectors)} → ${mib(a.vectors)})`);
  if (!r.ok) lines.push("problems:", ...r.problems.map((p) => `  - ${field(p, 1000)}`));
  return lines.join("\n");
}
