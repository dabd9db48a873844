-- V7 for PostgreSQL: records per seat in every mode (issue 39; see bot/storage/sqlite/
-- migrations/V7__seats.sql for what each column now holds). Every row converts without
-- loss; modes are the engine's (no CHECK names them); pair ratings are kept per mode.

DROP VIEW finished_match_seats;
DROP VIEW settled_hand_seats;

ALTER TABLE match_seats ADD COLUMN won INTEGER NOT NULL DEFAULT 0 CHECK (won IN (0, 1));
ALTER TABLE match_seats ADD COLUMN team INTEGER CHECK (team >= 0);
UPDATE match_seats AS s
SET level = CASE WHEN m.mode = 'teams'
                 THEN CASE s.seat % 2 WHEN 0 THEN m.levels_a ELSE m.levels_b END
                 ELSE s.level END,
    won = CASE WHEN CASE WHEN m.mode = 'teams'
                         THEN (CASE s.seat % 2 WHEN 0 THEN 'A' ELSE 'B' END)
                              IS NOT DISTINCT FROM m.winner_team
                         ELSE s.seat IS NOT DISTINCT FROM m.winner_seat END
               THEN 1 ELSE 0 END,
    team = CASE WHEN m.mode = 'teams' THEN s.seat % 2 END
FROM matches AS m
WHERE m.id = s.match_id;

UPDATE hand_seats AS s
SET side = CASE WHEN s.seat IS NOT DISTINCT FROM h.starter THEN 'starter'
                WHEN s.seat IN (h.declarer_1, h.declarer_2) THEN 'friend'
                ELSE 'opponent' END
FROM hands AS h JOIN matches AS m ON m.id = h.match_id
WHERE h.id = s.hand_id AND m.mode = 'teams' AND h.declarer_1 IS NOT NULL;

ALTER TABLE match_levels ADD COLUMN levels TEXT;
UPDATE match_levels AS l
SET levels = CASE WHEN m.mode = 'teams' OR l.seat_levels IS NULL
                  THEN '["' || l.levels_a || '","' || l.levels_b || '","' || l.levels_a
                       || '","' || l.levels_b || '"]'
                  ELSE l.seat_levels END
FROM matches AS m
WHERE m.id = l.match_id;
ALTER TABLE match_levels ALTER COLUMN levels SET NOT NULL;
ALTER TABLE match_levels ADD CHECK ((levels::json) IS NOT NULL);
ALTER TABLE match_levels DROP COLUMN levels_a, DROP COLUMN levels_b, DROP COLUMN seat_levels;

ALTER TABLE matches DROP COLUMN levels_a, DROP COLUMN levels_b, DROP COLUMN winner_team,
    DROP COLUMN winner_seat;
ALTER TABLE matches DROP CONSTRAINT matches_mode_check;
ALTER TABLE matches ALTER COLUMN mode DROP DEFAULT, ALTER COLUMN seats DROP DEFAULT;

ALTER TABLE hands DROP COLUMN declarer_1, DROP COLUMN declarer_2;

ALTER TABLE ratings DROP CONSTRAINT ratings_mode_check;

ALTER TABLE pair_ratings ADD COLUMN mode TEXT NOT NULL DEFAULT 'teams';
ALTER TABLE pair_ratings ALTER COLUMN mode DROP DEFAULT;
ALTER TABLE pair_ratings DROP CONSTRAINT pair_ratings_pkey;
ALTER TABLE pair_ratings ADD PRIMARY KEY (guild_id, season, mode, user_lo, user_hi);

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
                    AND (hs.holders IS NOT NULL OR hs.user_id IS DISTINCT FROM s.user_id));

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
