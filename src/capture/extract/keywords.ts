/**
 * Keyword layer: decision / rejection / lesson markers in prose, one hit per sentence, with a
 * confidence. An explicit choice with an alternative and a reason scores ~0.9; a bare marker on an
 * exploratory step ("decided to read the file") ~0.3. Questions and conditionals are ignored, and
 * so is code (fenced blocks, inline spans). Pure.
 */

export type TextKind = "decision" | "rejected" | "learned" | "preference";

export interface TextHit {
  type: TextKind;
  /** The sentence, markdown emphasis removed, at most MAX_SENTENCE chars. */
  text: string;
  confidence: number;
  /** Name of the rule that matched. */
  marker: string;
}

export const MAX_SENTENCE = 400;

interface Rule {
  marker: string;
  type: TextKind;
  re: RegExp;
  /** Confidence without / with a stated reason. */
  base: number;
  reasoned: number;
  userOnly?: boolean;
}

const REASON = /\b(because|since|as it|as they|due to|so that|given that|which (?:means|avoids|keeps|makes)|to avoid|otherwise)\b/i;
const WEAK_STEP =
  /\bdecided to (?:first |now |just )?(?:read|look|check|run|open|search|start|try|take|see|investigate|explore|begin|dig|inspect|view|examine|grep|list|review|verify|test|continue)\b/i;

// Order matters only for ties: the highest confidence wins.
const RULES: Rule[] = [
  { marker: "choice-over", type: "decision", base: 0.75, reasoned: 0.9,
    re: /\b(?:chose|choose|chosen|picked|opted for|opt for|went with|go(?:ing)? with|settled on|selected|decided on|decided to use)\b.{1,160}?\b(?:over|instead of|rather than)\b/i },
  { marker: "use-instead", type: "decision", base: 0.7, reasoned: 0.85,
    re: /\b(?:we'll|we will|i'll|i will|let's|let us|we should|going to|will)\s+(?:use|switch to|go with|stick with|keep)\b.{1,160}?\b(?:instead of|rather than|over)\b/i },
  { marker: "decided-against", type: "rejected", base: 0.7, reasoned: 0.85,
    re: /\b(?:decided against|ruled out|rejected|abandoned|won't use|will not use|not going to use|chose not to|opted not to)\b/i },
  { marker: "decided", type: "decision", base: 0.6, reasoned: 0.85,
    re: /\b(?:decided (?:to|on|that)|(?:the )?decision(?: is| was)?:|we(?:'ve| have) decided)\b/i },
  { marker: "go-with", type: "decision", base: 0.5, reasoned: 0.75,
    re: /\b(?:let's|we'll|we will|i'd|i would) (?:go with|use|switch to|stick with|settle on)\b/i },
  { marker: "root-cause", type: "learned", base: 0.85, reasoned: 0.9,
    re: /\broot cause\b(?:\s+(?:was|is)\b|\s*\**\s*:)/i },
  { marker: "lesson", type: "learned", base: 0.85, reasoned: 0.9, re: /\blessons? learned\b|\blesson\s*:/i },
  { marker: "fix-was", type: "learned", base: 0.6, reasoned: 0.7, re: /\bthe fix (?:was|is) to\b/i },
  { marker: "turns-out", type: "learned", base: 0.6, reasoned: 0.7, re: /\b(?:it )?turn(?:s|ed) out\b/i },
  { marker: "gotcha", type: "learned", base: 0.5, reasoned: 0.6, re: /\b(?:gotcha|TIL|note to self|key insight)\b/i },
  { marker: "issue-was", type: "learned", base: 0.5, reasoned: 0.6, re: /\bthe (?:issue|problem|bug) was\b/i },
  { marker: "issue-is", type: "learned", base: 0.35, reasoned: 0.45, re: /\bthe (?:issue|problem|bug) is\b/i },
  { marker: "prefer", type: "preference", base: 0.6, reasoned: 0.7, userOnly: true,
    re: /\b(?:i|we) (?:prefer|like to|always|never|don't want|do not want)\b|\bprefer\b.{1,80}\bover\b/i },
  { marker: "always-never", type: "preference", base: 0.65, reasoned: 0.75, userOnly: true,
    re: /^(?:please )?(?:always|never|don't|do not) (?:use|run|commit|push|add|write|call|create|edit|touch|install)\b/i },
];

/** Hedges lower the confidence: the author is not sure yet. */
const HEDGE = /\b(?:maybe|perhaps|might|possibly|probably|i think|i suspect|seems? to)\b/i;

/** Starts that make a sentence hypothetical or a request, not a statement. */
const NOT_A_STATEMENT = /^(?:if|whether|should (?:we|i)|do you|would you|could (?:we|you)|can (?:we|you)|when(?:ever)? we decide)\b/i;

/** Prose sentences of `text`: code blocks, tables and headings removed, bullets and emphasis unwrapped. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, "\n");
  for (let line of prose.split(/\r?\n/)) {
    line = line.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("|")) continue;
    line = line.replace(/^(?:[-*+>]\s+|\d+[.)]\s+)+/, "").replace(/\*\*|__/g, "");
    for (const s of line.split(/(?<=[.!?])\s+(?=[A-Z0-9"'(`[])/)) if (s.trim()) out.push(s.trim());
  }
  return out;
}

function score(s: string, role: "assistant" | "user"): TextHit | undefined {
  // Questions, conditionals and list introductions ("The issue is:") state nothing yet.
  if (s.endsWith("?") || s.endsWith(":") || NOT_A_STATEMENT.test(s)) return undefined;
  const plain = s.replace(/`[^`]*`/g, "`code`"); // markers inside inline code do not count
  let best: TextHit | undefined;
  for (const r of RULES) {
    if (r.userOnly && role !== "user") continue;
    if (!r.re.test(plain)) continue;
    let c = REASON.test(plain) ? r.reasoned : r.base;
    if (r.marker === "decided" && WEAK_STEP.test(plain)) c = 0.3;
    if (HEDGE.test(plain)) c = Math.max(0.2, c - 0.15);
    if (!best || c > best.confidence) best = { type: r.type, text: s, confidence: c, marker: r.marker };
  }
  if (best && best.text.length > MAX_SENTENCE) best.text = `${best.text.slice(0, MAX_SENTENCE - 1)}…`;
  return best;
}

/** Keyword hits in `text`, in order; `role` "user" also enables preference markers. */
export function extractKeywords(text: string, role: "assistant" | "user" = "assistant"): TextHit[] {
  const out: TextHit[] = [];
  for (const s of sentences(text)) {
    const hit = score(s, role);
    if (hit) out.push(hit);
  }
  return out;
}
