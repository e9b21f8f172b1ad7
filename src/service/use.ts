import { salienceConfig, type SalienceConfig } from "../memory/salience.js";
import { eventChunkId } from "../store/chunk-ids.js";
import type { Db } from "../store/db.js";
import { reinforceChunks } from "../store/salience.js";
import type { MemoryService } from "./memory.js";
import type { Memory } from "./types.js";

/**
 * A deliberate use of one memory: the model fetched it whole (the MCP `get` tool). It is
 * reinforced (salience × reinforce, clock restarted) and returned as it is after that use. Being
 * shown (a search result, the prompt's memories, `mem get` in a terminal) is not use and changes
 * nothing stored (src/service/search.ts). The memory is found exactly as `get` finds it, so
 * another project's is as absent here as there.
 */
export function useMemory(svc: MemoryService, db: Db, id: string, now: number, salience: Omit<SalienceConfig, "defaults">, opts: { history?: boolean } = {}): Memory {
  const m = svc.get(id, opts);
  // A markdown memory is its chunk; a captured or explicit one is its event, chunked under this id.
  const chunk = m.source === "markdown" ? m.id : eventChunkId(m.project, m.id);
  reinforceChunks(db, [chunk], now, salienceConfig(salience));
  return svc.get(m.id, opts);
}
