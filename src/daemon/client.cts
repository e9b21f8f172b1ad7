import { connect } from "node:net";
import { socketPath } from "./paths.cjs";

/** One request to the daemon, one newline-terminated JSON answer. */
export type DaemonReply = { ok: true; [k: string]: unknown } | { ok: false; error: string };
export type ClientResult = { kind: "reply"; reply: DaemonReply } | { kind: "absent" } | { kind: "timeout" } | { kind: "error"; error: string };

/**
 * Asks the daemon and waits at most `budgetMs`. "absent" means nothing listens (start one);
 * "timeout" means it is there but slow (answer nothing this time). Never rejects.
 */
export function ask(home: string, request: Record<string, unknown>, budgetMs: number): Promise<ClientResult> {
  return new Promise((resolve) => {
    let buf = "";
    let settled = false;
    const sock = connect(socketPath(home));
    const done = (r: ClientResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ kind: "timeout" }), budgetMs);
    sock.setEncoding("utf8");
    sock.on("connect", () => sock.write(`${JSON.stringify(request)}\n`));
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
    sock.on("error", (err: NodeJS.ErrnoException) => done(err.code === "ENOENT" || err.code === "ECONNREFUSED" ? { kind: "absent" } : { kind: "error", error: err.message }));
    sock.on("close", () => done({ kind: "error", error: "closed without a reply" }));
  });
}
