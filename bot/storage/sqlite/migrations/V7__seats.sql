-- V7: records per seat in every mode (issue 39). Until V6 the four-player game kept its
-- levels and winner per team on the match (levels_a, levels_b, winner_team) and its
-- declarers on the hand (declarer_1, declarer_2), while Finding Friends kept them per seat
-- (match_seats.level, winner_seat, hand_seats.side). Now every mode keeps them per seat:
--   match_seats.level  every seat's level (a team's level on both its seats);
--   match_seats.won    1 for the seats that won the match (a team: both its seats);
--   match_seats.team   the seat's fixed team (the engine's Variant.team_of), NULL where
--                      sides are not fixed; partnerships are two seats of one team;
--   match_levels.levels  every seat's levels at each change (JSON list, index = seat);
--   hand_seats.side    the seat's part: 'starter', 'friend' (on the starter's side: a
--                      partner or a revealed friend) or 'opponent'; NULL while unknown.
-- Every row converts without loss (a team's values are copied to its seats, and back).
-- Modes are the engine's: no CHECK names them. Pair ratings are kept per mode.
-- Tables whose dropped columns or CHECKs SQLite cannot alter are rebuilt (ids kept);
-- `migrate` runs every migration with foreign keys off and checks them before committing.

DROP VIEW finished_match_seats;
DROP VIEW settled_hand_seats;

-- match seats: level, won, team (from the match's team columns in the four-player game)
ALTER TABLE match_seats ADD COLUMN won INTEGER NOT NULL DEFAULT 0 CHECK (won IN (0, 1));
ALTER TABLE match_seats ADD COLUMN team INTEGER CHECK (team >= 0);
UPDATE match_seats AS s
SET level = CASE WHEN m.mode = 'teams'
                 THEN CASE s.seat % 2 WHEN 0 THEN m.levels_a ELSE m.levels_b END
                 ELSE s.level END,
    won = CASE WHEN m.mode = 'teams'
               THEN CASE s.seat % 2 WHEN 0 THEN 'A' ELSE 'B' END IS m.winner_team
               ELSE s.seat IS m.winner_seat END,
    team = CASE WHEN m.mode = 'teams' THEN s.seat % 2 END
FROM matches AS m
WHERE m.id = s.match_id;

-- hand seats: the four-player game's declarers become parts, as Finding Friends' are
UPDATE hand_seats AS s
SET side = CASE WHEN s.seat IS h.starter THEN 'starter'
                WHEN s.seat IN (h.declarer_1, h.declarer_2) THEN 'friend'
                ELSE 'opponent' END
FROM hands AS h JOIN matches AS m ON m.id = h.match_id
WHERE h.id = s.hand_id AND m.mode = 'teams' AND h.declarer_1 IS NOT NULL;

CREATE TABLE match_levels_v7 (
    id           INTEGER PRIMARY KEY,
    match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    hands_played INTEGER NOT NULL,
    levels       TEXT    NOT NULL CHECK (json_valid(levels)),  -- JSON list, index = seat
    at           REAL    NOT NULL
);
INSERT INTO match_levels_v7 (id, match_id, hands_played, levels, at)
SELECT l.id, l.match_id, l.hands_played,
       CASE WHEN m.mode = 'teams' OR l.seat_levels IS NULL
            THEN '["' || l.levels_a || '","' || l.levels_b || '","' || l.levels_a || '","'
                 || l.levels_b || '"]'
            ELSE l.seat_levels END,
       l.at
FROM match_levels AS l JOIN matches AS m ON m.id = l.match_id;
DROP TABLE match_levels;
ALTER TABLE match_levels_v7 RENAME TO match_levels;
CREATE INDEX match_levels_match ON match_levels (match_id, id);

CREATE TABLE matches_v7 (
    id           INTEGER PRIMARY KEY,
    match_key    TEXT    NOT NULL UNIQUE,
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    guild_id     INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id   INTEGER NOT NULL,
    hands_played INTEGER NOT NULL DEFAULT 0 CHECK (hands_played >= 0),
    -- 1 while every seat of the match and of its hands was a distinct human
    ranked       INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    started_at   REAL    NOT NULL,
    ended_at     REAL,
    season       INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1),
    mode         TEXT    NOT NULL,  -- the engine's mode (engine.variant.Mode)
    seats        INTEGER NOT NULL CHECK (seats BETWEEN 4 AND 8)
);
INSERT INTO matches_v7 (id, match_key, table_id, guild_id, channel_id, hands_played, ranked,
                        started_at, ended_at, season, mode, seats)
SELECT id, match_key, table_id, guild_id, channel_id, hands_played, ranked, started_at,
       ended_at, season, mode, seats
FROM matches;
DROP TABLE matches;
ALTER TABLE matches_v7 RENAME TO matches;
CREATE INDEX matches_channel ON matches (channel_id, started_at);
CREATE INDEX matches_guild ON matches (guild_id, mode, season);

CREATE TABLE hands_v7 (
    id              INTEGER PRIMARY KEY,
    hand_key        TEXT    NOT NULL UNIQUE,
    match_id        INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    table_id        INTEGER NOT NULL REFERENCES tables (id),
    hand_no         INTEGER NOT NULL,
    seed            TEXT    NOT NULL,  -- decimal integer (may exceed 64 bits)
    level           TEXT    NOT NULL,
    trump           TEXT,              -- e.g. '4D', '4NT'
    starter         INTEGER CHECK (starter BETWEEN 0 AND 7),
    kitty           TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(kitty)),
    opponent_points INTEGER NOT NULL DEFAULT 0,
    kitty_points    INTEGER NOT NULL DEFAULT 0,
    multiplier      INTEGER NOT NULL DEFAULT 1,
    result_side     TEXT    CHECK (result_side IN ('declarers', 'opponents')),
    result_levels   INTEGER NOT NULL DEFAULT 0 CHECK (result_levels >= 0),
    rated           INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    started_at      REAL    NOT NULL,
    settled_at      REAL
);
INSERT INTO hands_v7 (id, hand_key, match_id, table_id, hand_no, seed, level, trump, starter,
                      kitty, opponent_points, kitty_points, multiplier, result_side,
                      result_levels, rated, started_at, settled_at)
