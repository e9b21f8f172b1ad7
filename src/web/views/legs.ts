/**
 * How search weighs its legs: for a query, what `mem why` prints, as a table. The prompt hook's own
 * search, floor, selection and budget (src/service/why.ts) for a fresh session of the project;
 * each candidate's BM25 and vector rank and score, the fused and final score, the floor's verdict
 * and whether the hook would inject it; above it how fusion weighed the legs. Nothing is recorded.
 */
import { randomUUID } from "node:crypto";
import { describeUnhealthy } from "../../embed/chain.js";
import type { WhyCandidate, WhyReport } from "../../inject/why.js";
import { fmt, fusionLine, what } from "../../retrieve/explain.js";
import { vectorNote, whyPrompt } from "../../service/why.js";
import { MemoryError } from "../../util/memory-error.js";
import { projectOf, type UiContext } from "../context.js";
import { codeSpans, html, type Html } from "../html.js";
import { page } from "../layout.js";
import { href, type Route, type UiRequest } from "../request.js";
import { idLink, shownWarnings } from "../show.js";
import { NO_MODEL_LINE } from "../../retrieve/warnings.js";

/** The longest query the page asks about (a prompt is cut so before it is logged, too). */
const MAX_QUERY = 2_000;

async function view(ctx: UiContext, req: UiRequest): Promise<Html> {
  const q = (req.query.get("q") ?? "").trim();
  if (q.length > MAX_QUERY) throw new MemoryError("bad_argument", `q may be at most ${MAX_QUERY.toLocaleString("en")} characters`);
  const projectParam = (req.query.get("project") ?? "").trim() || undefined;
  if (projectParam === "all") throw new MemoryError("bad_argument", "the hook searches one project: name it (or leave project out for this one)");
  const project = projectOf(ctx, req.query);
  const form = html`<form class="filters" method="get" action="${req.base}/legs" role="search">
<label>Prompt<input type="search" name="q" value="${q}" placeholder="a prompt, as typed to the assistant" autofocus></label>
<label>Project<input name="project" value="${projectParam ?? ""}" placeholder="this one" size="14"></label>
<button type="submit">Weigh</button>
</form>`;
  const frame = (title: string, body: Html) => page({ base: req.base, title, active: "/legs", project: project.id, projectParam, body });
  if (q === "") {
    return frame("Legs", html`<h1>How search weighs its legs</h1>${form}<p class="note">Type a prompt: the page runs the prompt hook's own search, relevance floor and budget on <code>${project.id}</code> for a fresh session, as <code>mem why</code> does, and shows each candidate's BM25 and vector rank, the weights fusion gave the legs, the floor's verdict and what would be injected. Nothing is recorded.</p>`);
  }
  const t0 = performance.now();
  const report = await whyPrompt(ctx.app, ctx.pickProvider, { prompt: q, cwd: project.root ?? ctx.cwd, project: project.id }, `mem-ui-legs-${randomUUID()}`, ctx.vectorSearch);
  const ms = performance.now() - t0;
  const note = await vectorNote(report, ctx.app.config.embedding.order.length > 0, ctx.pickProvider, ctx.heldVectors().length > 0);
  const picked = await ctx.pickProvider();
  const body = html`<h1>How search weighs its legs</h1>${form}
<p class="meta"><span>${report.candidates.length} candidate${report.candidates.length === 1 ? "" : "s"}</span><span>legs: ${report.legs.join(" + ") || "none"}</span><span>${ms.toFixed(0)} ms</span><a href="${href(req.base, "/search", { q, project: projectParam })}">these words on the search page →</a></p>
${report.skipped ? html`<p class="notice">The hook skips this prompt (${report.skipped}): it searches nothing and injects nothing.</p>` : weights(report, note, picked.selected ? undefined : describeUnhealthy(picked.unhealthy), ctx.app.config.embedding.order.length === 0)}
${shownWarnings(ctx.app.config, report.warnings).filter((w) => w !== NO_MODEL_LINE).map((w) => html`<p class="notice">${codeSpans(w)}</p>`)}
${report.words.length > 0 ? html`<p class="note">Content words (stems) the floor looks for: ${report.words.map((w, i) => html`${i > 0 ? ", " : ""}<code>${w.word}</code>${w.word === w.stem ? "" : html` (${w.stem})`}`)}</p>` : ""}
${report.candidates.length === 0 ? (report.skipped ? "" : html`<p class="notice">No candidates: ${report.nothing ?? "the search found nothing"}.</p>`) : table(ctx, req.base, report, projectParam)}
${injected(report)}`;
  return frame(`${q} · Legs`, body);
}

