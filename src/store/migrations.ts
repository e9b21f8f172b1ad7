/**
 * The SQLite store's schema, one migration per version (`PRAGMA user_version`): each runs once, in
 * order, in its own IMMEDIATE transaction (./db.ts `migrate`). This file holds the list: versions 1-5
 * from ./migrations-early.ts, then the later ones (6 on) here. Append only: a shipped migration is
 * never edited (a store migrated by it would never get the change); new objects go in a new one.
 */
import type Database from "better-sqlite3";
import { addIdentifierWords } from "./chunk-idents.js";
import { EARLY_MIGRATIONS } from "./migrations-early.js";

type Db = Database.Database;

/** A migration: SQL, or a step that checks what is there first (SQLite has no ADD COLUMN IF NOT EXISTS). */
export type Migration = string | ((db: Db) => void);

/** Adds a column unless the table has it: a migration run again (a store whose version was set back) does not fail. */
const addColumn = (table: string, column: string, type: string) => (db: Db) => {
  const has = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some((c) => c.name === column);
  if (!has) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
};

/**
 * A journal of the rows removed from each vector table (vec_gone: the table, the chunk, the table's
 * version then), written by a trigger on every delete from vec_rows: the daemon's copy of a table
 * learns what left since its version from SQLite instead of reading every id from LanceDB
 * (VecState.changedSince). vec_tables.gone_floor: the oldest version the journal covers; a copy
 * older than that is read whole. Rows removed before this: not journaled, so the floor starts at
 * each table's version now. Pruned by the weekly maintenance (VecState.pruneGone).
 */
export const addRemovalJournal: Migration = (db: Db) => {
  addColumn("vec_tables", "gone_floor", "INTEGER NOT NULL DEFAULT 0")(db);
  db.exec(`
  UPDATE vec_tables SET gone_floor = version;
  CREATE TABLE IF NOT EXISTS vec_gone (
    table_name TEXT NOT NULL,
    chunk_id   TEXT NOT NULL,
    at_version INTEGER NOT NULL,
    at         INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS vec_gone_since ON vec_gone(table_name, at_version);
  CREATE TRIGGER IF NOT EXISTS vec_rows_gone AFTER DELETE ON vec_rows BEGIN
    INSERT INTO vec_gone (table_name, chunk_id, at_version, at)
      SELECT old.table_name, old.chunk_id, version, CAST(strftime('%s', 'now') AS INTEGER) FROM vec_tables WHERE name = old.table_name;
  END;`);
};