SELECT id, hand_key, match_id, table_id, hand_no, seed, level, trump, starter, kitty,
       opponent_points, kitty_points, multiplier, result_side, result_levels, rated,
       started_at, settled_at
FROM hands;
DROP TABLE hands;
ALTER TABLE hands_v7 RENAME TO hands;
CREATE INDEX hands_match ON hands (match_id, hand_no);

CREATE TABLE ratings_v7 (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    mode       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    hands      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, mode, user_id)
) WITHOUT ROWID;
INSERT INTO ratings_v7 (guild_id, season, mode, user_id, mu, sigma, hands, updated_at)
SELECT guild_id, season, mode, user_id, mu, sigma, hands, updated_at FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_v7 RENAME TO ratings;

CREATE TABLE pair_ratings_v7 (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    mode       TEXT    NOT NULL,
    user_lo    INTEGER NOT NULL,
    user_hi    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    hands      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, mode, user_lo, user_hi),
    CHECK (user_lo < user_hi)
) WITHOUT ROWID;
INSERT INTO pair_ratings_v7 (guild_id, season, mode, user_lo, user_hi, mu, sigma, hands,
                             updated_at)
SELECT guild_id, season, 'teams', user_lo, user_hi, mu, sigma, hands, updated_at
FROM pair_ratings;
DROP TABLE pair_ratings;
ALTER TABLE pair_ratings_v7 RENAME TO pair_ratings;

-- The stats views, per seat in every mode: a seat won its match if it is a winner seat;
-- a hand seat is on the declarers' side if it is the starter or on the starter's side.
CREATE VIEW finished_match_seats AS
SELECT m.id AS match_id,
       m.guild_id,
       m.season,
       m.mode,
       m.ranked,
       s.seat,
       s.team,
       s.user_id,
       s.won = 1 AS won
FROM matches AS m
JOIN match_seats AS s ON s.match_id = m.id
WHERE EXISTS (SELECT 1 FROM match_seats AS w WHERE w.match_id = m.id AND w.won = 1)
  AND s.user_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM hands AS h
                  JOIN hand_seats AS hs ON hs.hand_id = h.id AND hs.seat = s.seat
                  WHERE h.match_id = m.id
                    AND (hs.holders IS NOT NULL OR hs.user_id IS NOT s.user_id));

CREATE VIEW settled_hand_seats AS
SELECT x.*,
       CASE WHEN (x.side = 'declarers') = (x.result_side = 'declarers')
            THEN x.result_levels ELSE 0 END AS levels_gained
FROM (SELECT h.id AS hand_id,
             h.match_id,
             m.guild_id,
             m.season,
             m.mode,
             m.ranked,
             s.seat,
             ms.team,
             s.user_id,
             CASE WHEN s.side IN ('starter', 'friend') THEN 'declarers'
                  ELSE 'opponents' END AS side,
             COALESCE(s.side, 'opponent') AS role,
             h.result_side,
             h.result_levels,
             h.opponent_points,
             s.level_after
      FROM hands AS h
      JOIN matches AS m ON m.id = h.match_id
      JOIN hand_seats AS s ON s.hand_id = h.id
      LEFT JOIN match_seats AS ms ON ms.match_id = h.match_id AND ms.seat = s.seat
      WHERE h.result_side IS NOT NULL AND s.user_id IS NOT NULL AND s.holders IS NULL) AS x;

-- Partnerships: two seats of one fixed team, each pair once (the partnership leaderboard).
CREATE VIEW finished_partnerships AS
SELECT a.match_id, a.guild_id, a.season, a.mode, a.ranked,
       CASE WHEN a.user_id < b.user_id THEN a.user_id ELSE b.user_id END AS user_lo,
       CASE WHEN a.user_id < b.user_id THEN b.user_id ELSE a.user_id END AS user_hi,
       a.won
FROM finished_match_seats AS a
JOIN finished_match_seats AS b
  ON b.match_id = a.match_id AND b.team = a.team AND b.seat > a.seat;

CREATE VIEW settled_partnerships AS
SELECT a.hand_id, a.guild_id, a.season, a.mode, a.ranked,
       CASE WHEN a.user_id < b.user_id THEN a.user_id ELSE b.user_id END AS user_lo,
       CASE WHEN a.user_id < b.user_id THEN b.user_id ELSE a.user_id END AS user_hi,
       a.levels_gained
FROM settled_hand_seats AS a
JOIN settled_hand_seats AS b
  ON b.hand_id = a.hand_id AND b.team = a.team AND b.seat > a.seat;