/** The weights fusion gave the legs and why; or why only BM25 ran. */
function weights(r: WhyReport, note: string, none: string | undefined, byChoice: boolean): Html {
  const leg = r.vector ? html`<div class="card"><div>vector leg</div><div class="big">${r.vector.provider}</div><div class="id">${r.vector.model}</div><div class="note">table ${r.vector.table}</div></div>` : "";
  const f = r.fusion;
  if (!f) {
    const why = byChoice ? "BM25 only, by your choice (no embedding model configured)" : none && r.mode === "bm25" ? NO_MODEL_LINE : note;
    return html`<section class="fusion"><h2>Weights</h2><p class="weights">${codeSpans(why)}</p><div class="cards">${leg}<div class="card" data-measure="weights"><div>weights used</div><div class="big">BM25 1</div><div class="note">no vector leg</div></div></div></section>`;
  }
  return html`<section class="fusion"><h2>Weights</h2>
<p class="weights">${fusionLine(f)}</p>
<div class="cards">${leg}
<div class="card" data-measure="calibrated"><div>calibrated vector weight</div><div class="big">${f.calibrated.toFixed(2)}</div><div class="note">how far this store and model's vector leg is trusted</div></div>
<div class="card" data-measure="share"><div>this query's share</div><div class="big">${Math.round(f.query * 100)}%</div><div class="note">its best vector hit stands ${f.standout.toFixed(1)} spreads out of the rest</div></div>
<div class="card" data-measure="weights"><div>weights used</div><div class="big">BM25 ${fmt(f.weights.bm25)} · vector ${f.weights.vector.toFixed(2)}</div>${f.weights.vector < 0.02 ? html`<div class="warn">the vector leg is left out</div>` : ""}</div>
<div class="card" data-measure="unembedded"><div>candidates with no vector yet</div><div class="big">${f.unembedded}</div><div class="note">ranked by BM25 alone</div></div>
</div></section>`;
}

function table(ctx: UiContext, base: string, r: WhyReport, projectParam: string | undefined): Html {
  return html`<table class="legs"><thead><tr><th class="num">#</th><th>id</th><th>what</th><th class="num">BM25 rank</th><th class="num">BM25 score</th><th class="num">vector rank</th><th class="num">vector score</th><th class="num">fused</th><th class="num">score</th><th>floor</th><th>injected</th></tr></thead>
<tbody>${r.candidates.map((c) => row(ctx, base, c, projectParam))}</tbody></table>`;
}

function row(ctx: UiContext, base: string, c: WhyCandidate, projectParam: string | undefined): Html {
  const b = c.legs.bm25;
  const v = c.legs.vector;
  const verdict = c.excluded ? "excluded" : c.floor?.pass ? "pass" : "fail";
  const floor = c.excluded ? html`<span class="warn">excluded</span>: ${c.excluded}` : c.floor ? html`<span class="${c.floor.pass ? "ok" : "bad"}">${c.floor.pass ? "pass" : "fail"}</span>: ${c.floor.reason}` : "";
  return html`<tr data-id="${c.id}" data-floor="${verdict}" data-injected="${c.injected ? "yes" : "no"}">
<td class="num">${c.rank}</td><td>${idLink(base, c.id, projectParam)}</td><td>${what(c, ctx.app.projectRoot(c.project))}${c.weak ? html` <span class="badge" title="BM25 alone found it, far below the best: ranked after the others">weak</span>` : ""}${c.flag ? html` <span class="warn">${c.flag}</span>` : ""}</td>
<td class="num">${b ? `#${b.rank}` : "–"}</td><td class="num">${b ? fmt(b.score) : "–"}</td><td class="num">${v ? `#${v.rank}` : "–"}</td><td class="num">${v ? fmt(v.score) : "–"}</td>
<td class="num">${(c.salience?.rrf ?? c.score).toFixed(5)}</td><td class="num">${c.score.toFixed(5)}</td>
<td>${floor}</td><td>${c.injected ? html`<span class="ok">yes</span>` : "no"}</td></tr>`;
}

function injected(r: WhyReport): Html {
  if (r.skipped) return html``;
  if (!r.injection) return html`<section class="injected"><h2>Injected</h2><p class="note">Nothing would be injected: ${r.nothing ?? ""}.</p></section>`;
  return html`<section class="injected"><h2>Injected</h2><p class="meta"><span>${r.injection.items} item${r.injection.items === 1 ? "" : "s"}</span><span>${r.injection.chars.toLocaleString("en")} of ${r.options.budgetChars.toLocaleString("en")} characters</span></p><pre>${r.injection.text}</pre></section>`;
}

export const legsRoute: Route = { get: view };
