/**
 * The changes a memory's page makes, each the CLI's own call: edit (`mem edit`: the memory
 * service's patch, its previous version kept) and forget (`mem forget ID`). Both only within the
 * project the page shows. A refused edit comes back as the page with the reason and what was
 * typed (nothing lost); a done one redirects (POST, then GET).
 */
import { idOf } from "../../service/convert.js";
import { forgetMemory } from "../../service/forget.js";
import { MemoryError } from "../../util/memory-error.js";
import type { PatchInput } from "../../service/types.js";
import type { UiContext } from "../context.js";
import type { Answer, Route, UiRequest } from "../request.js";
import { href } from "../request.js";
import { afterWrite, serviceFor } from "../scope.js";
import { projectParam, shownProject, typedText } from "./memory-bits.js";
import { memoryPage, type Typed } from "./memory.js";

/** `a, b,c` → ["a", "b", "c"]; "" → [] (no tags). */
const tagList = (v: string) => v.split(",").map((s) => s.trim()).filter(Boolean);

function formId(req: UiRequest): string {
  const id = (req.form.get("id") ?? "").trim();
  if (id === "") throw new MemoryError("bad_argument", "which memory: the form has no id");
  return id;
}

async function edit(ctx: UiContext, req: UiRequest): Promise<Answer> {
  const id = formId(req);
  const project = shownProject(ctx, req);
  const svc = serviceFor(ctx, project);
  const before = svc.get(id, { liveFirst: false, writing: true });
  const typed: Typed = { text: typedText(req.form.get("text")), kind: (req.form.get("kind") ?? "").trim(), tags: req.form.get("tags") ?? "" };
  // Only what changed is given: a captured memory's kind (command_run, …) is no explicit kind, and stays as it is unless changed.
  const change: PatchInput = {};
  if (typed.text.trim() !== before.text) change.text = typed.text;
  if (typed.kind !== before.kind) change.kind = typed.kind;
  const tags = tagList(typed.tags);
  if (tags.join(",") !== before.tags.join(",")) change.tags = tags;
  const back = (flag: string) => ({ redirect: href("", "/memory", { id: idOf(before), [flag]: 1, project: projectParam(req) }) });
  if (Object.keys(change).length === 0) return back("unchanged");
  try {
    const m = svc.patch(id, change);
    await afterWrite(ctx, m.project);
  } catch (err) {
    if (!(err instanceof MemoryError) || err.code === "not_found" || err.code === "markdown") throw err;
    return { status: 400, body: memoryPage(ctx, req, idOf(before), { typed, error: err.message }) };
  }
  return back("saved");
}

function forget(ctx: UiContext, req: UiRequest): Answer {
  const id = formId(req);
  const project = shownProject(ctx, req);
  const gone = forgetMemory(ctx.app.db, serviceFor(ctx, project), id, ctx.now());
  return { redirect: href("", "/memories", { forgot: gone.id, project: projectParam(req) }) };
}

export const editRoute: Route = { post: edit };
export const forgetRoute: Route = { post: forget };
