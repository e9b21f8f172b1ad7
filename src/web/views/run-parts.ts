/** Pieces the prompt and session views share: the page offset, a time in ms, a latency, a short text. */
import { shortSession as lineSession } from "../../render/line.js";
import { MemoryError } from "../../util/memory-error.js";
import { html, type Html } from "../html.js";
import { age } from "../show.js";

export const PAGE = 50;

/** `?offset=`: a whole number of rows from the start (a bad one is a clear error). */
export function offsetOf(q: URLSearchParams): number {
  const raw = (q.get("offset") ?? "").trim();
  if (raw === "") return 0;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n)) throw new MemoryError("bad_argument", "offset must be a whole number");
  return n;
}

/** A required id parameter (a prompt run's: its one id, a start of it, or its older number). */
export function idOf(q: URLSearchParams): string {
  const raw = (q.get("id") ?? "").trim();
  if (!/^#?[0-9a-fA-F]{1,40}$/.test(raw)) throw new MemoryError("bad_argument", "id must be a prompt run's id");
  return raw;
}

/** A time in ms since the epoch, as "3 minutes ago" with the time on hover. */
export function at(ms: number | null | undefined, now: number): Html {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return html`<span>unknown time</span>`;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? html`<span>unknown time</span>` : age(d.toISOString(), now);
}

/** A latency in ms. */
export const latency = (ms: number | null): string => (ms === null ? "–" : `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`);

/** A text on one line, cut to `max` characters. */
export function short(text: string, max: number): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A session id as shown (src/render/line.ts; the whole id on hover is in the link's title). */
export const shortSession = (id: string): string => (id === "" ? "(none)" : lineSession(id));
