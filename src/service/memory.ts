import { randomBytes } from "node:crypto";
import { chunkCapturedEvents } from "../../indexer/captured.js";
import { staleFlags } from "../anchor/staleness.js";
import { afterCapture } from "../capture/after.js";
import type { CapturedEvent } from "../store/event-types.js";
import type { Config } from "../config/config.js";
import { effectiveSalience, salienceConfig } from "../memory/salience.js";
import { clean, cleanText } from "../redact/clean.cjs";
import { ChunkStore } from "../store/chunks.js";
import { eventChunkId } from "../store/chunk-ids.js";
import type { Db } from "../store/db.js";
import { EventStore } from "../store/events.js";
import { historyOf, insertMemory, markdownChunks, memoryById, memoryByKey, patchMemory } from "../store/memories.js";
import { mergedInto } from "../store/merge.js";
import { forgottenWithChunkPrefix, memoryIdsWithPrefix } from "../store/memory-ids.js";
import { distinctLength, type IdInput, LEGACY_PREFIX, parseId, tooShortMessage } from "../store/one-id.js";
import { recordCounts, recordsOf } from "../store/records.js";
import { rowKindOf } from "../store/row-kind.js";
import { usesOf } from "../store/salience.js";
import { fromMarkdown, fromRecord, markdownMemory, toMemory } from "./convert.js";
import { sessionIn } from "./session-id.js";
import { listSources, withSources } from "./team.js";
import { checkKind, checkList, checkText, FILE, keyedId, MIN_ID_PREFIX, TAG } from "./memory-input.js";
import { MAX_FILES, MAX_TAGS, type ListFilter, type Memory, type PatchInput, type PutInput } from "./types.js";
import { MemoryError } from "../util/memory-error.js";

/**
 * The memory service: what the CLI, the daemon's socket and the MCP server all call (none repeats
 * its logic). A memory is durable in SQLite, and searchable by BM25, when a call returns; vectors
 * follow in the daemon. Everything written passes the redaction boundary (`<private>` spans
 * removed too), as for capture.
 */
export interface ServiceContext {
  db: Db;
  config: Config;
  projectRoot: (project: string) => string | undefined;
  now?: () => number;
  /**
   * The projects a caller bound to one project (the MCP server) may reach: `read` by get, list
   * and id prefixes, `write` by put, patch and forget. A memory of any other project is answered
   * exactly as a missing id is. Undefined: every project (the CLI, where the user chooses).
   */
  scope?: { read: readonly string[]; write: readonly string[] };
}

/** Where a task's or a prompt run's id is looked at, for "no memory X: that is …". */
const OTHER_ROW = {
  task: "a task's id: see it with `mem task list --all` (or the MCP tasks tool), close it with `mem task done ID` or `mem task drop ID`",
  prompt: "a prompt run's id: open it in the explorer (`mem ui`, its Prompts page: /prompt?id=ID)",
} as const;

const withLocals = (m: Memory, ids: string[]): Memory => (ids.length > 0 ? { ...m, alsoLocal: ids } : m);

export class MemoryService {
  private readonly now: () => number;
  constructor(private readonly ctx: ServiceContext) {
    this.now = ctx.now ?? Date.now;
  }

