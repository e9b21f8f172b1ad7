/**
 * How chosen pieces become items: the pieces of one source (a note's file, or one captured memory)
 * together, the source with the best piece first; adjacent lines joined into one item, whichever
 * chunks they come from; "…" wherever a line's parts are left out; the source's heading on its
 * first item only. Pure.
 */

/** What the layout needs of a chosen piece. */
export interface Placed {
  /** Index of its result in the ranking. */
  cand: number;
  source: string;
  /** Its place among its source's pieces, and its line's place among the source's lines. */
  seq: number;
  lineSeq: number;
  line: number;
  part: number;
  parts: number;
  text: string;
  score: number;
}

/** The items: runs of pieces on adjacent lines of one source, sources by their best piece (then their best ranked result). */
export function layout<P extends Placed>(chosen: readonly P[]): P[][] {
  const bySource = new Map<string, P[]>();
  for (const e of chosen) {
    const g = bySource.get(e.source);
    if (g) g.push(e);
    else bySource.set(e.source, [e]);
  }
  const best = (es: P[]) => es.reduce((m, e) => Math.max(m, e.score), Number.NEGATIVE_INFINITY);
  const rank = (es: P[]) => es.reduce((m, e) => Math.min(m, e.cand), Number.POSITIVE_INFINITY);
  const groups = [...bySource.values()].sort((a, b) => best(b) - best(a) || rank(a) - rank(b));
  const items: P[][] = [];
  for (const g of groups) {
    g.sort((a, b) => a.seq - b.seq);
    let item: P[] | undefined;
    for (const e of g) {
      const prev = item?.[item.length - 1];
      if (item && prev && e.lineSeq - prev.lineSeq <= 1) item.push(e);
      else items.push((item = [e]));
    }
  }
  return items;
}

/**
 * An item's text: its pieces in order, "…" where a line's parts are left out (before, between,
 * after); the list marker of its first line left out (the item is a list item already).
 */
export function itemBody(item: readonly Placed[]): string[] {
  const out: string[] = [];
  item.forEach((e, i) => {
    const prev = item[i - 1];
    const sameLine = prev !== undefined && prev.line === e.line;
    if (prev && !sameLine && prev.part < prev.parts - 1) out.push("…");
    if (sameLine ? e.part > prev.part + 1 : e.part > 0) out.push("…");
    out.push(i === 0 && e.part === 0 ? e.text.replace(/^[-*+] (?=\S)/, "") : e.text);
  });
  const last = item[item.length - 1]!;
  if (last.part < last.parts - 1) out.push("…");
  return out;
}

/** Whether an item is its source's first (and so shows the source's heading). */
export const opensSource = (items: readonly Placed[][], i: number) => i === 0 || items[i - 1]![0]!.source !== items[i]![0]!.source;

/**
 * The characters the items take, each with its newline, without building them: `prefix(item,
 * heading)` is the item's start (`- [id · where] heading: `).
 */
export function itemsLength(items: readonly Placed[][], prefix: (item: readonly Placed[], heading: boolean) => string): number {
  let n = 0;
  items.forEach((item, i) => {
    const parts = itemBody(item);
    n += prefix(item, opensSource(items, i)).length + parts.reduce((s, p) => s + p.length, 0) + parts.length - 1 + 1;
  });
  return n;
}
