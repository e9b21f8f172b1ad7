/**
 * The daemon's background indexing: captured events become chunks, chunks get their vectors, and
 * the leg they fill is calibrated (indexer/vector-pass.ts). It runs
 * - every `daemon.indexEveryMs` (the fallback, and the retry of what an index run put off);
 * - within a second of another process committing to SQLite (SQLite's `data_version` changes): a
 *   hook that wrote its capture itself, `mem remember`, MCP remember, a spool replayed;
 * - right after a capture the daemon made itself (`nudge`), a few captures of a burst at once;
 * - when asked (`kick`: a put, a sync).
 * What needs vectors is read from the store (./vector-backlog.ts), not from who wrote it.
 */
import PQueue from "p-queue";
import { chunkCapturedEvents } from "../../indexer/captured.js";
import { vectorPass } from "../../indexer/vector-pass.js";
import type { App } from "../app.js";
import type { Selected, Unhealthy } from "../embed/chain.js";
import { indexLockPath } from "../maintenance/index-lock.js";
import { ChunkStore } from "../store/chunks.js";
import { EventStore } from "../store/events.js";
import { noteWrites } from "../store/identity.js";
import type { VecState } from "../store/vec-state.js";
import { vectorTableName } from "../store/vector-table-name.js";
import { acquireLock } from "./lock.js";
import type { MemoryOps } from "./memory-ops.js";
import { VectorBacklog } from "./vector-backlog.js";

/** Chunks the background vector step embeds per project before it lets go of index.lock. */
const EMBED_SHARE = 256;
/** How often SQLite's data_version is read (at most; never more often than `indexEveryMs`). */
const CHANGE_POLL_MS = 1_000;
/** A capture's nudge waits this long for the rest of its burst. */
const NUDGE_MS = 150;

export interface BackgroundOptions {
  app: App;
  state: VecState;
  ops: MemoryOps;
  pickProvider: () => Promise<{ selected?: Selected; unhealthy: Unhealthy[] }>;
  /** True when the daemon stops or its store was lost: nothing more is started. */
  halted: () => boolean;
  log: (line: string) => void;
}

export class BackgroundIndex {
  /** One job at a time: the indexing, the redaction of old rows. */
  readonly queue = new PQueue({ concurrency: 1 });
  private readonly backlog: VectorBacklog;
  private readonly timers: NodeJS.Timeout[] = [];
  private nudged: NodeJS.Timeout | undefined;
  private dataVersion: number | undefined;

  constructor(private readonly o: BackgroundOptions) {
    this.backlog = new VectorBacklog(o.app.db);
  }

  start(): void {
    const every = this.o.app.config.daemon.indexEveryMs;
    this.timers.push(setInterval(() => this.kick(), every), setInterval(() => this.changed() && this.kick(), Math.min(CHANGE_POLL_MS, every)));
  }

  /** After a capture made here: the indexing soon, once for a burst. */
  nudge(): void {
    if (this.nudged) return;
    this.nudged = setTimeout(() => {
      this.nudged = undefined;
      this.kick();
    }, NUDGE_MS);
  }

  /** Another connection committed since the last look. */
  private changed(): boolean {
    const v = this.o.app.db.pragma("data_version", { simple: true }) as number;
    const was = this.dataVersion;
    this.dataVersion = v;
    return was !== undefined && v !== was;
  }

  /** Captured events → chunks → vectors (and calibration), for every project that needs them. */
  kick(): void {
    if (this.queue.size > 0 || this.o.halted()) return;
    void this.queue
      .add(() => this.run())
      .then(() => noteWrites(this.o.app.db, this.o.app.paths.sqlite)) // the store's counts, for the next open to check it against
      .catch((err: Error) => this.o.log(`background indexing failed: ${err.message}`));
  }

  private async run(): Promise<void> {
    const { app, ops, state } = this.o;
    const fresh = new EventStore(app.db).projectsToChunk();
    const store = new ChunkStore(app.db);
    for (const project of fresh) chunkCapturedEvents(app.db, store, project, Date.now());
    // Chunks the active table lacks, whoever wrote them (no provider: only what was written here).
    const p = await this.o.pickProvider();
    const table = p.selected ? vectorTableName(p.selected.provider, p.selected.dims) : undefined;
    const projects = [...new Set([...fresh, ...ops.takeDirty(), ...(table ? await this.backlog.due(table, Date.now()) : [])])].sort();
    if (projects.length === 0) return;
    const providers = await app.providers();
    if (providers.length === 0) return;
    // Vectors only while no index run writes the tables (`mem index`, its re-index of a saved
    // file): two runs would embed the same chunks, and one's redo could undo the other's.
    const lock = acquireLock(indexLockPath(app.paths.home));
    if (!lock.ok) return ops.keepDirty(projects); // the next tick tries again
    let more = false;
    try {
      for (const [i, project] of projects.entries()) {
        if (this.o.halted()) return ops.keepDirty(projects.slice(i)); // stopping: the store's backlog keeps the rest
        // A share at a time: an index run waiting for the lock waits for one share, not a whole backlog.
        const r = await vectorPass({ db: app.db, project, providers, state, vectors: app.vectors, batchSize: app.config.embedding.batchSize, concurrency: 1, full: false, now: Date.now, maxRows: EMBED_SHARE, warn: this.o.log });
        ops.vectorStep(project, r);
        if (r.table) this.backlog.visited(r.table, project, r.status === "ok", Date.now());
        if (table && r.table !== table) this.backlog.visited(table, project, false, Date.now()); // another provider answered: the chosen one's gap is retried later
        if (r.status === "skipped") this.o.log(`vector step skipped for ${project}: ${r.reason}`);
        if (r.limited) {
          ops.keepDirty([project]);
          more = true;
        }
      }
    } finally {
      lock.release();
    }
    if (more && !this.o.halted()) setTimeout(() => this.kick(), 250).unref(); // the rest soon, the lock free meanwhile
  }

  /** Stops the timers and waits for the job under way. */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    clearTimeout(this.nudged);
    await this.queue.onIdle().catch(() => undefined);
  }
}