  /**
   * A new explicit memory; or (same client key in the project) the one already put; or (the same
   * statement as a memory of the project, src/memory/same-memory.ts) that memory, confirmed: one
   * memory, its confidence raised, this statement among its sources.
   */
  put(input: PutInput): { memory: Memory; created: boolean; confirmed?: true } {
    const text = cleanText(checkText(input.text)).trim(); // a <private> span removed leaves no edge of spaces
    if (text === "") throw new MemoryError("bad_argument", "text must hold something besides <private> spans");
    const kind = checkKind(input.kind);
    const tags = checkList(input.tags, "tags", MAX_TAGS, TAG);
    const files = checkList(input.files, "files", MAX_FILES, FILE);
    const project = cleanText(input.project);
    this.mayWrite(project);
    const key = input.clientKey === undefined ? null : cleanText(checkText(input.clientKey, "client key").slice(0, 200));
    // One IMMEDIATE transaction: the key's check and every write, under the write lock from the
    // start (a concurrent writer, such as a background index run, is waited for, never a failure).
    const put = this.ctx.db.transaction((): { id: string; created: boolean } => {
      if (key !== null) {
        const had = memoryByKey(this.ctx.db, project, key);
        const into = had?.deleted_at ? mergedInto(this.ctx.db, had.id) : undefined;
        if (into !== undefined) return { id: into, created: false }; // merged into another memory: that one
        if (had?.deleted_at) throw new MemoryError("forgotten", `the memory put under this key (${had.id}) was forgotten`);
        if (had) return { id: had.id, created: false };
      }
      const now = this.now();
      const id = key !== null ? keyedId(project, key) : `mem:${randomBytes(12).toString("hex")}`;
      const session = input.session ? cleanText(input.session) : null;
      const event: CapturedEvent = { id, type: kind as CapturedEvent["type"], time: new Date(now).toISOString(), session: session ?? "", files, text, confidence: 1, metadata: { source: "explicit", tags } };
      const stored = clean([event]);
      if (!insertMemory(this.ctx.db, clean({ id, project, session, kind, time: event.time, text, files, metadata: { source: "explicit", tags, confidence: 1 }, idempotencyKey: key }))) {
        throw new MemoryError("bad_argument", `a memory ${id} is already stored under another key or id; nothing stored`);
      }
      // As a capture would: the task list, anchors to the files it names, convergence, confirmation.
      afterCapture(this.ctx.db, { project, session: session ?? cleanText(""), now, events: stored, taskChanges: clean([]) });
      chunkCapturedEvents(this.ctx.db, new ChunkStore(this.ctx.db), project, now); // searchable by BM25 at once
      return { id, created: true };
    });
    const done = put.immediate();
    // The same statement as a memory already stored: merged into it (src/capture/merge-same.ts).
    const into = done.created ? mergedInto(this.ctx.db, done.id) : undefined;
    if (into !== undefined) return { memory: this.get(into), created: false, confirmed: true };
    return { memory: this.get(done.id), created: done.created };
  }

  /** Refuses a write outside the scope: another project is unknown, a read-only one says so. */
  private mayWrite(project: string): void {
    const s = this.ctx.scope;
    if (!s || s.write.includes(project)) return;
    if (s.read.includes(project)) throw new MemoryError("read_only", `${JSON.stringify(project.slice(0, 200))} is read-only here`);
    throw new MemoryError("unknown_project", `no project ${JSON.stringify(project.slice(0, 200))} here`);
  }

  /** Whether a memory of `project` may be seen (any project without a scope). */
  private readable(project: string): boolean {
    return !this.ctx.scope || this.ctx.scope.read.includes(project);
  }

  /**
   * A memory by id: an event (explicit or captured) or a markdown chunk. A short id that one live
   * memory and forgotten ones start stands for the live one, to read it; to change or forget one
   * (`liveFirst: false`) it is ambiguous, so a prefix typed again never reaches another memory.
   * `writing`: the memory is to be changed or forgotten, so it must be in the scope's `write`.
   */
  get(id: string, opts: { history?: boolean; liveFirst?: boolean; writing?: boolean } = {}): Memory {
    const m = this.find(id, opts);
    if (opts.writing) this.mayWrite(m.project);
    return m;
  }

  private find(typed: string, opts: { history?: boolean; liveFirst?: boolean }): Memory {
    const parsed = parseId(typed);
    if (!parsed.ok) throw new MemoryError("bad_argument", parsed.message);
    const input = parsed.id;
    const id = input.raw;
    const missing = () => new MemoryError("not_found", `no memory ${id}`);
    // A stored id, whole: as typed, or an explicit memory's hex given without its `mem:`. Another
    // project's is as if absent, and does not hide this project's memory whose one id it spells.
    const mine = (r: ReturnType<typeof memoryById>) => (r && this.readable(r.project) ? r : undefined);
    const row = mine(memoryById(this.ctx.db, id)) ?? (input.hex ? mine(memoryById(this.ctx.db, `${LEGACY_PREFIX}${input.bare}`)) : undefined);
    const into = row?.deleted_at ? mergedInto(this.ctx.db, row.id) : undefined;
    if (into !== undefined) return this.find(into, opts); // merged into another memory: that one stands for it
    if (row?.deleted_at) throw new MemoryError("not_found", `memory ${id} was forgotten`);
    if (row) {
      const [m] = this.decorate([withSources(this.ctx.db, toMemory(row))]);
      if (opts.history) m!.history = historyOf(this.ctx.db, row.id).map((h) => ({ version: h.version, at: new Date(h.at).toISOString(), kind: h.kind, text: h.text, tags: JSON.parse(h.tags) as string[] }));
      return m!;
    }
    const md = input.hex ? markdownMemory(this.ctx.db, input.bare) : undefined;
    if (md && this.readable(md.project)) return withSources(this.ctx.db, md);
    const resolved = this.resolve(input, opts.liveFirst ?? true);
    if (resolved !== undefined) return this.find(resolved, opts);
    const gone = input.hex && input.bare.length >= MIN_ID_PREFIX ? forgottenWithChunkPrefix(this.ctx.db, input.bare, this.ctx.scope?.read) : [];
    // The one id of a memory merged into another (by mem reindex or an import): that one stands for it.
    const merged = gone.length === 1 ? mergedInto(this.ctx.db, gone[0]!) : undefined;
    if (merged !== undefined) return this.find(merged, opts);
    if (gone.length > 0) throw new MemoryError("not_found", `memory ${id} was forgotten`);
    if (input.hex && input.bare.length < MIN_ID_PREFIX) throw new MemoryError("bad_argument", tooShortMessage(id)); // "3c": not "no memory 3c"
    const other = input.hex ? rowKindOf(this.ctx.db, input.bare, this.ctx.scope?.read) : undefined; // a task's or a prompt run's id: where it is
    if (other !== undefined) throw new MemoryError("not_found", `no memory ${id}: that is ${OTHER_ROW[other]}`);
    throw missing();
  }

