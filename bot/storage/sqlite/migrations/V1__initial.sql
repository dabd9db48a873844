-- V1: initial schema. Seats 0..3; team A = seats 0 and 2, team B = seats 1 and 3.
-- A NULL user_id in a seat row is a computer player. JSON columns hold text JSON.

PRAGMA application_id = 1414677332; -- 'TRCT': marks the file as a Tractor database

CREATE TABLE schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at REAL    NOT NULL
);

CREATE TABLE guilds (
    guild_id      INTEGER PRIMARY KEY,
    language      TEXT    NOT NULL DEFAULT 'en',
    table_options TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(table_options)),
    updated_at    REAL    NOT NULL
);

CREATE TABLE user_settings (
    user_id     INTEGER PRIMARY KEY,
    four_colour INTEGER NOT NULL DEFAULT 1 CHECK (four_colour IN (0, 1)),
    panel       TEXT    NOT NULL DEFAULT 'dm' CHECK (panel IN ('dm', 'ephemeral')),
    language    TEXT,   -- NULL: follow the guild
    updated_at  REAL    NOT NULL
);

-- A live table is one JSON document owned by the bot (seats, options, message ids, the
-- engine state...); `version` is bumped by every save (compare-and-set).
CREATE TABLE tables (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id INTEGER NOT NULL,
    creator_id INTEGER NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'ended')),
    version    INTEGER NOT NULL CHECK (version >= 1),
    doc        TEXT    NOT NULL CHECK (json_valid(doc)),
    deadline   REAL,   -- unix time of the next timer expiry, if any
    created_at REAL    NOT NULL,
    updated_at REAL    NOT NULL,
    ended_at   REAL
);
-- At most one table that has not ended per channel.
CREATE UNIQUE INDEX tables_live_channel ON tables (channel_id) WHERE status <> 'ended';

CREATE TABLE matches (
    id           INTEGER PRIMARY KEY,
    match_key    TEXT    NOT NULL UNIQUE,
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    guild_id     INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id   INTEGER NOT NULL,
    levels_a     TEXT    NOT NULL,
    levels_b     TEXT    NOT NULL,
    winner_team  TEXT    CHECK (winner_team IN ('A', 'B')),
    hands_played INTEGER NOT NULL DEFAULT 0 CHECK (hands_played >= 0),
    -- 1 while every seat of the match and of its hands was a distinct human
    ranked       INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    started_at   REAL    NOT NULL,
    ended_at     REAL
);
CREATE INDEX matches_channel ON matches (channel_id, started_at);

CREATE TABLE match_seats (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id  INTEGER,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

-- Levels over time: one row when the match starts and one per change.
CREATE TABLE match_levels (
    id           INTEGER PRIMARY KEY,
    match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    hands_played INTEGER NOT NULL,
    levels_a     TEXT    NOT NULL,
    levels_b     TEXT    NOT NULL,
    at           REAL    NOT NULL
);
CREATE INDEX match_levels_match ON match_levels (match_id, id);

CREATE TABLE hands (
    id              INTEGER PRIMARY KEY,
    hand_key        TEXT    NOT NULL UNIQUE,
    match_id        INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    table_id        INTEGER NOT NULL REFERENCES tables (id),
    hand_no         INTEGER NOT NULL,
    seed            TEXT    NOT NULL,  -- decimal integer (may exceed 64 bits)
    level           TEXT    NOT NULL,
    trump           TEXT,              -- e.g. '4D', '4NT'
    starter         INTEGER CHECK (starter BETWEEN 0 AND 3),
    declarer_1      INTEGER CHECK (declarer_1 BETWEEN 0 AND 3),
    declarer_2      INTEGER CHECK (declarer_2 BETWEEN 0 AND 3),
    kitty           TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(kitty)),
    opponent_points INTEGER NOT NULL DEFAULT 0,
    kitty_points    INTEGER NOT NULL DEFAULT 0,
    multiplier      INTEGER NOT NULL DEFAULT 1,
    result_side     TEXT    CHECK (result_side IN ('declarers', 'opponents')),
    result_levels   INTEGER NOT NULL DEFAULT 0 CHECK (result_levels >= 0),
    rated           INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    started_at      REAL    NOT NULL,
    settled_at      REAL,
    CHECK (result_side IS NULL OR declarer_1 IS NOT NULL)
);
CREATE INDEX hands_match ON hands (match_id, hand_no);

CREATE TABLE hand_seats (
    hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id INTEGER,
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;

-- Every accepted action, so seed + actions replay the hand exactly.
CREATE TABLE hand_actions (
    hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    action  TEXT    NOT NULL CHECK (json_valid(action)),
    at      REAL    NOT NULL,
    PRIMARY KEY (hand_id, seq)
) WITHOUT ROWID;

-- openskill Plackett-Luce ratings per guild (see bot/storage/ratings.py).
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    hands      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE pair_ratings (
    guild_id   INTEGER NOT NULL,
    user_lo    INTEGER NOT NULL,
    user_hi    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    hands      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_lo, user_hi),
    CHECK (user_lo < user_hi)
) WITHOUT ROWID;
