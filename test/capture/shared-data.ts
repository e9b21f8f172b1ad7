/**
 * Locates the read-only `../shared` data next to the repository. A user's clone has no such
 * directory: tests that need it pass `{ skip: SKIP }` and are reported as skipped.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseTranscriptLines } from "../../src/capture/transcript.js";
import type { TranscriptLine } from "../../src/store/event-types.js";

/** dist/test/capture/ → repository root. */
export const REPO = fileURLToPath(new URL("../../../", import.meta.url));
export const SHARED = join(REPO, "..", "shared");
export const TRANSCRIPTS = join(SHARED, "data", "transcripts");
export const SPOTTER = join(TRANSCRIPTS, "marot-spotter");
export const WITH_TASKS = join(TRANSCRIPTS, "with-tasks");
export const PAYLOADS = join(SHARED, "data", "hook-payloads");

/** Reason to skip, or false when the shared transcripts are present. */
export const SKIP: string | false = existsSync(SPOTTER) && existsSync(WITH_TASKS) ? false : `no shared data at ${SHARED}`;

const jsonl = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().map((f) => join(dir, f)) : [];

/** Every marot-spotter main file with its subagent files (a session may have only subagents). */
export function spotterSessions(): { name: string; main?: string; subagents: string[] }[] {
  if (SKIP) return [];
  const names = new Set<string>();
  for (const f of readdirSync(SPOTTER)) names.add(f.replace(/\.jsonl$/, ""));
  return [...names]
    .filter((n) => (existsSync(join(SPOTTER, `${n}.jsonl`)) || existsSync(join(SPOTTER, n, "subagents"))))
    .sort()
    .map((n) => ({
      name: n,
      main: existsSync(join(SPOTTER, `${n}.jsonl`)) ? join(SPOTTER, `${n}.jsonl`) : undefined,
      subagents: jsonl(join(SPOTTER, n, "subagents")),
    }));
}

/** with-tasks sessions: transcript path and parsed expected file. */
export function taskSessions(): { name: string; path: string; expected: Expected }[] {
  if (SKIP) return [];
  return readdirSync(WITH_TASKS)
    .filter((d) => !d.includes("."))
    .flatMap((d) => jsonl(join(WITH_TASKS, d)))
    .map((path) => ({
      name: path.slice(WITH_TASKS.length + 1),
      path,
      expected: JSON.parse(readFileSync(path.replace(/\.jsonl$/, ".expected.json"), "utf8")) as Expected,
    }));
}

export interface ExpectedTodo {
  id?: string;
  content: string;
  status: string;
  activeForm?: string;
}
export interface Expected {
  mechanism: "TodoWrite" | "TaskCreate/TaskUpdate";
  todos: ExpectedTodo[];
  task_event_log?: { line: number; tool: string; id: string; status?: string | null; by: string }[];
  tasklist_checks?: { line: number }[];
}

const cache = new Map<string, TranscriptLine[]>();
/** Parsed lines of a file (cached: the big transcripts are read by several tests). */
export function load(path: string): TranscriptLine[] {
  let lines = cache.get(path);
  if (!lines) cache.set(path, (lines = parseTranscriptLines(readFileSync(path, "utf8")).lines));
  return lines;
}
