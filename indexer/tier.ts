/**
 * Where a memory file sits in the tiered layout:
 *   identity.md, state.md, references.md  → hot   (always-relevant context)
 *   reference/*.md, sessions/*.md, others → warm  (searched on demand)
 *   archive/**                            → cold  (searched, never briefed)
 * `layout` names the slot (identity, state, references, reference, session, archive, note) and is
 * the default kind when frontmatter gives none.
 */
export interface Tier {
  tier: "hot" | "warm" | "cold";
  layout: string;
}

const HOT: Record<string, string> = { "identity.md": "identity", "state.md": "state", "references.md": "references" };

/** `rel` is the path relative to the indexed root, with forward slashes. */
export function tierOf(rel: string): Tier {
  const parts = rel.toLowerCase().split("/").filter((p) => p !== "" && p !== ".");
  const base = parts[parts.length - 1] ?? "";
  const dirs = parts.slice(0, -1);
  if (dirs.includes("archive")) return { tier: "cold", layout: "archive" };
  const parent = dirs[dirs.length - 1];
  if (parent === "sessions") return { tier: "warm", layout: "session" };
  if (parent === "reference") return { tier: "warm", layout: "reference" };
  const hot = HOT[base.replace(/\.mdx$/, ".md")];
  if (hot) return { tier: "hot", layout: hot };
  return { tier: "warm", layout: "note" };
}
