/**
 * Convergence (Katra): an explicit memory and an automatic capture that describe the same thing.
 * When the model says "[MEMORY: learned] Fixed the authentication bug in the login flow" and the
 * session edited src/auth.c a few minutes before or after, the two are one piece of knowledge seen
 * twice: they are linked ('convergent') and both reinforced (src/capture/converge-step.ts).
 *
 * The rule: an explicit memory (a `[MEMORY: …]` tag or `mem remember`) converges with a
 * `file_modified` capture of the same session within the window (default 10 minutes either way)
 * when the memory names the edited file (in its files, or its path or file name in its text), or
 * when a component of the edited path relative to the project root, of at least 3 letters and not
 * a generic name (src, lib, index, main, test, utils, app, …), is a prefix of a word of the
 * memory's text, or a word of at least 4 letters (not a stop word) is a prefix of the component
 * ("auth" in src/auth.c ↔ "authentication"). Shared keywords are not enough: commands run, files
 * read, edits in another session or outside the window never converge. The session must match
 * because the window is about one line of work: two sessions editing at once are two stories.
 *
 * A vector similarity hook (`similarity`) is left for when a model is at hand at capture time
 * (none runs in a hook): a pair not matched by path or stem converges when it returns at least
 * `similarityThreshold`. Pure; the clock comes in as `now` (the time of events that have none).
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { CapturedEvent } from "../store/event-types.js";

export const DEFAULT_CONVERGE_WINDOW_MS = 10 * 60_000;
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;

/** Where an explicit memory comes from (`metadata.source`). */
export const EXPLICIT_SOURCES: ReadonlySet<string> = new Set(["tag", "explicit"]);

/** Path components too common to say what a memory is about. */
export const GENERIC_NAMES: ReadonlySet<string> = new Set(
  "src lib libs index main test tests spec specs utils util app apps source sources include includes pkg packages cmd bin internal core common shared docs doc scripts script build dist public assets components component helpers helper fixtures mocks module modules types config configs tmp temp vendor node file files new old misc".split(" "),
);

/** Words that are not about anything (for the word-is-a-prefix direction). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  "the and for with that this from into when then than were have has had not but all any our its now use used using also only more some fix fixed fixes fixing added adds make made makes change changed changes update updated there their they them what which while will would should could about after before again each other over under same such very just like here".split(" "),
);

export function isExplicit(e: Pick<CapturedEvent, "metadata">): boolean {
  const s = e.metadata?.source;
  return typeof s === "string" && EXPLICIT_SOURCES.has(s);
}

/** An event's time in ms, or `now` when it has none (or an unreadable one). */
export function eventTime(e: Pick<CapturedEvent, "time">, now: number): number {
  const t = e.time ? Date.parse(e.time) : Number.NaN;
  return Number.isFinite(t) ? t : now;
}

export interface ConvergeOptions {
  windowMs: number;
  /** The project root: relative paths resolve against it, and stems come from paths under it. */
  root?: string;
  /** The time of events without one. */
  now: number;
  /** Cosine similarity of two memories when a model is at hand; undefined: no model. */
  similarity?: (explicit: CapturedEvent, capture: CapturedEvent) => number | undefined;
  similarityThreshold?: number;
}

export interface Convergence {
  /** The explicit memory's event id. */
  explicit: string;
  /** The capture's event id. */
  capture: string;
  why: "path" | "stem" | "similar";
  /** e.g. "src/auth.c", "auth ~ authentication". */
  detail: string;
}

const abs = (p: string, root: string | undefined) => (isAbsolute(p) ? resolve(p) : root ? resolve(root, p) : p);

/** The path relative to the root when under it, else its last two components. Pure. */
function underRoot(path: string, root: string | undefined): string[] {
  const parts = (p: string) => p.split(/[\\/]+/).filter((x) => x !== "" && x !== "." && x !== "..");
  if (root && isAbsolute(path)) {
    const rel = relative(root, path);
    if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) return parts(rel);
  }
  return parts(path).slice(-2);
}

