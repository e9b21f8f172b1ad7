import { clean, cleanText } from "../redact/clean.cjs";
import { REDACTION_VERSION } from "../redact/redact.cjs";
import { chunkIdents } from "./chunk-idents.js";
import type { Db } from "./db.js";
import { getMeta, setMeta } from "./meta.js";
import { redoVectors } from "./vec-state.js";

/**
 * Redacts again what an older mem stored, when the redaction rules have changed since (the rule
 * set has a version; the store records the version it was last scrubbed with). Text, JSON columns,
 * task lists and session fields are rewritten where the current rules find something; keys
 * (event, chunk and session ids, project ids, source paths) are left as they are, since other rows
 * refer to them. Deleted content is overwritten (secure_delete), the text index is rebuilt
 * compactly and the WAL truncated, so an old secret is not left in free pages either.
 */
export interface ScrubReport {
  /** The rules' version the store was scrubbed with before (0: never). */
  from: number;
  to: number;
  /** Rows scanned and rows rewritten, by table. */
  scanned: number;
  rewritten: Record<string, number>;
}

const KEY = cleanText("redaction-version");

interface Column {
  name: string;
  json?: boolean;
}

const TABLES: { table: string; columns: Column[] }[] = [
  { table: "events", columns: [{ name: "text" }, { name: "files", json: true }, { name: "metadata", json: true }] },
  { table: "sessions", columns: [{ name: "transcript_path" }, { name: "task_state", json: true }, { name: "end_reason" }, { name: "summary", json: true }] },
  { table: "chunks", columns: [{ name: "text" }, { name: "heading" }, { name: "kind" }, { name: "tags", json: true }, { name: "metadata", json: true }] },
  { table: "sources", columns: [{ name: "metadata", json: true }] },
  { table: "runs", columns: [{ name: "summary", json: true }] },
  { table: "tasks", columns: [{ name: "content" }, { name: "blocked_reason" }] },
  { table: "prompt_runs", columns: [{ name: "prompt" }, { name: "injected" }, { name: "candidates", json: true }] },
];

const BATCH = 500;

/** Rows a scrub changed, all tables. */
export const scrubRewritten = (r: ScrubReport) => Object.values(r.rewritten).reduce((a, b) => a + b, 0);

export function scrubbedVersion(db: Db): number {
  return Number(getMeta(db, KEY) ?? 0);
}

/** True when the store was last scrubbed with older rules (or never, and holds data). */
export function needsScrub(db: Db): boolean {
  if (scrubbedVersion(db) >= REDACTION_VERSION) return false;
  return TABLES.some(({ table }) => db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() !== undefined);
}

function cleaned(value: unknown, json: boolean | undefined): unknown {
  if (typeof value !== "string") return value;
  if (!json) return cleanText(value);
  try {
    return JSON.stringify(clean(JSON.parse(value) as unknown));
  } catch {
    return cleanText(value);
  }
}

/** Scrubs the store with the current rules when it needs it; `force` scrubs anyway. */
export function scrubStore(db: Db, opts: { force?: boolean; onProgress?: (done: number) => void } = {}): ScrubReport | undefined {
  const from = scrubbedVersion(db);
  if (!opts.force && !needsScrub(db)) {
    if (from < REDACTION_VERSION) setMeta(db, KEY, cleanText(String(REDACTION_VERSION))); // an empty store is clean
    return undefined;
  }
  const report: ScrubReport = { from, to: REDACTION_VERSION, scanned: 0, rewritten: {} };
  const secure = db.pragma("secure_delete", { simple: true }) as number;
  db.pragma("secure_delete = ON");
  try {
    for (const { table, columns } of TABLES) {
      const names = columns.map((c) => c.name);
      const read = db.prepare(`SELECT rowid AS r, ${table === "chunks" ? "id AS chunk_id, " : ""}${names.join(", ")} FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ${BATCH}`);
      // A chunk's identifier words are made again from its scrubbed heading and text (./chunk-idents.ts).
      const derived = table === "chunks" ? ", idents = ?" : "";
      const write = db.prepare(`UPDATE ${table} SET ${names.map((n) => `${n} = ?`).join(", ")}${derived} WHERE rowid = ?`);
      let n = 0;
      for (let after = 0; ; ) {
        const rows = read.all(after) as Record<string, unknown>[];
        if (rows.length === 0) break;
        db.transaction(() => {
          for (const row of rows) {
            const next = columns.map((c) => cleaned(row[c.name], c.json));
            if (next.some((v, i) => v !== row[columns[i]!.name])) {
              const value = (name: string) => next[names.indexOf(name)] as string;
              write.run(...next, ...(derived ? [chunkIdents(value("heading"), value("text"))] : []), row.r);
              // Its vectors were made from the text as it was: deleted and made again.
              if (table === "chunks") redoVectors(db, row.chunk_id as string);
              n++;
            }
          }
        }).immediate();
        after = rows[rows.length - 1]!.r as number;
        report.scanned += rows.length;
        opts.onProgress?.(report.scanned);
      }
      report.rewritten[table] = n;
    }
    // Old tokens can linger in FTS5 segments and free pages until they are rewritten.
    db.prepare("INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')").run();
    setMeta(db, KEY, cleanText(String(REDACTION_VERSION)));
  } finally {
    db.pragma(`secure_delete = ${secure ? "ON" : "OFF"}`);
  }
  db.pragma("wal_checkpoint(TRUNCATE)");
  return report;
}
