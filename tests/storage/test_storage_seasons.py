"""Seasons: per guild; stats, leaderboards, ratings and history are per season."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from itertools import pairwise

import pytest
from storage_helpers import FakeClock, H, play_match

from bot.storage import Season, SeasonNotFound, Store

LINEUP = (101, 102, 103, 104)


async def test_a_new_guild_is_in_season_one(store: Store, clock: FakeClock) -> None:
    s = await store.current_season(1)
    assert (s.guild_id, s.number, s.name, s.started_at, s.ended_at) == (1, 1, None, None, None)
    assert await store.seasons(1) == []
    t = await store.create_table(1, 10, 101, {})
    (first,) = await store.seasons(1)
    assert first == Season(1, 1, None, t.created_at, None)
    assert await store.current_season(1) == first


async def test_starting_seasons_closes_the_current_one(store: Store, clock: FakeClock) -> None:
    await store.create_table(1, 10, 101, {})
    one = await store.current_season(1)
    two = await store.start_season(1, name="Spring 2027")
    assert (two.number, two.name, two.started_at, two.ended_at) == (2, "Spring 2027", clock.now,
                                                                     None)
    three = await store.start_season(1)
    assert (three.number, three.name) == (3, None)
    assert await store.seasons(1) == [
        Season(1, 1, None, one.started_at, two.started_at),
        Season(1, 2, "Spring 2027", two.started_at, three.started_at),
        three,
    ]
    assert await store.current_season(1) == three
    assert (await store.current_season(2)).number == 1  # other guilds are not affected
    with pytest.raises(ValueError):
        await store.start_season(1, name="")
    assert (await store.current_season(1)).number == 3


async def test_concurrent_new_seasons_get_distinct_numbers(store: Store) -> None:
    started = await asyncio.gather(*(store.start_season(1, name=f"s{i}") for i in range(4)))
    assert sorted(s.number for s in started) == [2, 3, 4, 5]
    listed = await store.seasons(1)
    assert [s.number for s in listed] == [1, 2, 3, 4, 5]
    assert [s.ended_at is None for s in listed] == [False] * 4 + [True]
    assert all(a.ended_at == b.started_at for a, b in pairwise(listed))


async def test_a_fresh_guild_can_start_a_season(store: Store) -> None:
    s = await store.start_season(5, name="x")
    assert [(x.number, x.name) for x in await store.seasons(5)] == [(1, None), (2, "x")]
    assert s.number == 2


async def test_counts_and_ratings_start_fresh_and_old_seasons_stay_viewable(
    store: Store,
) -> None:
    await play_match(store, guild=1, channel=10, match_key="S1", players=LINEUP,
                     hands=[H("A", 0, "declarers", 3), H("A", 20, "declarers", 2)], winner="A")
    before = await store.stats(1, 101, mode="teams")
    board_before = await store.leaderboard(1, "rating", "players", mode="teams")
    assert (before.season, board_before.season) == (1, 1)
    assert (before.matches_won, before.rated_hands) == (1, 2)

    await store.start_season(1)
    fresh = await store.stats(1, 101, mode="teams")
    assert fresh.season == 2
    assert (fresh.matches_played, fresh.hands_as_declarers, fresh.rating, fresh.rated_hands) == (
        0, 0, None, 0)
    empty = await store.leaderboard(1, "wins", "players", mode="teams")
    assert (empty.season, empty.rows) == (2, [])
    assert await store.history(10, mode="teams") == []

    # season 1 reads exactly as before
    assert await store.stats(1, 101, season=1, mode="teams") == before
    assert await store.leaderboard(1, "rating", "players", season=1, mode="teams") == board_before
    (old,) = await store.history(10, season=1, mode="teams")
    assert (old.match_key, old.season) == ("S1", 1)

    # season 2 plays: its own ratings start at the default, season 1 is untouched
    await play_match(store, guild=1, channel=10, match_key="S2", players=(104, 101, 102, 103),
                     hands=[H("A", 0, "declarers", 3)], winner="A")
    s2 = await store.stats(1, 101, mode="teams")
    assert (s2.matches_played, s2.matches_won, s2.rated_hands) == (1, 0, 1)
    first_hand = await store.leaderboard(1, "rating", "players", mode="teams")
    assert [r.rating for r in first_hand.rows] == pytest.approx(
        [2.43041, 2.43041, -1.49818, -1.49818], abs=1e-4)  # one hand from the default rating
    assert await store.stats(1, 101, season=1, mode="teams") == before
    assert await store.leaderboard(1, "rating", "players", season=1, mode="teams") == board_before
    assert [m.match_key for m in await store.history(10, mode="teams")] == ["S2"]
    assert [m.season for m in await store.history(10, season=2, mode="teams")] == [2]


async def test_a_match_in_progress_finishes_in_its_own_season(store: Store) -> None:
    await play_match(store, guild=1, channel=10, match_key="M", players=LINEUP,
                     hands=[H("A", 0, "declarers", 1)], winner=None, end_table=False)
    await store.start_season(1)
    table = await store.table_in_channel(10)
    assert table is not None
    record = await store.match_record("M")
    hand = await store.hand_record("M:1")
    assert record is not None and hand is not None
    await store.save_table(table.id, table.version, {},
                           match=replace(record, hands_played=2, winners=(0, 2)),
                           hand=replace(hand, hand_key="M:2", hand_no=2, result_side=None,
                                        actions=()))
    table = await store.table_in_channel(10)
    assert table is not None
    await store.save_table(table.id, table.version, {},
                           hand=replace(hand, hand_key="M:2", hand_no=2, actions=()))
    s1 = await store.stats(1, 101, season=1, mode="teams")
    assert (s1.matches_won, s1.hands_as_declarers, s1.rated_hands) == (1, 2, 2)
    s2 = await store.stats(1, 101, mode="teams")
    assert (s2.matches_played, s2.hands_as_declarers, s2.rated_hands) == (0, 0, 0)


async def test_unknown_seasons_are_refused(store: Store) -> None:
    await store.create_table(1, 10, 101, {})
    await store.start_season(1)
    for bad in (0, 3, -1, 2**70):
        with pytest.raises(SeasonNotFound) as err:
            await store.stats(1, 101, season=bad, mode="teams")
        assert (err.value.guild_id, err.value.season) == (1, bad)
        with pytest.raises(SeasonNotFound):
            await store.leaderboard(1, "wins", "players", season=bad, mode="teams")
    new_guild = await store.stats(9, 101, season=1, mode="teams")
    assert new_guild.season == 1  # a new guild has season 1
    with pytest.raises(SeasonNotFound):
        await store.stats(9, 101, season=2, mode="teams")
    assert await store.history(10, season=7, mode="teams") == []
