/**
 * Evidence selection: which lines of the top results go before the prompt, within the budget.
 *
 * Each result past the floor is cut into pieces (./units.ts: its lines; a long line into its
 * sentences). A piece is scored by the prompt's content words it holds (or its headings hold),
 * each weighed by how rare it is among the pieces (a word on every line tells nothing apart), as a
 * share of all of them, a long piece a little less than a short one with the same words; plus its
 * similarity to the prompt when a model can tell (`SelectDeps.similarity`); plus a little for a
 * better ranked result (the search saw the whole chunk); plus part of its neighbours' scores, more
 * of the line before it than of the line after (the answer is often the line after the one that
 * names the topic). The best pieces are taken while
 * they fit; a sentence comes with the start of its line (the list item's label, the speaker).
 * Items are laid out by ./layout.ts: as many as fit, adjacent lines of one file as one item.
 * Pure.
 */
import { prosePiece } from "../render/line.js";
import { stemsFound } from "./floor.js";
import { itemPrefix, sourceOf, withoutKind } from "./items.js";
import { itemBody, itemsLength, layout, opensSource, type Placed } from "./layout.js";
import type { Candidate, Describe } from "./types.js";
import { piecesOf, type Piece } from "./units.js";
import { memoized } from "../util/memo.js";

export interface SelectOptions {
  /** Characters the items may take, each with its newline (the frame's own already taken off). */
  roomChars: number;
  maxItems: number;
  /** A line longer than this is cut into sentences (then between words, never inside a word, a tag or brackets). */
  maxPieceChars: number;
  /** How much a piece's length lowers its score (0: not at all; 1: in proportion, as BM25's b). */
  lengthNorm: number;
  /** What the best ranked result adds to its pieces' scores (the second half of it, and so on). */
  rankPrior: number;
  /**
   * The share of the previous piece's own score a piece adds to its own: a line after one that
   * names the topic is often its answer (a reply to a question, an item under its lead-in).
   */
  afterMatch: number;
  /** The share of the next piece's own score a piece adds to its own (the line that leads to a match). */
  beforeMatch: number;
}

export const DEFAULT_SELECT: Omit<SelectOptions, "roomChars" | "maxItems"> = { maxPieceChars: 140, lengthNorm: 0.3, rankPrior: 0.2, afterMatch: 0.6, beforeMatch: 0.15 };

export interface SelectDeps {
  /**
   * Applied to a chunk's text before it is cut, and to each item as rendered. It must keep a
   * text's line count (`redactLines`), or the lines after a multi-line secret are numbered wrong.
   */
  redact: (s: string) => string;
  describe?: Describe;
  /** A piece's similarity to the prompt (0 to 1) when a model can tell (none does yet: the seam for one). */
  similarity?: (c: Candidate, piece: Piece) => number | undefined;
  /**
   * Items without their start (`- [id · where] heading: `), just the lines: a result's preview
   * under a header of its own (./preview.ts, `mem query`). The budget counts what is rendered.
   */
  bare?: boolean;
}

/** A piece of one result, as it is rendered, with its score. */
export interface Evidence extends Placed {
  piece: Piece;
}

/** One item as rendered, and the chunks whose lines it shows. */
export interface SelectedItem {
  line: string;
  ids: string[];
}

/** A chunk's pieces as rendered, remembered per redaction function and chunk (the daemon meets the same chunks prompt after prompt). */
const RENDERED = new WeakMap<(s: string) => string, (key: string) => readonly { piece: Piece; text: string }[]>();

function renderedPieces(c: Candidate, maxPieceChars: number, redact: (s: string) => string): readonly { piece: Piece; text: string }[] {
  let memo = RENDERED.get(redact);
  if (!memo) {
    memo = memoized((key: string) => {
      const [kind, start, max, text] = JSON.parse(key) as [string, number, number, string];
      return piecesOf(withoutKind(redact(text), kind), start, max).map((piece) => ({ piece, text: prosePiece(piece.text) }));
    }, 2_000);
    RENDERED.set(redact, memo);
  }
  return memo(JSON.stringify([c.kind, c.startLine, maxPieceChars, c.text]));
}

