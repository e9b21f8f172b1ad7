/**
 * Generated decision records for the benches (`bench:records`, `bench:team`): MADR files with a
 * status drawn from `rand` (60% accepted, 15% rejected, 15% superseded, 10% proposed) unless one
 * is given, a date, decision-makers and a body of words from one small vocabulary. With `shared`,
 * the front matter `mem share` adds (kind, mem-id, source).
 */
export const WORDS = "cache queue schema token billing search upload export import worker cluster region index audit retry timeout ledger invoice report gateway".split(" ");

export interface RecordOptions {
  /** A title marked as revised (an edit that came with a pull). */
  edited?: boolean;
  /** The status to write instead of a drawn one (the draw still happens: the sequence stays the same). */
  status?: string;
  /** Who decided (default: `Dev i%7, Lead i%3`). */
  makers?: string;
  /** Add `kind`, `mem-id` and `source` as `mem share` writes them. */
  shared?: boolean;
}

export function decisionRecordText(i: number, rand: () => number, o: RecordOptions = {}): string {
  const pick = () => WORDS[Math.floor(rand() * WORDS.length)]!;
  const r = rand();
  const drawn = r < 0.6 ? "accepted" : r < 0.75 ? "rejected" : r < 0.9 ? `superseded by ADR-${String(i + 1).padStart(4, "0")}` : "proposed";
  const status = o.status ?? drawn;
  const body = Array.from({ length: 6 }, () => `The ${pick()} talks to the ${pick()} through the ${pick()}; we measured it under load.`).join(" ");
  const date = `2025-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
  const makers = o.makers ?? `Dev ${i % 7}, Lead ${i % 3}`;
  const shared = o.shared ? `kind: decision\nmem-id: "${i.toString(16).padStart(12, "0")}"\nsource: "session ${i.toString(16).padStart(8, "0")} ${date}: generated"\n` : "";
  return `---\nstatus: ${status}\ndate: ${date}\ndecision-makers: ${makers}\n${shared}---\n# ${i}. Use the ${pick()} for the ${pick()}${o.edited ? " (revised)" : ""}\n\n## Context and Problem Statement\n\n${body}\n\n## Decision Outcome\n\nChosen option: the ${pick()}, because ${body}\n`;
}
