/**
 * One memory, as `mem get --history` shows it: its text, kind, tags, files, where it comes from
 * (the statements it stands for, the session, the markdown file and lines), salience, whether the
 * files it names changed since, and its earlier versions; with the forms that correct it: edit
 * (text, kind, tags), forget, and for an open task, done. A markdown memory is edited in its file.
 */
import { idOf } from "../../service/convert.js";
import { EXPLICIT_KINDS, type Memory } from "../../service/types.js";
import { MemoryError } from "../../util/memory-error.js";
import { taskOneId } from "../../store/task-ids.js";
import { taskOfMemory } from "../../store/task-pages.js";
import type { UiContext } from "../context.js";
import { html, type Html } from "../html.js";
import { page } from "../layout.js";
import { href, type Route, type UiRequest } from "../request.js";
import { serviceFor } from "../scope.js";
import { age, idLink } from "../show.js";
import { recordParts } from "../../store/records.js";
import { assistantBadge, projectParam, sessionLink, shownProject } from "./memory-bits.js";

/** What the edit form holds when it comes back with an error: what was typed, kept. */
export interface Typed {
  text: string;
  kind: string;
  tags: string;
}

const NOTICES: Record<string, string> = { saved: "Saved.", unchanged: "Nothing changed.", added: "Added.", confirmed: "The same statement was already stored: this memory is confirmed (a statement more among its sources).", done: "The task is marked done." };

function view(ctx: UiContext, req: UiRequest): Html {
  const id = req.query.get("id") ?? "";
  if (id.trim() === "") throw new MemoryError("bad_argument", "which memory: /memory?id=ID");
  return memoryPage(ctx, req, id);
}

/** The memory page; `typed` and `error` when an edit was refused (status 400, nothing lost). */
export function memoryPage(ctx: UiContext, req: UiRequest, id: string, edit?: { typed: Typed; error: string }): Html {
  const project = shownProject(ctx, req);
  const param = projectParam(req);
  const m = serviceFor(ctx, project).get(id, { history: true });
  const one = idOf(m);
  const now = ctx.now();
  const notices = Object.entries(NOTICES).filter(([k]) => req.query.get(k) === "1").map(([, text]) => html`<p class="notice ok">${text}</p>`);
  const task = m.kind === "task" && m.source !== "markdown" ? taskOfMemory(ctx.app.db, m.project, m.session, m.id) : undefined;
  const hidden = html`<input type="hidden" name="id" value="${one}">${param ? html`<input type="hidden" name="project" value="${param}">` : ""}`;
  const body = html`<h1 class="id">${one}</h1>
${notices}
${edit ? html`<p class="notice bad" role="alert">Not saved: ${edit.error}</p>` : ""}
<div class="meta"><span class="badge">${m.kind}</span><span>${m.source}</span><span>created ${age(m.createdAt, now)}</span>${m.updatedAt !== m.createdAt ? html`<span>edited ${age(m.updatedAt, now)}</span>` : ""}${m.session ? sessionLink(req.base, m.session, param) : ""}${assistantBadge(m.assistant)}${m.salience !== undefined ? html`<span>salience ${m.salience.toFixed(2)}${m.uses ? `, used ${m.uses}×` : ""}</span>` : ""}${m.confidence !== undefined ? html`<span>confidence ${m.confidence}</span>` : ""}${task ? html`<span>task ${taskOneId(task.id)}: ${task.status}</span>` : ""}</div>
${m.stale ? html`<p class="notice warn stale">${m.stale}</p>` : ""}
<div class="text">${m.text}</div>
${details(req.base, m, param, now)}
${m.source === "markdown" ? html`<p class="note">This passage comes from <a href="${href(req.base, "/source", { path: m.path, project: param })}"><code>${m.path}</code></a>, lines ${m.startLine}–${m.endLine}: edit the file there, then <code>mem index</code> (or delete it from the file to forget it).</p>` : editForm(req.base, m, hidden, edit?.typed)}
${m.source === "markdown" ? "" : html`<div class="actions">
${task && task.closedAt === null ? html`<form class="done" method="post" action="${req.base}/task/done"><input type="hidden" name="id" value="${taskOneId(task.id)}"><input type="hidden" name="memory" value="${one}">${param ? html`<input type="hidden" name="project" value="${param}">` : ""}<button type="submit">Done</button></form>` : ""}
<form class="forget" method="post" action="${req.base}/memory/forget" data-confirm="Forget memory ${one}? It leaves search, the prompt's memories and every list at once.">${hidden}<button type="submit" class="danger">Forget</button></form>
</div>`}
${history(m, now)}`;
  return page({ base: req.base, title: `${one} · Memory`, active: "/memories", project: project.id, projectParam: param, body });
}

