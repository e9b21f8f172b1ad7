import picomatch from "picomatch";
import { relative, sep } from "node:path";

export interface Filters {
  /** Projects to search; undefined searches every project. */
  projects?: string[];
  kinds?: string[];
  /** Every tag must be present. */
  tags?: string[];
  /** Glob on the source path, relative to its project root or to a root it was indexed from (absolute paths match too). */
  path?: string;
  /** Inclusive ISO date bounds on the chunk's date. */
  since?: string;
  until?: string;
  /**
   * Which tiers: "warm" (the default: every chunk but the cold tier), "cold" (the cold tier alone:
   * notes under archive/, and memories moved there for want of use), or "all".
   */
  tier?: TierScope;
}

export type TierScope = "warm" | "cold" | "all";

/** The chunks' tier that `tier: "warm"` leaves out and `tier: "cold"` keeps. */
export const COLD_TIER = "cold";

/** SQL conditions on `chunks` aliased `c`. */
export function sqlWhere(f: Filters): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const list = (column: string, values: string[]) => {
    parts.push(`${column} IN (${values.map(() => "?").join(", ")})`);
    params.push(...values);
  };
  if (f.projects) {
    if (f.projects.length === 0) parts.push("0");
    else list("c.project", f.projects);
  }
  const tier = f.tier ?? "warm";
  if (tier === "warm") parts.push(`(c.tier IS NULL OR c.tier <> '${COLD_TIER}')`);
  else if (tier === "cold") parts.push(`c.tier = '${COLD_TIER}'`);
  if (f.kinds && f.kinds.length > 0) list("c.kind", f.kinds.map((k) => k.toLowerCase()));
  for (const tag of f.tags ?? []) {
    parts.push("EXISTS (SELECT 1 FROM json_each(c.tags) WHERE json_each.value = ?)");
    params.push(tag.replace(/^#/, ""));
  }
  if (f.since) {
    parts.push("c.date >= ?");
    params.push(f.since);
  }
  if (f.until) {
    parts.push("substr(c.date, 1, ?) <= ?");
    params.push(f.until.length, f.until);
  }
  return { sql: parts.length > 0 ? parts.join(" AND ") : "1", params };
}

/**
 * A predicate for the path glob. `bases` gives, for a project, the directories a glob may be
 * relative to: its root and the roots it was indexed from (`sessions/**` finds the notes under
 * `<root>/sessions/` whether the root is the project's directory or a folder in it). An absolute
 * glob matches absolute paths.
 */
export function pathFilter(glob: string | undefined, bases: (project: string) => readonly (string | undefined)[]): (row: { path: string; project: string }) => boolean {
  if (!glob) return () => true;
  const isMatch = picomatch(glob, { dot: true });
  return (row) => {
    if (isMatch(row.path)) return true;
    for (const base of bases(row.project)) {
      if (!base) continue;
      const rel = relative(base, row.path).split(sep).join("/");
      if (rel !== "" && !rel.startsWith("..") && isMatch(rel)) return true;
    }
    return false;
  };
}

/** True when the filters need rows checked after a leg returns (so legs over-fetch). */
export function needsPostFilter(f: Filters): boolean {
  return Boolean(f.path || (f.kinds?.length) || (f.tags?.length) || f.since || f.until || f.tier === "cold");
}

/**
 * How many nearest neighbours the vector leg asks for: the vector store filters by project only,
 * so every other filter is applied afterwards and the leg over-fetches. The cold tier alone (a
 * minority of the chunks), or any other post-filter: 4 × the candidates; the default warm scope
 * (every tier but cold): 2 ×, so that cold chunks among the nearest do not starve the warm ones.
 */
export function vectorFetch(f: Filters, candidates: number): number {
  if (needsPostFilter(f)) return candidates * 4;
  return (f.tier ?? "warm") === "warm" ? candidates * 2 : candidates;
}
