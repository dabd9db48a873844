-- V6: what several processes (clusters) of one bot share (issue 29; bot/storage/cluster.py):
-- a lease per gateway shard with a fencing epoch, the log of every take-over and release,
-- the inbox of interactions one process received for a table another drives, and a little
-- key/value metadata (the hash of the last synced command tree). Times are unix seconds on
-- the database's clock. Empty and unused by a single process.

CREATE TABLE shard_leases (
    shard      INTEGER PRIMARY KEY CHECK (shard >= 0),
    owner      TEXT,
    epoch      INTEGER NOT NULL CHECK (epoch >= 1),
    expires_at REAL    NOT NULL
);

CREATE TABLE lease_log (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    shard  INTEGER NOT NULL,
    owner  TEXT    NOT NULL,
    epoch  INTEGER NOT NULL,
    event  TEXT    NOT NULL CHECK (event IN ('acquire', 'release')),
    at     REAL    NOT NULL
);

CREATE TABLE cluster_inbox (
    interaction_id INTEGER PRIMARY KEY,
    shard          INTEGER NOT NULL,
    table_id       INTEGER NOT NULL,
    payload        TEXT    NOT NULL,  -- JSON
    created_at     REAL    NOT NULL,
    claimed_by     TEXT,
    claimed_at     REAL,
    done_at        REAL,
    outcome        TEXT
);
CREATE INDEX cluster_inbox_open ON cluster_inbox (shard) WHERE done_at IS NULL;

CREATE TABLE cluster_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
