/**
 * The daemon's source watcher: keeps the indexed roots fresh while it runs (the class comment says
 * how). This file holds the roots and their watchers, the debounce, the polling and the startup
 * check; ./watch-events.ts says what an event means, ./watch-run.ts runs the re-indexes.
 */
import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import { dirname, join } from "node:path";
import { quickStale, recordFolderGone } from "../../indexer/stale.js";
import { recordFolders } from "../config/team-folder.js";
import { chunkingKey } from "../../indexer/chunking-key.js";
import { walkDirs } from "../../indexer/sources.js";
import type { Config } from "../config/config.js";
import type { Db } from "../store/db.js";
import { listRoots } from "../store/roots.js";
import { eventEffect } from "./watch-events.js";
import { ReindexQueue } from "./watch-run.js";

/** How often the roots table is read again (a root `mem index` added while the daemon runs). */
const SYNC_MS = 10_000;
/** The startup check's stat budget (no walk on the daemon's thread). */
const STARTUP_BUDGET = 2_000;

export interface WatchOptions {
  db: Db;
  /** The data home: its vector store is never watched (it changes with every vector written). */
  home: string;
  config: Config;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

export interface WatchStatus {
  roots: number;
  watched: number;
  polled: number;
  missing: number;
  dirs: number;
  /** Re-indexes started since the daemon started (watched changes, polls, the startup check). */
  reindexes: number;
  /** A re-index is running or waiting to. */
  busy: boolean;
}

interface Root {
  project: string;
  path: string;
  mode: "watch" | "poll" | "missing";
  file: boolean;
  watchers: Map<string, FSWatcher>;
  timer?: NodeJS.Timeout;
  firstAt?: number;
  rewalk: boolean;
  queued: boolean;
  /** The last problem logged (said once, not at every poll). */
  problem?: string;
}

const keyOf = (project: string, path: string) => `${project}\0${path}`;

/**
 * Keeps the indexed roots (the `roots` table) fresh while the daemon runs. Each root's directories
 * (those the indexer walks: ignore rules honoured, `.git` skipped) are watched one by one with
 * fs.watch, non-recursive: Node 20's `recursive` option on Linux is a JavaScript emulation that
 * stats and watches every file and directory of the tree, ignore rules or not. At most
 * `daemon.watchMaxDirs` directories are watched in all; a root that would pass the bound, or that
 * is missing or unreadable, is checked every `daemon.watchPollMs` instead. A change to a source
 * re-indexes its root `daemon.watchDebounceMs` after the last change seen (at most ten times that
 * after the first), one root at a time, in a `mem index` child process: the prompt's search never
 * waits for it, not even for the walk. Everything is released when the daemon stops.
 */
export class SourceWatch {
  private readonly roots = new Map<string, Root>();
  private readonly skip: Set<string>;
  private dirs = 0;
  private readonly queue: ReindexQueue;
  private closed = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly o: WatchOptions) {
    this.skip = new Set([join(o.home, "vectors")]);
    this.queue = new ReindexQueue(o.env, o.log);
  }

  start(): void {
    this.sync();
    const live = [...this.roots.values()].filter((r) => r.mode !== "missing");
    // What changed while no daemon watched: a cheap check now, the full one (`--stale`) in the child.
    const { stale, partial } = quickStale(this.o.db, live, { budget: STARTUP_BUDGET, now: Date.now(), chunking: chunkingKey(this.o.config.index) }); // after an upgrade that chunks otherwise, too
    if (stale.length > 0 || partial) this.queue.enqueue(() => this.queue.run(["--stale", ...(partial ? live : stale).map((r) => r.path)], "changes made while no daemon watched"));
    const d = this.o.config.daemon;
    this.timers.push(setInterval(() => this.sync(), SYNC_MS), setInterval(() => this.poll(), d.watchPollMs));
    for (const t of this.timers) t.unref();
    const s = this.status();
    this.o.log(`watching ${s.watched} root(s) in ${s.dirs} directories${s.polled ? `, ${s.polled} scanned every ${d.watchPollMs / 1000} s` : ""}${s.missing ? `, ${s.missing} missing` : ""}`);
  }

  status(): WatchStatus {
    const all = [...this.roots.values()];
    const n = (m: Root["mode"]) => all.filter((r) => r.mode === m).length;
    return { roots: all.length, watched: n("watch"), polled: n("poll"), missing: n("missing"), dirs: this.dirs, reindexes: this.queue.started, busy: this.queue.busy };
  }

  /** Releases every watcher and timer; a re-index under way may finish (then is stopped). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    for (const r of this.roots.values()) {
      clearTimeout(r.timer);
      this.unwatch(r);
    }
    await this.queue.close();
  }

  /** Roots added since (watched from now on) or gone from the table (released). */
  private sync(): void {
    if (this.closed) return;
    const rows = listRoots(this.o.db);
    const keys = new Set(rows.map((r) => keyOf(r.project, r.path)));
    for (const [k, r] of this.roots) {
      if (keys.has(k)) continue;
      clearTimeout(r.timer);
      this.unwatch(r);
      this.roots.delete(k);
    }
    for (const row of rows) {
      const k = keyOf(row.project, row.path);
      if (this.roots.has(k)) continue;
      const r: Root = { project: row.project, path: row.path, mode: "watch", file: false, watchers: new Map(), rewalk: false, queued: false };
      this.roots.set(k, r);
      this.setup(r);
    }
  }

