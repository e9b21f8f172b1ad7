/**
 * A chunk's identifier words: the words of every camelCase and PascalCase name in its heading and
 * text ("getUserName" → "get user name"), kept in `chunks.idents` and indexed as the text index's
 * third column, so a search for "user name" finds a note that only says getUserName. Derived
 * from the heading and text as stored (redacted already): every word is a piece of them.
 *
 * Every writer of a chunk's heading or text writes this with them (./chunks.ts inserts, ./scrub.ts
 * rewrites); a chunk written without it only lacks the extra words.
 */
import type Database from "better-sqlite3";
import { identifierWords } from "../util/identifiers.js";

type Db = Database.Database; // not ./db.js's: it imports the migrations, which import this

/** The `idents` column of a chunk with this heading and text: its identifier words, space-separated. */
export function chunkIdents(heading: string, text: string): string {
  return identifierWords(`${heading}\n${text}`).join(" ");
}

const TOKENIZE = "porter unicode61 remove_diacritics 2";

/** The text index over heading, text and identifier words, and the triggers that keep it. */
const FTS_WITH_IDENTS = `
  CREATE VIRTUAL TABLE chunks_fts USING fts5(
    heading, text, idents,
    content = 'chunks', content_rowid = 'rowid',
    tokenize = '${TOKENIZE}'
  );
  CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, heading, text, idents) VALUES (new.rowid, new.heading, new.text, new.idents);
  END;
  CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, heading, text, idents) VALUES ('delete', old.rowid, old.heading, old.text, old.idents);
  END;
  CREATE TRIGGER chunks_au AFTER UPDATE OF heading, text, idents ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, heading, text, idents) VALUES ('delete', old.rowid, old.heading, old.text, old.idents);
    INSERT INTO chunks_fts(rowid, heading, text, idents) VALUES (new.rowid, new.heading, new.text, new.idents);
  END;
`;

const BATCH = 2_000;

/**
 * The migration that adds identifier words to a store: the column, filled for every chunk from
 * its stored heading and text, then the text index made again with the third column. Safe to run
 * again (a store whose version was set back).
 */
export function addIdentifierWords(db: Db): void {
  const has = (db.prepare("PRAGMA table_info(chunks)").all() as { name: string }[]).some((c) => c.name === "idents");
  // The old index (heading and text) goes first: its update trigger would otherwise re-index every
  // chunk filled below, and FTS5 cannot add a column to an index.
  db.exec("DROP TRIGGER IF EXISTS chunks_ai; DROP TRIGGER IF EXISTS chunks_ad; DROP TRIGGER IF EXISTS chunks_au; DROP TABLE IF EXISTS chunks_fts;");
  if (!has) db.exec("ALTER TABLE chunks ADD COLUMN idents TEXT NOT NULL DEFAULT ''");
  const read = db.prepare("SELECT rowid AS r, heading, text, idents FROM chunks WHERE rowid > ? ORDER BY rowid LIMIT ?");
  const write = db.prepare("UPDATE chunks SET idents = ? WHERE rowid = ?");
  for (let after = 0; ; ) {
    const rows = read.all(after, BATCH) as { r: number; heading: string; text: string; idents: string }[];
    if (rows.length === 0) break;
    for (const row of rows) {
      const idents = chunkIdents(row.heading, row.text);
      if (idents !== row.idents) write.run(idents, row.r);
    }
    after = rows[rows.length - 1]!.r;
  }
  db.exec(FTS_WITH_IDENTS);
  db.exec("INSERT INTO chunks_fts(chunks_fts) VALUES ('rebuild')");
}
