import { field } from "../../render/line.js";
import type { Section } from "./section.js";

/** The proposal (src/team/propose.ts) as the briefing's one line. Pure. */
export interface ShareProposal {
  ids: readonly string[];
  counts: Readonly<Record<string, number>>;
}

const NOUNS: Record<string, [string, string]> = { decision: ["decision", "decisions"], rejected: ["rejected approach", "rejected approaches"], learned: ["learned fact", "learned facts"] };

/** "2 decisions and 1 learned fact". Pure. */
export function counted(counts: Readonly<Record<string, number>>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${(NOUNS[k] ?? [field(k, 20), field(k, 20)])[n === 1 ? 0 : 1]}`);
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** "3 decisions of the last session could be shared: `mem share a b c`", under its own heading; undefined for none. */
export function shareSection(p: ShareProposal | undefined): Section | undefined {
  if (!p || p.ids.length === 0) return undefined;
  const total = Object.values(p.counts).reduce((a, b) => a + b, 0);
  const more = total > p.ids.length ? ` (the first ${p.ids.length} of ${total})` : "";
  return { title: "Worth sharing with the team", items: [`- ${counted(p.counts)} of the last session could be shared: \`mem share ${p.ids.map((id) => field(id, 20)).join(" ")}\`${more}`], gone: "- what could be shared with the team" };
}
