/**
 * Search: the same hybrid search as `mem query` (the memory service's), over the project, or every
 * project when the address says `project=all` (the user's choice), with its filters, each result's
 * preview (the lines holding the query's words, marked) and its `--explain` detail.
 */
import { previewStems, preview } from "../../inject/preview.js";
import { withoutKind } from "../../inject/items.js";
import { salienceConfig } from "../../memory/salience.js";
import { explainFactor, fmt, fusionLine, what } from "../../retrieve/explain.js";
import { WEAK_EXPLAIN } from "../../retrieve/weak-hits.js";
import { oneId } from "../../store/one-id.js";
import { searchMemories, type Found } from "../../service/search.js";
import { MemoryError } from "../../util/memory-error.js";
import { SearchError, type Mode } from "../../retrieve/search.js";
import type { TierScope } from "../../retrieve/filters.js";
import { projectOf, type UiContext } from "../context.js";
import { codeSpans, html, type Html } from "../html.js";
import { page } from "../layout.js";
import { href, type Route, type UiRequest } from "../request.js";
import { age, choice, idLink, marked, shownWarnings } from "../show.js";

const MODES: readonly Mode[] = ["hybrid", "bm25", "vector"];
const TIERS: readonly TierScope[] = ["warm", "cold", "all"];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The search an address asks for, checked: a bad value is a clear error, never a silent default. */
export interface SearchParams {
  q: string;
  project: string;
  kind: string;
  tag: string;
  path: string;
  since: string;
  until: string;
  tier: TierScope;
  mode: Mode;
  source: "" | "markdown" | "memory";
  k: number;
}

export function searchParams(q: URLSearchParams): SearchParams {
  const get = (name: string) => (q.get(name) ?? "").trim();
  const mode = get("mode") || "hybrid";
  if (!MODES.includes(mode as Mode)) throw new MemoryError("bad_argument", `mode must be one of ${MODES.join(", ")}`);
  const tier = get("tier") || "warm";
  if (!TIERS.includes(tier as TierScope)) throw new MemoryError("bad_argument", `tier must be one of ${TIERS.join(", ")}`);
  const source = get("source");
  if (source !== "" && source !== "markdown" && source !== "memory") throw new MemoryError("bad_argument", "source must be markdown or memory");
  for (const d of ["since", "until"]) if (get(d) !== "" && (!DATE.test(get(d)) || Number.isNaN(Date.parse(get(d))))) throw new MemoryError("bad_argument", `${d} must be a date: YYYY-MM-DD`);
  const k = get("k") === "" ? 20 : Number(get("k"));
  if (!Number.isInteger(k) || k < 1 || k > 100) throw new MemoryError("bad_argument", "k must be an integer from 1 to 100");
  return { q: get("q").slice(0, 2_000), project: get("project"), kind: get("kind"), tag: get("tag"), path: get("path"), since: get("since"), until: get("until"), tier: tier as TierScope, mode: mode as Mode, source: source as SearchParams["source"], k };
}

