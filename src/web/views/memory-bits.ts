/**
 * Pieces the memory views share: a memory as one item of a list (its one id linked, kind, age,
 * source, session, salience, the outdated flag, a short text), a session's link, the project an
 * address or a form names, and the checks of the parameters every view takes alike.
 */
import { idOf } from "../../service/convert.js";
import { MemoryError } from "../../util/memory-error.js";
import type { Memory } from "../../service/types.js";
import type { Project } from "../../project/identity.js";
import { projectOf, type UiContext } from "../context.js";
import { html, type Html } from "../html.js";
import { href, type UiRequest } from "../request.js";
import { age, idLink } from "../show.js";
import { recordParts } from "../../store/records.js";
import { assistantLabel } from "../../contract/adapter.cjs";
import { shortSession } from "./run-parts.js";

/** The explorer's page size: rows a listing shows at once. */
export const PAGE = 50;

/** At most `max` characters of a text, "…" when cut (the page escapes it; nothing else is changed). */
export function short(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max).trimEnd()}…`;
}

/** A form's text as typed: a browser sends a textarea's line ends as CRLF. */
export const typedText = (v: string | null): string => (v ?? "").replace(/\r\n?/g, "\n");

/** The `project` an address (or a POST's form, which carries it) names; undefined for the one `mem ui` serves. */
export function projectParam(req: UiRequest): string | undefined {
  const p = (req.form.get("project") ?? req.query.get("project") ?? "").trim();
  return p === "" ? undefined : p;
}

/** The project a page shows: the one its address or form names, else the one `mem ui` serves. */
export function shownProject(ctx: UiContext, req: UiRequest): Project {
  const p = projectParam(req);
  return p === undefined ? ctx.home : projectOf(ctx, new URLSearchParams({ project: p }));
}

/** `offset`, a whole number (0 when absent); anything else is a clear error. */
export function offsetOf(q: URLSearchParams): number {
  const v = (q.get("offset") ?? "").trim();
  if (v === "") return 0;
  if (!/^\d{1,9}$/.test(v)) throw new MemoryError("bad_argument", "offset must be a whole number");
  return Number(v);
}

/** A session's id, linked to its timeline. */
export function sessionLink(base: string, session: string, project: string | undefined): Html {
  return html`<a class="session" href="${href(base, "/session", { id: session, project })}" title="${session}">session ${shortSession(session)}</a>`;
}

/**
 * `<span class="assistant">Codex</span>` for a memory or session of another assistant than Claude
 * Code; nothing for Claude Code's (and unknown) ones. The label is mem's own (src/contract/adapter.cts), never a stored string.
 */
export function assistantBadge(assistant: unknown): Html {
  const label = assistantLabel(assistant);
  return label ? html`<span class="assistant" title="captured in a ${label} session">${label}</span>` : html``;
}

/** A memory as one item of a list. */
export function memoryItem(base: string, m: Memory, now: number, project: string | undefined): Html {
  const id = idOf(m);
  const where =
    m.source === "markdown"
      ? html`<a href="${href(base, "/source", { path: m.path, project })}">${m.path}:${m.startLine}-${m.endLine}</a>${m.record ? html`<span class="record">record: ${recordParts(m.record).join(", ") || "no status"}</span>` : ""}`
      : html`${m.session ? sessionLink(base, m.session, project) : html`<span>no session</span>`}${assistantBadge(m.assistant)}${m.salience !== undefined ? html`<span>salience ${m.salience.toFixed(2)}</span>` : ""}`;
  return html`<li class="item" data-id="${id}">
<div class="meta">${idLink(base, id, project)}<span class="badge">${m.kind}</span>${age(m.createdAt, now)}<span>${m.source}</span>${where}${m.stale ? html`<span class="warn stale" title="${m.stale}">stale</span>` : ""}</div>
<p class="text">${short(m.text)}</p>
</li>`;
}
