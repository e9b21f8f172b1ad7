/**
 * The LoCoMo dev split (../shared/data/locomo-dev, see its README) and the off-topic prompts the
 * LoCoMo bench asks beside it: its questions, the metric (a turn is retrieved when its tag
 * `[conv-XX Ds:t]` is in the text), and which prompts of real Claude Code transcripts are
 * skip-worthy. Pure but for reading files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface LocomoQuestion {
  conv: string;
  qid: string;
  question: string;
  category: number;
  evidence: string[];
}

/** LoCoMo's category numbers. */
export const CATEGORIES: Record<number, string> = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial" };

export function locomoDir(): string | undefined {
  const dir = process.env.MEM_LOCOMO_DIR ?? join(process.cwd(), "..", "shared", "data", "locomo-dev");
  return existsSync(join(dir, "queries.jsonl")) ? dir : undefined;
}

/** The conversations (`conv-XX` folders) and the questions about them. */
export function loadLocomo(dir: string): { convs: string[]; questions: LocomoQuestion[] } {
  const convs = readdirSync(dir).filter((n) => /^conv-\d+$/.test(n) && statSync(join(dir, n)).isDirectory()).sort();
  const questions = readFileSync(join(dir, "queries.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LocomoQuestion)
    .filter((q) => convs.includes(q.conv) && q.evidence.length > 0);
  return { convs, questions };
}

const TAG = /\[(conv-\d+) (D\d+:\d+)\]/g;

/** The turn tags in a text: `conv-26 D1:3` → {conv, turn}. */
export function turnTags(text: string): { conv: string; turn: string }[] {
  return [...text.matchAll(TAG)].map((m) => ({ conv: m[1]!, turn: m[2]! }));
}

/** The share of the question's evidence turns whose tag appears in `text` (0 to 1). */
export function evidenceRecall(q: LocomoQuestion, text: string): number {
  const have = new Set(turnTags(text).filter((t) => t.conv === q.conv).map((t) => t.turn));
  return q.evidence.filter((e) => have.has(e)).length / q.evidence.length;
}

/** Tags of other conversations in a question's text: a leak between projects. */
export function leaks(q: LocomoQuestion, text: string): string[] {
  return turnTags(text)
    .filter((t) => t.conv !== q.conv)
    .map((t) => `${t.conv} ${t.turn}`);
}

/** SciFact's queries (claims about biomedicine): off-topic for a conversation between friends. */
export function scifactQueries(dir: string): string[] {
  const file = join(dir, "queries.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { text: string }).text);
}

export function transcriptsDir(): string | undefined {
  const dir = process.env.MEM_TRANSCRIPTS_DIR ?? join(process.cwd(), "..", "shared", "data", "transcripts");
  return existsSync(dir) ? dir : undefined;
}

/**
 * What a user typed in a Claude Code transcript, main sessions only: user entries with text
 * (not tool results), less what Claude Code writes without a prompt being submitted (the
 * summary that continues a compacted session, meta entries, "[Request interrupted by user]").
 * Subagent transcripts are left out: their prompts come from the parent model, not from a hook.
 */
export function transcriptPrompts(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory() && e.name !== "subagents") walk(p);
      else if (e.isFile() && e.name.endsWith(".jsonl")) out.push(...promptsOf(readFileSync(p, "utf8")));
    }
  };
  walk(dir);
  return out;
}

function promptsOf(jsonl: string): string[] {
  const out: string[] = [];
  for (const line of jsonl.split("\n")) {
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (e.type !== "user" || e.isMeta || e.isSidechain || e.isCompactSummary) continue;
    const c = (e.message as { content?: unknown } | undefined)?.content;
    const text = typeof c === "string" ? c : Array.isArray(c) ? c.filter((b): b is { type: "text"; text: string } => b?.type === "text" && typeof b.text === "string").map((b) => b.text).join("\n") : "";
    if (text.trim() === "" || text.startsWith("[Request interrupted by user")) continue;
    out.push(text);
  }
  return out;
}

/** Messages Claude Code itself puts in the user's turn (background task results, slash commands and their output, `!` shell mode). */
const CLAUDE_CODE = /^\s*(<(task-notification|command-name|command-message|command-args|local-command-stdout|local-command-stderr|bash-input|bash-stdout|bash-stderr|system-reminder)\b|\/[a-z])/i;
/** Words of a go-ahead: the prompt only says to go on, agree, greet or thank. */
const GO_AHEAD = new Set(
  ("yes yeah yep yup y ok okay k sure fine great good nice cool perfect alright right correct exactly thanks thank you ty thx " +
    "please pls continue go ahead proceed keep going on carry do it let let's lets us that this now then sounds looks hi hello hey and so done")
    .split(" "),
);

export type PromptClass = "claude-code" | "go-ahead" | "task";

/**
 * Which real prompts are skip-worthy (no memory can help them): a message Claude Code wrote
 * itself, or a go-ahead (every word from the go-ahead list above, or a lone option such as "1",
 * "C)", "A"). The rest are tasks and questions about a code base. Defined apart from the
 * hook's own filter (src/inject/prompt-filter.cts), so the filter is measured, not restated.
 */
export function classifyPrompt(p: string): PromptClass {
  if (CLAUDE_CODE.test(p)) return "claude-code";
  const words = p.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  if (words.length === 0) return "go-ahead";
  if (words.length === 1 && words[0]!.length <= 2) return "go-ahead";
  return words.every((w) => GO_AHEAD.has(w)) ? "go-ahead" : "task";
}
