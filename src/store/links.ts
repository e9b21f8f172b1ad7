import type { CapturedEvent } from "./event-types.js";
import { asStored, type Clean } from "../redact/clean.cjs";
import type { Db } from "./db.js";
import type { EventRow } from "./events.js";
import { prepared } from "./statements.js";

/**
 * Links between memories (event ids): 'convergent' joins an explicit memory (a) and an automatic
 * capture (b) that describe the same thing (src/capture/converge.ts). Ids are the events' own, so
 * a link is written from clean ids only.
 */
/** The link between an explicit memory (a) and the capture it describes (b). */
export const CONVERGENT = "convergent";

export interface Link {
  a: string;
  b: string;
  kind: string;
}

/** Adds links; returns those that were new (a link seen again is not new). */
export function addLinks(db: Db, links: Clean<Link[]> | readonly Clean<Link>[], at: number): Clean<Link>[] {
  const ins = prepared(db, "INSERT OR IGNORE INTO links (a, b, kind, at) VALUES (?, ?, ?, ?)");
  return db.transaction(() => {
    const added: Clean<Link>[] = [];
    for (const l of links as readonly Link[]) if (ins.run(l.a, l.b, l.kind, at).changes > 0) added.push(asStored(l));
    return added;
  }).immediate();
}

/** Which of `ids` have a link of `kind`, on either side. */
export function linkedAmong(db: Db, ids: readonly string[], kind: string): Set<Clean<string>> {
  const out = new Set<Clean<string>>();
  const get = prepared(db, "SELECT 1 FROM links WHERE (a = ? OR b = ?) AND kind = ? LIMIT 1");
  for (const id of new Set(ids)) if (get.get(id, id, kind)) out.add(asStored(id));
  return out;
}

/** The ids linked to `id` by `kind`, either side. */
export function linksOf(db: Db, id: string, kind: string): Clean<string>[] {
  const rows = db.prepare("SELECT b AS other FROM links WHERE a = ? AND kind = ? UNION SELECT a FROM links WHERE b = ? AND kind = ?").pluck().all(id, kind, id, kind) as string[];
  return rows.map(asStored);
}

/**
 * Events of one session of a project whose time lies in [from, to] (ISO strings, compared as
 * stored: hooks and transcripts write UTC ISO times), of the given types: the candidates a new
 * event may converge with. At most `limit`, the latest first.
 */
export function sessionEventsBetween(db: Db, project: string, session: string, from: string, to: string, types: readonly string[], limit = 500): Clean<CapturedEvent[]> {
  const rows = db
    .prepare(`SELECT id, session, type, time, files, text, metadata FROM events WHERE project = ? AND session = ? AND time BETWEEN ? AND ? AND type IN (${types.map(() => "?").join(", ")}) ORDER BY time DESC, rowid DESC LIMIT ?`)
    .all(project, session, from, to, ...types, limit) as Omit<EventRow, "project">[];
  return asStored(
    rows.map((r) => ({
      id: r.id,
      type: r.type as CapturedEvent["type"],
      time: r.time,
      session: r.session ?? "",
      files: JSON.parse(r.files) as string[],
      text: r.text,
      metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    })),
  );
}
