import { clean } from "../redact/clean.cjs";
import { field, prose } from "../render/line.js";
import type { Db } from "../store/db.js";
import { historyOf, memoryById } from "../store/memories.js";
import { idOf } from "./convert.js";
import type { MemoryService } from "./memory.js";
import type { Memory } from "./types.js";

/**
 * Exporting memories: every live explicit and captured memory of the projects, newest first,
 * redacted again on the way out (they were redacted when stored; rules may have grown since).
 * Forgotten memories are never exported; markdown memories are not either (they are files: copy
 * the files). Salience, uses and the outdated flag are left out: they are computed when read.
 * What `mem import` needs to bring a memory back whole is in: its client key (`key`), its
 * earlier versions (`history`, when it was edited) and what its capture recorded besides its
 * text (`metadata`: the tool, its status, a task's id and state, ...). `id` is the one id every
 * output shows (src/store/one-id.ts); `storedId` the id as stored, which `mem import` keeps.
 */
export type Exported = Omit<Memory, "salience" | "uses" | "stale"> & { storedId?: string; key?: string; metadata?: Record<string, unknown> };

const PAGE = 1000;
/** Metadata the memory's own fields already carry (source, tags, confidence). */
const OWN = new Set(["source", "tags", "confidence"]);

export function* exportMemories(svc: MemoryService, db: Db, projects: readonly string[]): Generator<Exported> {
  for (const project of projects) {
    for (let offset = 0; ; offset += PAGE) {
      const { memories } = svc.list({ project, limit: PAGE, offset });
      for (const m of memories) {
        const { salience: _s, uses: _u, stale: _t, history: _h, ...rest } = m;
        const row = memoryById(db, m.id);
        const history = historyOf(db, m.id).map((h) => ({ version: h.version, at: new Date(h.at).toISOString(), kind: h.kind, text: h.text, tags: JSON.parse(h.tags) as string[] }));
        const meta = row ? Object.fromEntries(Object.entries(JSON.parse(row.metadata) as Record<string, unknown>).filter(([k]) => !OWN.has(k))) : {};
        const shown = idOf(m); // the one id every output shows; the stored id kept beside it, for mem import
        yield clean({ ...rest, id: shown, ...(shown !== m.id ? { storedId: m.id } : {}), ...(row?.client_key ? { key: row.client_key } : {}), ...(history.length > 0 ? { history } : {}), ...(Object.keys(meta).length > 0 ? { metadata: meta } : {}) }) as Exported;
      }
      if (memories.length < PAGE) break;
    }
  }
}

/** Markdown's inline markup escaped: a memory stays one list item, whatever its text holds. */
const inline = (s: string) => s.replace(/[\\`*_[\]|]/g, "\\$&");

/**
 * Readable markdown: a section per project, a subsection per kind, one list item per memory, by
 * its one id (src/store/one-id.ts; the JSON lines keep the stored ids, for `mem import`). Text
 * and fields are rendered on one line (control characters and tag-like markup defused, inline
 * markup escaped), so no memory can open a heading, a block or a tag of its own.
 */
export function toMarkdown(memories: Iterable<Exported>, now: Date): string {
  const byProject = new Map<string, Map<string, Exported[]>>();
  for (const m of memories) {
    const kinds = byProject.get(m.project) ?? new Map<string, Exported[]>();
    kinds.set(m.kind, [...(kinds.get(m.kind) ?? []), m]);
    byProject.set(m.project, kinds);
  }
  const out = [`<!-- mem export, ${now.toISOString()} -->`, ""];
  if (byProject.size === 0) out.push("No memories.", "");
  for (const [project, kinds] of byProject) {
    const count = [...kinds.values()].reduce((n, l) => n + l.length, 0);
    out.push(`# Memories of ${inline(field(project, 300))}`, "", `${count} memor${count === 1 ? "y" : "ies"}.`, "");
    for (const [kind, list] of [...kinds].sort(([a], [b]) => a.localeCompare(b))) {
      out.push(`## ${inline(field(kind, 40))} (${list.length})`, "");
      for (const m of list) {
        const meta = [field(m.createdAt.slice(0, 10), 10), m.source, ...(m.tags.length ? [`tags: ${m.tags.map((t) => field(t, 64)).join(", ")}`] : []), ...(m.files.length ? [`files: ${m.files.slice(0, 10).map((f) => field(f, 200)).join(", ")}${m.files.length > 10 ? ", …" : ""}`] : [])];
        out.push(`- ${idOf(m)} (${inline(meta.join("; "))}): ${inline(prose(m.text))}`);
      }
      out.push("");
    }
  }
  return `${out.join("\n")}`;
}
