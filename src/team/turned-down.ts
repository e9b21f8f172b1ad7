/**
 * What a team's decision record turned down, read from its text: in MADR, the "Considered
 * Options" (or "Alternatives") other than the "Chosen option" (and the reason given for the choice); a record whose
 * status rejected it turned down what its title names. The pre-tool check warns when a tool call
 * brings one back (src/inject/pretool-check.ts). Pure.
 */

export interface TurnedDown {
  /** The option chosen, as written (without its markdown link). */
  chosen: string;
  /** The options turned down, as written (a link's text, without the description after a dash). */
  options: string[];
  /** Why the chosen one won ("because …"), on one line; "" when not said. */
  reason: string;
}

/** At most this many options of one record (a list longer than this is no list of options). */
const MAX_OPTIONS = 12;

/** An option's name as a list item writes it: a link's text, the text before a description after a dash or a colon. */
export function optionName(item: string): string {
  const text = item
    .replace(/!?\[([^\]]{0,200})\]\([^)]{0,500}\)/g, "$1")
    .replace(/\*+/g, "")
    .trim();
  return text.split(/\s+[–—-]\s+|:\s/)[0]!.trim().slice(0, 160);
}

const same = (a: string, b: string) => a.replace(/\W/g, "").toLowerCase() === b.replace(/\W/g, "").toLowerCase();

/** The record's considered options and its chosen one; undefined when it names no chosen option among two or more. */
export function turnedDown(text: string): TurnedDown | undefined {
  const chosen = /Chosen option:?\s*[*_]*\s*"([^"\n]{1,200})"(?:\s*,?\s*because\b[ \t]*([^\n]*))?/i.exec(text);
  if (!chosen) return undefined;
  const section = /^#{1,6}\s*Considered (?:Options|Alternatives)\s*$([\s\S]*?)(?=^#{1,6}\s|(?![\s\S]))/im.exec(text)?.[1] ?? "";
  const items = section.split("\n").flatMap((l) => /^\s*(?:[*+-]|\d+[.)])\s+(.+)$/.exec(l)?.[1]?.trim() ?? []);
  const name = optionName(chosen[1]!);
  const options = items
    .map(optionName)
    .filter((o) => o.length >= 2 && !same(o, name) && !same(o, chosen[1]!))
    .slice(0, MAX_OPTIONS);
  if (options.length === 0) return undefined;
  const reason = (chosen[2] ?? "").replace(/[.\s]+$/, "").slice(0, 160);
  return { chosen: name, options, reason };
}

/** One thing a record ruled out, as the pre-tool check reads it, and what its warning says after it. */
export interface RecordStatement {
  kind: "decision" | "rejected";
  text: string;
  /** For a turned-down option: what was chosen instead, and why ("in favour of "ES256", because …"). */
  instead?: string;
}

/**
 * The statements a record makes about what it ruled out, in the words the pre-tool check reads
 * (src/inject/pretool-terms.ts): a decision record's `Chosen option: "A" over "B"` for each option
 * it turned down (the reason is the chosen one's: said as what was chosen instead), else its
 * title; a rejected record's title, as a rejected approach.
 */
export function recordStatements(kind: string, title: string, text: string): RecordStatement[] {
  if (kind === "rejected") return title.trim() ? [{ kind: "rejected", text: title.trim() }] : [];
  if (kind !== "decision") return [];
  const t = turnedDown(text);
  if (!t) return title.trim() ? [{ kind: "decision", text: title.trim() }] : [];
  const chosen = t.chosen.replace(/"/g, "'");
  const instead = `in favour of "${chosen}"${t.reason ? `, because ${t.reason}` : ""}`;
  return t.options.map((o) => ({ kind: "decision" as const, text: `Chosen option: "${chosen}" over "${o.replace(/"/g, "'")}"`, instead }));
}
