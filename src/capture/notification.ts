import { createHash } from "node:crypto";
import { clean, type Clean } from "../redact/clean.cjs";
import type { Db } from "../store/db.js";
import type { CapturedEvent } from "../store/event-types.js";
import { EventStore } from "../store/events.js";
import { payloadAssistant } from "./record.js";

/** A notification's message is kept up to this many characters. */
const MAX_MESSAGE = 500;

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * A Notification payload as an event (type `notification`): what Claude Code told the user
 * ("Claude needs your permission to use Bash", "Claude is waiting for your input") and its kind,
 * or undefined for a payload with neither. Its id is a hash of the session, the prompt, the kind,
 * the message and the minute: the daemon's write and the hook's own (after a daemon too slow to
 * answer) are one event. Pure.
 */
export function notificationEvent(payload: Record<string, unknown>, now: number): CapturedEvent | undefined {
  const kind = text(payload.notification_type).slice(0, 60);
  const message = text(payload.message).slice(0, MAX_MESSAGE);
  if (kind === "" && message === "") return undefined;
  const session = text(payload.session_id);
  const title = text(payload.title).slice(0, 200);
  const id = `notification:${createHash("sha256").update([session, text(payload.prompt_id), kind, message, String(Math.floor(now / 60_000))].join("\0")).digest("hex").slice(0, 24)}`;
  const assistant = payloadAssistant(payload);
  return {
    id,
    type: "notification",
    time: new Date(now).toISOString(),
    session,
    files: [],
    text: kind ? `${kind}: ${message}` : message,
    metadata: { notificationType: kind || null, ...(title ? { title } : {}), ...(assistant ? { assistant } : {}) },
  };
}

/** Stores a Notification (redacted, as every capture). Returns how many events were new (0 or 1). */
export function captureNotification(db: Db, project: Clean<string>, payload: Record<string, unknown>, now: number): number {
  const e = notificationEvent(payload, now);
  return e ? new EventStore(db).insert(project, clean([e]), () => now) : 0;
}
