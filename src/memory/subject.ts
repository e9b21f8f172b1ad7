import type { SalienceSubject } from "./salience.js";

/** What salience needs of a stored chunk: its kind, whether a person wrote it (markdown) or it was captured, its tier, when it was made. */
export function subjectOfChunk(row: { kind: string; path: string; tier: string | null; date: string | null; metadata: string }): SalienceSubject {
  const captured = row.path.startsWith("session:") || /"source":"event"/.test(row.metadata);
  const made = row.date ? Date.parse(row.date) : Number.NaN;
  return { kind: row.kind, source: captured ? "captured" : "markdown", tier: row.tier, createdAt: made }; // NaN: undated, its clock starts at its first use
}
