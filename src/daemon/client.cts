import { connect, type Socket } from "node:net";
import { socketPath } from "./paths.cjs";

/** One request to the daemon, one newline-terminated JSON answer. */
export type DaemonReply = { ok: true; [k: string]: unknown } | { ok: false; error: string };
export type ClientResult = { kind: "reply"; reply: DaemonReply } | { kind: "absent" } | { kind: "timeout" } | { kind: "error"; error: string };

/**
 * A connection to the daemon, opened before the request is known: the hook dials while it is
 * still reading stdin, so connecting costs nothing on its path. It remembers how the connect went
 * until `ask` takes it over; `hangUp` when it ends up unused.
 */
export class Dial {
  readonly sock: Socket;
  connected = false;
  failure: NodeJS.ErrnoException | undefined;

  constructor(home: string) {
    this.sock = connect(socketPath(home));
    this.sock.once("connect", () => (this.connected = true));
    this.sock.on("error", (err: NodeJS.ErrnoException) => (this.failure ??= err));
  }

  hangUp(): void {
    this.sock.destroy();
  }
}

const failed = (err: NodeJS.ErrnoException): ClientResult =>
  err.code === "ENOENT" || err.code === "ECONNREFUSED" ? { kind: "absent" } : { kind: "error", error: err.message };

/**
 * Asks the daemon (on `dial`, or a new connection) and waits at most `budgetMs`. "absent" means
 * nothing listens (start one); "timeout" means it is there but slow (answer nothing this time).
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
      sock.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ kind: "timeout" }), budgetMs);
    if (dial.failure) return done(failed(dial.failure));
    if (sock.destroyed) return done({ kind: "error", error: "closed before the request" });
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
