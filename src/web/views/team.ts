/**
 * Team: the team's memory, read-only. The decision records in the repository's record folders
 * (the team folder and the decision folders), grouped by status: in force (accepted decisions,
 * learned facts, preferences), rejected, superseded (with what replaced it), proposed; each with
 * its id, status, date, authors, file and title, and the local memories it stands for. They
 * change in git (`mem share`, a review, a pull), never here.
 */
import { idOf } from "../../service/convert.js";
import type { Memory } from "../../service/types.js";
import type { UiContext } from "../context.js";
import { html, type Html } from "../html.js";
import { page } from "../layout.js";
import { href, type Route, type UiRequest } from "../request.js";
import { idLink } from "../show.js";
import { serviceFor } from "../scope.js";
import { projectParam, short, shownProject } from "./memory-bits.js";

/** Records shown at most (the list's own limit); `mem list --team` pages through more. */
const SHOWN = 1_000;

/** The groups, in order: which kinds each holds. */
export const TEAM_GROUPS: readonly { key: string; title: string; kinds: (kind: string) => boolean }[] = [
  { key: "in-force", title: "In force", kinds: (k) => k !== "rejected" && k !== "superseded" && k !== "proposed" },
  { key: "rejected", title: "Rejected", kinds: (k) => k === "rejected" },
  { key: "superseded", title: "Superseded", kinds: (k) => k === "superseded" },
  { key: "proposed", title: "Proposed", kinds: (k) => k === "proposed" },
];

function item(req: UiRequest, m: Memory, param: string | undefined): Html {
  const r = m.record ?? { kind: m.kind, authors: [] };
  const id = idOf(m);
  const rel = m.path?.startsWith(`${m.project}/`) ? m.path.slice(m.project.length + 1) : (m.path ?? "");
  const successor = r.supersededBy && !(r.status ?? "").includes("superseded by") ? html`<span class="successor">superseded by ${r.supersededBy}</span>` : "";
  const also = m.alsoLocal?.length ? html`<span class="also-local">also local: ${m.alsoLocal.map((l) => idLink(req.base, l, param))}</span>` : "";
  return html`<li class="item" data-id="${id}" data-kind="${m.kind}">
<div class="meta">${idLink(req.base, id, param)}<span class="badge">${m.kind}</span><span class="status">${r.status ?? "no status"}</span>${successor}<span class="date">${r.date ?? "no date"}</span><span class="authors">${r.authors.length > 0 ? `by ${r.authors.join(", ")}` : "no author"}</span><a class="file" href="${href(req.base, "/source", { path: m.path, project: param })}">${rel}</a>${also}</div>
<p class="text">${short(r.title ?? m.text, 200)}</p>
</li>`;
}

function view(ctx: UiContext, req: UiRequest): Html {
  const project = shownProject(ctx, req);
  const param = projectParam(req);
  const { total, memories } = serviceFor(ctx, project).list({ project: project.id, team: true, limit: SHOWN });
  const groups = TEAM_GROUPS.map((g) => ({ ...g, items: memories.filter((m) => g.kinds(m.kind)) }));
  const body = html`<h1>Team</h1>
<p class="meta"><span>${total.toLocaleString("en")} team record${total === 1 ? "" : "s"}</span><span>the decision records in the repository: they change in git (<code>mem share</code>, review, pull), not here</span>${total > memories.length ? html`<span>the newest ${memories.length.toLocaleString("en")} shown: <code>mem list --team</code> lists all</span>` : ""}</p>
${
  total === 0
    ? html`<p class="notice">No team records yet. Share a memory with <code>mem share ID</code> (it writes a file to the team folder, docs/decisions by default, for review and commit), or keep decision records in docs/decisions or docs/adr.</p>`
    : groups.map((g) => html`<section class="team-group" data-group="${g.key}"><h2>${g.title} <span class="count">${g.items.length}</span></h2>${g.items.length > 0 ? html`<ul class="items">${g.items.map((m) => item(req, m, param))}</ul>` : html`<p class="note">None.</p>`}</section>`)
}`;
  return page({ base: req.base, title: "Team", active: "/team", project: project.id, projectParam: param, body });
}

export const teamRoute: Route = { get: view };
