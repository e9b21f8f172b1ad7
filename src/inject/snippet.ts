/**
 * The part of a memory to show when all of it does not fit: the window of at most `maxChars`
 * that holds the most of the query's terms (distinct ones first, then occurrences), starting at a
 * sentence: among equals the text's beginning if it is one, else the window that opens closest
 * to its first match. Cut ends are marked with "…". Pure.
 */
export function snippet(text: string, terms: Set<string>, stem: (w: string) => string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const words = [...text.matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => {
    const s = stem(m[0]);
    return { at: m.index, hit: terms.has(s) ? s : undefined };
  });
  // Candidate starts: the beginning and every sentence start.
  const starts = [0, ...[...text.matchAll(/[.!?]\s+(?=\S)/g)].map((m) => m.index + m[0].length)];
  let best = { start: 0, distinct: -1, total: -1, leadIn: 0 };
  for (const start of starts) {
    const inside = words.filter((w) => w.at >= start && w.at < start + maxChars - 2 && w.hit);
    const distinct = new Set(inside.map((w) => w.hit)).size;
    const leadIn = inside.length > 0 ? inside[0]!.at - start : 0;
    const better = distinct > best.distinct || (distinct === best.distinct && inside.length > best.total);
    // Among equals: the text's beginning if it is one of them, else the one that opens closest to its first match.
    const equal = distinct === best.distinct && inside.length === best.total;
    if (better || (equal && best.start !== 0 && leadIn < best.leadIn)) best = { start, distinct, total: inside.length, leadIn };
  }
  const lead = best.start > 0 ? "…" : "";
  const room = maxChars - lead.length - 1;
  const rest = text.slice(best.start);
  if (rest.length <= maxChars - lead.length) return lead + rest;
  return `${lead}${rest.slice(0, room).replace(/\s+\S*$/, "")}…`;
}
