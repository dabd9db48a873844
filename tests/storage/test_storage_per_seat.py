"""Schema 7 (issue 39): records per seat in every mode, on both backends.

A database at schema 6 holding a four-player match (levels and winner per team, the
declarers on the hand) and a Finding Friends match (per seat already) is upgraded: both
read back per seat exactly as they were recorded, the stats, the partnership board (a
view over the seats) and the ratings read as before, and nothing names a mode the engine
does not know.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
import pytest
from pg import BACKENDS
from storage_helpers import FakeClock

from bot.storage import LevelPoint, MatchRecord, Store
from bot.storage.postgres import migrate as pg_migrate
from bot.storage.ratings import Skill, rate_teams, rate_win
from bot.storage.sqlite.migrate import migrate as sqlite_migrate

V6_ROWS = """
INSERT INTO guilds (guild_id, updated_at) VALUES (1, 40);
INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 40);
INSERT INTO tables (id, guild_id, channel_id, creator_id, status, version, doc, created_at,
                    updated_at)
    VALUES (1, 1, 10, 1, 'ended', 9, '{}', 40, 49), (2, 1, 11, 1, 'playing', 4, '{}', 40, 48);
INSERT INTO matches (id, match_key, table_id, guild_id, channel_id, levels_a, levels_b,
                     winner_team, hands_played, ranked, started_at, ended_at, season, mode,
                     seats)
    VALUES (7, 'T', 1, 1, 10, '3', 'A', 'B', 2, 1, 41, 45, 1, 'teams', 4);
INSERT INTO match_seats (match_id, seat, user_id) VALUES (7, 0, 1), (7, 1, 2), (7, 2, 3),
                                                         (7, 3, 4);
INSERT INTO match_levels (id, match_id, hands_played, levels_a, levels_b, at)
    VALUES (1, 7, 0, '2', '2', 41), (2, 7, 1, '3', '2', 43), (3, 7, 2, '3', 'A', 45);
INSERT INTO hands (id, hand_key, match_id, table_id, hand_no, seed, level, trump, starter,
                   declarer_1, declarer_2, kitty, opponent_points, result_side,
                   result_levels, rated, started_at, settled_at)
    VALUES (20, 'T:1', 7, 1, 1, '9', '2', '2S', 0, 0, 2, '["5H"]', 40, 'declarers', 1, 1,
            41, 43),
           (21, 'T:2', 7, 1, 2, '10', '3', '3H', 2, 0, 2, '[]', 200, 'opponents', 12, 1,
            43, 45),
           (22, 'T:3', 7, 1, 3, '11', 'A', NULL, NULL, NULL, NULL, '[]', 0, NULL, 0, 0,
            45, NULL);
INSERT INTO hand_seats (hand_id, seat, user_id) VALUES
    (20, 0, 1), (20, 1, 2), (20, 2, 3), (20, 3, 4), (21, 0, 1), (21, 1, 2), (21, 2, 3),
    (21, 3, 4), (22, 0, 1), (22, 1, 2), (22, 2, 3), (22, 3, 4);
INSERT INTO ratings (guild_id, season, mode, user_id, mu, sigma, hands, updated_at)
    VALUES (1, 1, 'teams', 2, 27.5, 7.5, 2, 45), (1, 1, 'friends', 4, 26.0, 8.0, 1, 48);
INSERT INTO pair_ratings (guild_id, season, user_lo, user_hi, mu, sigma, hands, updated_at)
    VALUES (1, 1, 2, 4, 28.0, 7.0, 2, 45), (1, 1, 1, 3, 22.0, 7.0, 2, 45);
INSERT INTO matches (id, match_key, table_id, guild_id, channel_id, levels_a, levels_b,
                     hands_played, ranked, started_at, ended_at, season, mode, seats,
                     winner_seat)
    VALUES (8, 'F', 2, 1, 11, '2', '2', 1, 1, 46, 48, 1, 'friends', 5, 3);
INSERT INTO match_seats (match_id, seat, user_id, level) VALUES
    (8, 0, 1, '2'), (8, 1, 2, 'K'), (8, 2, 3, '2'), (8, 3, 4, 'K'), (8, 4, 5, '2');
INSERT INTO match_levels (id, match_id, hands_played, levels_a, levels_b, at, seat_levels)
    VALUES (4, 8, 0, '2', '2', 46, '["2","J","2","J","2"]'),
           (5, 8, 1, '2', '2', 48, '["2","K","2","K","2"]');
INSERT INTO hands (id, hand_key, match_id, table_id, hand_no, seed, level, starter,
                   declarer_1, result_side, result_levels, rated, started_at, settled_at)
    VALUES (30, 'F:1', 8, 2, 1, '12', 'J', 1, 1, 'declarers', 2, 1, 46, 48);
INSERT INTO hand_seats (hand_id, seat, user_id, side, level_before, level_after) VALUES
    (30, 0, 1, 'opponent', '2', '2'), (30, 1, 2, 'starter', 'J', 'K'),
    (30, 2, 3, 'opponent', '2', '2'), (30, 3, 4, 'friend', 'J', 'K'),
    (30, 4, 5, 'opponent', '2', '2');
