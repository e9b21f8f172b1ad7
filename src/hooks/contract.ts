/**
 * The Claude Code hook contract (see HOOKS.md): one JSON object on stdin; exit 0 always; context
 * only inside `hookSpecificOutput.additionalContext`, only for the events that accept it; capture
 * events print nothing. Pure helpers plus a bounded stdin reader.
 */
export const HOOK_EVENTS = {
  "session-start": "SessionStart",
  "user-prompt-submit": "UserPromptSubmit",
  "post-tool-use": "PostToolUse",
  "post-tool-use-failure": "PostToolUseFailure",
  stop: "Stop",
  "subagent-stop": "SubagentStop",
  "pre-compact": "PreCompact",
  "session-end": "SessionEnd",
} as const;

export type HookName = keyof typeof HOOK_EVENTS;
export type HookEventName = (typeof HOOK_EVENTS)[HookName];

/** Events whose hook may add context for the model. Stop/SubagentStop never do: it makes Claude continue. */
const CONTEXT_EVENTS = new Set<HookEventName>(["SessionStart", "UserPromptSubmit"]);

/** Hook output strings above 10,000 characters are moved to a file by Claude Code; stay well below. */
export const MAX_CONTEXT_CHARS = 9_000;

/** Internal deadlines, below the timeouts the installer registers. */
export const DEADLINE_MS: Record<HookName, number> = {
  "session-start": 5_000,
  "user-prompt-submit": 1_500,
  "post-tool-use": 10_000,
  "post-tool-use-failure": 10_000,
  stop: 5_000,
  "subagent-stop": 5_000,
  "pre-compact": 5_000,
  "session-end": 1_200,
};

export function isHookName(s: string): s is HookName {
  return Object.hasOwn(HOOK_EVENTS, s);
}

export type Payload = Record<string, unknown>;

/** Parses stdin as one JSON object; anything else (empty, truncated, binary, an array) is undefined. */
export function parsePayload(text: string): Payload | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const v = JSON.parse(trimmed) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Payload) : undefined;
  } catch {
    return undefined;
  }
}

export function str(p: Payload, key: string): string | undefined {
  const v = p[key];
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** The only output shape that delivers context; undefined when the event must stay silent. */
export function contextOutput(event: HookEventName, text: string | undefined): string | undefined {
  if (!text || !CONTEXT_EVENTS.has(event)) return undefined;
  const body = text.length > MAX_CONTEXT_CHARS ? `${text.slice(0, MAX_CONTEXT_CHARS - 1)}…` : text;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: body } });
}

export type StdinResult = { text: string; truncated: boolean; timedOut: boolean };

/**
 * Reads stdin until EOF, `maxBytes` or `deadlineMs`, whichever comes first. Never rejects.
 * Past `maxBytes` the rest is drained and dropped so the writer never blocks on a full pipe.
 */
export function readStdin(stream: NodeJS.ReadableStream, maxBytes: number, deadlineMs: number): Promise<StdinResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.removeAllListeners("data");
      resolve({ text: Buffer.concat(chunks).toString("utf8"), truncated, timedOut });
    };
    const timer = setTimeout(() => finish(true), deadlineMs);
    timer.unref();
    stream.on("data", (chunk: Buffer | string) => {
      const b = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      if (size + b.length > maxBytes) {
        truncated = true;
        const room = maxBytes - size;
        if (room > 0) chunks.push(b.subarray(0, room));
        size = maxBytes;
        return;
      }
      chunks.push(b);
      size += b.length;
    });
    stream.once("end", () => finish(false));
    stream.once("error", () => finish(false));
  });
}

/** Resolves to the promise's value, or to undefined once `ms` have passed (the timer never holds the process). */
export function withDeadline<T>(p: Promise<T>, ms: number, onTimeout?: () => void): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      onTimeout?.();
      resolve(undefined);
    }, Math.max(0, ms));
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
