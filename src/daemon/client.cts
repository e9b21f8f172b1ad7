import { connect, type Socket } from "node:net";
import { dirname } from "node:path";
import { pointedSocket, socketPath } from "./paths.cjs";
import { checkSocket } from "./socket-guard.cjs";

/** One request to the daemon, one newline-terminated JSON answer. */
export type DaemonReply = { ok: true; [k: string]: unknown } | { ok: false; error: string; code?: string };
/** "refused": the socket could be someone else's (see socket-guard.cts); nothing was sent. */
export type ClientResult = { kind: "reply"; reply: DaemonReply } | { kind: "absent" } | { kind: "refused"; reason: string } | { kind: "timeout" } | { kind: "error"; error: string };

/**
 * A connection to the daemon, opened before the request is known: the hook dials while it is
 * still reading stdin, so connecting costs nothing on its path. It remembers how the connect went
 * until `ask` takes it over; `hangUp` when it ends up unused. It connects only to a socket of
 * this user's in a directory no one else can write to; otherwise `refused` says why.
 */
export class Dial {
  readonly path: string;
  readonly sock: Socket | undefined;
  connected = false;
  failure: NodeJS.ErrnoException | undefined;
  refused: string | undefined;

  constructor(home: string) {
    let path = socketPath(home);
    let check = checkSocket(path);
    if (!check.ok && dirname(path) !== home) {
      // A long data home's daemon may listen elsewhere (its usual directory squatted): socket.path says where.
      const pointed = pointedSocket(home);
      const there = pointed !== undefined && pointed !== path ? checkSocket(pointed) : undefined;
      if (there?.ok) {
        path = pointed!;
        check = there;
      }
    }
    this.path = path;
    if (!check.ok) {
      if ("refused" in check) this.refused = check.refused;
      else this.failure = check.failure;
      return;
    }
    this.sock = connect(this.path);
    this.sock.once("connect", () => (this.connected = true));
    this.sock.on("error", (err: NodeJS.ErrnoException) => (this.failure ??= err));
  }

  hangUp(): void {
    this.sock?.destroy();
  }
}

const failed = (err: NodeJS.ErrnoException): ClientResult =>
  err.code === "ENOENT" || err.code === "ECONNREFUSED" ? { kind: "absent" } : { kind: "error", error: err.message };

/**
 * Asks the daemon (on `dial`, or a new connection) and waits at most `budgetMs`. "absent" means
 * nothing listens (start one); "refused" that the socket may not be the user's (nothing sent); "timeout" means it is there but slow (answer nothing this time).
 * Never rejects.
 */
export function ask(home: string, request: Record<string, unknown>, budgetMs: number, dial: Dial = new Dial(home)): Promise<ClientResult> {
  return new Promise((resolve) => {
    let buf = "";
    let settled = false;
    const sock = dial.sock;
    const done = (r: ClientResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock?.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ kind: "timeout" }), budgetMs);
    if (dial.refused !== undefined) return done({ kind: "refused", reason: dial.refused });
    if (dial.failure) return done(failed(dial.failure));
    if (!sock || sock.destroyed) return done({ kind: "error", error: "closed before the request" });
    const send = () => sock.write(`${JSON.stringify(request)}\n`);
    sock.setEncoding("utf8");
    if (dial.connected) send();
    else sock.once("connect", send);
    sock.on("data", (d: string) => {
      buf += d;
      const nl = buf.indexOf("\n");
      if (nl < 0) return;
      try {
        done({ kind: "reply", reply: JSON.parse(buf.slice(0, nl)) as DaemonReply });
      } catch {
        done({ kind: "error", error: "malformed reply" });
      }
    });
    sock.on("error", (err: NodeJS.ErrnoException) => done(failed(err)));
    sock.on("close", () => done({ kind: "error", error: "closed without a reply" }));
  });
}
