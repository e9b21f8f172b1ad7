import { CONFIRM_THRESHOLD, contentWords, jaccard } from "../../capture/extract/same.js";
import { recordParts } from "../../store/records.js";
import { effectiveSalience, type SalienceConfig, type Use } from "../../memory/salience.js";
import { bracket, field, prose } from "../../render/line.js";
import { ago, inAssistant, whenMade } from "../render.js";
import type { AssistantName } from "../../contract/adapter.cjs";
import type { Section } from "./section.js";

/**
 * Decisions, rejected approaches, learned facts and the user's preferences (their own section,
 * which the briefing puts beside the user's profile): never dropped by volume. The
 * projection runs over every one that can rank first (not a window of recent events: every used
 * one, and the newest of each kind, src/store/events.ts decisionsOf): most salient first (being
 * used reinforces one; decisions and rejected approaches never fall below the floor), then newest.
 * The first `full` are shown whole with their provenance; older ones never used are compressed to
 * a short line; beyond `cap` lines, one line says how many more there are and where to see them.
 * Pure: salience uses and the clock come in.
 */
export interface BriefDecision {
  type: string;
  text: string;
  /** ISO time it was captured. */
  time: string;
  session: string;
  /** Made in this assistant's session (not Claude Code's): the line names it. */
  assistant?: AssistantName;
  use?: Use;
  /** "possibly outdated: src/auth.c changed 3 d ago", when its files changed since. */
  stale?: string;
  /** A decision record in the repository (docs/adr/…): shown with its file, status, date and authors rather than a session. */
  record?: { path: string; status?: string; date?: string; authors: string[]; team?: true; alsoLocal?: true };
}

/**
 * `[record docs/adr/0001-x.md · accepted · 2025-03-01 · by Alice, Bob]` (what is known of it),
 * `[team record …]` for the team's (and `· also local` when a local memory is the same one), every
 * part escaped as a bracket's are.
 */
function recordNote(r: NonNullable<BriefDecision["record"]>): string {
  return bracket([`${r.team ? "team record" : "record"} ${field(r.path, 200)}`, ...recordParts(r, 4).map((x) => field(x, 200)), ...(r.alsoLocal ? ["also local"] : [])]);
}

export interface DecisionLimits {
  /** Shown whole. */
  full: number;
  /** Lines at most, compressed ones included. */
  cap: number;
  /** Older than this (days) and never used: compressed. */
  oldDays: number;
}

export const DECISION_LIMITS: DecisionLimits = { full: 10, cap: 30, oldDays: 30 };

/** The user's preferences: a section of their own, beside their profile. */
export const PREFERENCES = "The user's preferences";

const TITLES: [string, string[], string][] = [
  ["Decisions", ["decision"], "decision"],
  ["Rejected approaches", ["rejected"], "rejected"],
  ["Learned", ["learned"], "learned"],
  [PREFERENCES, ["preference"], "preference"],
];

/** Ranked, and a statement captured again (confirming one shown above it) folded into that one. */
function ranked(items: BriefDecision[], now: number, cfg: SalienceConfig, look: number): BriefDecision[] {
  const score = (d: BriefDecision) => effectiveSalience({ kind: d.type, source: "captured", createdAt: Date.parse(d.time) }, d.use, now, cfg).value;
  const sorted = items
    .map((d) => ({ d, s: score(d), t: Date.parse(d.time) || 0 }))
    .sort((a, b) => b.s - a.s || (b.d.use?.uses ?? 0) - (a.d.use?.uses ?? 0) || b.t - a.t)
    .map((x) => x.d);
  // Only the head is compared (what can be shown): the rest is counted, not read.
  const kept: { d: BriefDecision; w: Set<string> }[] = [];
  for (const d of sorted.slice(0, look)) {
    const w = contentWords(d.text);
    if (!kept.some((k) => jaccard(k.w, w) >= CONFIRM_THRESHOLD)) kept.push({ d, w });
  }
  return [...kept.map((k) => k.d), ...sorted.slice(look)];
}

/** `totals` (per kind) counts the memories `all` was drawn from, for the "N older" line; default: `all` is all of them. */
export function decisionSections(all: BriefDecision[], now: number, cfg: SalienceConfig, limits: DecisionLimits = DECISION_LIMITS, totals?: Record<string, number>): Section[] {
  const out: Section[] = [];
  for (const [title, types, kind] of TITLES) {
    const mine = all.filter((d) => types.includes(d.type));
    const unread = totals ? Math.max(0, types.reduce((n, t) => n + (totals[t] ?? 0), 0) - mine.length) : 0;
    const list = ranked(mine, now, cfg, limits.cap * 2);
    const items = list.slice(0, limits.cap).map((d, i) => {
      const old = now - (Date.parse(d.time) || now) > limits.oldDays * 86_400_000;
      const stale = d.stale ? ` ${bracket([field(d.stale, 300)])}` : "";
      if (d.record) return `- ${prose(d.text, i >= limits.full && old ? 100 : 240)} ${recordNote(d.record)}${stale}`;
      const where = inAssistant(d.assistant);
      if (i >= limits.full && old && !d.use?.uses) return `- ${prose(d.text, 100)} (${ago(d.time, now)}${where ? `, ${where}` : ""})${stale}`;
      return `- ${prose(d.text, 240)} (${whenMade(d.time, d.session, now, d.assistant)}${d.use?.uses ? `, used ${d.use.uses}×` : ""})${stale}`;
    });
    out.push({ title, items, hidden: list.length - items.length + unread, more: (n) => more(n, kind), gone: `- ${list.length + unread} ${NAMES[kind] ?? "decisions"}: \`mem list --kind ${kind}\`` });
  }
  return out;
}

const NAMES: Record<string, string> = { learned: "learned facts", rejected: "rejected approaches", preference: "preferences", decision: "decisions" };
const more = (n: number, kind: string) => `- ${n} older ${NAMES[kind] ?? "decisions"}: \`mem list --kind ${kind}\``;
