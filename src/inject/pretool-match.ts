/**
 * The pre-tool check's rule: whether a tool call the model is about to make brings back what a
 * decision or a rejected approach ruled out. Precision first, since a warning on an ordinary edit
 * teaches the model to ignore mem:
 *
 * - only Edit, MultiEdit, Write and Bash are checked;
 * - the call must *add* one of the memory's distinctive terms (src/inject/pretool-terms.ts): an
 *   edit's new text holds it more often than the text it replaces (a Write: than the file now); a
 *   command holds it outside a read-only search (`grep HS256`, `git log -S…` look, they do not bring back);
 * - a line that adds the term while saying it is ruled out ("// never HS256", "instead of") does not count;
 * - test files and prose (markdown, text: a plan discusses options) are not checked;
 * - a memory anchored to files speaks only about those files (a command is checked against every memory).
 *
 * Pure.
 */
import { memoized } from "../util/memo.js";
import { norm, ruledOut, tokens, type RuledOut, type Term } from "./pretool-terms.js";

/** What each memory rules out, read once per text: the daemon checks the same memories call after call. */
const ruledOf = memoized((key: string) => ruledOut(key.slice(key.indexOf("\0") + 1), key.slice(0, key.indexOf("\0"))), 20_000);

export const CHECKED_TOOLS: ReadonlySet<string> = new Set(["Edit", "MultiEdit", "Write", "Bash"]);

/** A tool call as the check reads it. */
export interface ToolCall {
  tool: string;
  /** The file it writes (absolute), for an edit. */
  file?: string;
  /** What it adds: an edit's new text, a Write's content, a command. */
  added: string;
  /** What it replaces: an edit's old text, the file's content before a Write ("" unknown or new). */
  removed: string;
}

/** A decision or a rejected approach, as the check reads it. */
export interface CheckMemory {
  id: string;
  /** The project it belongs to (the session's, or the user's global memory). */
  project?: string;
  kind: string;
  text: string;
  /** ISO time it was made. */
  time: string;
  /** Absolute paths it is anchored to (none: it is about the project). */
  files: readonly string[];
  /** Its chunk id when it is no captured event: a team record's first chunk (the id shown for the record). */
  chunk?: string;
  /** What the warning says after what was ruled out, in place of a reason: what a record chose instead, and why. */
  instead?: string;
}

/**
 * Memories read once for many calls (the daemon keeps one a project while the store is
 * unchanged): what each rules out, and which memories each token a call holds could start a term of.
 */
export interface CheckSet {
  memories: readonly CheckMemory[];
  ruled: readonly (RuledOut | undefined)[];
  /** A term's first token, its `.js`-less form and a phrase's hyphenated form → the memories (by index, in order) with that term. */
  byKey: ReadonlyMap<string, readonly number[]>;
}

