import type { Socket } from "node:net";
import type { Answer } from "./hook-http.js";

/** A request line longer than this is refused (a memory holds at most 5,000 characters). */
const MAX_REQUEST_CHARS = 1_000_000;

export interface ConnectionOptions {
  answer: Answer;
  /** A request came in (counted, and keeps the daemon from idling out). */
  onRequest: () => void;
  log: (line: string) => void;
}

/**
 * One client on the daemon's main socket: one JSON request line, one JSON reply line, then the
 * daemon ends the connection. What the reply's `delivered` hook was given runs only once the
 * reply is written to a client still waiting for it (a client past its budget has hung up).
 */
export function serveConnection(conn: Socket, opts: ConnectionOptions): void {
  let buf = "";
  let hungUp = false;
  conn.setEncoding("utf8");
  let replied = false;
  conn.on("error", () => (hungUp = true));
  conn.on("end", () => {
    if (!replied) hungUp = true; // clients keep their end open until the reply (no half-open); after it, their end is the reply read
  });
  let tooLarge = false;
  conn.on("data", (d: string) => {
    if (tooLarge) return; // the rest of a request over the limit is read and dropped until the client hangs up
    buf += d;
    if (buf.length > MAX_REQUEST_CHARS) {
      tooLarge = true;
      buf = "";
      conn.end(`${JSON.stringify({ ok: false, error: "request over 1 MB (a memory holds at most 5,000 characters)", code: "too_large" })}\n`);
      setTimeout(() => conn.destroy(), 5_000).unref();
      return;
    }
    const nl = buf.indexOf("\n");
    if (nl < 0) return;
    const line = buf.slice(0, nl);
    buf = "";
    opts.onRequest();
    let req: Record<string, unknown>;
    try {
      req = JSON.parse(line) as Record<string, unknown>;
    } catch {
      conn.end(`${JSON.stringify({ ok: false, error: "not JSON" })}\n`);
      return;
    }
    let then: (() => void) | undefined;
    opts
      .answer(req, (fn) => (then = fn))
      .catch((err: Error) => ({ ok: false, error: err.message }))
      .then((reply) => {
        if (hungUp) return conn.destroy();
        replied = true;
        conn.end(`${JSON.stringify(reply)}\n`, (err?: Error | null) => {
          if (err || hungUp || !then) return;
          const run = then;
          // Delivered once the client has read it: it closes after the reply line, cleanly; one
          // that hung up with the reply unread (past its budget) leaves this side ECONNRESET.
          conn.once("close", (hadError: boolean) => {
            if (hadError || hungUp) return;
            try {
              run();
            } catch (e) {
              opts.log(`recording a delivered answer failed: ${(e as Error).message}`);
            }
          });
        });
      });
  });
}
