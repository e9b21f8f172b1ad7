import { createServer } from "node:net";
import { captureStop } from "../capture/stop.js";
import { processCache } from "../anchor/cache.js";
import { scrubRewritten, scrubStore } from "../store/scrub.js";
import { cleanText } from "../redact/clean.cjs";
import { chmodSync, existsSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { openApp } from "../app.js";
import { snapshotIfDue } from "../store/snapshots.js";
import { pickEvery } from "../embed/chain.js";
import { captureToolPayload } from "../capture/record.js";
import { captureNotification } from "../capture/notification.js";
import { promptMode } from "../inject/for-prompt.js";
import { answerPrompt, delivered as answered } from "../inject/prompt-run.js";
import { projectAt } from "../project/scope.js";
import { GitChangesCache } from "../project/in-play.js";
import { ScanPool } from "../retrieve/scan-pool.js";
import { VecState } from "../store/vec-state.js";
import { heldFile, heldProblem } from "../store/identity.js";
import { vectorTableName } from "../store/vector-table-name.js";
import { dataHome, VECTOR_ROWS_DIR } from "../config/paths.cjs";
import { hookLog } from "../hooks/log.cjs";
import { malformedCapture } from "../contract/hook.cjs";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { isAbsolutePath } from "../util/absolute.cjs";
import { acquireLock } from "./lock.js";
import { BackgroundIndex } from "./background-index.js";
import { HookHttp } from "./hook-http.js";
import { MEMORY_OPS, MemoryOps } from "./memory-ops.js";
import { VectorCopies } from "../retrieve/vector-copies.js";
import { lockPath, pointerPath } from "./paths.cjs";
import { firstChoice, publish, settle, unpublish, type Place } from "./socket-place.js";
import { SourceWatch } from "./watch.js";
import { DecisionLookout } from "./decision-lookout.js";
import { answerBrief } from "./briefing-op.js";
import { pretoolOp } from "./pretool-op.js";
import { serveConnection } from "./connection.js";
import { daemonMemory } from "./status-op.js";

/** A stop waits this long for the background job under way; what it leaves, the next run does. */
const STOP_JOB_WAIT_MS = 5_000;
/** Whatever still holds the process this long after a stop began (a hung embed request), it exits. */
const STOP_EXIT_MS = 10_000;
/** How often the daemon brings its vector copies up to their tables between searches (`VectorCopies.catchUp`). */
const COPY_FOLLOW_MS = 5_000;

export interface ServeOptions {
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

/**
 * The warm daemon: holds SQLite, LanceDB and the embedder open, answers prompt hooks over a Unix
 * socket, and in the background turns captured events into chunks and vectors. One per data
 * home (lock file); exits after `daemon.idleMs` without a request. It listens only in a
 * directory no one else can write to, on a socket only its user can use (0600).
 */
export async function serve(opts: ServeOptions): Promise<number> {
  const home = dataHome(opts.env);
  ensurePrivateDir(home);
  const refuse = (why: string) => {
    opts.log(why);
    hookLog(opts.env, `mem serve: ${why}`); // a daemon the hook started logs nowhere else
    return 1;
  };
  const first = firstChoice(home, opts.env); // before SQLite is opened: a refused daemon costs little
  if (first.unsafe !== undefined && !first.fallback) return refuse(`refusing to listen on ${first.sock}: ${first.unsafe}`);
  const app = openApp(opts.env, { tolerateConfigErrors: true });
  if (app.configError) opts.log(`${app.configError}; running on the defaults`);
  const lock = acquireLock(lockPath(app.paths.home));
  if (!lock.ok) {
    opts.log(`a daemon is already running for ${app.paths.home} (pid ${lock.pid})`);
    await app.close();
    return 0;
  }
  const release = lock.release;
  const placed = settle(home, first); // a squatted directory: one of our own, now that the lock is ours
  if ("error" in placed) {
    release();
    await app.close();
    return refuse(placed.error);
  }
  const place: Place = placed;
  if (place.instead) {
    opts.log(place.instead);
    hookLog(opts.env, `mem serve: ${place.instead}`);
  }
  const sock = place.sock;
  // A store the weekly job never runs on still gets a snapshot a week, before the daemon listens (about 1 s at 100k chunks).
  const snap = snapshotIfDue(app.db, app.paths.sqlite, app.config.maintenance.keepSnapshots);
  if (snap && "error" in snap) hookLog(opts.env, `mem serve: could not take the weekly snapshot: ${snap.error}`);
  else if (snap) opts.log(`snapshot ${snap.id} taken`);
  // The store file as opened: a capture is never written through to one since truncated or replaced.
  const held = heldFile(app.paths.sqlite);
  const storeLost = (): string | undefined => {
    const gone = heldProblem(app.paths.sqlite, held);
    if (gone && !stopping) {
      opts.log(`the store ${app.paths.sqlite} is no longer the one this daemon opened (${gone}); stopping`);
      hookLog(opts.env, `mem serve: the store is no longer the one the daemon opened (${gone}); the daemon stops, captures go to the hooks`);
      setImmediate(() => void shutdown("store lost"));
    }
    return gone;
  };
  if (process.platform !== "win32") removeStale(sock); // left by a killed daemon; we hold the lock
  const started = Date.now();
  let requests = 0;
  const pickProvider = pickEvery(() => app.providers());
  const state = new VecState(app.db);
  // The files git sees changed, per repository, for ranking the prompt's memories (src/project/in-play.ts).
  const gitChanges = new GitChangesCache(5_000);
  const copies = new VectorCopies({ state, vectors: app.vectors, config: app.config.daemon, log: opts.log, rowsDir: join(app.paths.home, VECTOR_ROWS_DIR) });
  const vectorSearch = copies.search;
  // A copy follows its table between prompts too: rows another process removed (`mem forget
  // --purge`) leave it, and its int8 rows' file, within seconds, not at the next search.
  const following = setInterval(() => {
    if (stopping) return;
    try {
      copies.catchUp();
    } catch (err) {
      opts.log(`following the vector tables failed: ${(err as Error).message}`);
    }
  }, COPY_FOLLOW_MS);
  following.unref();
  let stopping = false;
  let hookHttp: HookHttp | undefined;
  const ops = new MemoryOps({ app, pickProvider, kick: () => background.kick(), vectorSearch });
  // Captured events → chunks → vectors, whoever wrote them (src/daemon/background-index.ts).
  const background = new BackgroundIndex({ app, state, ops, pickProvider, halted: () => stopping || storeLost() !== undefined, log: opts.log });

  // The indexed roots, re-indexed in a child process when they change (src/daemon/watch.ts).
  const lookout = new DecisionLookout({ db: app.db, config: app.config, home: app.paths.home, env: opts.env, log: (l) => opts.log(`watch: ${l}`) });
  const watcher = app.config.index.watch ? new SourceWatch({ db: app.db, home: app.paths.home, config: app.config, env: opts.env, log: (l) => opts.log(`watch: ${l}`) }) : undefined;
  let idle: NodeJS.Timeout;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => void shutdown("idle"), app.config.daemon.idleMs);
  };
  const onRequest = () => {
    requests++;
    touch();
  };
  // One JSON line in, one out (src/daemon/connection.ts).
  const server = createServer((conn) => serveConnection(conn, { answer, onRequest, log: opts.log }));

  /**
   * The reply to one request. `delivered` runs once the reply is written to a client still waiting
   * for it: a prompt's memories count as injected only then (a client past its budget has hung up).
   */
  async function answer(req: Record<string, unknown>, delivered: (then: () => void) => void): Promise<Record<string, unknown>> {
    if (typeof req.op === "string" && MEMORY_OPS.has(req.op)) return ops.answer(req); // src/daemon/memory-ops.ts
    switch (req.op) {
      case "ping":
        return { ok: true, pid: process.pid };
      case "status": {
        const p = await pickProvider();
        const inMemory = copies.status();
        // memory: the process's RSS and heap, and what the vector copies hold of it (`mem doctor` warns of a large RSS).
        return { ok: true, pid: process.pid, home: app.paths.home, socket: sock, startedAt: new Date(started).toISOString(), requests, provider: p.selected ? `${p.selected.provider.name} ${p.selected.provider.model}` : null, inMemory, memory: daemonMemory(inMemory), scanWorkers: ScanPool.live, watch: watcher?.status() ?? null };
      }
      case "prompt": {
        if (typeof req.prompt !== "string" || typeof req.cwd !== "string") return { ok: false, error: "prompt and cwd are required" };
        // The daemon's own directory is whichever session's started it: a relative cwd would name another project.
        if (!isAbsolutePath(req.cwd)) return { ok: false, error: "cwd must be an absolute path" };
        if (req.project !== undefined && (typeof req.project !== "string" || req.project.trim() === "")) return { ok: false, error: "project must be a project's id" };
        const t0 = performance.now();
        const ctx = { db: app.db, config: app.config, vectors: app.vectors, pickProvider, projectRoot: app.projectRoot, vectorSearch, gitChanges: (dir: string) => gitChanges.current(dir) };
        const mode = await promptMode(pickProvider);
        const session = cleanText(typeof req.session === "string" ? req.session : "");
        const a = await answerPrompt(ctx, { prompt: req.prompt, cwd: req.cwd, session, ...(typeof req.project === "string" ? { project: req.project } : {}) }, mode);
        const ms = Math.round((performance.now() - t0) * 100) / 100;
        // Once delivered: its chunks count as shown, and the run goes to the prompt log (src/inject/prompt-run.ts).
        if (a) delivered(() => answered(app.db, a, { session, prompt: req.prompt as string, ms, mode, at: Date.now() }, (l) => hookLog(opts.env, `mem serve: ${l}`)));
        // Files the staleness check met but did not hash (no hashing on the prompt's path): now, after the answer.
        if (processCache.pending.size > 0) setTimeout(() => processCache.warm(), 5).unref();
        // git's view of the files in play, refreshed after the answer too (never on the prompt's path).
        setTimeout(() => gitChanges.refreshWanted(), 5).unref();
        // A decision folder a pull created: indexed in the background, then watched.
        setTimeout(() => lookout.look(req.cwd as string), 5).unref();
        return { ok: true, ...(a?.injection ? { text: a.injection.text } : {}), ms };
      }
      case "brief": // SessionStart's briefing (src/daemon/briefing-op.ts)
        return answerBrief({ app, log: (l) => hookLog(opts.env, `mem serve: ${l}`), after: (cwd) => lookout.look(cwd) }, req, delivered);
      case "pretool":
        return pretoolOp(app, req, delivered, (l) => hookLog(opts.env, `mem serve: ${l}`));
      case "capture": {
        // PostToolUse(Failure), Stop and SubagentStop from the capture client: durable in SQLite before the reply.
        const p = req.payload;
        if (p === null || typeof p !== "object" || Array.isArray(p)) return { ok: false, error: "payload must be an object" };
        const payload = p as Record<string, unknown>;
        const malformed = malformedCapture(payload); // no session id: refused for good (never a session of no id), whoever sent it
        if (malformed) { hookLog(opts.env, `mem serve: capture: ${malformed}`); return { ok: false, error: malformed, code: "malformed" }; }
        // Not durable in a store that is gone: the hook writes it (and spools it, the store being lost).
        const gone = storeLost();
        if (gone) return { ok: false, error: `the memory store was lost (${gone})`, code: "store_lost" };
        // Not filed under the daemon's own directory's project: without an absolute cwd the hook writes it itself.
        if (typeof payload.cwd !== "string" || !isAbsolutePath(payload.cwd)) return { ok: false, error: "payload.cwd must be an absolute path" };
        if (req.event === "Notification") captureNotification(app.db, projectAt(app.db, payload.cwd, app.config.project.enclosing).id, payload, Date.now());
        else if (req.event === "Stop" || req.event === "SubagentStop") {
          const warning = captureStop(app.db, app.config, payload, Date.now());
          if (warning) hookLog(opts.env, warning);
        } else captureToolPayload(app.db, projectAt(app.db, payload.cwd, app.config.project.enclosing).id, payload, Date.now(), app.config.memory);
        background.nudge(); // its chunks' vectors now, not at the next tick
        return { ok: true };
      }
      case "stop":
        setImmediate(() => void shutdown("stop requested"));
        return { ok: true };
      default:
        return { ok: false, error: `unknown op ${JSON.stringify(req.op)}` };
    }
  }

  background.start();
  // What an older mem stored under older redaction rules is redacted again, once, off the prompt's path.
  void background.queue
    .add(() => {
      const r = scrubStore(app.db);
      if (r) opts.log(`redacted again what was stored under older rules: ${scrubRewritten(r)} row(s) changed of ${r.scanned}`);
    })
    .catch((err: Error) => opts.log(`redacting stored data again failed: ${err.message}`));

  async function shutdown(why: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    opts.log(`daemon stopping (${why})`);
    setTimeout(() => process.exit(0), STOP_EXIT_MS).unref(); // only fires if something outlives the close below
    clearTimeout(idle);
    clearInterval(following);
    server.close();
    hookHttp?.close();
    await watcher?.close().catch(() => undefined);
    if (!(await within(background.close(), STOP_JOB_WAIT_MS))) opts.log("the background job is still waiting (on the embedder?); the next run finishes it");
    await copies.close(); // the scan workers
    if (process.platform !== "win32" && existsSync(sock)) unlinkSync(sock);
    unpublish(home, place);
    release();
    await app.close().catch(() => undefined);
    resolveDone(0);
  }

  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => (resolveDone = r));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    const umask = process.umask(0o077); // no moment open to others (bind is synchronous); 0600 below
    try {
      server.listen(sock, () => resolve());
    } finally {
      process.umask(umask);
    }
  });
  if (process.platform !== "win32") chmodSync(sock, 0o600);
  // The hot hooks over HTTP for bin/mem-hook.sh's curl client (src/daemon/hook-http.ts).
  const hookSock = place.hookSock;
  if (hookSock) {
    const http = new HookHttp({ answer, budgetMs: app.config.daemon.clientBudgetMs, pretoolBudgetMs: app.config.pretool.budgetMs, onRequest, hookLog: (l) => hookLog(opts.env, l) });
    await http.listen(hookSock, place.budgetFile).then(
      () => (hookHttp = http),
      (err: Error) => opts.log(`hook socket ${hookSock}: ${err.message}; hooks use the Node client`),
    );
  }
  try {
    publish(home, place);
  } catch (err) {
    opts.log(`could not write ${pointerPath(home)}: ${(err as Error).message}; the hooks will not find this daemon`);
  }
  touch();
  opts.log(`daemon ${process.pid} listening on ${sock}${hookHttp ? ` and ${hookSock}` : ""}`);
  try {
    watcher?.start();
  } catch (err) {
    opts.log(`watch: could not start: ${(err as Error).message}`);
  }
  // Warm up: pick the provider, load its model and its table into memory now, not on the first prompt.
  void pickProvider()
    .then(async (p) => {
      if (!p.selected) return;
      const [v] = await p.selected.provider.embed(["warm up"], "query");
      const table = vectorTableName(p.selected.provider, p.selected.dims);
      background.kick(); // chunks written while no daemon ran (or a crash left) without vectors
      if (state.has(table)) await vectorSearch(table, p.selected.dims, v!, undefined, 1);
    })
    .catch((err: Error) => opts.log(`warm-up failed: ${err.message}`));
  return done;
}

function removeStale(sock: string): void {
  try {
    unlinkSync(sock);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/** Whether `p` settles within `ms`. */
function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((r) => (t = setTimeout(() => r(false), ms)));
  return Promise.race([p.then(() => true, () => true), late]).finally(() => clearTimeout(t));
}
