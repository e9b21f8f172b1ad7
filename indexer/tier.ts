import { userSlug } from "../src/tiers/user.js";

/**
 * Where a memory file sits in the tiered layout:
 *   identity.md, state.md, references.md  → hot   (always-relevant context)
 *   users/<id>/profile.md                 → hot   (one user's profile: briefed to that user only)
 *   reference/*.md, sessions/*.md, others → warm  (searched on demand)
 *   archive/**                            → cold  (found by cold search only, never briefed)
 * `layout` names the slot (identity, state, references, profile, reference, session, archive,
 * note); the default kind is `kind` when given (a profile holds preferences), else the layout.
 */
export interface Tier {
  tier: "hot" | "warm" | "cold";
  layout: string;
  /** The default kind when it is not the layout. */
  kind?: string;
  /** A profile's user id (as src/tiers/user.ts spells it). */
  user?: string;
}

const HOT: Record<string, string> = { "identity.md": "identity", "state.md": "state", "references.md": "references" };

/** `rel` is the path relative to the indexed root, with forward slashes. */
export function tierOf(rel: string): Tier {
  const parts = rel.toLowerCase().split("/").filter((p) => p !== "" && p !== ".");
  const base = (parts[parts.length - 1] ?? "").replace(/\.mdx$/, ".md");
  const dirs = parts.slice(0, -1);
  if (dirs.includes("archive")) return { tier: "cold", layout: "archive" };
  const parent = dirs[dirs.length - 1];
  if (parent === "sessions") return { tier: "warm", layout: "session" };
  if (parent === "reference") return { tier: "warm", layout: "reference" };
  if (base === "profile.md" && dirs[dirs.length - 2] === "users" && parent !== undefined) {
    const user = userSlug(parent);
    if (user) return { tier: "hot", layout: "profile", kind: "preference", user };
  }
  const hot = HOT[base];
  if (hot) return { tier: "hot", layout: hot };
  return { tier: "warm", layout: "note" };
}
