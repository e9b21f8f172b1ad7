/**
 * The BM25 leg on its own thread, for the warm daemon: FTS5 ranking is the largest synchronous
 * step of a prompt's search, and on a second core it runs while the main thread embeds the prompt
 * and scans the vectors. Its own read-only SQLite connection sees every committed write (WAL).
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDb } from "../store/db.js";
import { bm25Leg } from "./bm25.js";
import type { Bm25Request, Bm25Reply } from "./bm25-thread.js";

const db = openDb((workerData as { path: string }).path, { readonly: true });
parentPort!.on("message", (m: Bm25Request) => {
  let reply: Bm25Reply;
  try {
    reply = { id: m.id, hits: bm25Leg(db, m.text, m.filters, m.limit) };
  } catch (err) {
    reply = { id: m.id, error: (err as Error).message };
  }
  parentPort!.postMessage(reply);
});
