/**
 * Typed session events, one JSON object a line:
 *   {"type": "decision", "text": "...", "time": "2026-11-02T10:00:00Z", "session": "abc", "files": ["src/a.ts"], "id": "..."}
 * `summary` or `message` may stand for `text`; `ts`/`timestamp` for `time`; `session_id` for `session`;
 * `paths` for `files`. Each event becomes one chunk. Pure.
 */
export interface SessionEvent {
  id?: string;
  type: string;
  text: string;
  time?: string;
  session?: string;
  files: string[];
  line: number;
}

export interface ParsedEvents {
  events: SessionEvent[];
  skipped: { line: number; reason: string }[];
}

const MAX_EVENT_CHARS = 20_000;

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

export function parseEventLines(text: string): ParsedEvents {
  const events: SessionEvent[] = [];
  const skipped: ParsedEvents["skipped"] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === "") return;
    let o: unknown;
    try {
      o = JSON.parse(raw);
    } catch {
      skipped.push({ line, reason: "not JSON" });
      return;
    }
    if (o === null || typeof o !== "object" || Array.isArray(o)) {
      skipped.push({ line, reason: "not a JSON object" });
      return;
    }
    const r = o as Record<string, unknown>;
    const type = str(r.type);
    const body = str(r.text) ?? str(r.summary) ?? str(r.message);
    if (!type || !body) {
      skipped.push({ line, reason: "needs a string `type` and `text`" });
      return;
    }
    const time = str(r.time) ?? str(r.ts) ?? str(r.timestamp);
    const filesRaw = Array.isArray(r.files) ? r.files : Array.isArray(r.paths) ? r.paths : [];
    const ev: SessionEvent = {
      type: type.slice(0, 64),
      text: body.length > MAX_EVENT_CHARS ? `${body.slice(0, MAX_EVENT_CHARS)} …[truncated]` : body,
      files: filesRaw.filter((f): f is string => typeof f === "string").slice(0, 100),
      line,
    };
    const id = str(r.id);
    if (id) ev.id = id;
    if (time && !Number.isNaN(Date.parse(time))) ev.time = time;
    const session = str(r.session) ?? str(r.session_id);
    if (session) ev.session = session;
    events.push(ev);
  });
  return { events, skipped };
}

/** The text an event is indexed and embedded as. */
export function eventText(ev: Pick<SessionEvent, "type" | "text" | "files">): string {
  const files = ev.files.length > 0 ? `\nfiles: ${ev.files.join(", ")}` : "";
  return `${ev.type}: ${ev.text}${files}`;
}
