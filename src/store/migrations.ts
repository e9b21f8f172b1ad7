/**
 * The SQLite store's schema, one migration per version (`PRAGMA user_version`): each runs once, in
 * order, in its own IMMEDIATE transaction (./db.ts `migrate`). Append only: a shipped migration is
 * never edited (a store migrated by it would never get the change); new objects go in a new one.
 */
import type Database from "better-sqlite3";

type Db = Database.Database;

/** A migration: SQL, or a step that checks what is there first (SQLite has no ADD COLUMN IF NOT EXISTS). */
export type Migration = string | ((db: Db) => void);

/** Adds a column unless the table has it: a migration run again (a store whose version was set back) does not fail. */
const addColumn = (table: string, column: string, type: string) => (db: Db) => {
  const has = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some((c) => c.name === column);
  if (!has) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
};

export const MIGRATIONS: Migration[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE sources (
    id           INTEGER PRIMARY KEY,
    project      TEXT NOT NULL,
    path         TEXT NOT NULL,
    kind         TEXT NOT NULL,            -- 'markdown' | 'events'
    tier         TEXT,
    size         INTEGER NOT NULL,
    mtime_ms     REAL NOT NULL,
    content_hash TEXT NOT NULL,
    metadata     TEXT NOT NULL DEFAULT '{}',
    indexed_at   INTEGER NOT NULL,
    UNIQUE (project, path)
  );

  CREATE TABLE chunks (
    rowid      INTEGER PRIMARY KEY,
    id         TEXT NOT NULL UNIQUE,       -- content-hash identity
    source_id  INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    project    TEXT NOT NULL,
    path       TEXT NOT NULL,
    kind       TEXT NOT NULL,
    tier       TEXT,
    heading    TEXT NOT NULL DEFAULT '',   -- heading path joined with ' > '
    start_line INTEGER NOT NULL,
    end_line   INTEGER NOT NULL,
    text       TEXT NOT NULL,
    tags       TEXT NOT NULL DEFAULT '[]',
    date       TEXT,
    metadata   TEXT NOT NULL DEFAULT '{}',
    seq        INTEGER NOT NULL
  );
  CREATE INDEX chunks_source ON chunks(source_id);
  CREATE INDEX chunks_project ON chunks(project);

  CREATE VIRTUAL TABLE chunks_fts USING fts5(
    heading, text,
    content = 'chunks', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, heading, text) VALUES (new.rowid, new.heading, new.text);
  END;
  CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, heading, text) VALUES ('delete', old.rowid, old.heading, old.text);
  END;
  CREATE TRIGGER chunks_au AFTER UPDATE OF heading, text ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, heading, text) VALUES ('delete', old.rowid, old.heading, old.text);
    INSERT INTO chunks_fts(rowid, heading, text) VALUES (new.rowid, new.heading, new.text);
  END;

  -- One LanceDB table per embedding model and dimension.
  CREATE TABLE vec_tables (
    name       TEXT PRIMARY KEY,
    provider   TEXT NOT NULL,
    model      TEXT NOT NULL,
    dims       INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  -- Which chunks each vector table holds (the LanceDB side is reconciled against this).
  CREATE TABLE vec_rows (
    table_name TEXT NOT NULL,
    chunk_id   TEXT NOT NULL,
    project    TEXT NOT NULL,
    PRIMARY KEY (table_name, chunk_id)
  ) WITHOUT ROWID;
  CREATE INDEX vec_rows_chunk ON vec_rows(chunk_id);

  CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    project     TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    status      TEXT NOT NULL,             -- 'running' | 'ok' | 'vector-skipped' | 'failed'
    summary     TEXT NOT NULL DEFAULT '{}'
  );

  -- Typed session events written by the capture hooks; indexed one event per chunk.
  CREATE TABLE events (
    id         TEXT PRIMARY KEY,           -- tool_use_id or content hash: capture is idempotent
    project    TEXT NOT NULL,
    session    TEXT,
    type       TEXT NOT NULL,
    time       TEXT NOT NULL,
    files      TEXT NOT NULL DEFAULT '[]',
    text       TEXT NOT NULL,
    metadata   TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX events_project_time ON events(project, time);
  `,
  `
  -- Captured events become chunks later (indexer or daemon); this marks the ones that have.
  ALTER TABLE events ADD COLUMN chunked INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX events_unchunked ON events(project) WHERE chunked = 0;

  -- One row per Claude Code session: how far its transcript has been read, its task list
  -- (the capture extractor's state, JSON), and when it started and ended.
  CREATE TABLE sessions (
    session         TEXT PRIMARY KEY,
    project         TEXT NOT NULL,
    transcript_path TEXT,
    offset          INTEGER NOT NULL DEFAULT 0,
    task_state      TEXT,
    started_at      INTEGER,
    ended_at        INTEGER,
    end_reason      TEXT,
    updated_at      INTEGER NOT NULL
  );
  CREATE INDEX sessions_project ON sessions(project, updated_at);

  -- Chunks already injected into a session, so a prompt never repeats one.
  CREATE TABLE injections (
    session  TEXT NOT NULL,
    chunk_id TEXT NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (session, chunk_id)
  ) WITHOUT ROWID;
  `,
  `
  -- Bumped on every vector row added or removed: a reader holding a copy of a table (the daemon's
  -- in-memory index) knows it is stale even when as many rows left as arrived.
  ALTER TABLE vec_tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
  CREATE TRIGGER vec_rows_ai AFTER INSERT ON vec_rows BEGIN
    UPDATE vec_tables SET version = version + 1 WHERE name = new.table_name;
  END;
  CREATE TRIGGER vec_rows_ad AFTER DELETE ON vec_rows BEGIN
    UPDATE vec_tables SET version = version + 1 WHERE name = old.table_name;
  END;
  `,
  `
  -- The roots each project was indexed from: a repair re-indexes by root (tiers depend on the path
  -- relative to the root), not file by file.
  CREATE TABLE roots (
    project  TEXT NOT NULL,
    path     TEXT NOT NULL,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (project, path)
  ) WITHOUT ROWID;
  `,
  `
  -- The tasks of a project across its sessions: a task is open from the moment any session creates
  -- it until some session completes or deletes it, whatever later sessions write.
  CREATE TABLE tasks (
    id              INTEGER PRIMARY KEY,
    project         TEXT NOT NULL,
    content         TEXT NOT NULL,
    status          TEXT NOT NULL,           -- pending | in_progress | completed | deleted
    source          TEXT NOT NULL,           -- TodoWrite | TaskTool | tag | cli
    created_session TEXT,
    created_at      INTEGER NOT NULL,
    updated_session TEXT,
    updated_at      INTEGER NOT NULL,
    closed_at       INTEGER
  );
  CREATE INDEX tasks_project ON tasks(project, closed_at, updated_at);
  -- Which session-local task (a TaskCreate id, a TodoWrite item) each task is.
  CREATE TABLE task_refs (
    session  TEXT NOT NULL,
    local_id TEXT NOT NULL,
    task_id  INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    PRIMARY KEY (session, local_id)
  ) WITHOUT ROWID;

  -- How much a memory (a chunk) has been used: reinforced when injected, shown by mem query, or
  -- confirmed by a later capture. A chunk without a row has its kind's default salience.
  CREATE TABLE salience (
    chunk_id     TEXT PRIMARY KEY,
    salience     REAL NOT NULL,
    last_used_at INTEGER NOT NULL,
    uses         INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;

  -- Links between memories (event ids), e.g. an explicit memory and a capture that describe the
  -- same thing ('convergent').
  CREATE TABLE links (
    a    TEXT NOT NULL,
    b    TEXT NOT NULL,
    kind TEXT NOT NULL,
    at   INTEGER NOT NULL,
    PRIMARY KEY (a, b, kind)
  ) WITHOUT ROWID;
  CREATE INDEX links_b ON links(b);

  -- The files a memory (an event) names, as they were when it was made: their git blob (NULL: the
  -- file did not exist) and the branch checked out.
  CREATE TABLE anchors (
    memory TEXT NOT NULL,
    path   TEXT NOT NULL,
    blob   TEXT,
    branch TEXT,
    at     INTEGER NOT NULL,
    PRIMARY KEY (memory, path)
  ) WITHOUT ROWID;
  CREATE INDEX anchors_path ON anchors(path);

  -- A session's zero-LLM summary (goal, files, commands, tasks, decisions), built at Stop/SessionEnd.
  ALTER TABLE sessions ADD COLUMN summary TEXT;
  CREATE INDEX events_project_type ON events(project, type, time);
  CREATE INDEX events_project_session ON events(project, session, time);
  `,
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
];
