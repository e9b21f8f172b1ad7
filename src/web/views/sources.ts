/**
 * Sources: the files indexed for the project (markdown notes, event logs), by root, with how many
 * chunks each became, 50 a page; and one file's chunks in their order, with their lines and ids.
 * Only files of the project the page shows: another project's path is not found.
 */
import { oneId } from "../../store/one-id.js";
import { rootsOf } from "../../store/roots.js";
import { chunksOfSource, filesPerRoot, sourceFile, sourcesPage } from "../../store/source-pages.js";
import { MemoryError } from "../../util/memory-error.js";
import type { UiContext } from "../context.js";
import { html, type Html } from "../html.js";
import { page, pager } from "../layout.js";
import { href, type Route, type UiRequest } from "../request.js";
import { age, idLink } from "../show.js";
import { offsetOf, PAGE, projectParam, shownProject } from "./memory-bits.js";

/** A path as shown under its root: relative to it when inside it. */
const under = (path: string, root: string | undefined) => (root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path);

function list(ctx: UiContext, req: UiRequest): Html {
  const project = shownProject(ctx, req);
  const param = projectParam(req);
  const offset = offsetOf(req.query);
  const root = (req.query.get("root") ?? "").trim() || undefined;
  const roots = rootsOf(ctx.app.db, project.id);
  const counts = filesPerRoot(ctx.app.db, project.id, roots);
  const { total, sources } = sourcesPage(ctx.app.db, project.id, { ...(root ? { root } : {}), limit: PAGE, offset });
  const now = ctx.now();
  const rootOf = (path: string) => roots.filter((r) => path === r || path.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];
  // Grouped by root (the listing is by path, so a root's files come together).
  const groups: { root: string | undefined; items: Html[] }[] = [];
  for (const s of sources) {
    const r = rootOf(s.path);
    if (groups.length === 0 || groups[groups.length - 1]!.root !== r) groups.push({ root: r, items: [] });
    groups[groups.length - 1]!.items.push(html`<li class="item" data-path="${s.path}"><div class="meta"><a href="${href(req.base, "/source", { path: s.path, project: param })}"><code>${under(s.path, r)}</code></a><span class="badge">${s.kind}</span>${s.tier ? html`<span>${s.tier} tier</span>` : ""}<span>${s.chunks.toLocaleString("en")} chunk${s.chunks === 1 ? "" : "s"}</span><span>indexed ${age(new Date(s.indexedAt).toISOString(), now)}</span></div></li>`);
  }
  const rootLinks = roots.map((r) => html`<a href="${href(req.base, "/sources", { root: r, project: param })}"${r === root ? html` aria-current="page"` : ""}><code>${r}</code> (${(counts.get(r) ?? 0).toLocaleString("en")})</a>`);
  const body = html`<h1>Sources</h1>
${roots.length ? html`<nav class="tabs"><a href="${href(req.base, "/sources", { project: param })}"${root ? "" : html` aria-current="page"`}>All roots</a>${rootLinks}</nav>` : ""}
<p class="meta"><span>${total.toLocaleString("en")} file${total === 1 ? "" : "s"} indexed${root ? html` under <code>${root}</code>` : ""}</span><span>notes are indexed by <code>mem index</code>; edit them in their files</span></p>
${sources.length === 0 ? html`<p class="notice">No indexed files${total > 0 ? " on this page" : ""}.</p>` : groups.map((g) => html`<h2 class="root">${g.root ?? "outside the recorded roots"}</h2><ul class="items sources">${g.items}</ul>`)}
${pager(req.base, "/sources", { root, project: param }, total, offset, PAGE)}`;
  return page({ base: req.base, title: "Sources", active: "/sources", project: project.id, projectParam: param, body });
}

function one(ctx: UiContext, req: UiRequest): Html {
  const path = req.query.get("path") ?? "";
  if (path.trim() === "") throw new MemoryError("bad_argument", "which file: /source?path=PATH");
  const project = shownProject(ctx, req);
  const param = projectParam(req);
  const src = sourceFile(ctx.app.db, project.id, path);
  if (!src) throw new MemoryError("not_found", `no indexed file ${JSON.stringify(path.slice(0, 300))} in this project`);
  const offset = offsetOf(req.query);
  const chunks = chunksOfSource(ctx.app.db, src.id, PAGE, offset);
  const items = chunks.map((c, i) => html`<li data-id="${oneId(c.id)}" value="${offset + i + 1}"><div class="meta">${idLink(req.base, c.id, param)}<span>lines ${c.startLine}–${c.endLine}</span><span class="badge">${c.kind}</span>${c.heading ? html`<span>§ ${c.heading}</span>` : ""}</div><div class="text">${c.text}</div></li>`);
  const body = html`<h1><code>${src.path}</code></h1>
<p class="meta"><span class="badge">${src.kind}</span>${src.tier ? html`<span>${src.tier} tier</span>` : ""}<span>${src.chunks.toLocaleString("en")} chunk${src.chunks === 1 ? "" : "s"}</span><span>indexed ${age(new Date(src.indexedAt).toISOString(), ctx.now())}</span><a href="${href(req.base, "/sources", { project: param })}">all sources</a></p>
<p class="note">To change a passage, edit the file, then <code>mem index</code>.</p>
${chunks.length === 0 ? html`<p class="notice">No chunks${src.chunks > 0 ? " on this page" : ""}.</p>` : html`<ol class="chunks">${items}</ol>`}
${pager(req.base, "/source", { path: src.path, project: param }, src.chunks, offset, PAGE)}`;
  return page({ base: req.base, title: `${src.path} · Source`, active: "/sources", project: project.id, projectParam: param, body });
}

export const sourcesRoute: Route = { get: list };
export const sourceRoute: Route = { get: one };
