-- V5: Finding Friends (issue 14). Matches and hands record their mode ('teams': the
-- four-player game, every row before V5; 'friends': 4-8 seats, each player for themselves)
-- and their seat count; seats run 0..7; a friends hand keeps each seat's final side
-- (starter / friend / opponent) and its own level before and after the hand; ratings are
-- kept per mode. Teams rows keep their meaning exactly (sides from declarer_1's parity).
-- The tables whose CHECKs allowed only seats 0..3 are rebuilt (ids kept); `migrate` runs
-- every migration with foreign keys off and checks them before committing.

DROP VIEW finished_match_seats;
DROP VIEW settled_hand_seats;

ALTER TABLE matches ADD COLUMN mode TEXT NOT NULL DEFAULT 'teams'
    CHECK (mode IN ('teams', 'friends'));
ALTER TABLE matches ADD COLUMN seats INTEGER NOT NULL DEFAULT 4 CHECK (seats BETWEEN 4 AND 8);
-- friends: the seat that won the match (winner_team stays NULL)
ALTER TABLE matches ADD COLUMN winner_seat INTEGER CHECK (winner_seat BETWEEN 0 AND 7);
DROP INDEX matches_guild;
CREATE INDEX matches_guild ON matches (guild_id, mode, season);

-- friends: every seat's own level at each change (JSON list, index = seat); NULL in teams
ALTER TABLE match_levels ADD COLUMN seat_levels TEXT
    CHECK (seat_levels IS NULL OR json_valid(seat_levels));

CREATE TABLE match_seats_v5 (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    user_id  INTEGER,
    level    TEXT,    -- friends: the seat's own level now; NULL in teams (levels_a/_b)
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
INSERT INTO match_seats_v5 (match_id, seat, user_id)
SELECT match_id, seat, user_id FROM match_seats;
DROP TABLE match_seats;
ALTER TABLE match_seats_v5 RENAME TO match_seats;
CREATE INDEX match_seats_user ON match_seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE hands_v5 (
    id              INTEGER PRIMARY KEY,
    hand_key        TEXT    NOT NULL UNIQUE,
    match_id        INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    table_id        INTEGER NOT NULL REFERENCES tables (id),
    hand_no         INTEGER NOT NULL,
    seed            TEXT    NOT NULL,  -- decimal integer (may exceed 64 bits)
    level           TEXT    NOT NULL,
    trump           TEXT,              -- e.g. '4D', '4NT'
    starter         INTEGER CHECK (starter BETWEEN 0 AND 7),
    -- teams: the two declarers; friends: declarer_1 = the starter, declarer_2 NULL (the
    -- sides are hand_seats.side)
    declarer_1      INTEGER CHECK (declarer_1 BETWEEN 0 AND 7),
    declarer_2      INTEGER CHECK (declarer_2 BETWEEN 0 AND 7),
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
INSERT INTO hands_v5 (id, hand_key, match_id, table_id, hand_no, seed, level, trump, starter,
                      declarer_1, declarer_2, kitty, opponent_points, kitty_points,
                      multiplier, result_side, result_levels, rated, started_at, settled_at)
SELECT id, hand_key, match_id, table_id, hand_no, seed, level, trump, starter, declarer_1,
       declarer_2, kitty, opponent_points, kitty_points, multiplier, result_side,
       result_levels, rated, started_at, settled_at
FROM hands;
DROP TABLE hands;
ALTER TABLE hands_v5 RENAME TO hands;
CREATE INDEX hands_match ON hands (match_id, hand_no);

CREATE TABLE hand_seats_v5 (
    hand_id      INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    user_id      INTEGER,
    -- NULL: user_id held the seat for the whole hand; else everyone who held it (V3)
    holders      TEXT
        CHECK (holders IS NULL OR (json_valid(holders) AND json_array_length(holders) > 1)),
    -- friends: the seat's side as known at the last save (final once settled); NULL in teams
    side         TEXT    CHECK (side IN ('starter', 'friend', 'opponent')),
    level_before TEXT,   -- friends: the seat's own level when the hand started
    level_after  TEXT,   -- friends: ... once it is settled
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;
INSERT INTO hand_seats_v5 (hand_id, seat, user_id, holders)
SELECT hand_id, seat, user_id, holders FROM hand_seats;
DROP TABLE hand_seats;
ALTER TABLE hand_seats_v5 RENAME TO hand_seats;
CREATE INDEX hand_seats_user ON hand_seats (user_id) WHERE user_id IS NOT NULL;

-- openskill ratings per guild, season and mode (see bot/storage/ratings.py).
CREATE TABLE ratings_v5 (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    mode       TEXT    NOT NULL CHECK (mode IN ('teams', 'friends')),
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    hands      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, mode, user_id)
) WITHOUT ROWID;
INSERT INTO ratings_v5
SELECT guild_id, season, 'teams', user_id, mu, sigma, hands, updated_at FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_v5 RENAME TO ratings;

-- The stats views gain the mode. Teams: as V3. Friends: a match is won by its winner
-- seat; a hand seat's side is its recorded side (starter and friends are the declarers).
CREATE VIEW finished_match_seats AS
SELECT m.id AS match_id,
       m.guild_id,
       m.season,
       m.mode,
       m.ranked,
       s.seat,
       s.user_id,
       CASE m.mode WHEN 'friends' THEN s.seat = m.winner_seat
            ELSE CASE s.seat % 2 WHEN 0 THEN 'A' ELSE 'B' END = m.winner_team END AS won
FROM matches AS m
JOIN match_seats AS s ON s.match_id = m.id
WHERE COALESCE(m.winner_team, m.winner_seat) IS NOT NULL AND s.user_id IS NOT NULL
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
             s.user_id,
             CASE WHEN m.mode = 'friends'
                  THEN CASE WHEN s.side IN ('starter', 'friend') THEN 'declarers'
                            ELSE 'opponents' END
                  WHEN s.seat % 2 = h.declarer_1 % 2 THEN 'declarers'
                  ELSE 'opponents' END AS side,
             CASE WHEN m.mode = 'friends' THEN COALESCE(s.side, 'opponent') END AS role,
             h.result_side,
             h.result_levels,
             h.opponent_points,
             s.level_after
      FROM hands AS h
      JOIN matches AS m ON m.id = h.match_id
      JOIN hand_seats AS s ON s.hand_id = h.id
      WHERE h.result_side IS NOT NULL AND s.user_id IS NOT NULL AND s.holders IS NULL) AS x;