async function view(ctx: UiContext, req: UiRequest): Promise<Html> {
  const p = searchParams(req.query);
  const all = p.project === "all";
  const project = all ? ctx.home : projectOf(ctx, req.query);
  const projectParam = p.project === "" ? undefined : p.project;
  // The other views show one project: from a search over all, they show the one mem ui serves, and
  // each result links to its memory's page in its own project (named in the address).
  const linkParam = all ? undefined : projectParam;
  const form = html`<form class="filters" method="get" action="${req.base}/search" role="search">
<label>Search<input type="search" name="q" value="${p.q}" placeholder="what was decided about…" autofocus></label>
<label>Project<input name="project" value="${p.project}" placeholder="this one (or all)" size="14"></label>
<label>Kind<input name="kind" value="${p.kind}" placeholder="any" size="9"></label>
<label>Tag<input name="tag" value="${p.tag}" size="8"></label>
<label>Path<input name="path" value="${p.path}" placeholder="glob" size="10"></label>
<label>Since<input type="date" name="since" value="${p.since}"></label>
<label>Until<input type="date" name="until" value="${p.until}"></label>
<label>Tier${choice("tier", p.tier, [["warm", "warm"], ["cold", "cold"], ["all", "all"]])}</label>
<label>Source${choice("source", p.source, [["", "any"], ["memory", "memories"], ["markdown", "notes"]])}</label>
<label>Mode${choice("mode", p.mode, [["hybrid", "hybrid"], ["bm25", "BM25"], ["vector", "vector"]])}</label>
<button type="submit">Search</button>
</form>`;
  if (p.q === "") return page({ base: req.base, title: "Search", active: "/search", project: all ? "all projects" : project.id, projectParam: linkParam, body: html`<h1>Search</h1>${form}<p class="note">Search the memories and notes of ${all ? "every project" : html`<code>${project.id}</code>`} as <code>mem query</code> does. Press <kbd>/</kbd> to search from any page.</p>` });
  const t0 = performance.now();
  const ans = await searchMemories(
    ctx.app,
    {
      text: p.q,
      project,
      k: p.source === "" ? p.k : Math.min(100, p.k * 3),
      mode: p.mode,
      ...(p.kind ? { kinds: p.kind.split(",").map((s) => s.trim()).filter(Boolean) } : {}),
      ...(p.tag ? { tags: p.tag.split(",").map((s) => s.trim()).filter(Boolean) } : {}),
      ...(p.path ? { path: p.path } : {}),
      ...(p.since ? { since: p.since } : {}),
      ...(p.until ? { until: p.until } : {}),
      tier: p.tier,
      allProjects: all,
    },
    { pickProvider: ctx.pickProvider, vectorSearch: ctx.vectorSearch },
  ).catch((err: unknown) => {
    // mode=vector with no embedding model answering: the reason, as `mem query --mode vector` says it
    if (err instanceof SearchError) throw new MemoryError("bad_argument", err.message);
    throw err;
  });
  const ms = performance.now() - t0;
  const results = ans.results.filter((r) => p.source === "" || (p.source === "memory") === r.path.startsWith("session:")).slice(0, p.k);
  const stems = previewStems(p.q);
  const cfg = salienceConfig(ctx.app.config.salience);
  const weighed = fusionLine(ans.fusion);
  const body = html`<h1>Search</h1>${form}
<p class="meta"><span>${results.length} result${results.length === 1 ? "" : "s"}</span><span>legs: ${ans.legs.join(" + ") || "none"}</span><span>${ms.toFixed(0)} ms</span><a href="${href(req.base, "/legs", { q: p.q, project: linkParam })}">how the legs weigh this query →</a></p>
${shownWarnings(ctx.app.config, ans.warnings).map((w) => html`<p class="notice">${codeSpans(w)}</p>`)}
${weighed ? html`<p class="note">${weighed}</p>` : ""}
${results.length === 0 ? html`<p class="notice">No matches.</p>` : html`<ol class="results">${results.map((r, i) => result(ctx, req.base, r, i, stems, cfg, all ? (r.project === ctx.home.id ? undefined : r.project) : projectParam))}</ol>`}`;
  return page({ base: req.base, title: `${p.q} · Search`, active: "/search", project: all ? "all projects" : project.id, projectParam: linkParam, body });
}

function result(ctx: UiContext, base: string, r: Found, i: number, stems: readonly string[], cfg: ReturnType<typeof salienceConfig>, projectParam: string | undefined): Html {
  const root = ctx.app.projectRoot(r.project);
  const memory = r.path.startsWith("session:");
  const seen = preview(r, stems);
  const text = memory ? withoutKind(seen, r.kind) : seen;
  const legs = Object.entries(r.legs).map(([name, l]) => html`<tr><td>${name}</td><td class="num">#${l!.rank}</td><td class="num">${fmt(l!.score)}</td></tr>`);
  const fused = r.salience?.rrf ?? r.score;
  return html`<li class="result" data-id="${oneId(r.id)}">
<div class="meta"><span>${i + 1}.</span>${idLink(base, r.id, projectParam)}<span class="badge">${r.kind}</span><span>${what(r, root)}</span>${r.date ? html`<span>${age(r.date, ctx.now())}</span>` : ""}${r.tier ? html`<span>${r.tier} tier</span>` : ""}${r.stale ? html`<span class="warn">${r.stale}</span>` : ""}</div>
${r.headingPath.length > 0 && !(memory && r.headingPath.join("") === r.kind) ? html`<div class="meta">§ ${r.headingPath.join(" › ")}</div>` : ""}
<p class="text">${marked(text, stems)}</p>
<details><summary>explain: score ${r.score.toFixed(5)}</summary>
<table><thead><tr><th>leg</th><th class="num">rank</th><th class="num">score</th></tr></thead><tbody>${legs.length ? legs : html`<tr><td colspan="3">no leg</td></tr>`}</tbody></table>
<p>fused ${fused.toFixed(5)}${r.duplicates.length ? `; ${r.duplicates.length} near-duplicate(s) collapsed` : ""}</p>
${r.salience ? html`<p>score ${r.score.toFixed(5)} = fused ${r.score >= fused ? "+" : "−"} ${Math.abs(r.score - fused).toFixed(5)}; factor ${r.salience.factor.toFixed(3)}: ${explainFactor(r, cfg, root)}</p>` : ""}
${r.weak ? html`<p>${WEAK_EXPLAIN}</p>` : ""}
</details>
</li>`;
}

export const searchRoute: Route = { get: view };
