-- V3: seasons per guild (everything recorded before is season 1), ratings per season,
-- and who held a hand's seat when it changed hands during the hand.

-- A guild's seasons; the current one is the highest number (ended_at NULL).
CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL REFERENCES guilds (guild_id),
    number     INTEGER NOT NULL CHECK (number >= 1),
    name       TEXT    CHECK (name IS NULL OR name <> ''),
    started_at REAL    NOT NULL,
    ended_at   REAL,
    PRIMARY KEY (guild_id, number)
) WITHOUT ROWID;

INSERT INTO seasons (guild_id, number, started_at)
SELECT g.guild_id, 1,
       MIN(COALESCE((SELECT MIN(t.created_at) FROM tables AS t WHERE t.guild_id = g.guild_id),
                    g.updated_at), g.updated_at)
FROM guilds AS g;

-- The season a match counts in: the guild's current season when it was first saved.
ALTER TABLE matches ADD COLUMN season INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1);
DROP INDEX matches_guild;
CREATE INDEX matches_guild ON matches (guild_id, season, winner_team);

-- NULL: user_id held the seat for the whole hand. Otherwise the JSON list of everyone who
-- held it during the hand, in order (null = a computer; the last one is user_id).
ALTER TABLE hand_seats ADD COLUMN holders TEXT
    CHECK (holders IS NULL OR (json_valid(holders) AND json_array_length(holders) > 1));

-- openskill ratings per guild and season (see bot/storage/ratings.py).
CREATE TABLE ratings_v3 (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    hands      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
) WITHOUT ROWID;
INSERT INTO ratings_v3 SELECT guild_id, 1, user_id, mu, sigma, hands, updated_at FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_v3 RENAME TO ratings;

CREATE TABLE pair_ratings_v3 (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    user_lo    INTEGER NOT NULL,
    user_hi    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    hands      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, user_lo, user_hi),
    CHECK (user_lo < user_hi)
) WITHOUT ROWID;
INSERT INTO pair_ratings_v3
SELECT guild_id, 1, user_lo, user_hi, mu, sigma, hands, updated_at FROM pair_ratings;
DROP TABLE pair_ratings;
ALTER TABLE pair_ratings_v3 RENAME TO pair_ratings;

-- The stats views gain the season, and count a seat only for whoever held it throughout:
-- a hand seat that changed hands counts for nobody; a match seat counts only if its
-- player held it, unchanged, in every hand of the match.
DROP VIEW finished_match_seats;
CREATE VIEW finished_match_seats AS
SELECT m.id AS match_id,
       m.guild_id,
       m.season,
       m.ranked,
       s.seat,
       s.user_id,
       CASE s.seat % 2 WHEN 0 THEN 'A' ELSE 'B' END = m.winner_team AS won
FROM matches AS m
JOIN match_seats AS s ON s.match_id = m.id
WHERE m.winner_team IS NOT NULL AND s.user_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM hands AS h
                  JOIN hand_seats AS hs ON hs.hand_id = h.id AND hs.seat = s.seat
                  WHERE h.match_id = m.id
                    AND (hs.holders IS NOT NULL OR hs.user_id IS NOT s.user_id));

DROP VIEW settled_hand_seats;
CREATE VIEW settled_hand_seats AS
SELECT h.id AS hand_id,
       h.match_id,
       m.guild_id,
       m.season,
       m.ranked,
       s.seat,
       s.user_id,
       CASE WHEN s.seat % 2 = h.declarer_1 % 2 THEN 'declarers' ELSE 'opponents' END AS side,
       h.result_side,
       h.opponent_points,
       CASE WHEN (s.seat % 2 = h.declarer_1 % 2) = (h.result_side = 'declarers')
            THEN h.result_levels ELSE 0 END AS levels_gained
FROM hands AS h
JOIN matches AS m ON m.id = h.match_id
JOIN hand_seats AS s ON s.hand_id = h.id
WHERE h.result_side IS NOT NULL AND s.user_id IS NOT NULL AND s.holders IS NULL;