  private setup(r: Root): void {
    let isDir: boolean;
    try {
      isDir = statSync(r.path).isDirectory();
    } catch (err) {
      this.missing(r, (err as NodeJS.ErrnoException).code ?? "unreadable");
      return;
    }
    r.mode = "watch";
    r.file = !isDir;
    if (r.file) {
      if (!this.watchDir(r, dirname(r.path))) this.toPoll(r, "its directory cannot be watched");
      return;
    }
    const budget = this.o.config.daemon.watchMaxDirs - this.dirs;
    if (budget <= 0) {
      this.toPoll(r, `daemon.watchMaxDirs (${this.o.config.daemon.watchMaxDirs}) directories are watched already`);
      return;
    }
    let walk: ReturnType<typeof walkDirs>;
    try {
      walk = walkDirs(r.path, this.o.config.index.ignore, budget, this.skip, { followExternalLinks: this.o.config.index.followExternalLinks });
    } catch (err) {
      this.missing(r, (err as NodeJS.ErrnoException).code ?? "unreadable");
      return;
    }
    if (walk.truncated) {
      this.toPoll(r, `it has more than the ${budget} directories left to watch (daemon.watchMaxDirs)`);
      return;
    }
    for (const d of walk.dirs) {
      if (!this.watchDir(r, d)) {
        this.toPoll(r, "the system's limit on watches is reached (fs.inotify.max_user_watches)");
        return;
      }
    }
  }

  /** False when the system refuses more watches (ENOSPC, EMFILE); a directory gone meanwhile is skipped. */
  private watchDir(r: Root, dir: string): boolean {
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: false }, (_type, name) => this.onEvent(r, dir, name === null ? null : String(name)));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return code !== "ENOSPC" && code !== "EMFILE";
    }
    w.on("error", () => {
      // The directory went away (or the watch broke): watch the root again on its next re-index.
      if (r.watchers.get(dir) === w) this.drop(r, dir);
      r.rewalk = true;
      this.touch(r);
    });
    r.watchers.set(dir, w);
    this.dirs++;
    return true;
  }

  private drop(r: Root, dir: string): void {
    r.watchers.get(dir)?.close();
    r.watchers.delete(dir);
    this.dirs--;
  }

  private unwatch(r: Root): void {
    for (const dir of [...r.watchers.keys()]) this.drop(r, dir);
  }

  private toPoll(r: Root, why: string): void {
    this.unwatch(r);
    r.mode = "poll";
    if (r.problem !== why) this.o.log(`${r.path} is not watched: ${why}; it is scanned every ${this.o.config.daemon.watchPollMs / 1000} s instead`);
    r.problem = why;
  }

  private missing(r: Root, code: string): void {
    this.unwatch(r);
    r.mode = "missing";
    const why = code === "ENOENT" ? "is gone" : `is unreadable (${code})`;
    if (r.problem !== why) this.o.log(`warning: indexed root ${r.path} (project ${r.project}) ${why}; its notes stay searchable as they were indexed; checked again every ${this.o.config.daemon.watchPollMs / 1000} s`);
    r.problem = why;
  }

  private onEvent(r: Root, dir: string, name: string | null): void {
    if (this.closed) return;
    const effect = eventEffect(r, dir, name, this.skip);
    if (effect === "rewalk") r.rewalk = true;
    if (effect !== "none") this.touch(r);
  }

  /** Debounce: the re-index starts `watchDebounceMs` after the last change, at most ten times that after the first. */
  private touch(r: Root): void {
    if (this.closed) return;
    const now = Date.now();
    r.firstAt ??= now;
    clearTimeout(r.timer);
    const quiet = this.o.config.daemon.watchDebounceMs;
    r.timer = setTimeout(() => this.fire(r), Math.max(0, Math.min(quiet, r.firstAt + quiet * 10 - now)));
  }

  private fire(r: Root): void {
    r.firstAt = undefined;
    r.timer = undefined;
    if (r.queued || this.closed) return; // a re-index of it waits to start already: it will see this change too
    r.queued = true;
    this.queue.enqueue(async () => {
      r.queued = false;
      await this.reindex(r);
    });
  }

  private async reindex(r: Root): Promise<void> {
    try {
      statSync(r.path);
    } catch (err) {
      this.missing(r, (err as NodeJS.ErrnoException).code ?? "unreadable");
      // A decision folder a pull removed whole (its last record deleted): its records are forgotten, as `--stale` does.
      const gone = recordFolderGone(this.o.db, r, recordFolders(this.o.config));
      if (gone !== undefined) await this.queue.run(["--stale", r.path], gone);
      return;
    }
    if (r.mode === "missing") r.problem = undefined; // back: a later loss is told again
    if (r.mode !== "watch" || r.rewalk) {
      r.rewalk = false;
      this.unwatch(r);
      this.setup(r);
    }
    await this.queue.run(["--project", r.project, r.path], `changes under ${r.path}`);
  }

  /** Every `watchPollMs`: roots scanned instead of watched, and missing ones come back (checked for changes at once). */
  private poll(): void {
    if (this.closed) return;
    const targets = new Set<string>();
    for (const r of this.roots.values()) {
      if (r.mode === "missing") {
        if (!existsSync(r.path)) continue;
        this.o.log(`indexed root ${r.path} is back`);
        r.problem = undefined;
        this.setup(r);
        targets.add(r.path);
      } else if (r.mode === "poll") targets.add(r.path);
    }
    if (targets.size > 0) this.queue.enqueue(() => this.queue.run(["--stale", ...targets], "a scan of the roots not watched"));
  }
}