export const MIGRATIONS: Migration[] = [
  ...EARLY_MIGRATIONS,
  `
  -- Explicit memory: a memory (an event) can be edited (the previous version kept in
  -- memory_history) and forgotten (a tombstone at once; its text purged later), and put again
  -- idempotently under a client's key.
  ALTER TABLE events ADD COLUMN updated_at INTEGER;
  ALTER TABLE events ADD COLUMN deleted_at INTEGER;
  ALTER TABLE events ADD COLUMN client_key TEXT;
  CREATE UNIQUE INDEX events_client_key ON events(project, client_key) WHERE client_key IS NOT NULL;
  CREATE INDEX events_deleted ON events(deleted_at) WHERE deleted_at IS NOT NULL;
  CREATE TABLE memory_history (
    memory  TEXT NOT NULL,
    version INTEGER NOT NULL,
    at      INTEGER NOT NULL,
    kind    TEXT NOT NULL,
    text    TEXT NOT NULL,
    tags    TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (memory, version)
  ) WITHOUT ROWID;
  `,
  `
  -- A session's chunks grow one event at a time: the next position is found from the index.
  CREATE INDEX chunks_source_seq ON chunks(source_id, seq);
  DROP INDEX chunks_source;
  `,
  `
  -- (IF NOT EXISTS throughout: a development build ran part of this as migration 7.)
  -- A session's events still to chunk are found without reading the project's others.
  CREATE INDEX IF NOT EXISTS events_unchunked_session ON events(project, session) WHERE chunked = 0;
  DROP INDEX IF EXISTS events_unchunked;
  -- A project's live memories (of a kind) are counted and the newest read from the index alone.
  CREATE INDEX IF NOT EXISTS events_live ON events(project, type, time) WHERE deleted_at IS NULL;
  -- Chunks and vectors per project, kept by triggers: a search says how far vectors cover its
  -- scope without counting a hundred thousand rows.
  CREATE TABLE IF NOT EXISTS vec_counts (
    table_name TEXT NOT NULL,
    project    TEXT NOT NULL,
    n          INTEGER NOT NULL,
    PRIMARY KEY (table_name, project)
  ) WITHOUT ROWID;
  INSERT OR REPLACE INTO vec_counts (table_name, project, n) SELECT table_name, project, count(*) FROM vec_rows GROUP BY table_name, project;
  CREATE TRIGGER IF NOT EXISTS vec_counts_ai AFTER INSERT ON vec_rows BEGIN
    INSERT INTO vec_counts (table_name, project, n) VALUES (new.table_name, new.project, 1) ON CONFLICT (table_name, project) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS vec_counts_ad AFTER DELETE ON vec_rows BEGIN
    UPDATE vec_counts SET n = n - 1 WHERE table_name = old.table_name AND project = old.project;
  END;
  CREATE TABLE IF NOT EXISTS chunk_counts (
    project TEXT PRIMARY KEY,
    n       INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT OR REPLACE INTO chunk_counts (project, n) SELECT project, count(*) FROM chunks GROUP BY project;
  CREATE TRIGGER IF NOT EXISTS chunk_counts_ai AFTER INSERT ON chunks BEGIN
    INSERT INTO chunk_counts (project, n) VALUES (new.project, 1) ON CONFLICT (project) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS chunk_counts_ad AFTER DELETE ON chunks BEGIN
    UPDATE chunk_counts SET n = n - 1 WHERE project = old.project;
  END;
  -- A project's hot notes (the briefing reads them every session) without a walk of its chunks.
  CREATE INDEX IF NOT EXISTS chunks_hot ON chunks(project, path, seq) WHERE tier = 'hot';
  -- A project's open tasks newest first, and their counts, from the index.
  CREATE INDEX IF NOT EXISTS tasks_open ON tasks(project, created_at) WHERE closed_at IS NULL;
  `,
  `
  -- Maintenance jobs (the weekly mem reindex): when each ran, how it ended, what it found wrong
  -- (a missing root, a skipped vector step) and its summary. The briefing reads the last one.
  CREATE TABLE IF NOT EXISTS maintenance_runs (
    id          INTEGER PRIMARY KEY,
    job         TEXT NOT NULL,             -- 'reindex'
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    status      TEXT NOT NULL,             -- 'running' | 'ok' | 'failed'
    problems    TEXT NOT NULL DEFAULT '[]',
    summary     TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX IF NOT EXISTS maintenance_runs_job ON maintenance_runs(job, id);
  `,
  // The lines of a chunk shown to a session (JSON array of line fingerprints); NULL: the whole
  // chunk (rows written before this, and captured memories, shown whole).
  addColumn("injections", "lines", "TEXT"),
  // Client keys were passed to the redaction boundary under a secret-sounding field name, so one
  // that looked random was stored as a redaction mark: every such key of a project was the same,
  // and the unique index refused the project's next keyed memory. Those keys cannot be recovered:
  // cleared, so that a key given again makes a memory again.
  `UPDATE events SET client_key = NULL WHERE client_key GLOB '[[]REDACTED:*]' AND instr(substr(client_key, 2), '[') = 0;`,
  // An edited memory keeps its chunk id, and so its row in each vector table: the text changed,
  // the vector must be made again.
  // - vec_redo: the rows to delete from LanceDB before the next embedding (the old text's vectors);
  //   without it the indexer took such a row for one of its own and kept the old vector.
  // - vec_rows.at_version: the table's version when a row was recorded. A copy of the table taken
  //   at version V (the daemon's, in memory) reads again the rows recorded since. Rows recorded
  //   before this: 0, older than any copy.
  (db: Db) => {
    addColumn("vec_rows", "at_version", "INTEGER NOT NULL DEFAULT 0")(db);
    db.exec(`
  CREATE TABLE IF NOT EXISTS vec_redo (
    table_name TEXT NOT NULL,
    chunk_id   TEXT NOT NULL,
    PRIMARY KEY (table_name, chunk_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS vec_rows_since ON vec_rows(table_name, at_version);
  CREATE TRIGGER IF NOT EXISTS vec_rows_at AFTER INSERT ON vec_rows BEGIN
    UPDATE vec_rows SET at_version = coalesce((SELECT version FROM vec_tables WHERE name = new.table_name), 0)
      WHERE table_name = new.table_name AND chunk_id = new.chunk_id;
  END;`);
  },
  // How far to trust each vector table's leg in each project, learnt without labels from
  // pseudo-queries made from the project's chunks (src/retrieve/calibration.ts). Keyed by the
  // vector table, so a model swap (another table) is calibrated afresh.
  `CREATE TABLE IF NOT EXISTS fusion_calibration (
    table_name TEXT NOT NULL,
    project    TEXT NOT NULL,
    weight     REAL NOT NULL,
    detail     TEXT NOT NULL,
    chunks     INTEGER NOT NULL,
    at         INTEGER NOT NULL,
    PRIMARY KEY (table_name, project)
  ) WITHOUT ROWID;
  -- Per chunk: how much of its vector leg similarity is the direction every text of its project
  -- shares (its project's mean vector · the chunk's): subtracted from its similarity before fusion.
  CREATE TABLE IF NOT EXISTS vec_hub (
    table_name TEXT NOT NULL,
    chunk_id   TEXT NOT NULL,
    hub        REAL NOT NULL,
    PRIMARY KEY (table_name, chunk_id)
  ) WITHOUT ROWID;`,
  // What each prompt hook run put before a prompt (and each SessionStart briefing), how long it
  // took, and what missed the floor or the budget: the explorer's "why did the model see this"
  // (src/store/prompt-log.ts). A log, never read by ranking; bounded (oldest rows dropped).
  `CREATE TABLE IF NOT EXISTS prompt_runs (
    id         INTEGER PRIMARY KEY,
    at         INTEGER NOT NULL,
    session    TEXT NOT NULL,
    project    TEXT NOT NULL,
    hook       TEXT NOT NULL,
    ms         REAL,
    mode       TEXT,
    prompt     TEXT NOT NULL,
    injected   TEXT,
    ids        TEXT NOT NULL DEFAULT '[]',
    candidates TEXT NOT NULL DEFAULT '[]'
  );
  CREATE INDEX IF NOT EXISTS prompt_runs_session ON prompt_runs(session, at);
  CREATE INDEX IF NOT EXISTS prompt_runs_project ON prompt_runs(project, at);`,
  // The words of a chunk's camelCase and PascalCase identifiers ("getUserName" → "get user name")
  // as a third column of the text index, so a search for "user name" finds a note that only
  // names getUserName (./chunk-idents.ts). FTS5 cannot add a column: the index is made again.
  addIdentifierWords,
  // A task can be blocked (status 'blocked'), with the reason given (src/store/task-block.ts).
  addColumn("tasks", "blocked_reason", "TEXT"),
  addRemovalJournal,
];

/**
 * Migrations that take seconds on a large store (the text index made again: about 11 s at 100k
 * chunks). A hook, which must answer within its deadline, leaves them to the daemon or the next
 * command (`OpenOptions.deferHeavyMigrations`): its capture waits in the spool meanwhile.
 */
export const HEAVY_MIGRATIONS: ReadonlySet<Migration> = new Set([addIdentifierWords]);
