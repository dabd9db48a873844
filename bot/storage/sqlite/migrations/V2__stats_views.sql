-- V2: indexes and views for player stats and leaderboards.

CREATE INDEX match_seats_user ON match_seats (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX hand_seats_user ON hand_seats (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX matches_guild ON matches (guild_id, winner_team);

-- One row per human seat of a finished match (a winner was recorded).
CREATE VIEW finished_match_seats AS
SELECT m.id AS match_id,
       m.guild_id,
       m.ranked,
       s.seat,
       s.user_id,
       CASE s.seat % 2 WHEN 0 THEN 'A' ELSE 'B' END = m.winner_team AS won
FROM matches AS m
JOIN match_seats AS s ON s.match_id = m.id
WHERE m.winner_team IS NOT NULL AND s.user_id IS NOT NULL;

-- One row per human seat of a settled hand. The side the result favours gains
-- result_levels.
CREATE VIEW settled_hand_seats AS
SELECT h.id AS hand_id,
       h.match_id,
       m.guild_id,
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
WHERE h.result_side IS NOT NULL AND s.user_id IS NOT NULL;
