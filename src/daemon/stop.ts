import { ask } from "./client.cjs";
import { holderAlive, readLock } from "./lock.js";
import { lockPath } from "./paths.cjs";

/** Stops a running daemon (it holds the store open); refuses when one holds it and will not stop. */
export async function stopDaemon(home: string): Promise<"none" | "stopped"> {
  const r = await ask(home, { op: "stop" }, 2_000);
  const holder = readLock(lockPath(home));
  const pid = holder?.pid;
  if (r.kind !== "reply" || !r.reply.ok) {
    if (holder && holder.pid !== process.pid && holderAlive(holder)) throw new Error(`a daemon (pid ${holder.pid}) holds the store and does not answer; stop it (kill ${holder.pid}), then run the command again`);
    return "none";
  }
  for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((res) => setTimeout(res, 100))) {
    const now = readLock(lockPath(home));
    if (now === undefined || !holderAlive(now)) return "stopped";
  }
  throw new Error(`the daemon (pid ${pid ?? "?"}) did not stop within 15 s; stop it, then run the command again`);
}

