import { assistantLabel } from "../contract/adapter.cjs";
import { openApp, type App } from "../app.js";
import { shownTime } from "../render/time.js";
import { field, prose, safeJson } from "../render/line.js";
import { idOf } from "../service/convert.js";
import { MemoryService } from "../service/memory.js";
import { MemoryError } from "../util/memory-error.js";
import type { Memory } from "../service/types.js";
import { EXIT, UsageError } from "./args.js";
import { projectHoldsAnything } from "../store/chunks.js";
import { recordParts } from "../store/records.js";
import type { Db } from "../store/db.js";

/**
 * What the explicit-memory commands (remember, get, list, edit, forget, export, import, sync)
 * share: the store opened only once the arguments are known good, the service's errors as exit
 * statuses (a bad argument is a usage error, exit 2; anything else exit 1, with `{"error"}` on
 * stdout under --json), a memory rendered for people through src/render/line.ts.
 */
export interface Opened {
  app: App;
  svc: MemoryService;
}

export async function withService(command: string, json: boolean, fn: (o: Opened) => number | Promise<number>): Promise<number> {
  const app = openApp();
  try {
    return await fn({ app, svc: new MemoryService({ db: app.db, config: app.config, projectRoot: app.projectRoot }) });
  } catch (err) {
    if (!(err instanceof MemoryError)) throw err;
    if (err.code === "bad_argument") throw new UsageError(err.message, idProblem(err.message) ? "alone" : false);
    return failure(command, json, err.message, err.code);
  } finally {
    await app.close();
  }
}

/** An id or a session id too short, ambiguous or malformed: said in one line, without the usage (src/store/one-id.ts's and src/render/session-id.ts's messages). */
export const idProblem = (message: string): boolean => /^(id |not a \w+ id: |session |a session id )/.test(message);

/** Prints a failure (stderr; also stdout as JSON under --json) and returns exit status 1. */
export function failure(command: string, json: boolean, message: string, code: string): number {
  process.stderr.write(`mem ${command}: ${message}\n`);
  if (json) process.stdout.write(`${safeJson({ error: { code, message } })}\n`);
  return EXIT.failure;
}

/** `a,b, c` → ["a", "b", "c"]; undefined stays undefined. */
export function splitList(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(",").map((s) => s.trim()).filter(Boolean);
}

/** Reads stdin whole, refusing more than `max` bytes. */
export async function readStdin(max: number, stream: AsyncIterable<unknown> = process.stdin, what = "on stdin"): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const b = c as Buffer;
    size += b.length;
    if (size > max) throw new MemoryError("too_large", `more than ${max.toLocaleString("en")} bytes ${what}`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A memory for people: a header line (id, kind, source, age, session, salience, tags) and its text, wrapped at nothing. */
export function renderMemory(m: Memory, now: number, full = false, absolute = false): string {
  const ago = (t: string) => shownTime(t, now, absolute);
  const head = [idOf(m), field(m.kind, 20), field(m.source, 10), ago(m.createdAt), ...(m.session ? [`session ${field(m.session, 40)}${assistantLabel(m.assistant) ? ` (${assistantLabel(m.assistant)})` : ""}`] : []), ...(m.salience !== undefined ? [`salience ${m.salience.toFixed(2)}`] : []), ...(m.tags.length ? [`tags ${m.tags.map((t) => field(t, 64)).join(",")}`] : [])];
  const lines = [head.join("  "), `   ${prose(m.text, full ? Number.POSITIVE_INFINITY : 300)}`];
  if (m.path !== undefined) lines.push(`   (${field(m.path, 300)}:${m.startLine}-${m.endLine}: edit the file to change it)`);
  else if (full && m.files.length > 0) lines.push(`   files: ${m.files.map((f) => field(f, 300)).join(", ")}`);
  if (m.stale) lines.push(`   (${field(m.stale, 200)})`);
  if (m.record) lines.push(`   ${m.record.team ? "team record" : "record"}: ${[...(m.record.status ? [] : ["no status"]), ...recordParts(m.record, 8), ...(m.record.supersededBy && !(m.record.status ?? "").includes("superseded by") ? [`superseded by ${m.record.supersededBy}`] : [])].map((x) => field(x, 120)).join(", ")}`);
  // One memory, both sources: the team record and the local memory it stands for.
  if (m.alsoLocal?.length) lines.push(`   also local: ${m.alsoLocal.map((id) => field(id, 20)).join(", ")} (mem get ID shows it)`);
  if (m.team) lines.push(`   also a team record: ${m.team.id} ${field(m.team.path, 300)} (${[...(m.team.record.status ? [] : ["no status"]), ...recordParts(m.team.record, 8)].map((x) => field(x, 120)).join(", ")})`);
  if (m.sources) {
    const each = m.sources.map((e) => `${field(e.source, 10)}${e.session ? ` in session ${field(e.session, 40)}` : ""} ${ago(e.time)}`);
    lines.push(`   stated ${m.sources.length} times (confidence ${m.confidence ?? 1}): ${full ? each.join("; ") : each.slice(0, 3).join("; ")}${!full && each.length > 3 ? "; …" : ""}`);
  }
  if (full && m.updatedAt !== m.createdAt) lines.push(`   edited ${ago(m.updatedAt)}`);
  for (const h of m.history ?? []) lines.push(`   v${h.version}, ${ago(h.at)}: ${field(h.kind, 20)}: ${prose(h.text, 300)}`);
  return lines.join("\n");
}

/** After a write in this process: a running daemon told (src/daemon/nudge.ts; `mem ui` tells it too). */
export { nudgeDaemon } from "../daemon/nudge.js";

/**
 * A line for stderr when a listing came back empty for a project nothing was ever stored under (a
 * typo in `--project`, a directory never indexed); none when the project holds something.
 */
export function unknownProjectNote(db: Db, project: string): string | undefined {
  return projectHoldsAnything(db, project) ? undefined : `note: nothing is stored for project ${field(project, 300)}; \`mem status\` lists the projects there are\n`;
}
