import { Worker } from "node:worker_threads";
import type { Filters } from "./filters.js";
import type { LegHit } from "./rrf.js";

export interface Bm25Request {
  id: number;
  text: string;
  filters: Filters;
  limit: number;
}
export type Bm25Reply = { id: number; hits: LegHit[] } | { id: number; error: string };

/**
 * The daemon's handle on bm25-worker.ts. `query` rejects when the thread is gone (it failed to
 * start, crashed, or was closed); the caller then ranks in-process. Never keeps the process alive.
 */
export class Bm25Thread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (h: LegHit[]) => void; reject: (e: Error) => void }>();
  private next = 0;
  private dead: Error | undefined;

  constructor(sqlitePath: string) {
    this.worker = new Worker(new URL("./bm25-worker.js", import.meta.url), { workerData: { path: sqlitePath } });
    this.worker.unref();
    this.worker.on("message", (r: Bm25Reply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if ("error" in r) p.reject(new Error(r.error));
      else p.resolve(r.hits);
    });
    const fail = (err: Error) => {
      this.dead ??= err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`the BM25 thread exited (${code})`)));
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  query(text: string, filters: Filters, limit: number): Promise<LegHit[]> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, text, filters, limit } satisfies Bm25Request);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
