/**
 * Memories: the project's memories newest first, as `mem list` gives them (the memory service's
 * list, the same filters: kind, tag, source, text, session, since, until), 50 a page, with tabs
 * for the kinds a person looks for (decisions, rejected approaches, learned facts, preferences,
 * tasks, notes) and a link to add one.
 */
import { EVENT_TYPES } from "../../store/event-types.js";
import { EXPLICIT_KINDS, type MemorySource } from "../../service/types.js";
import { MemoryError } from "../../util/memory-error.js";
import { projectOf, type UiContext } from "../context.js";
import { html, type Html } from "../html.js";
import { page, pager } from "../layout.js";
import { href, type Route, type UiRequest } from "../request.js";
import { choice } from "../show.js";
import { memoryItem, offsetOf, PAGE, projectParam } from "./memory-bits.js";

const SOURCES: readonly MemorySource[] = ["explicit", "tag", "keyword", "captured", "markdown"];
const KINDS: readonly string[] = [...new Set<string>([...EVENT_TYPES, ...EXPLICIT_KINDS])];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The kinds people browse by, as tabs. */
export const KIND_TABS: readonly (readonly [string, string])[] = [
  ["", "All"],
  ["decision", "Decisions"],
  ["rejected", "Rejected approaches"],
  ["learned", "Learned facts"],
  ["preference", "Preferences"],
  ["task", "Tasks"],
  ["note", "Notes"],
];

export interface ListParams {
  kind: string;
  tag: string;
  source: string;
  text: string;
  session: string;
  since: string;
  until: string;
  offset: number;
}

/** Several values: a parameter given more than once, or comma-separated. */
const many = (v: string) => v.split(",").map((s) => s.trim()).filter(Boolean);

/** The listing an address asks for, checked as `mem list` checks its options: a bad value is a clear error. */
export function listParams(q: URLSearchParams): ListParams {
  const get = (name: string) => q.getAll(name).map((v) => v.trim()).filter(Boolean).join(",");
  const p: ListParams = { kind: get("kind"), tag: get("tag"), source: get("source"), text: (q.get("text") ?? "").trim(), session: (q.get("session") ?? "").trim(), since: get("since"), until: get("until"), offset: offsetOf(q) };
  const sources = many(p.source);
  for (const s of sources) if (!(SOURCES as readonly string[]).includes(s)) throw new MemoryError("bad_argument", `source must be one of ${SOURCES.join(", ")}, got ${JSON.stringify(s.slice(0, 40))}`);
  const markdown = sources.includes("markdown");
  for (const k of many(p.kind)) {
    if (markdown ? !/^[\p{L}\p{N}_.-]{1,40}$/u.test(k) : !KINDS.includes(k)) throw new MemoryError("bad_argument", `kind must be one of ${KINDS.join(", ")}, got ${JSON.stringify(k.slice(0, 40))}`);
  }
  for (const t of many(p.tag)) if (t.length > 64) throw new MemoryError("bad_argument", "a tag has at most 64 characters");
  if (p.text.length > 500) throw new MemoryError("bad_argument", "text may be at most 500 characters");
  if (p.session.length > 200) throw new MemoryError("bad_argument", "session may be at most 200 characters");
  for (const d of ["since", "until"] as const) if (p[d] !== "" && (!DATE.test(p[d]) || Number.isNaN(Date.parse(p[d])))) throw new MemoryError("bad_argument", `${d} must be a date: YYYY-MM-DD`);
  return p;
}

function view(ctx: UiContext, req: UiRequest): Html {
  const p = listParams(req.query);
  const project = projectOf(ctx, req.query);
  const param = projectParam(req);
  const kinds = many(p.kind);
  const tags = many(p.tag);
  const sources = many(p.source) as MemorySource[];
  const { total, memories } = ctx.svc.list({
    project: project.id,
    ...(kinds.length ? { kinds } : {}),
    ...(tags.length ? { tags } : {}),
    ...(sources.length ? { sources } : {}),
    ...(p.text ? { text: p.text } : {}),
    ...(p.session ? { session: p.session } : {}),
    ...(p.since ? { since: p.since } : {}),
    ...(p.until ? { until: p.until } : {}),
    limit: PAGE,
    offset: p.offset,
  });
  const kept = { tag: p.tag, source: p.source, text: p.text, session: p.session, since: p.since, until: p.until, project: param };
  const tabs = KIND_TABS.map(([kind, label]) => html`<a href="${href(req.base, "/memories", { kind, ...kept })}"${kind === p.kind ? html` aria-current="page"` : ""}>${label}</a>`);
  const form = html`<form class="filters" method="get" action="${req.base}/memories">
<label>Kind<input name="kind" value="${p.kind}" placeholder="any" size="10"></label>
<label>Tag<input name="tag" value="${p.tag}" size="8"></label>
<label>Source${choice("source", SOURCES.includes(p.source as MemorySource) ? p.source : "", [["", "any"], ...SOURCES.map((s) => [s, s] as const)])}</label>
<label>Text<input name="text" value="${p.text}" placeholder="words it contains" size="16"></label>
<label>Session<input name="session" value="${p.session}" size="12"></label>
<label>Since<input type="date" name="since" value="${p.since}"></label>
<label>Until<input type="date" name="until" value="${p.until}"></label>
${param ? html`<input type="hidden" name="project" value="${param}">` : ""}
<button type="submit">Filter</button>
</form>`;
  const forgot = (req.query.get("forgot") ?? "").slice(0, 80);
  const body = html`<h1>Memories</h1>
${forgot ? html`<p class="notice ok">Forgot memory <code>${forgot}</code>. It is gone from search, the prompt's memories and every list (its text stays in the store's files until the next purge: <code>mem forget --purge</code>).</p>` : ""}
<nav class="tabs">${tabs}</nav>
${form}
<p class="actions"><a class="add" href="${href(req.base, "/memories/new", { project: param })}">Add a memory</a></p>
<p class="meta"><span>${total.toLocaleString("en")} memor${total === 1 ? "y" : "ies"}</span>${sources.includes("markdown") ? "" : html`<span>notes from markdown files: <a href="${href(req.base, "/memories", { ...kept, kind: p.kind, source: "markdown" })}">source markdown</a> or <a href="${href(req.base, "/sources", { project: param })}">Sources</a></span>`}</p>
${memories.length === 0 ? html`<p class="notice">No memories${total > 0 ? " on this page" : ""}.</p>` : html`<ul class="items">${memories.map((m) => memoryItem(req.base, m, ctx.now(), param))}</ul>`}
${pager(req.base, "/memories", { kind: p.kind, ...kept }, total, p.offset, PAGE)}`;
  return page({ base: req.base, title: "Memories", active: "/memories", project: project.id, projectParam: param, body });
}

export const memoriesRoute: Route = { get: view };