  /**
   * The memory an id stands for when it is not a whole stored id: the one id every output shows
   * (the start of its chunk's id, src/store/one-id.ts), an older short id, a whole chunk id, or
   * the start of a memory's own id (with or without `mem:`), when only one memory matches.
   * Undefined when none does; an error listing them when several do.
   */
  private resolve(input: IdInput, liveFirst: boolean): string | undefined {
    if (input.raw.length < MIN_ID_PREFIX) return undefined;
    const all = memoryIdsWithPrefix(this.ctx.db, input, 6, MIN_ID_PREFIX, this.ctx.scope?.read).filter((m) => m.id !== input.raw);
    const live = all.filter((m) => !m.forgotten);
    // One live memory is the one meant, whatever was forgotten (to read); with none, a lone forgotten one is named (to say so).
    if (all.length <= 1 || (liveFirst && live.length === 1)) return (live[0] ?? all[0])?.id;
    const found = liveFirst && live.length > 0 ? live : all;
    const n = distinctLength(found.map((m) => m.chunk));
    const listed = found.slice(0, 5).map((m) => `${m.chunk.slice(0, n)}${m.forgotten ? " (forgotten)" : ""}`);
    throw new MemoryError("bad_argument", `id ${JSON.stringify(input.raw.slice(0, 80))} is ambiguous: it starts ${found.length > 5 ? "more than 5" : found.length} memories' ids: ${listed.join(", ")}${found.length > 5 ? ", …" : ""}; give more of it`);
  }

  /**
   * Memories captured or put in a project, newest first, filtered and paged; then, unless a
   * source, session, tag, text or time filter is given, the project's decision records (one a
   * file). Markdown notes only when `sources` names "markdown": after the events, by file and line.
   */
  list(f: ListFilter): { total: number; memories: Memory[] } {
    const limit = f.limit ?? 50;
    const offset = f.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new MemoryError("bad_argument", "limit must be an integer from 1 to 1000");
    if (!Number.isInteger(offset) || offset < 0) throw new MemoryError("bad_argument", "offset must be a whole number");
    if (!this.readable(f.project)) throw new MemoryError("unknown_project", `no project ${JSON.stringify(f.project.slice(0, 200))} here`);
    if (f.team) return this.teamList(f, limit, offset);
    // The whole id, the short form outputs show, or a unique start (src/render/session-id.ts).
    const session = f.session ? sessionIn(this.ctx.db, f.project, f.session) : undefined;
    const eventSources = f.sources?.filter((s) => s !== "markdown");
    // A local memory a team record is too is listed once, as the record (src/service/team.ts).
    const recordsToo = f.sources === undefined && !f.session && !f.tags && !f.text && !f.since && !f.until;
    const both = recordsToo ? listSources(this.ctx.db, f.project) : undefined;
    const common = { ...(f.kinds ? { kinds: f.kinds } : {}), ...(f.tags ? { tags: f.tags } : {}), ...(f.text ? { text: f.text } : {}), ...(f.since ? { since: f.since } : {}), ...(f.until ? { until: f.until } : {}) };
    let total = 0;
    const memories: Memory[] = [];
    if (eventSources === undefined || eventSources.length > 0) {
      const r = new EventStore(this.ctx.db).list(f.project, { ...common, ...(session !== undefined ? { session } : {}), ...(eventSources ? { sources: eventSources } : {}), ...(both ? { exclude: both.hidden } : {}), limit, offset });
      total += r.total;
      memories.push(...this.decorate(r.rows.map((e) => toMemory({ ...e, updated_at: e.updatedAt ?? null }))));
    }
    // Decision records (docs/adr/…) are memories of their kind: listed after the events, one a file.
    if (recordsToo) {
      const kinds = f.kinds ?? [];
      const counts = recordCounts(this.ctx.db, f.project);
      const n = (kinds.length === 0 ? Object.values(counts) : kinds.map((k) => counts[k] ?? 0)).reduce((a, b) => a + b, 0);
      const rows = limit > memories.length ? recordsOf(this.ctx.db, f.project, kinds, limit - memories.length, Math.max(0, offset - total)) : [];
      total += n;
      memories.push(...rows.map((r) => withLocals(fromRecord(r), both!.alsoLocal(r.chunk))));
    }
    if (f.sources?.includes("markdown") && !f.session) {
      const r = markdownChunks(this.ctx.db, f.project, { ...common, limit: limit - memories.length, offset: Math.max(0, offset - total) });
      total += r.total;
      memories.push(...r.rows.map(fromMarkdown));
    }
    return { total, memories };
  }

