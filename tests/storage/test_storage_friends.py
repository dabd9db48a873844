"""Finding Friends records (issue 14): N seats, sides and own levels per hand, and stats,
leaderboards, ratings, history and seasons kept apart from the four-player game."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from storage_helpers import F, FakeClock, H, play_friends_match, play_match

from bot.storage import HandRecord, MatchRecord, Store
from bot.storage.ratings import Skill, rate_sides, rate_win
from bot.storage.sqlite.migrate import migrate

SIX = (101, 102, 103, 104, 105, 106)
TEAMS = (101, 102, 103, 104)
# 6 seats, 2 friends called: seat 0 starts with 2 and 4; 0 alone (its calls void or
# unplayed); 3 with 1 and 5.
HANDS = (
    F(0, (0, 2, 4), 30, "declarers", 2, revealed_early=(2,)),
    F(0, (0,), 150, "opponents", 1),
    F(3, (1, 3, 5), 60, "declarers", 1, revealed_early=(1, 5)),
)


async def test_a_friends_hand_keeps_its_seats_sides_and_levels(store: Store) -> None:
    await play_friends_match(store, guild=1, channel=10, match_key="F", players=SIX,
                             hands=HANDS)
    first, second, third = await store.match_hands("F")
    assert (first.mode, first.seats, first.players) == ("friends", 6, SIX)
    assert (first.starter, first.declarers) == (0, (0, 2, 4))
    assert [first.role(s) for s in range(6)] == [
        "starter", "opponent", "friend", "opponent", "friend", "opponent"]
    assert first.levels_before == ("2",) * 6
    assert first.levels_after == ("4", "2", "4", "2", "4", "2")
    assert (second.declarers, second.result_side) == ((0,), "opponents")
    assert second.levels_after == ("4", "3", "5", "3", "5", "3")  # opponents +1
    assert (third.starter, third.declarers) == (3, (1, 3, 5))
    match = await store.match_record("F")
    assert match is not None
    assert (match.mode, match.seats, match.levels, match.winners) == (
        "friends", 6, ("4", "4", "5", "4", "5", "4"), ())
    points = await store.level_history("F")
    assert [p.levels for p in points] == [
        ("2",) * 6, ("4", "2", "4", "2", "4", "2"), ("4", "3", "5", "3", "5", "3"),
        ("4", "4", "5", "4", "5", "4")]
    assert (await store.hand_record("F:1")) == first  # actions are not compared


async def test_friends_stats_count_each_side_apart_from_teams(store: Store) -> None:
    await play_match(store, guild=1, channel=11, match_key="T", players=TEAMS,
                     hands=[H("A", 40, "declarers", 1)], winner=None)
    teams_before = await store.stats(1, 101, mode="teams")
    await play_friends_match(store, guild=1, channel=10, match_key="F", players=SIX,
                             hands=HANDS)
    assert await store.stats(1, 101, mode="teams") == teams_before  # the teams record is untouched
    me = await store.friends_stats(1, 101)
    assert (me.hands_played, me.hands_as_starter, me.won_as_starter) == (3, 2, 1)
    assert (me.hands_as_opponent, me.won_as_opponent, me.hands_as_friend) == (1, 0, 0)
    assert (me.levels_gained, me.highest_level, me.hands_won) == (2, "4", 1)
    assert (me.matches_played, me.matches_won) == (0, 0)  # not finished
    assert me.rating is not None and me.rated_hands == 3
    two = await store.friends_stats(1, 102)
    assert (two.hands_as_friend, two.won_as_friend, two.hands_as_opponent,
            two.won_as_opponent) == (1, 1, 2, 1)
    assert (two.levels_gained, two.highest_level) == (2, "4")
    nobody = await store.friends_stats(1, 999)
    assert (nobody.hands_played, nobody.highest_level, nobody.rating) == (0, None, None)
    # a teams-only player has no friends record
    assert (await store.friends_stats(1, 101, season=1)).season == 1


async def test_a_friends_match_is_won_by_a_seat(store: Store) -> None:
    climb = [F(0, (0, 2, 4), 0, "declarers", 3)] * 5  # seats 0, 2, 4 pass A in hand 5
    await play_friends_match(store, guild=1, channel=10, match_key="W", players=SIX,
                             hands=climb)
    match = await store.match_record("W")
    assert match is not None and match.winners == (0,)
    assert match.ended_at is not None
    assert ((await store.friends_stats(1, 101)).matches_won,
            (await store.friends_stats(1, 103)).matches_played,
            (await store.friends_stats(1, 103)).matches_won) == (1, 1, 0)
    assert (await store.stats(1, 101, mode="teams")).matches_played == 0
    board = await store.leaderboard(1, "wins", "players", mode="friends")
    assert [(r.users, r.wins, r.matches) for r in board.rows][:2] == [
        ((101,), 1, 1), ((102,), 0, 1)]


async def test_leaderboards_are_per_mode(store: Store) -> None:
    await play_match(store, guild=1, channel=11, match_key="T", players=(201, 202, 203, 204),
                     hands=[H("A", 40, "declarers", 1)], winner="A")
    await play_friends_match(store, guild=1, channel=10, match_key="F", players=SIX,
                             hands=HANDS)
    teams = await store.leaderboard(1, "rating", "players", mode="teams")
    friends = await store.leaderboard(1, "rating", "players", mode="friends")
    assert {u for r in teams.rows for u in r.users} == {201, 202, 203, 204}
    assert {u for r in friends.rows for u in r.users} == set(SIX)
    assert (teams.mode, friends.mode) == ("teams", "friends")
    # 101 (seat 0) won 1 of 3 hands (with two friends; then lost alone and as opponent),
    # everyone else 2 of 3
    assert all(r.rated_hands == 3 and r.rating is not None for r in friends.rows)
    assert friends.rows[-1].users == (101,)
    levels = await store.leaderboard(1, "levels", "players", mode="friends")
    assert [(r.rank, r.users, r.levels) for r in levels.rows][:3] == [
        (1, (103,), 3), (1, (105,), 3), (3, (101,), 2)]
    with pytest.raises(ValueError, match="partnerships"):
        await store.leaderboard(1, "rating", "partnerships", mode="friends")
    with pytest.raises(ValueError):
        await store.leaderboard(1, "rating", "players", mode="poker")  # type: ignore[arg-type]
    pairs = await store.leaderboard(1, "rating", "partnerships", mode="teams")
    assert {r.users for r in pairs.rows} == {(201, 203), (202, 204)}


async def test_a_seat_changing_hands_or_a_computer_keeps_friends_hands_unrated(
        store: Store) -> None:
    holders = {1: ((101,), (102,), (103,), (104,), (105,), (106, None))}
    await play_friends_match(store, guild=1, channel=10, match_key="X", players=(
        101, 102, 103, 104, 105, None), hands=HANDS[:1], holders=holders)
    hand = await store.hand_record("X:1")
    assert hand is not None and hand.changed_seats == (5,)
    assert (await store.friends_stats(1, 101)).rating is None
    assert (await store.friends_stats(1, 101)).hands_played == 1  # shown, not ranked
    assert (await store.friends_stats(1, 101, include_computers=False)).hands_played == 0
    assert (await store.friends_stats(1, 106)).hands_played == 0  # left mid-hand
    assert (await store.leaderboard(1, "rating", "players", mode="friends")).rows == []
    (summary,) = await store.history(10, mode="friends")
    assert summary.has_computers and not summary.ranked


async def test_history_is_per_mode(store: Store) -> None:
    await play_match(store, guild=1, channel=10, match_key="T", players=TEAMS,
                     hands=[H("A", 40, "declarers", 1)], winner=None)
    await play_friends_match(store, guild=1, channel=10, match_key="F", players=SIX,
                             hands=HANDS)
    (teams,) = await store.history(10, mode="teams")
    (friends,) = await store.history(10, mode="friends")
    assert (teams.match_key, teams.mode, teams.levels) == ("T", "teams", ("3", "2", "3", "2"))
    assert (friends.match_key, friends.mode, friends.players) == ("F", "friends", SIX)
    assert friends.levels == ("4", "4", "5", "4", "5", "4")
    assert friends.winners == () and friends.ranked


async def test_seasons_work_per_mode(store: Store) -> None:
    await play_friends_match(store, guild=1, channel=10, match_key="F1", players=SIX,
                             hands=HANDS)
    await play_match(store, guild=1, channel=11, match_key="T1", players=TEAMS,
                     hands=[H("A", 40, "declarers", 1)], winner="A")
    old_friends = await store.friends_stats(1, 101)
    old_teams = await store.stats(1, 101, mode="teams")
    await store.start_season(1)
    await play_friends_match(store, guild=1, channel=10, match_key="F2", players=SIX,
                             hands=HANDS[:1])
    now = await store.friends_stats(1, 101)
    assert (now.season, now.hands_played, now.rated_hands) == (2, 1, 1)
    assert await store.friends_stats(1, 101, season=1) == old_friends
    assert await store.stats(1, 101, season=1, mode="teams") == old_teams
    assert (await store.stats(1, 101, mode="teams")).matches_played == 0
    board = await store.leaderboard(1, "levels", "players", mode="friends", season=1)
    assert board.season == 1 and len(board.rows) == 6
    assert [m.match_key for m in await store.history(10, mode="friends")] == ["F2"]
    assert [m.match_key for m in await store.history(10, mode="friends", season=1)] == ["F1"]


async def test_invalid_friends_records_are_refused(store: Store) -> None:
    table = await store.create_table(1, 10, 101, {})
    match = MatchRecord(match_key="F", table_id=table.id, guild_id=1, channel_id=10,
                        players=SIX, mode="friends", levels=("2",) * 6)
    hand = HandRecord(hand_key="F:1", match_key="F", table_id=table.id, hand_no=1, seed=1,
                      level="2", players=SIX, starter=0, declarers=(0,), mode="friends")
    bad = [
        ({"match": replace(match, mode="teams")}, "teams mode is four players"),
        ({"match": replace(match, mode="pairs")}, "pairs"),
        ({"match": replace(match, players=SIX * 2)}, "seats"),
        ({"match": replace(match, winners=(6,))}, "winners"),
        ({"match": replace(match, winners=(2, 1))}, "winners"),
        ({"match": replace(match, levels=("2",) * 5)}, "one per seat"),
        ({"match": match, "hand": replace(hand, declarers=(1, 2))}, "starter's side"),
        ({"match": match, "hand": replace(hand, declarers=(2, 0))}, "starter's side"),
        ({"match": match, "hand": replace(hand, starter=6)}, "starter"),
        ({"match": match, "hand": replace(hand, mode="teams", players=SIX[:4],
                                          declarers=(0, 2))}, "does not fit"),
        ({"match": match, "hand": replace(hand, levels_after=("2",) * 4)}, "one per seat"),
        ({"match": match, "hand": replace(hand, holders=((101,),) * 4)}, "holders"),
    ]
    for kwargs, message in bad:
        with pytest.raises(ValueError, match=message):
            await store.save_table(table.id, table.version, {}, **kwargs)  # type: ignore[arg-type]
    saved = await store.save_table(table.id, table.version, {}, match=match, hand=hand)
    with pytest.raises(ValueError, match="6-seat friends match"):
        await store.save_table(saved.id, saved.version, {},
                               match=replace(match, players=SIX[:5], levels=("2",) * 5))
    assert (await store.match_hands("F"))[0].declarers == (0,)


async def test_a_v4_database_upgrades_with_its_rows_and_ids(
        tmp_path: Path, clock: FakeClock) -> None:
    """V5 rebuilds hands, hand_seats and match_seats: ids, actions, holders and ratings
    are kept, and the rows are teams rows of four seats."""
    path = tmp_path / "v4.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        assert migrate(conn, clock, target=4) == 4
        conn.executescript("""
            INSERT INTO guilds (guild_id, updated_at) VALUES (1, 50);
            INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 50);
            INSERT INTO tables (id, guild_id, channel_id, creator_id, status, version, doc,
                                created_at, updated_at)
                VALUES (1, 1, 10, 5, 'playing', 1, '{}', 40, 40);
            INSERT INTO matches (id, match_key, table_id, guild_id, channel_id, levels_a,
                                 levels_b, winner_team, ranked, started_at)
                VALUES (7, 'M', 1, 1, 10, '3', '2', 'A', 1, 41);
            INSERT INTO match_seats VALUES (7, 0, 5), (7, 1, 6), (7, 2, 7), (7, 3, 8);
            INSERT INTO hands (id, hand_key, match_id, table_id, hand_no, seed, level,
                               starter, declarer_1, declarer_2, result_side, result_levels,
                               rated, started_at, settled_at)
                VALUES (42, 'M:1', 7, 1, 1, '9', '2', 1, 1, 3, 'opponents', 1, 1, 42, 43);
            INSERT INTO hand_seats VALUES (42, 0, 5, NULL), (42, 1, 6, NULL),
                                          (42, 2, 7, NULL), (42, 3, 8, '[9,8]');
            INSERT INTO hand_actions VALUES (42, 0, '{"type":"deal"}', 42),
                                            (42, 1, '{"type":"end"}', 43);
            INSERT INTO ratings VALUES (1, 1, 5, 27.0, 7.0, 3, 43);
        """)
    finally:
        conn.close()
    store = await Store.open(path, clock=clock)
    try:
        hand = await store.hand_record(42)
        assert hand is not None and hand.hand_key == "M:1" and len(hand.actions) == 2
        assert (hand.mode, hand.players, hand.declarers, hand.holders[3]) == (
            "teams", (5, 6, 7, 8), (1, 3), (9, 8))
        match = await store.match_record("M")
        assert match is not None and (match.mode, match.winners, match.seats) == (
            "teams", (0, 2), 4)
        stats = await store.stats(1, 5, mode="teams")
        assert (stats.matches_won, stats.held_as_opponents, stats.rated_hands) == (1, 1, 3)
        assert (await store.friends_stats(1, 5)).rating is None
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("SELECT COUNT(*) FROM hand_actions").fetchone() == (2,)
    conn.close()


@pytest.mark.parametrize("fixture", [
    Path(__file__).parent / "fixtures" / "release_v0_1.sqlite3",
    Path(__file__).parents[1] / "bot" / "fixtures" / "release-1.sqlite3",
])
async def test_every_release_fixture_upgrades_to_per_seat_records_without_loss(
        fixture: Path, tmp_path: Path, clock: FakeClock) -> None:
    """V7 moves the four-player game's team columns onto the seats: every match seat gets
    its team's level and whether its team won, every level point lists the seats' levels,
    every hand seat its part (from the declarers); nothing else changes, nothing is lost."""
    path = tmp_path / "copy.sqlite3"
    path.write_bytes(fixture.read_bytes())
    with sqlite3.connect(path) as conn:
        before = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                  for t in ("matches", "match_seats", "hands", "hand_seats", "hand_actions")}
        teams = {r[0]: r[1:] for r in conn.execute(
            "SELECT id, levels_a, levels_b, winner_team FROM matches")}
        points = conn.execute("SELECT id, levels_a, levels_b FROM match_levels"
                              " ORDER BY id").fetchall()
        declarers = {r[0]: r[1:] for r in conn.execute(
            "SELECT id, starter, declarer_1, declarer_2 FROM hands")}
    conn.close()
    store = await Store.open(path, clock=clock)
    await store.close()
    with sqlite3.connect(path) as conn:
        after = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in before}
        assert after == before and before["hands"] > 0
        assert conn.execute("SELECT DISTINCT mode, seats FROM matches").fetchall() == [
            ("teams", 4)]
        for match_id, seat, level, won, team in conn.execute(
                "SELECT match_id, seat, level, won, team FROM match_seats"):
            level_a, level_b, winner = teams[match_id]
            assert (level, won, team) == ((level_a, level_b)[seat % 2],
                                          int(winner == "AB"[seat % 2]), seat % 2)
        assert conn.execute("SELECT id, levels FROM match_levels ORDER BY id").fetchall() == [
            (i, json.dumps([a, b, a, b], separators=(",", ":"))) for i, a, b in points]
        for hand_id, seat, side in conn.execute("SELECT hand_id, seat, side FROM hand_seats"):
            starter, *sides = declarers[hand_id]
            assert side == (None if sides[0] is None else "starter" if seat == starter
                            else "friend" if seat in sides else "opponent")
        assert conn.execute("SELECT COUNT(*) FROM hand_seats WHERE side IS NOT NULL").fetchone(
            ) > (0,)
        assert conn.execute("SELECT COUNT(*) FROM hand_seats WHERE level_before IS NOT NULL"
                            " OR level_after IS NOT NULL").fetchone() == (0,)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert max(v for (v,) in conn.execute("SELECT version FROM schema_version")) == 7
    conn.close()
    store = await Store.open(path, clock=clock)
    try:
        for hand_id, (_starter, d1, d2) in declarers.items():
            hand = await store.hand_record(hand_id)
            assert hand is not None
            assert hand.declarers == (None if d1 is None else tuple(sorted((d1, d2))))
    finally:
        await store.close()


def test_friends_sides_are_rated_at_their_average_skill() -> None:
    """Sides of any sizes between equal players are an even contest: every winner gains
    what a one-against-one win gains; a better-rated side gains less by winning; a
    member with more uncertainty moves more."""
    (one_won,), (one_lost,) = rate_win([Skill()], [Skill()])
    for winners, losers in ((1, 5), (2, 3), (3, 2), (3, 3), (4, 4)):
        won, lost = rate_sides([Skill()] * winners, [Skill()] * losers)
        assert [s.mu for s in won] == pytest.approx([one_won.mu] * winners)
        assert [s.mu for s in lost] == pytest.approx([one_lost.mu] * losers)
        assert all(s.sigma < Skill().sigma for s in won + lost)
    strong, _ = rate_sides([Skill(30.0, 5.0)] * 2, [Skill()] * 3)
    weak, _ = rate_sides([Skill(20.0, 5.0)] * 2, [Skill()] * 3)
    assert 0 < strong[0].mu - 30.0 < weak[0].mu - 20.0
    veteran, newcomer = rate_sides([Skill(25.0, 3.0), Skill()], [Skill()] * 3)[0]
    assert 0 < veteran.mu - 25.0 < newcomer.mu - 25.0 and veteran.sigma <= 3.0


async def test_a_friends_hand_rates_every_seat_by_its_sides(store: Store) -> None:
    await play_friends_match(store, guild=1, channel=10, match_key="F", players=SIX,
                             hands=HANDS[:1])
    won, lost = rate_sides([Skill()] * 3, [Skill()] * 3)
    board = await store.leaderboard(1, "rating", "players", mode="friends")
    ratings = {r.users[0]: r.rating for r in board.rows}
    assert ratings == {u: pytest.approx((won if i in (0, 2, 4) else lost)[0].display)
                       for i, u in enumerate(SIX)}