function details(base: string, m: Memory, param: string | undefined, now: number): Html {
  const rows: Html[] = [];
  if (m.tags.length) rows.push(html`<tr><th>tags</th><td>${m.tags.map((t) => html`<a class="badge" href="${href(base, "/memories", { tag: t, project: param })}">${t}</a> `)}</td></tr>`);
  if (m.files.length) rows.push(html`<tr><th>files</th><td><ul class="files">${m.files.map((f) => html`<li><code>${f}</code></li>`)}</ul></td></tr>`);
  rows.push(html`<tr><th>project</th><td><code>${m.project}</code></td></tr>`);
  // One memory, both sources: a team record and the local memory it stands for.
  if (m.record) rows.push(html`<tr><th>${m.record.team ? "team record" : "record"}</th><td>${recordParts(m.record).join(", ") || "no status"}${m.record.supersededBy ? `, superseded by ${m.record.supersededBy}` : ""}</td></tr>`);
  if (m.alsoLocal?.length) rows.push(html`<tr><th>also local</th><td>${m.alsoLocal.map((l) => idLink(base, l, param))}</td></tr>`);
  if (m.team) rows.push(html`<tr><th>also a team record</th><td>${idLink(base, m.team.id, param)} <a href="${href(base, "/source", { path: m.team.path, project: param })}"><code>${m.team.path}</code></a> ${recordParts(m.team.record).join(", ")}</td></tr>`);
  if (m.sources?.length) {
    const each = m.sources.map((s) => html`<li>${s.source}${s.session ? html` in ${sessionLink(base, s.session, param)}` : ""} ${age(s.time, now)}${s.confidence !== undefined ? `, confidence ${s.confidence}` : ""}${s.text ? html`: <span class="text">${s.text}</span>` : ""}</li>`);
    rows.push(html`<tr><th>stated ${m.sources.length} times</th><td><ol class="statements">${each}</ol></td></tr>`);
  }
  return html`<table class="details"><tbody>${rows}</tbody></table>`;
}

function editForm(base: string, m: Memory, hidden: Html, typed: Typed | undefined): Html {
  const t = typed ?? { text: m.text, kind: m.kind, tags: m.tags.join(", ") };
  return html`<h2>Edit</h2>
<form class="edit" method="post" action="${base}/memory/edit">${hidden}
<label>Text<textarea name="text">
${t.text}</textarea></label>
<div class="filters"><label>Kind<input name="kind" value="${t.kind}" list="explicit-kinds" size="12"></label><label>Tags<input name="tags" value="${t.tags}" placeholder="comma-separated" size="30"></label>
<datalist id="explicit-kinds">${EXPLICIT_KINDS.map((k) => html`<option value="${k}">`)}</datalist>
<button type="submit">Save</button></div>
<p class="note">The previous version is kept (below, and <code>mem get ${idOf(m)} --history</code>).</p>
</form>`;
}

function history(m: Memory, now: number): Html {
  if (!m.history?.length) return html``;
  return html`<h2>Earlier versions</h2><ol class="history">${m.history.map((h) => html`<li data-version="${h.version}"><div class="meta"><span>v${h.version}</span>${age(h.at, now)}<span class="badge">${h.kind}</span>${h.tags.length ? html`<span>tags ${h.tags.join(", ")}</span>` : ""}</div><div class="text">${h.text}</div></li>`)}</ol>`;
}

export const memoryRoute: Route = { get: view };