  /** The project's team records (of `kinds`, all when none), newest first, each with the local memories it stands for. */
  private teamList(f: ListFilter, limit: number, offset: number): { total: number; memories: Memory[] } {
    const kinds = f.kinds ?? [];
    const counts = recordCounts(this.ctx.db, f.project, true);
    const total = (kinds.length === 0 ? Object.values(counts) : kinds.map((k) => counts[k] ?? 0)).reduce((a, b) => a + b, 0);
    const both = listSources(this.ctx.db, f.project);
    return { total, memories: recordsOf(this.ctx.db, f.project, kinds, limit, offset, true).map((r) => withLocals(fromRecord(r), both.alsoLocal(r.chunk))) };
  }

  /** Edits an explicit or captured memory (its previous version kept); a markdown memory is edited in its file. */
  patch(id: string, p: PatchInput): Memory {
    const before = this.get(id, { liveFirst: false, writing: true });
    if (before.source === "markdown") throw new MemoryError("markdown", `memory ${id} comes from ${before.path}:${before.startLine}-${before.endLine}: edit the file, then \`mem index\``);
    if (p.text === undefined && p.kind === undefined && p.tags === undefined) throw new MemoryError("bad_argument", "nothing to change: give text, kind or tags");
    const text = p.text === undefined ? before.text : checkText(p.text);
    const kind = p.kind === undefined ? before.kind : checkKind(p.kind);
    const tags = p.tags === undefined ? before.tags : checkList(p.tags, "tags", MAX_TAGS, TAG);
    const row = memoryById(this.ctx.db, before.id)!;
    const metadata = { ...(JSON.parse(row.metadata) as Record<string, unknown>), tags };
    patchMemory(this.ctx.db, before.id, clean({ kind, text, metadata }), this.now());
    chunkCapturedEvents(this.ctx.db, new ChunkStore(this.ctx.db), cleanText(before.project), this.now());
    return this.get(before.id, { history: true });
  }

  /** Salience and the outdated flag, for memories that are events. */
  private decorate(ms: Memory[]): Memory[] {
    const now = this.now();
    const cfg = salienceConfig(this.ctx.config.salience);
    const byProject = new Map<string, Memory[]>();
    for (const m of ms) if (m.source !== "markdown") byProject.set(m.project, [...(byProject.get(m.project) ?? []), m]);
    for (const [project, list] of byProject) {
      const uses = usesOf(this.ctx.db, list.map((m) => eventChunkId(project, m.id)));
      const flags = staleFlags(this.ctx.db, list.map((m) => m.id), this.ctx.projectRoot(project), now);
      for (const m of list) {
        const use = uses.get(eventChunkId(project, m.id));
        const eff = effectiveSalience({ kind: m.kind, source: "captured", createdAt: Date.parse(m.createdAt) }, use, now, cfg);
        m.salience = Math.round(eff.value * 1000) / 1000;
        m.uses = eff.uses;
        m.stale = flags.get(m.id)?.text ?? null;
      }
    }
    return ms;
  }
}