"""
"""Schema 6 rows as the bot wrote them: team columns for the four-player game (team B won
the match), per-seat columns for Finding Friends (seat 3 won)."""


def schema_6(backend: str, target: str | Path, clock: FakeClock) -> None:
    """Create the database at schema 6 with `V6_ROWS`."""
    if backend == "sqlite":
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(target, isolation_level=None)
        try:
            assert sqlite_migrate(conn, clock, target=6) == 6
            conn.executescript(V6_ROWS)
        finally:
            conn.close()
        return
    with psycopg.connect(str(target), autocommit=True) as pg:
        for migration in pg_migrate.MIGRATIONS:
            if migration.version <= 6:
                pg_migrate._apply(pg, str(target), migration, clock)
        pg.execute(V6_ROWS.encode())


@pytest.fixture(params=BACKENDS)
async def upgraded(request: pytest.FixtureRequest, db_path: Path,
                   clock: FakeClock) -> AsyncIterator[Store]:
    """A store opened (so upgraded to schema 7) on `V6_ROWS`."""
    target: str | Path = db_path if request.param == "sqlite" else request.getfixturevalue(
        "pg_url")
    schema_6(request.param, target, clock)
    store = await Store.open(target, clock=clock)
    try:
        yield store
    finally:
        await store.close()


async def test_schema_6_rows_read_per_seat_exactly(upgraded: Store) -> None:
    store = upgraded
    assert await store.match_record("T") == MatchRecord(
        match_key="T", table_id=1, guild_id=1, channel_id=10, players=(1, 2, 3, 4),
        mode="teams", levels=("3", "A", "3", "A"), winners=(1, 3), hands_played=2,
        started_at=41.0, ended_at=45.0)
    assert await store.level_history("T") == [
        LevelPoint(0, ("2",) * 4, 41.0), LevelPoint(1, ("3", "2", "3", "2"), 43.0),
        LevelPoint(2, ("3", "A", "3", "A"), 45.0)]
    first, second, third = await store.match_hands("T")
    assert (first.declarers, second.declarers, third.declarers) == ((0, 2), (0, 2), None)
    assert [first.role(s) for s in range(4)] == ["starter", "opponent", "friend", "opponent"]
    assert [second.role(s) for s in range(4)] == ["friend", "opponent", "starter", "opponent"]
    assert (first.levels_before, first.kitty, second.result_levels) == ((), ["5H"], 12)

    assert await store.match_record("F") == MatchRecord(
        match_key="F", table_id=2, guild_id=1, channel_id=11, players=(1, 2, 3, 4, 5),
        mode="friends", levels=("2", "K", "2", "K", "2"), winners=(3,), hands_played=1,
        started_at=46.0, ended_at=48.0)
    assert [p.levels for p in await store.level_history("F")] == [
        ("2", "J", "2", "J", "2"), ("2", "K", "2", "K", "2")]
    (hand,) = await store.match_hands("F")
    assert (hand.declarers, hand.levels_before, hand.levels_after) == (
        (1, 3), ("2", "J", "2", "J", "2"), ("2", "K", "2", "K", "2"))


async def test_schema_6_stats_and_boards_read_as_before(upgraded: Store) -> None:
    store = upgraded
    two = await store.stats(1, 2, mode="teams")
    assert (two.matches_played, two.matches_won, two.favourite_partner) == (1, 1, 4)
    assert (two.hands_as_declarers, two.hands_as_opponents, two.levels_gained) == (0, 2, 12)
    assert (await store.stats(1, 1, mode="teams")).held_as_declarers == 1
    four = await store.friends_stats(1, 4)
    assert (four.matches_won, four.hands_as_friend, four.won_as_friend) == (1, 1, 1)
    assert four.highest_level == "K" and four.rated_hands == 1
    pairs = await store.leaderboard(1, "rating", "partnerships", mode="teams")
    assert [r.users for r in pairs.rows] == [(2, 4), (1, 3)]
    wins = await store.leaderboard(1, "wins", "partnerships", mode="teams")
    assert [(r.users, r.wins, r.matches) for r in wins.rows] == [((2, 4), 1, 1),
                                                                 ((1, 3), 0, 1)]
    levels = await store.leaderboard(1, "levels", "partnerships", mode="teams")
    assert [(r.users, r.levels, r.hands) for r in levels.rows] == [((2, 4), 12, 2),
                                                                   ((1, 3), 1, 2)]
    with pytest.raises(ValueError, match="partnerships"):
        await store.leaderboard(1, "rating", "partnerships", mode="friends")
    (history,) = await store.history(10, mode="teams")
    assert (history.levels, history.winners) == (("3", "A", "3", "A"), (1, 3))


def test_fixed_teams_are_rated_as_openskill_teams_winners_first() -> None:
    """Two teams: exactly `rate_win`. Three teams of two: the winners gain, the two losing
    teams (tied) lose alike."""
    a, b, c, d = Skill(27.0, 7.0), Skill(24.0, 8.0), Skill(25.0, 6.0), Skill(23.0, 8.3)
    assert rate_teams([[a, b]], [[c, d]]) == list(rate_win([a, b], [c, d]))
    won, lost_1, lost_2 = rate_teams([[Skill()] * 2], [[Skill()] * 2, [Skill()] * 2])
    assert all(s.mu > Skill().mu for s in won)
    assert [s.mu for s in lost_1] == pytest.approx([s.mu for s in lost_2])
    assert all(s.mu < Skill().mu for s in lost_1)
