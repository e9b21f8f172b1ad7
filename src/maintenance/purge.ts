import type { App } from "../app.js";
import { purge, type PurgeReport } from "../service/forget.js";
import { stampOf } from "../store/identity.js";
import { forgottenIds, unpurgedTexts, withholdQuoted } from "../store/purge-copy.js";
import { holdsAny, needlesOf, purgeCopies, type CopyFate } from "./purge-copies.js";

/**
 * A purge that leaves forgotten text nowhere in the data home: the store, its WAL and LanceDB
 * (src/service/forget.ts), then every copy and file beside them (./purge-copies.ts). `projects`
 * and `sessions` are what was forgotten whole just before (their copies forget them too); `texts`
 * what they held that the store no longer has (a forgotten project's note chunks), to be looked
 * for in other files along with the forgotten memories' own.
 */
export interface PurgeScope {
  projects?: readonly string[];
  sessions?: readonly { project: string; session: string }[];
  texts?: readonly string[];
}

export interface FullPurge extends Omit<PurgeReport, "ms"> {
  copies: CopyFate[];
  ms: PurgeReport["ms"] & { copies: number };
}

export async function purgeEverywhere(app: Pick<App, "db" | "vectors" | "paths">, scope: PurgeScope = {}, now = Date.now()): Promise<FullPurge> {
  const needles = needlesOf([...unpurgedTexts(app.db), ...(scope.texts ?? [])]);
  const holds = (text: string) => holdsAny(text, needles);
  if (needles.size > 0) withholdQuoted(app.db, holds); // a prompt or a session summary that quoted a forgotten memory
  const r = await purge(app.db, app.vectors);
  const t0 = performance.now();
  const fresh = r.memories > 0 || r.vectors > 0 || (scope.projects ?? []).length > 0 || (scope.sessions ?? []).length > 0;
  const copies = purgeCopies(app.paths, { events: forgottenIds(app.db), projects: scope.projects ?? [], sessions: scope.sessions ?? [], ...(needles.size > 0 ? { holds } : {}) }, needles, stampOf(app.db).storeId, fresh, now);
  return { ...r, copies, ms: { ...r.ms, copies: Math.round(performance.now() - t0) } };
}

