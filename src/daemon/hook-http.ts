import { chmodSync, unlinkSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import { claudePayload } from "../contract/assistants.cjs";
import { contextOutput, DAEMON_HOOKS, DEADLINE_MS, HOOK_EVENTS, type HookName, isHookName, MAX_STDIN_BYTES, parsePayload, str } from "../contract/hook.cjs";
import { hookAsk } from "../hooks/via-daemon.cjs";
import { isAbsolutePath } from "../util/absolute.cjs";
import { replacePrivate } from "../util/private-file.cjs";

/**
 * The daemon's second socket: the hot hooks over HTTP, for the curl client in bin/mem-hook.sh.
 * A hook that is a shell and curl costs a few milliseconds where a Node process costs its
 * start-up (~30 ms) on every prompt and tool call. `POST /hook/<name>` takes the hook's stdin as
 * its body and answers with what the hook prints: the same requests, through the same `answer`,
 * as the Node client's (src/hooks/via-daemon.cts). Any status but 200 sends the client to the
 * Node hook with the same payload, which then decides as it always has (logs a bad payload,
 * answers in-process, writes a capture itself).
 *
 * Like the main socket: 0600, in the data home (0700) or, for a data home whose path is too long,
 * beside the main socket in its private directory; never on Windows.
 */

export const HOOK_SOCKET = "hook.sock";
/** daemon.clientBudgetMs in seconds, for the client's `curl -m`. */
export const HOOK_BUDGET_FILE = "hook.budget";

/**
 * The curl client's socket for a data home; undefined on Windows, or where the path is too long
 * for a socket address: then it is beside the daemon's main socket (`hookSocketBeside`), which
 * the curl client finds through the data home's socket.path (src/daemon/paths.cts).
 */
export function hookSocketPath(home: string, platform: string = process.platform): string | undefined {
  if (platform === "win32") return undefined;
  const p = join(home, HOOK_SOCKET);
  return Buffer.byteLength(p) < 100 ? p : undefined;
}

/**
 * How long curl waits for a prompt's answer, and how long the daemon may take to count it as
 * shown: daemon.clientBudgetMs, but never past the Node hook's own deadline (1.5 s), and curl
 * waits a little longer than the daemon's cutoff. An answer finished just within the cutoff still
 * reaches curl; otherwise the session could record as shown what curl gave up on.
 */
const GRACE_MS = 50;
export const answerCutoffMs = (budgetMs: number) => Math.max(1, Math.min(budgetMs, DEADLINE_MS["user-prompt-submit"] - GRACE_MS));
export const curlBudgetMs = (budgetMs: number) => answerCutoffMs(budgetMs) + GRACE_MS;

/**
 * What a connection's client did with the answers written to it. An answer counts as shown only
 * once the client has read it. curl past its budget (the time it waited before the handler ran is
 * not in the daemon's clock, and a busy machine may hold curl itself) hangs up without reading:
 * before the reply is written (the write fails, or its end was seen), or after (Linux then gives
 * this side ECONNRESET: the client closed with the reply unread; other systems may not, and there
 * such an answer is counted, as before). curl reads the whole reply, then closes: a clean end of
 * its own, and the answers written to it are delivered then.
 */
interface Link {
  gone: boolean;
  failed: boolean;
  pending: { delivered: () => void; dropped: () => void }[];
}
const links = new WeakMap<Socket, Link>();
function linkOf(sock: Socket): Link {
  const known = links.get(sock);
  if (known) return known;
  const l: Link = { gone: false, failed: false, pending: [] };
  links.set(sock, l);
  sock.once("end", () => (l.gone = true));
  sock.once("error", () => (l.failed = true));
  // Delivered only when the client ended the connection itself, after the write, and cleanly: a
  // close of this side's (the keep-alive timeout, the daemon stopping) says nothing of a read.
  sock.once("close", (hadError: boolean) => {
    for (const p of l.pending.splice(0)) (!hadError && !l.failed && l.gone ? p.delivered : p.dropped)();
  });
  return l;
}

/** The daemon's answer to one request (src/daemon/server.ts); `delivered` is given what to run once the reply reached the client. */
export type Answer = (req: Record<string, unknown>, delivered: (then: () => void) => void) => Promise<Record<string, unknown>>;

export interface HookHttpOptions {
  answer: Answer;
  /** daemon.clientBudgetMs: the client gives up after it, so a later answer is not counted as shown. */
  budgetMs: number;
  /** pretool.budgetMs: the same for the pre-tool check (the curl client waits daemon.clientBudgetMs for either). */
  pretoolBudgetMs: number;
  /** A request came in (keeps the daemon from idling out). */
  onRequest: () => void;
  /** hooks.log, where the Node client logs the same failures. */
  hookLog: (line: string) => void;
}

type Reply = { status: number; body?: string; delivered?: () => void };

const unlinkQuiet = (path: string) => {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
};

export class HookHttp {
  private readonly server: Server;

  constructor(private readonly opts: HookHttpOptions) {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.headersTimeout = 10_000;
    this.server.requestTimeout = 30_000;
    this.server.keepAliveTimeout = 1_000;
  }

  /** Writes the budget, then listens on `path` (a stale socket there is removed: the caller holds the daemon's lock). */
  /** `budgetFile`: where the curl client reads the budget, the data home's hook.budget (beside a socket in the data home). */
  async listen(path: string, budgetFile: string = join(path, "..", HOOK_BUDGET_FILE)): Promise<void> {
    // The budget first, and whole (written aside, then renamed): a hook that finds the socket
    // finds its budget, never a file just emptied to be written again (curl would wait 0.25 s).
    replacePrivate(budgetFile, `${curlBudgetMs(this.opts.budgetMs) / 1000}\n`);
    unlinkQuiet(path);
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      const umask = process.umask(0o077); // bind is synchronous: no moment open to others
      try {
        this.server.listen(path, () => resolve());
      } finally {
        process.umask(umask);
      }
    });
    try {
      chmodSync(path, 0o600);
    } catch (err) {
      // Not serving half set up: a server left listening would keep the daemon from ever exiting.
      this.server.close();
      unlinkQuiet(path);
      throw err;
    }
    this.path = path;
  }

  private path: string | undefined;

  /** Stops listening and removes the socket, so that clients go to the Node hook at once. */
  close(): void {
    this.server.close();
    this.server.closeAllConnections();
    if (this.path) unlinkQuiet(this.path);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const arrived = performance.now();
    const name = /^\/hook\/([a-z-]+)$/.exec(req.url ?? "")?.[1] ?? "";
    const link = linkOf(req.socket);
    const dropped = () => this.opts.hookLog(`${name}: the curl client hung up before its answer was read; not counted as shown`);
    const write = (r: Reply) => {
      res.writeHead(r.status, { "content-type": "application/json", "content-length": Buffer.byteLength(r.body ?? "") });
      res.end(r.body ?? "", () => {
        if (!r.delivered) return;
        if (link.gone || link.failed) return dropped();
        const delivered = r.delivered;
        link.pending.push({
          delivered: () => {
            try {
              delivered();
            } catch (e) {
              this.opts.hookLog(`${name}: recording a delivered answer failed: ${(e as Error).message}`);
            }
          },
          dropped,
        });
      });
    };
    // A reply to be counted as shown waits one turn of the event loop first, so that a hang-up
    // already received is seen before it is written.
    const send = (r: Reply) => {
      if (!r.delivered) return write(r);
      setImmediate(() => {
        if (!link.gone && !link.failed) return write(r);
        dropped();
        write({ ...r, delivered: undefined });
      });
    };
    const refusal = req.method !== "POST" ? 405 : !isHookName(name) || !DAEMON_HOOKS.has(name) ? 404 : Number(req.headers["content-length"] ?? 0) > MAX_STDIN_BYTES ? 413 : 0;
    if (refusal !== 0) {
      send({ status: refusal }); // what is left of the body is read and dropped
      req.resume();
      return;
    }
    this.opts.onRequest();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (b: Buffer) => {
      size += b.length;
      if (size <= MAX_STDIN_BYTES) chunks.push(b);
    });
    req.on("end", () => {
      if (size > MAX_STDIN_BYTES) {
        send({ status: 413 }); // the Node hook reads it bounded, and logs it
        return;
      }
      this.reply(name as HookName, Buffer.concat(chunks).toString("utf8"), arrived).then(send, (err: Error) => {
        this.opts.hookLog(`${name}: the daemon failed: ${err.message}`);
        send({ status: 500 });
      });
    });
  }

  /** `arrived`: when the request came in (a busy event loop delays the handler; curl's clock ran from the start). */
  private async reply(name: HookName, body: string, arrived: number): Promise<Reply> {
    const parsed = parsePayload(body);
    if (!parsed) return { status: 400 }; // the Node hook logs what it was
    const payload = claudePayload(parsed); // Claude Code's hooks only: no payload names another assistant
    const asked = hookAsk(name, payload);
    if (asked.kind === "none") return { status: 200 };
    let then: (() => void) | undefined;
    if (asked.kind === "capture") {
      const r = await this.opts.answer({ op: "capture", event: asked.event, payload: asked.payload }, () => undefined);
      return { status: r.ok === true || r.code === "malformed" ? 200 : 500 }; // not durable: the Node hook writes it (malformed: refused for good)
    }
    // The daemon's working directory is not the session's: without an absolute cwd the Node hook answers.
    const cwd = str(payload, "cwd");
    if (cwd === undefined || !isAbsolutePath(cwd)) return { status: 422 };
    const pretool = asked.kind === "pretool";
    const r = await this.opts.answer(pretool ? { op: "pretool", ...asked.req } : { op: "prompt", ...asked.req }, (fn) => (then = fn));
    const ms = performance.now() - arrived;
    if (r.ok !== true) {
      this.opts.hookLog(`${name}: the daemon failed: ${String(r.error)}`);
      return { status: 200 }; // as the Node client: answered, with nothing
    }
    const cutoff = answerCutoffMs(pretool ? this.opts.pretoolBudgetMs : this.opts.budgetMs);
    if (ms > cutoff) {
      this.opts.hookLog(`${name}: the daemon answered the curl client after ${Math.round(ms)} ms, past its budget of ${cutoff} ms; ${pretool ? "no warning" : "injected nothing"}`);
      return { status: 200 };
    }
    const out = contextOutput(HOOK_EVENTS[name], typeof r.text === "string" ? r.text : undefined);
    return { status: 200, ...(out ? { body: `${out}\n` } : {}), ...(then ? { delivered: then } : {}) };
  }
}
