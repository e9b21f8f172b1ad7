/**
 * The SQLite store's first five schema migrations (versions 1-5): the base tables (sources, chunks and
 * their FTS index, vector bookkeeping, runs, events), then sessions and injections, vector-table
 * versions, roots, and tasks, salience, links, anchors and session summaries. ./migrations.ts appends
 * the later ones to these. Shipped: never edited (a store migrated by one would never get the change).
 */

export const EARLY_MIGRATIONS: readonly string[] = [
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
];
