/**
 * Sessions: `/sessions` lists a project's sessions (the most recently active first, paged) with
 * what each holds; `/session?id=S` is one session's timeline in time order: the briefing it got,
 * its prompts with what was put before each (linked to the prompt run), its tool events,
 * decisions and other captured memories. A session of another project is not found unless the
 * address names that project.
 */
import { sessionIn } from "../../service/session-id.js";
import { eventChunkId } from "../../store/chunk-ids.js";
import { sessionKnown, sessionsPage, sessionTimeline, type TimelineItem } from "../../store/session-pages.js";
import { MemoryError } from "../../util/memory-error.js";
import { projectOf, type UiContext } from "../context.js";
import { html, type Html } from "../html.js";
import { page, pager } from "../layout.js";
import { href, type Route, type UiRequest } from "../request.js";
import { promptOneId } from "../../store/prompt-log.js";
import { idLink } from "../show.js";
import { EventStore } from "../../store/events.js";
import { assistantBadge } from "./memory-bits.js";
import { at, latency, offsetOf, PAGE, short } from "./run-parts.js";

/** Timeline rows a page (a long session has thousands of tool events). */
const TIMELINE_PAGE = 200;
/** Captured memories (linked to their page); other events are the tools' traces. */
const MEMORY_KINDS = new Set(["decision", "rejected", "learned", "preference", "task"]);

function list(ctx: UiContext, req: UiRequest): Html {
  const project = projectOf(ctx, req.query);
  const projectParam = req.query.get("project") || undefined;
  const offset = offsetOf(req.query);
  const { total, sessions } = sessionsPage(ctx.app.db, project.id, PAGE, offset);
  const now = ctx.now();
  const items = sessions.map(
    (s) => html`<li class="item" data-session="${s.session}">
<a class="id" href="${href(req.base, "/session", { id: s.session, project: projectParam })}">${s.session || "(no id)"}</a>
<div class="meta"><span>started ${at(s.startedAt, now)}</span><span>${s.endedAt !== null ? html`ended ${at(s.endedAt, now)}${s.endReason ? ` (${s.endReason})` : ""}` : html`last active ${at(s.updatedAt, now)}`}</span><span>${s.prompts} prompt${s.prompts === 1 ? "" : "s"}</span><span>${s.events} event${s.events === 1 ? "" : "s"}</span><span>${s.decisions} decision${s.decisions === 1 ? "" : "s"}</span>${assistantBadge(s.assistant)}</div>
</li>`,
  );
  const body = html`<h1>Sessions</h1>
<p class="note">The sessions of <code>${project.id}</code>, the most recently active first.</p>
${sessions.length === 0 ? html`<p class="notice">No session recorded yet.</p>` : html`<ul class="items">${items}</ul>`}
${pager(req.base, "/sessions", { project: projectParam }, total, offset, PAGE)}`;
  return page({ base: req.base, title: "Sessions", active: "/sessions", project: project.id, projectParam, body });
}

function files(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((f): f is string => typeof f === "string").slice(0, 5) : [];
  } catch {
    return [];
  }
}

function moment(ctx: UiContext, base: string, project: string, projectParam: string | undefined, it: TimelineItem): Html {
  const now = ctx.now();
  if (it.kind === "run") {
    const link = href(base, "/prompt", { id: promptOneId(it.run), project: projectParam });
    const told = it.injected ? html`<details><summary>${it.hook === "briefing" ? "the briefing" : it.hook === "pretool" ? "the pre-tool warning" : `${it.items} memor${it.items === 1 ? "y" : "ies"} put before it`} (${it.injected.length.toLocaleString("en")} characters)</summary><pre>${it.injected}</pre></details>` : html`<p class="note">${it.hook === "briefing" ? "an empty briefing" : "nothing put before it"}</p>`;
    return html`<li class="item" data-type="${it.hook}" data-run="${promptOneId(it.run)}">
<div class="meta"><span>${at(it.at, now)}</span><span class="badge">${it.hook}</span><span>${latency(it.ms)}</span><a href="${link}">why →</a></div>
${it.hook === "briefing" ? html`<p class="text">session ${it.prompt}</p>` : html`<p class="text">${short(it.prompt, 600)}</p>`}
${told}
</li>`;
  }
  const memory = MEMORY_KINDS.has(it.type);
  const touched = files(it.files);
  return html`<li class="item" data-type="${it.type}">
<div class="meta"><span>${at(it.at, now)}</span><span class="badge">${it.type.replace(/_/g, " ")}</span>${memory ? idLink(base, eventChunkId(project, it.id), projectParam) : ""}${touched.map((f) => html`<code>${f}</code>`)}</div>
<p class="text">${short(it.text, memory ? 2_000 : 300)}</p>
</li>`;
}

function one(ctx: UiContext, req: UiRequest): Html {
  const project = projectOf(ctx, req.query);
  const projectParam = req.query.get("project") || undefined;
  // No id: the runs and events recorded without a session id (links leave an empty id out).
  const typed = req.query.get("id") ?? "";
  if (typed.length > 300) throw new MemoryError("bad_argument", "id must be a session's id");
  // The whole id, the short form every page shows, or a unique start (src/render/session-id.ts).
  const id = typed === "" || sessionKnown(ctx.app.db, project.id, typed) ? typed : sessionIn(ctx.app.db, project.id, typed);
  if (!sessionKnown(ctx.app.db, project.id, id)) throw new MemoryError("not_found", `no session ${id || "without an id"} in ${project.id}`);
  const offset = offsetOf(req.query);
  const { total, items } = sessionTimeline(ctx.app.db, project.id, id, TIMELINE_PAGE, offset);
  const assistant = new EventStore(ctx.app.db).sessionAssistants(project.id, [id]).get(id);
  const body = html`<h1>Session <span class="id">${id || "(no id)"}</span>${assistant ? html` ${assistantBadge(assistant)}` : ""}</h1>
<p class="note">What happened in this session, in time order: the briefing it got, its prompts and what was put before each, its tool events and the memories it captured.</p>
${items.length === 0 ? html`<p class="notice">Nothing recorded for this session.</p>` : html`<ol class="timeline">${items.map((it) => moment(ctx, req.base, project.id, projectParam, it))}</ol>`}
${pager(req.base, "/session", { id, project: projectParam }, total, offset, TIMELINE_PAGE)}`;
  return page({ base: req.base, title: `Session ${short(id, 20)}`, active: "/sessions", project: project.id, projectParam, body });
}

export const sessionsRoute: Route = { get: list };
export const sessionRoute: Route = { get: one };
