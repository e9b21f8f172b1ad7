import { createHash } from "node:crypto";
import { cleanHash, type Clean } from "../redact/clean.cjs";

/** The chunk a captured event becomes (known before it is chunked: salience, links and forgetting refer to it). */
export function eventChunkId(project: string, eventId: string): Clean<string> {
  return cleanHash(createHash("sha256").update([project, "event", eventId].join("\0")).digest("hex").slice(0, 32));
}
