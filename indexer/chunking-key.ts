import { cleanText } from "../src/redact/clean.cjs";
import type { Db } from "../src/store/db.js";
import { getMeta } from "../src/store/meta.js";
import type { ChunkOptions } from "./chunk-size.js";

/**
 * Names the chunker and its options. Files a project indexed under another value are chunked
 * again on its next run, changed or not (chunks that come out the same keep their ids, so their
 * vectors too). Bump the version when the chunker's output changes.
 */
export function chunkingKey(o: ChunkOptions): string {
  return `chunker 7: ${o.chunkTokens}/${o.overlapTokens}/${o.minChunkTokens ?? 0} tokens`;
}

/** Where the key a project was last chunked with is kept (`meta`). */
export const chunkingMetaKey = (project: string) => cleanText(`chunking:${project}`);

/** The key a project's files were last chunked with; undefined before any run recorded one. */
export const chunkedWith = (db: Db, project: string): string | undefined => getMeta(db, chunkingMetaKey(project));