/** How many pieces a result has before the pool keeps a line two results share once (`mem why`). */
export function pieceCount(c: Candidate, maxPieceChars: number, redact: (s: string) => string): number {
  return renderedPieces(c, maxPieceChars, redact).filter((p) => p.text !== "").length;
}

/** Every piece of the results, once per place in its source (a line two overlapping chunks share comes from the better ranked one). */
export function evidencePool(cands: readonly Candidate[], maxPieceChars: number, redact: (s: string) => string): Evidence[] {
  const bySource = new Map<string, Map<string, Evidence>>();
  cands.forEach((c, cand) => {
    const source = sourceOf(c);
    let places = bySource.get(source);
    if (!places) bySource.set(source, (places = new Map()));
    for (const { piece, text } of renderedPieces(c, maxPieceChars, redact)) {
      const key = `${piece.line}:${piece.part}:${piece.text}`;
      if (!places.has(key) && text !== "") places.set(key, { cand, source, seq: 0, lineSeq: 0, line: piece.line, part: piece.part, parts: piece.parts, text, score: 0, piece });
    }
  });
  const out: Evidence[] = [];
  for (const places of bySource.values()) {
    const sorted = [...places.values()].sort((a, b) => a.line - b.line || a.part - b.part);
    let lineSeq = -1;
    sorted.forEach((e, i) => {
      e.seq = i;
      if (i === 0 || sorted[i - 1]!.line !== e.line) lineSeq++;
      e.lineSeq = lineSeq;
    });
    out.push(...sorted);
  }
  return out;
}

/** Scores the pool's pieces (in place) for the prompt's content stems; see the file's comment. */
export function scorePieces(pieces: readonly Evidence[], cands: readonly Candidate[], stems: readonly string[], o: Omit<SelectOptions, "roomChars" | "maxItems">, similarity?: SelectDeps["similarity"]): void {
  const wanted = new Set(stems);
  const found = (text: string, into: Set<string>) => stemsFound(text, wanted, into);
  // A piece's words are its own and its headings' (a line under "## Deploy" is about deploying).
  const headed = cands.map((c) => found(c.headingPath.join(" "), new Set()));
  const hits = pieces.map((e) => found(e.text, new Set(headed[e.cand])));
  const df = new Map<string, number>();
  for (const h of hits) for (const t of h) df.set(t, (df.get(t) ?? 0) + 1);
  const n = pieces.length;
  const idf = (t: string) => Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
  const total = [...wanted].reduce((s, t) => s + idf(t), 0) || 1;
  const avg = pieces.reduce((s, e) => s + e.text.length, 0) / Math.max(1, n) || 1;
  // A result none of whose pieces holds a word passed on its meaning (a vector match): its similarity stands for each piece's.
  const lexicalCands = new Set(pieces.filter((_, i) => hits[i]!.size > 0).map((e) => e.cand));
  const own = pieces.map((e, i) => {
    const norm = 1 - o.lengthNorm + o.lengthNorm * (e.text.length / avg);
    const lexical = [...hits[i]!].reduce((s, t) => s + idf(t), 0) / total / norm;
    const c = cands[e.cand]!;
    const sim = similarity?.(c, e.piece) ?? (lexicalCands.has(e.cand) ? 0 : (c.legs.vector?.score ?? 0));
    const s = lexical + sim;
    return s > 0 ? s + o.rankPrior / (1 + e.cand) : 0;
  });
  pieces.forEach((e, i) => {
    const prev = i > 0 && pieces[i - 1]!.source === e.source ? own[i - 1]! : 0;
    const next = i + 1 < n && pieces[i + 1]!.source === e.source ? own[i + 1]! : 0;
    e.score = own[i]! > 0 || prev > 0 || next > 0 ? own[i]! + o.afterMatch * prev + o.beforeMatch * next : 0;
  });
}

/** Why a scored piece was not taken: past the room left, or one item more than `maxItems`. */
export type Dropped = "budget" | "maxItems";