/** The meaningful stems of a path's components: lowercase, ≥ 3 letters, not generic. Pure. */
export function pathStems(path: string, root?: string): string[] {
  const comps = underRoot(path, root);
  const out = new Set<string>();
  comps.forEach((c, i) => {
    const name = i === comps.length - 1 ? c.replace(/\.[^.]*$/, "") : c; // the file's extension off
    for (const w of name.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])/)) {
      const s = w.toLowerCase();
      if (s.length >= 3 && /^[a-z]/.test(s) && !GENERIC_NAMES.has(s)) out.add(s);
    }
  });
  return [...out];
}

/** The words of a text that may name a subject: lowercase letters and digits, ≥ 3 long. Pure. */
export function textWords(text: string): string[] {
  return [...new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && /^[a-z]/.test(w)))];
}

/** A stem and a word that say the same subject: one a prefix of the other. Pure. */
export function stemMatches(stem: string, word: string): boolean {
  if (STOP_WORDS.has(word) || STOP_WORDS.has(stem)) return false;
  if (word.startsWith(stem)) return true;
  return word.length >= 4 && !GENERIC_NAMES.has(word) && stem.startsWith(word);
}

/** Does the memory name the file: the same path in its files, or the path (relative) or file name as a word of its text? */
function names(explicit: CapturedEvent, file: string, root: string | undefined): string | undefined {
  const target = abs(file, root);
  if (explicit.files.some((f) => abs(f, root) === target)) return underRoot(target, root).join("/");
  const rel = underRoot(target, root);
  const base = rel[rel.length - 1];
  for (const name of [rel.join("/"), base]) {
    if (!name || (name === base && !name.includes("."))) continue; // a bare name without extension is a stem, not a path
    const esc = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (new RegExp(`(^|[^\\w./-])${esc}($|[^\\w/-]|\\.(?!\\w))`).test(explicit.text)) return name;
  }
  return undefined;
}

/** Whether an explicit memory and a capture converge, and why. Pure. */
export function converges(explicit: CapturedEvent, capture: CapturedEvent, opts: ConvergeOptions): Omit<Convergence, "explicit" | "capture"> | undefined {
  if (!isExplicit(explicit) || isExplicit(capture) || capture.type !== "file_modified") return undefined;
  if (explicit.session === "" || explicit.session !== capture.session) return undefined;
  if (Math.abs(eventTime(explicit, opts.now) - eventTime(capture, opts.now)) > opts.windowMs) return undefined;
  for (const f of capture.files) {
    const named = names(explicit, f, opts.root);
    if (named) return { why: "path", detail: named };
  }
  const words = textWords(explicit.text);
  for (const f of capture.files) {
    for (const s of pathStems(abs(f, opts.root), opts.root)) {
      const w = words.find((x) => stemMatches(s, x));
      if (w) return { why: "stem", detail: `${s} ~ ${w}` };
    }
  }
  const sim = opts.similarity?.(explicit, capture);
  if (sim !== undefined && sim >= (opts.similarityThreshold ?? DEFAULT_SIMILARITY_THRESHOLD)) return { why: "similar", detail: sim.toFixed(2) };
  return undefined;
}

/**
 * Every convergent pair among `fresh` (this capture's events) and `stored` (events already kept
 * from around the same time), with at least one side fresh. Pure.
 */
export function convergentPairs(fresh: readonly CapturedEvent[], stored: readonly CapturedEvent[], opts: ConvergeOptions): Convergence[] {
  const freshIds = new Set(fresh.map((e) => e.id));
  const all = new Map<string, CapturedEvent>();
  for (const e of [...stored, ...fresh]) all.set(e.id, e);
  const events = [...all.values()];
  const explicit = events.filter(isExplicit);
  const captures = events.filter((e) => e.type === "file_modified" && !isExplicit(e));
  const out: Convergence[] = [];
  for (const x of explicit) {
    for (const c of captures) {
      if (!freshIds.has(x.id) && !freshIds.has(c.id)) continue;
      const m = converges(x, c, opts);
      if (m) out.push({ explicit: x.id, capture: c.id, ...m });
    }
  }
  return out;
}
