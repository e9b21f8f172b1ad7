/** The page every view is framed in: the header with the views, the project, the page's own content. */
import { html, type Html, type Part } from "./html.js";
import { href } from "./request.js";

export const VIEWS: readonly { path: string; label: string }[] = [
  { path: "/search", label: "Search" },
  { path: "/memories", label: "Memories" },
  { path: "/team", label: "Team" },
  { path: "/tasks", label: "Tasks" },
  { path: "/sessions", label: "Sessions" },
  { path: "/prompts", label: "Prompts" },
  { path: "/sources", label: "Sources" },
  { path: "/legs", label: "Legs" },
  { path: "/health", label: "Health" },
];

export interface PageInput {
  base: string;
  title: string;
  /** The view's path, for the header's marker. */
  active: string;
  /** The project shown, and its id for the links (undefined: the one `mem ui` was started for). */
  project: string;
  projectParam?: string | undefined;
  body: Part;
}

export function page(p: PageInput): Html {
  const nav = VIEWS.map((v) => html`<a href="${href(p.base, v.path, { project: p.projectParam })}"${v.path === p.active ? html` aria-current="page"` : ""}>${v.label}</a>`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${p.title} · mem</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${p.base}/static/style.css">
<script type="module" src="${p.base}/static/app.js"></script>
</head>
<body>
<header>
<a class="brand" href="${href(p.base, "/search", { project: p.projectParam })}">mem</a>
<nav>${nav}</nav>
<span class="project" title="${p.project}">${shortProject(p.project)}</span>
</header>
<main>
${p.body}
</main>
</body>
</html>
`;
}

/** A project's id, short: its folder's name. */
export function shortProject(id: string): string {
  const last = id.split(/[\\/]/).filter(Boolean).pop();
  return last ?? id;
}

/** A pager: earlier and later pages of `total` items, `size` a page, at `offset`. */
export function pager(base: string, path: string, params: Record<string, string | undefined>, total: number, offset: number, size: number): Html {
  if (total <= size && offset === 0) return html``;
  const prev = offset > 0 ? html`<a rel="prev" href="${href(base, path, { ...params, offset: Math.max(0, offset - size) || undefined })}">← newer</a>` : "";
  const next = offset + size < total ? html`<a rel="next" href="${href(base, path, { ...params, offset: offset + size })}">older →</a>` : "";
  return html`<nav class="pager">${prev} <span>${(offset + 1).toLocaleString("en")}–${Math.min(total, offset + size).toLocaleString("en")} of ${total.toLocaleString("en")}</span> ${next}</nav>`;
}
