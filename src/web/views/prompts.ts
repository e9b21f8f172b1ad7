/**
 * "Why did the model see this": the prompt log (src/store/prompt-log.ts). `/prompts` lists a
 * project's recent runs of the prompt hook (and SessionStart briefings), newest first; `/prompt?id=N`
 * shows one: what was put before the prompt, verbatim, how long it took, and every candidate of
 * its search with its fate (injected, missed the floor, left out by the selection, excluded) and why.
 * A pre-tool warning is listed there too: the tool call, the memories it brought back and the term found.
 */
import type { CandidateFate, PromptRun } from "../../store/prompt-log.js";
import { promptOneId, promptRunById, promptRuns, WITHHELD } from "../../store/prompt-log.js";
import { MemoryError } from "../../util/memory-error.js";
import { projectOf, type UiContext } from "../context.js";
import { html, type Html } from "../html.js";
import { page, pager } from "../layout.js";
import { href, type Route, type UiRequest } from "../request.js";
import { idLink } from "../show.js";
import { at, idOf, latency, offsetOf, PAGE, short, shortSession } from "./run-parts.js";

const missed = (r: PromptRun) => r.candidates.filter((c) => c.fate === "floor" || c.fate === "budget").length;

function list(ctx: UiContext, req: UiRequest): Html {
  const project = projectOf(ctx, req.query);
  const projectParam = req.query.get("project") || undefined;
  const offset = offsetOf(req.query);
  const { total, runs } = promptRuns(ctx.app.db, { project: project.id, limit: PAGE, offset });
  const now = ctx.now();
  const rows = runs.map(
    (r) => html`<tr data-run="${promptOneId(r.id)}">
<td><a href="${href(req.base, "/prompt", { id: promptOneId(r.id), project: projectParam })}">${at(r.at, now)}</a></td>
<td><a href="${href(req.base, "/session", { id: r.session, project: projectParam })}" title="${r.session}">${shortSession(r.session)}</a></td>
<td>${r.hook === "prompt" ? short(r.prompt, 120) : html`<span class="badge">${r.hook === "pretool" ? "pre-tool warning" : "briefing"}</span> ${short(r.prompt, 120)}`}</td>
<td class="num">${latency(r.ms)}</td>
<td class="num">${r.ids.length}</td>
<td class="num">${missed(r)}</td>
</tr>`,
  );
  const body = html`<h1>Prompts</h1>
<p class="note">What the prompt hook put before each prompt in <code>${project.id}</code> (and what each session was briefed with, and each pre-tool warning: a tool call that brought back what a decision ruled out), newest first. Prompts the hook skips (acknowledgements, slash commands, very short ones) are not searched and not logged.</p>
${
  runs.length === 0
    ? html`<p class="notice">No prompt run logged yet.</p>`
    : html`<table class="prompts"><thead><tr><th>when</th><th>session</th><th>prompt</th><th class="num">latency</th><th class="num">items injected</th><th class="num">candidates missed</th></tr></thead>
<tbody>${rows}</tbody></table>`
}
${pager(req.base, "/prompts", { project: projectParam }, total, offset, PAGE)}`;
  return page({ base: req.base, title: "Prompts", active: "/prompts", project: project.id, projectParam, body });
}

const FATES: Record<CandidateFate["fate"], string> = { injected: "injected", floor: "missed the floor", budget: "left out by the selection", excluded: "excluded" };
const FATE_CLASS: Record<CandidateFate["fate"], string> = { injected: "ok", floor: "bad", budget: "warn", excluded: "" };

/** Why nothing was put before the prompt, from its candidates' fates. */
function nothingWhy(r: PromptRun): string {
  if (r.hook === "briefing") return "the briefing had nothing to say (no decision, task or note yet)";
  const c = r.candidates;
  if (c.length === 0) return "the search found nothing in this project";
  if (c.every((x) => x.fate === "excluded")) return "every result was excluded (already shown in this session, or another user's profile)";
  if (c.every((x) => x.fate === "excluded" || x.fate === "floor")) return "no result passed the relevance floor";
  return "the selection kept no line of the results past the floor (see their fates below)";
}

function one(ctx: UiContext, req: UiRequest): Html {
  const project = projectOf(ctx, req.query);
  const projectParam = req.query.get("project") || undefined;
  const id = idOf(req.query);
  const r = promptRunById(ctx.app.db, id, project.id);
  if (!r) throw new MemoryError("not_found", `no prompt run ${id} in ${project.id}`);
  const now = ctx.now();
  const what = r.hook === "briefing" ? "Briefing" : r.hook === "pretool" ? "Pre-tool check" : "Prompt";
  const counts = (["injected", "floor", "budget", "excluded"] as const).map((f) => [f, r.candidates.filter((c) => c.fate === f).length] as const).filter(([, n]) => n > 0);
  const body = html`<h1>${what} run <span class="id">${promptOneId(r.id)}</span></h1>
<p class="meta"><span>${at(r.at, now)}</span><span>session <a href="${href(req.base, "/session", { id: r.session, project: projectParam })}">${r.session || "(none)"}</a></span><span>${r.hook === "briefing" ? "SessionStart briefing" : r.hook === "pretool" ? "PreToolUse hook" : "prompt hook"}</span>${r.mode ? html`<span>${r.mode}</span>` : ""}</p>
<h2>${r.hook === "briefing" ? "How the session started" : r.hook === "pretool" ? "The tool call" : "The prompt"}</h2>
<pre class="prompt">${r.prompt}</pre>
<section class="injected">
<h2>What was put before it</h2>
<p class="meta"><span>latency <b class="latency">${latency(r.ms)}</b></span>${r.injected ? html`<span>${r.injected.length.toLocaleString("en")} characters</span><span>${r.ids.length} memor${r.ids.length === 1 ? "y" : "ies"}</span>` : ""}</p>
${r.injected === WITHHELD ? html`<p class="note">The text put before it is withheld: it may have shown a memory since forgotten.</p>` : r.injected ? html`<pre>${r.injected}</pre>` : html`<p class="note">Nothing was injected: ${nothingWhy(r)}.</p>`}
</section>
<h2>Candidates</h2>
${counts.length > 0 ? html`<p class="meta">${counts.map(([f, n]) => html`<span>${n} ${FATES[f]}</span>`)}</p>` : ""}
${
  r.candidates.length === 0
    ? html`<p class="note">No candidate${r.hook === "briefing" ? " (a briefing is not a search; the hot notes it showed would be listed here)" : ": the search found nothing"}.</p>`
    : html`<table class="candidates"><thead><tr><th class="num">rank</th><th>memory</th><th>fate</th><th>why</th></tr></thead>
<tbody>${r.candidates.map((c) => html`<tr data-fate="${c.fate}"><td class="num">${c.rank}</td><td>${idLink(req.base, c.id, projectParam)}</td><td><span class="badge ${FATE_CLASS[c.fate] ?? ""}">${FATES[c.fate] ?? c.fate}</span></td><td>${c.why}</td></tr>`)}</tbody></table>`
}`;
  return page({ base: req.base, title: `${what} run ${promptOneId(r.id)}`, active: "/prompts", project: project.id, projectParam, body });
}

export const promptsRoute: Route = { get: list };
export const promptRoute: Route = { get: one };