/** What the selection did, piece by piece (`mem why`): the items, and the fate of every piece of the pool. */
export interface Choice {
  items: SelectedItem[];
  /** Each item's pieces, in the items' order. */
  placed: Evidence[][];
  /** Every piece of the results (a line two chunks share, once: from the better ranked), scored. */
  pieces: Evidence[];
  /** The scored pieces not taken, and why. */
  dropped: Map<Evidence, Dropped>;
}

/**
 * Chooses and renders the evidence of `cands` (ranked, all past the floor) for a prompt whose
 * content words have the stems `stems`: the items, within `o.roomChars` (none when nothing fits).
 */
export function selectEvidence(cands: readonly Candidate[], stems: readonly string[], o: SelectOptions, deps: SelectDeps): SelectedItem[] {
  return chooseEvidence(cands, stems, o, deps).items;
}

/** `selectEvidence`, with what it chose and left out (`Choice`). */
export function chooseEvidence(cands: readonly Candidate[], stems: readonly string[], o: SelectOptions, deps: SelectDeps): Choice {
  const pieces = evidencePool(cands, o.maxPieceChars, deps.redact);
  scorePieces(pieces, cands, stems, o, deps.similarity);
  // An item's start, by result, line and heading; its stored fields (kind, path, heading, days) redacted once each.
  const redacted = new Map<string, string>();
  const redactField = (s: string) => {
    let r = redacted.get(s);
    if (r === undefined) redacted.set(s, (r = deps.redact(s)));
    return r;
  };
  const days = new Map<string, string | undefined>();
  const given = deps.describe ?? {};
  const describe = {
    ...given,
    ...(given.sessionDay ? { sessionDay: (s: string) => (days.has(s) ? days.get(s) : days.set(s, given.sessionDay!(s)).get(s)) } : {}),
  };
  const prefixes = new Map<string, string>();
  const prefix = (item: readonly Placed[], heading: boolean) => {
    if (deps.bare) return "";
    const e = item[0]!;
    const key = `${e.cand}:${e.line}:${heading}`;
    let p = prefixes.get(key);
    if (p === undefined) prefixes.set(key, (p = itemPrefix(cands[e.cand]!, e.line, heading, redactField, describe, e.text)));
    return p;
  };
  const heads = new Map(pieces.filter((e) => e.part === 0).map((e) => [`${e.source}\u0000${e.line}`, e]));
  const chosen: Evidence[] = [];
  const taken = new Set<Evidence>();
  const dropped = new Map<Evidence, Dropped>();
  const ranked = pieces.filter((e) => e.score > 0).sort((a, b) => b.score - a.score || a.cand - b.cand || a.seq - b.seq);
  let left = o.roomChars;
  for (const e of ranked) {
    if (taken.has(e)) continue;
    // A piece takes at least its text and a space: past what is left, no need to lay it out.
    if (e.text.length + 1 > left) {
      dropped.set(e, "budget");
      continue;
    }
    // A later part of a line comes with the line's first part (a list item's label, a speaker).
    const head = e.part > 0 ? heads.get(`${e.source}\u0000${e.line}`) : undefined;
    const add = head && !taken.has(head) ? [head, e] : [e];
    const items = layout([...chosen, ...add]);
    const length = itemsLength(items, prefix);
    if (items.length > o.maxItems || length > o.roomChars) {
      dropped.set(e, items.length > o.maxItems ? "maxItems" : "budget");
      continue;
    }
    left = o.roomChars - length;
    for (const x of add) {
      chosen.push(x);
      taken.add(x);
      dropped.delete(x);
    }
  }
  const placed = layout(chosen);
  // Redacted once more as rendered: whatever the rendering joined is checked as the model will read it.
  const items = placed.map((item, i) => ({ line: deps.redact(`${prefix(item, opensSource(placed, i))}${itemBody(item).join(" ")}`), ids: [...new Set(item.map((e) => cands[e.cand]!.id))] }));
  return { items, placed, pieces, dropped };
}
