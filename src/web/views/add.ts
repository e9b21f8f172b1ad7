/**
 * Add a memory: the form `mem remember` is on the command line, through the memory service's put
 * (the same checks, redaction and durability), into the project the page shows. A refused one
 * (empty, too long, a kind that is not one of the explicit kinds, bad tags) comes back as the form
 * with the reason and everything typed still in it.
 */
import { projectToStoreIn } from "../../project/scope.js";
import { idOf } from "../../service/convert.js";
import { EXPLICIT_KINDS, MAX_MEMORY_CHARS } from "../../service/types.js";
import { MemoryError } from "../../util/memory-error.js";
import type { UiContext } from "../context.js";
import { html, type Html } from "../html.js";
import { page } from "../layout.js";
import { href, type Answer, type Route, type UiRequest } from "../request.js";
import { afterWrite, serviceFor } from "../scope.js";
import { choice } from "../show.js";
import { projectParam, shownProject, typedText } from "./memory-bits.js";

interface Typed {
  text: string;
  kind: string;
  tags: string;
}

function form(ctx: UiContext, req: UiRequest, typed: Typed, error?: string): Html {
  const param = projectParam(req);
  const project = shownProject(ctx, req);
  const body = html`<h1>Add a memory</h1>
${error ? html`<p class="notice bad" role="alert">Not added: ${error}</p>` : ""}
<form class="add" method="post" action="${req.base}/memories/new">
${param ? html`<input type="hidden" name="project" value="${param}">` : ""}
<label>Text<textarea name="text" placeholder="We chose … because …">
${typed.text}</textarea></label>
<div class="filters"><label>Kind${choice("kind", typed.kind, EXPLICIT_KINDS.map((k) => [k, k] as const))}</label>
<label>Tags<input name="tags" value="${typed.tags}" placeholder="comma-separated" size="30"></label>
<button type="submit">Add</button></div>
</form>
<p class="note">Into <code>${project.id}</code>, as <code>mem remember</code> stores it: secrets and <code>&lt;private&gt;</code> spans are redacted first; at most ${MAX_MEMORY_CHARS.toLocaleString("en")} characters (a longer document belongs in a markdown note, <code>mem index</code>). The same statement as a memory already stored confirms that one.</p>`;
  return page({ base: req.base, title: "Add a memory", active: "/memories", project: project.id, projectParam: param, body });
}

function view(ctx: UiContext, req: UiRequest): Html {
  const kind = req.query.get("kind") ?? "";
  return form(ctx, req, { text: "", kind: (EXPLICIT_KINDS as readonly string[]).includes(kind) ? kind : "note", tags: "" });
}

async function add(ctx: UiContext, req: UiRequest): Promise<Answer> {
  const typed: Typed = { text: typedText(req.form.get("text")), kind: (req.form.get("kind") ?? "").trim(), tags: req.form.get("tags") ?? "" };
  const param = projectParam(req);
  try {
    // A name under which nothing is stored is refused, as `mem remember --project` refuses it (a typo).
    const project = param === undefined ? ctx.home : projectToStoreIn(ctx.app.db, param, ctx.cwd, { enclosing: ctx.app.config.project.enclosing, how: "run mem remember --project NAME --new-project once" });
    const tags = typed.tags.split(",").map((s) => s.trim()).filter(Boolean);
    const r = serviceFor(ctx, project).put({ text: typed.text, project: project.id, kind: typed.kind === "" ? "note" : typed.kind, ...(tags.length ? { tags } : {}) });
    if (r.created || r.confirmed) await afterWrite(ctx, r.memory.project);
    return { redirect: href("", "/memory", { id: idOf(r.memory), [r.confirmed ? "confirmed" : "added"]: 1, project: param }) };
  } catch (err) {
    if (!(err instanceof MemoryError)) throw err;
    return { status: 400, body: form(ctx, req, typed, err.message) };
  }
}

export const addRoute: Route = { get: view, post: add };