export interface PretoolHit {
  memory: CheckMemory;
  ruled: RuledOut;
  /** The term found, as its tokens. */
  term: Term;
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** The call from Claude Code's `tool_name` and `tool_input`; undefined for a tool the check leaves alone. `before`: a Write's file as it is now. */
export function toolCallOf(tool: string, input: Record<string, unknown>, before = ""): ToolCall | undefined {
  if (!CHECKED_TOOLS.has(tool)) return undefined;
  if (tool === "Bash") {
    const command = str(input.command);
    return command ? { tool, added: command, removed: "" } : undefined;
  }
  const file = str(input.file_path) || undefined;
  // A patch (Codex's apply_patch, as its adapter hands it on): its added lines against its removed ones.
  const patch = str(input.patch);
  if (patch && !str(input.new_string)) {
    const lines = patch.split("\n");
    const side = (c: string) => lines.filter((l) => l.startsWith(c) && !l.startsWith(`${c}${c}${c}`)).map((l) => l.slice(1)).join("\n");
    return { tool, ...(file ? { file } : {}), added: side("+"), removed: side("-") };
  }
  if (tool === "Write") return { tool, ...(file ? { file } : {}), added: str(input.content), removed: before };
  if (tool === "Edit") return { tool, ...(file ? { file } : {}), added: str(input.new_string), removed: str(input.old_string) };
  const edits = Array.isArray(input.edits) ? input.edits.filter((e): e is Record<string, unknown> => e !== null && typeof e === "object") : [];
  return { tool, ...(file ? { file } : {}), added: edits.map((e) => str(e.new_string)).join("\n"), removed: edits.map((e) => str(e.old_string)).join("\n") };
}

/** Prose: a plan or a note that names a rejected approach discusses it; it does not bring it back. */
const PROSE_FILE = /\.(?:md|mdx|markdown|txt|rst|adoc)$/i;
const TEST_FILE = /(?:^|[\\/])(?:tests?|__tests__|spec|specs|fixtures?)[\\/]|\.(?:test|spec)\.[A-Za-z]+$|_test\.(?:go|py)$|(?:^|[\\/])test_[^\\/]*\.py$/;

/** Words on a line that say what it names is ruled out, not brought back. */
const SAYS_RULED_OUT = /\b(?:not|never|don't|do not|no longer|instead of|rather than|rejected|decided against|ruled out|deprecated|avoid|removed?|was|legacy|forbid(?:den)?|disallow(?:ed)?|unsupported|ban(?:ned)?|formerly|previously|(?:migrated|moved|switched) (?:away )?from|replaced)\b|!==?\s*['"`]/i;

/** Commands that only look: a term in their arguments is searched for, not brought back. */
const READ_ONLY = new Set(["grep", "egrep", "rg", "ag", "ack", "find", "ls", "cat", "head", "tail", "less", "more", "wc", "echo", "printf", "which", "type", "man", "diff", "file", "stat"]);
const READ_ONLY_GIT = new Set(["grep", "log", "show", "diff", "blame", "status"]);
/** Package managers' subcommands that only look. */
const READ_ONLY_PM = new Set(["ls", "list", "why", "view", "info", "show", "outdated", "audit", "search"]);
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun", "pip", "pip3", "cargo", "gem"]);

/** How many times `term` occurs, in order, in `toks`. */
function count(toks: readonly string[], term: Term): number {
  let n = 0;
  for (let i = 0; i + term.length <= toks.length; i++) {
    let all = true;
    for (let j = 0; j < term.length && all; j++) all = same(toks[i + j]!, term[j]!);
    if (all) n++;
  }
  return n;
}

/**
 * One token against a term's: equal; a package name against its `.js` form (`moment` /
 * `moment.js`); a name as a part of a dotted or slashed one (`localStorage` in
 * `localStorage.setItem`, `redis` in `ioredis/redis`); a hyphenated phrase (`docker-compose`).
 */
function same(tok: string, want: string): boolean {
  if (tok === want) return true;
  const bare = (t: string) => t.replace(/\.js$/, "");
  if (bare(tok) === bare(want)) return true;
  return !/[.:/]/.test(want) && tok.split(/[.:/]/).includes(want);
}

/** How many times `term` occurs in `toks`: its tokens in a row, or (a phrase) joined by hyphens as one token. */
function occurrences(toks: readonly string[], term: Term): number {
  const joined = term.length > 1 ? term.join("-") : undefined;
  return count(toks, term) + (joined ? toks.filter((t) => t === joined).length : 0);
}

const lowTokens = (s: string) => tokens(s).map(norm);

/** A here-document's body: text fed to a command (a commit message, a file's content written by cat), not commands. */
const HEREDOC = /<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1[^\n]*\n[\s\S]*?\n\s*\2(?=\s|$|\))/g;

/** The segments of a command (split at `;`, `&&`, `||`, `|`, newlines) that may change something; a message (git commit, gh) is prose. */
function actingSegments(command: string): string[] {
  return command.replace(HEREDOC, " ").split(/\n|;|&&|\|\|?/).filter((seg) => {
    const words = seg.trim().replace(/^(?:sudo\s+|env\s+|[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, "").split(/\s+/);
    const [first, second] = [words[0] ?? "", words[1] ?? ""];
    const cmd = first.split("/").pop() ?? first;
    if (READ_ONLY.has(cmd)) return false;
    if (cmd === "git" && (READ_ONLY_GIT.has(second) || second === "commit" || second === "tag")) return false;
    if (cmd === "gh") return false; // issues, pull requests, releases: their titles and bodies are prose
    if (PACKAGE_MANAGERS.has(cmd) && READ_ONLY_PM.has(second)) return false;
    return seg.trim() !== "";
  });
}

/** A call read once for all the memories it is checked against: its tokens, by line or by acting segment. */
interface Prepared {
  /** Every token, and every part a term may match (`moment` of `moment.js`, `setItem` of `localStorage.setItem`): a quick "cannot match". */
  keys: Set<string>;
  added: string[];
  removed: string[];
  /** An edit's lines that do not say what they name is ruled out; a command's acting segments. */
  pieces: string[][];
}

function prepare(call: ToolCall, isCommand: boolean): Prepared {
  const added = lowTokens(call.added);
  const keys = new Set<string>();
  for (const t of added) {
    keys.add(t);
    keys.add(t.replace(/\.js$/, ""));
    for (const part of t.split(/[.:/]/)) keys.add(part);
  }
  const pieces = isCommand ? actingSegments(call.added).map(lowTokens) : call.added.split("\n").filter((line) => !SAYS_RULED_OUT.test(line)).map(lowTokens);
  return { keys, added, removed: isCommand ? [] : lowTokens(call.removed), pieces };
}

/** Whether the call brings `term` back: in an acting segment of a command; in an edit, more often added than replaced and on a line that does not rule it out. */
function brings(p: Prepared, term: Term, isCommand: boolean): boolean {
  const first = term[0]!;
  if (!p.keys.has(first) && !p.keys.has(first.replace(/\.js$/, "")) && !(term.length > 1 && p.keys.has(term.join("-")))) return false;
  if (!isCommand && occurrences(p.added, term) <= occurrences(p.removed, term)) return false;
  return p.pieces.some((toks) => occurrences(toks, term) > 0);
}

/** Whether the memory speaks about the call's file: it names none, or this one. */
function about(memory: CheckMemory, file: string | undefined): boolean {
  if (memory.files.length === 0) return true;
  if (!file) return false;
  const f = file.replace(/\\/g, "/");
  return memory.files.some((m) => {
    const p = m.replace(/\\/g, "/");
    return p === f || (!p.startsWith("/") && f.endsWith(`/${p.replace(/^\.\//, "")}`));
  });
}

/** The keys a term is found by: those `brings` looks for in a call before anything else. */
const termKeys = (term: Term): string[] => [term[0]!, term[0]!.replace(/\.js$/, ""), ...(term.length > 1 ? [term.join("-")] : [])];

/** What the memories rule out, read once, and the index of their terms' first tokens. */
export function checkSet(memories: readonly CheckMemory[]): CheckSet {
  const byKey = new Map<string, number[]>();
  const ruled = memories.map((memory, i) => {
    if (memory.kind !== "decision" && memory.kind !== "rejected") return undefined;
    const r = ruledOf(`${memory.kind}\0${memory.text}`);
    for (const key of new Set(r?.terms.flatMap(termKeys) ?? [])) {
      const at = byKey.get(key);
      if (at) at.push(i);
      else byKey.set(key, [i]);
    }
    return r;
  });
  return { memories, ruled, byKey };
}

/** The memories `call` brings back, each with the term found (a memory once, by its first term), in the memories' order. */
export function pretoolHits(call: ToolCall, memories: readonly CheckMemory[] | CheckSet): PretoolHit[] {
  if (!CHECKED_TOOLS.has(call.tool) || call.added.trim() === "") return [];
  const isCommand = call.tool === "Bash";
  if (!isCommand && call.file && (TEST_FILE.test(call.file) || PROSE_FILE.test(call.file))) return [];
  const set = "byKey" in memories ? memories : checkSet(memories);
  const p = prepare(call, isCommand);
  // Only the memories one of whose terms starts with a token the call holds can match.
  const candidates = new Set<number>();
  for (const key of p.keys) for (const i of set.byKey.get(key) ?? []) candidates.add(i);
  const out: PretoolHit[] = [];
  for (const i of [...candidates].sort((a, b) => a - b)) {
    const memory = set.memories[i]!;
    const ruled = set.ruled[i];
    if (!ruled || (!isCommand && !about(memory, call.file))) continue;
    const term = ruled.terms.find((t) => brings(p, t, isCommand));
    if (term) out.push({ memory, ruled, term });
  }
  return out;
}
