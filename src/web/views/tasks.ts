/**
 * Tasks: the project's open tasks across sessions, newest first, 50 a page, each with Done (the
 * store call `mem task done` makes), and with `?closed=1` the last ones closed. `/task/done` closes one task of the
 * project the page shows, and goes back where it was asked from (the task list or the memory).
 */
import { isStale } from "../../brief/sections/tasks.js";
import type { CleanFields } from "../../redact/clean.cjs";
import { MemoryError } from "../../util/memory-error.js";
import { resolveTask, taskOneId } from "../../store/task-ids.js";
import { blockedReasonOf } from "../../tasks/state.js";
import { openTasksPage, recentlyClosed } from "../../store/task-pages.js";
import { TaskStore, type TaskRow } from "../../store/tasks.js";
import type { UiContext } from "../context.js";
import { html, type Html } from "../html.js";
import { page, pager } from "../layout.js";
import { href, type Answer, type Route, type UiRequest } from "../request.js";
import { age } from "../show.js";
import { assistantBadge, offsetOf, PAGE, projectParam, sessionLink, shownProject } from "./memory-bits.js";
import { EventStore } from "../../store/events.js";

/** How many recently closed tasks the page shows below the open ones. */
const CLOSED_SHOWN = 10;

/** A blocked task's reason, under its text. */
function blocked(t: CleanFields<TaskRow>): Html | "" {
  const reason = blockedReasonOf(t);
  return reason === null ? "" : html`<p class="warn blocked">Blocked: ${reason === "" ? "no reason given" : reason}</p>`;
}

function view(ctx: UiContext, req: UiRequest): Html {
  const project = shownProject(ctx, req);
  const param = projectParam(req);
  const offset = offsetOf(req.query);
  const now = ctx.now();
  const days = ctx.app.config.brief.staleTaskDays;
  const { total, tasks } = openTasksPage(ctx.app.db, project.id, PAGE, offset);
  const withClosed = req.query.get("closed") === "1";
  const closed = withClosed ? recentlyClosed(ctx.app.db, project.id, CLOSED_SHOWN) : [];
  const done = (req.query.get("done") ?? "").replace(/[^0-9a-f]/g, "").slice(0, 12);
  // The assistant each creating session ran in (one indexed row a session shown).
  const made = new EventStore(ctx.app.db).sessionAssistants(project.id, [...tasks, ...closed].flatMap((t) => (t.createdSession ? [t.createdSession] : [])));
  const item = (t: CleanFields<TaskRow>) => html`<li class="item" data-task="${taskOneId(t.id)}" data-status="${t.status}">
<div class="meta"><span class="id">${taskOneId(t.id)}</span><span class="badge">${t.status}</span><span>created ${age(new Date(t.createdAt).toISOString(), now)}</span>${t.createdSession ? html`${sessionLink(req.base, t.createdSession, param)}${assistantBadge(made.get(t.createdSession))}` : html`<span>${t.source === "cli" ? "added by hand" : t.source}</span>`}${t.closedAt !== null ? html`<span>closed ${age(new Date(t.closedAt).toISOString(), now)}</span>` : isStale(t, now, days) ? html`<span class="warn">stale: untouched for ${days} days or more</span>` : ""}</div>
<p class="text">${t.content}</p>
${blocked(t)}${t.closedAt === null ? html`<form class="done" method="post" action="${req.base}/task/done"><input type="hidden" name="id" value="${taskOneId(t.id)}">${param ? html`<input type="hidden" name="project" value="${param}">` : ""}<button type="submit">Done</button></form>` : ""}
</li>`;
  const body = html`<h1>Tasks</h1>
${done ? html`<p class="notice ok">Task ${done} is done.</p>` : ""}
<p class="meta"><span>${total.toLocaleString("en")} open task${total === 1 ? "" : "s"}</span><span>a task stays open until a session completes or deletes it, or it is marked done here (<code>mem task done</code>)</span></p>
${tasks.length === 0 ? html`<p class="notice">No open tasks${total > 0 ? " on this page" : ""}.</p>` : html`<ul class="items">${tasks.map(item)}</ul>`}
${pager(req.base, "/tasks", { closed: withClosed ? "1" : undefined, project: param }, total, offset, PAGE)}
${withClosed ? html`<h2>Recently closed</h2>${closed.length ? html`<ul class="items closed">${closed.map(item)}</ul>` : html`<p class="note">None.</p>`}` : html`<p class="note"><a href="${href(req.base, "/tasks", { closed: 1, project: param })}">Show the last ${CLOSED_SHOWN} closed</a></p>`}`;
  return page({ base: req.base, title: "Tasks", active: "/tasks", project: project.id, projectParam: param, body });
}

function done(ctx: UiContext, req: UiRequest): Answer {
  const given = (req.form.get("id") ?? "").trim();
  if (given === "") throw new MemoryError("bad_argument", "which task: its id");
  const project = shownProject(ctx, req);
  const t = resolveTask(ctx.app.db, given, project.id); // another project's task is answered as a missing one
  const id = taskOneId(t.id);
  new TaskStore(ctx.app.db).close(t.id, "completed", ctx.now());
  const memory = (req.form.get("memory") ?? "").trim().slice(0, 200);
  const param = projectParam(req);
  return { redirect: memory ? href("", "/memory", { id: memory, done: 1, project: param }) : href("", "/tasks", { done: id, project: param }) };
}

export const tasksRoute: Route = { get: view };
export const taskDoneRoute: Route = { post: done };
