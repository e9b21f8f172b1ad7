/**
 * The relevance floor read record by record. Pure.
 *
 * A decision record or a note is indexed in chunks, one per section, and a question's words are
 * often spread over them: the title names the thing, the Decision section says the choice, the
 * Consequences the cost. Each chunk alone may then hold too few of the prompt's words to pass
 * the floor (./floor.ts), though the record answers. So a chunk that holds at least two of the
 * prompt's words itself (one word alone cannot tell its sense, as the floor says), and failed the
 * floor on its share of their weight, passes when the chunks of its file among the results hold
 * together what one chunk would need: `minTermCoverage` of the words' weight. A verdict the floor
 * passed, or one of a chunk holding fewer than two of the words, is left as it is.
 *
 * Chosen on the tuning halves with the off-topic prompts (docs/benchmarks.md): letting in a chunk
 * that holds one word gave the same hits and 5.4% of 500 off-topic prompts something (3.8%
 * without the rule); two words, 4.8%.
 */
import { EVEN, type Rarity } from "../retrieve/rarity.js";
import type { FloorVerdict } from "./floor.js";
import type { Candidate, InjectOptions } from "./types.js";

/** The fewest of the prompt's words a chunk must hold itself to be judged with its file. */
export const MIN_OWN_WORDS = 2;

/** The file a chunk is part of (none for a memory with no file). */
const fileOf = (c: Pick<Candidate, "path" | "project">): string | undefined => (c.path ? `${c.project}\u0000${c.path}` : undefined);

/** The verdicts, with chunks of a record that holds enough of the prompt's words together passed (`by: "record"`). */
export function recordFloor(cands: readonly Pick<Candidate, "path" | "project">[], verdicts: readonly FloorVerdict[], stems: readonly string[], o: Pick<InjectOptions, "minTermCoverage">, rarity: Rarity = EVEN): FloorVerdict[] {
  const wanted = new Set(stems);
  const total = [...wanted].reduce((s, t) => s + rarity(t), 0);
  if (total <= 0) return [...verdicts];
  const held = new Map<string, Set<string>>();
  cands.forEach((c, i) => {
    const file = fileOf(c);
    const v = verdicts[i];
    if (file === undefined || !v) return;
    const set = held.get(file) ?? new Set<string>();
    for (const s of v.matched) if (wanted.has(s)) set.add(s);
    held.set(file, set);
  });
  return verdicts.map((v, i) => {
    const file = fileOf(cands[i]!);
    if (v.pass || v.matched.length < MIN_OWN_WORDS || file === undefined) return v;
    const together = held.get(file)!;
    if (together.size <= v.matched.length) return v; // the other chunks add no word
    const coverage = [...together].reduce((s, t) => s + rarity(t), 0) / total;
    if (coverage < o.minTermCoverage) return v;
    const pct = Math.round(coverage * 100);
    return { ...v, pass: true, by: "record", reason: `${v.reason}; with the other parts of its file among the results it holds ${together.size} of them (${[...together].join(", ")}: ${pct}%)` };
  });
}
