"""Honest records when seats change hands: who held each seat, and what counts.

A hand counts for a person's stats only at a seat they held from its first record to its
end; it is rated only if its four seats were held throughout by four distinct humans (and
its match is ranked). A match counts for a person only if they held their seat in every
hand of it without a change.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from storage_helpers import H, play_match

from bot.storage import HandAction, HandRecord, MatchRecord, Store, StoredTable

LINEUP = (1, 2, 3, 4)


class Table:
    """Saves hands of one match the way the bot does (deal, changes, settle)."""

    def __init__(self, store: Store, table: StoredTable, key: str = "X") -> None:
        self.store, self.table, self.key = store, table, key
        self.match = MatchRecord(match_key=key, table_id=table.id, guild_id=table.guild_id,
                                 channel_id=table.channel_id, players=LINEUP,
                                 mode="teams", levels=("2",) * 4)

    @classmethod
    async def open(cls, store: Store, channel: int = 10) -> Table:
        return cls(store, await store.create_table(1, channel, 1, {}))

    def hand(self, no: int, players: tuple[int | None, ...], **kw: object) -> HandRecord:
        return replace(HandRecord(hand_key=f"{self.key}:{no}", match_key=self.key,
                                  table_id=self.table.id, hand_no=no, seed=no, level="2",
                                  players=players, declarers=(0, 2), starter=0,
                                  mode="teams"),
                       **kw)  # type: ignore[arg-type]

    async def save(self, hand: HandRecord | None = None, **match: object) -> None:
        if match:
            self.match = replace(self.match, **match)  # type: ignore[arg-type]
        actions = [] if hand is None else [HandAction(hand.hand_key, self.table.version,
                                                      {"v": self.table.version})]
        self.table = await self.store.save_table(self.table.id, self.table.version, {},
                                                 match=self.match, hand=hand,
                                                 actions=actions)

    async def settle(self, hand: HandRecord, levels: int = 1) -> None:
        await self.save(replace(hand, opponent_points=20, result_side="declarers",
                                result_levels=levels))


async def play_mixed_match(store: Store) -> Table:
    """Hand 1: 1,2,3,4. Hand 2: seat 1 goes 2 -> computer -> 5 mid-hand. Hand 3: 1,5,3,4.
    Team A (seats 0, 2: users 1 and 3) declares and wins every hand; A wins the match."""
    t = await Table.open(store)
    await t.save(t.hand(1, LINEUP))
    await t.settle(t.hand(1, LINEUP))
    await t.save(t.hand(2, LINEUP), hands_played=1)
    # 2 leaves: the bot saves the hand with the computer in seat 1 (no holders passed)
    await t.save(t.hand(2, (1, None, 3, 4)), players=(1, None, 3, 4))
    # 5 takes the seat; the bot passes the holders it tracked
    await t.settle(t.hand(2, (1, 5, 3, 4), holders=((1,), (2, None, 5), (3,), (4,))))
    await t.save(t.hand(3, (1, 5, 3, 4)), players=(1, 5, 3, 4), hands_played=2)
    await t.settle(t.hand(3, (1, 5, 3, 4)))
    await t.save(hands_played=3, winners=(0, 2), levels=("5", "2", "5", "2"))
    return t


async def test_holders_are_recorded_and_merged(store: Store) -> None:
    await play_mixed_match(store)
    h1, h2, h3 = await store.match_hands("X")
    assert h1.holders == () and h3.holders == ()
    assert h2.players == (1, 5, 3, 4)
    assert h2.holders == ((1,), (2, None, 5), (3,), (4,))
    assert [h.changed_seats for h in (h1, h2, h3)] == [(), (1,), ()]
    loaded = await store.hand_record("X:2")
    assert loaded is not None and loaded.holders == h2.holders


async def test_storage_notices_changes_between_saves_without_holders(store: Store) -> None:
    t = await Table.open(store)
    await t.save(t.hand(1, LINEUP))
    await t.save(t.hand(1, (1, None, 3, 4)))
    await t.save(t.hand(1, (1, 7, 3, 4)))
    await t.settle(t.hand(1, (1, 7, 3, 4)))
    h = await store.hand_record("X:1")
    assert h is not None and h.holders == ((1,), (2, None, 7), (3,), (4,))
    # a later save cannot make the seat look unchanged
    await t.save(t.hand(1, (1, 7, 3, 4), opponent_points=20, result_side="declarers",
                        result_levels=1, holders=((1,), (7,), (3,), (4,))))
    h = await store.hand_record("X:1")
    assert h is not None and h.holders == ((1,), (2, None, 7), (3,), (4,))


async def test_a_player_who_comes_back_mid_hand_did_not_hold_the_seat_throughout(
    store: Store,
) -> None:
    t = await Table.open(store)
    await t.save(t.hand(1, LINEUP))
    await t.settle(t.hand(1, LINEUP, holders=((1,), (2, None, 2), (3,), (4,))))
    h = await store.hand_record("X:1")
    assert h is not None and h.holders == ((1,), (2, None, 2), (3,), (4,))
    assert (await store.stats(1, 2, mode="teams")).hands_as_opponents == 0
    assert (await store.stats(1, 1, mode="teams")).rated_hands == 0


async def test_bad_holders_are_refused(store: Store) -> None:
    t = await Table.open(store)
    for bad in [((1,), (2,), (3,)),                 # three seats
                ((1,), (2, 9), (3,), (4,)),         # last holder is not players[1]
                ((1,), (), (3,), (4,))]:            # nobody held seat 1
        with pytest.raises(ValueError):
            await t.save(t.hand(1, LINEUP, holders=bad))
    assert await store.hand_record("X:1") is None


async def test_mixed_hands_count_only_for_those_who_held_their_seat(store: Store) -> None:
    await play_mixed_match(store)
    one, two, three, four, five = [await store.stats(1, u, mode="teams") for u in (1, 2, 3, 4, 5)]
    # users 1 and 3 held seats 0 and 2 in all three hands and declared each time
    assert (one.hands_as_declarers, one.held_as_declarers, one.levels_gained) == (3, 3, 3)
    assert (one.matches_played, one.matches_won) == (1, 1)
    assert (three.hands_as_declarers, three.matches_won) == (3, 1)
    # 4 held seat 3 throughout: all hands, and the (lost) match
    assert (four.hands_as_opponents, four.matches_played, four.matches_won) == (3, 1, 0)
    # 2 held seat 1 only for hand 1; 5 took it mid-hand 2 and held it in hand 3
    assert (two.hands_as_opponents, two.matches_played) == (1, 0)
    assert (five.hands_as_opponents, five.matches_played) == (1, 0)
    assert five.avg_points_as_opponents == 20.0


async def test_mixed_hands_are_never_rated_and_unrank_the_match(store: Store) -> None:
    await play_mixed_match(store)
    # only hand 1 (before the change) is rated
    assert [(await store.stats(1, u, mode="teams")).rated_hands
            for u in (1, 2, 3, 4, 5)] == [1, 1, 1, 1, 0]
    (summary,) = await store.history(10, mode="teams")
    assert (summary.ranked, summary.has_computers, summary.hands_played) == (False, True, 3)
    ranked = await store.stats(1, 1, include_computers=False, mode="teams")
    assert (ranked.matches_played, ranked.hands_as_declarers) == (0, 0)
    assert (await store.leaderboard(1, "wins", "players", mode="teams")).rows == []


async def test_a_human_to_human_change_inside_a_hand_is_not_rated(store: Store) -> None:
    t = await Table.open(store)
    await t.save(t.hand(1, LINEUP))
    await t.settle(t.hand(1, LINEUP))
    rated = [(r.users, r.rating, r.rated_hands)
             for r in (await store.leaderboard(1, "rating", "players", mode="teams")).rows]
    await t.save(t.hand(2, LINEUP), hands_played=1)
    await t.save(t.hand(2, (1, 6, 3, 4)), players=(1, 6, 3, 4))  # four distinct humans
    await t.settle(t.hand(2, (1, 6, 3, 4)))
    assert [(r.users, r.rating, r.rated_hands)
            for r in (await store.leaderboard(1, "rating", "players", mode="teams")).rows] == rated
    assert (await store.stats(1, 6, mode="teams")).rating is None
    h = await store.hand_record("X:2")
    assert h is not None and h.changed_seats == (1,)


async def test_seat_swaps_between_hands_keep_hands_but_not_the_match(store: Store) -> None:
    """Four people who swap seats between hands: every hand is rated; the match counts
    only for those who kept their seat."""
    t = await Table.open(store)
    await t.save(t.hand(1, LINEUP))
    await t.settle(t.hand(1, LINEUP))
    swapped = (1, 4, 3, 2)
    await t.save(t.hand(2, swapped), players=swapped, hands_played=1)
    await t.settle(t.hand(2, swapped))
    await t.save(hands_played=2, winners=(0, 2))
    assert [(await store.stats(1, u, mode="teams")).rated_hands for u in LINEUP] == [2, 2, 2, 2]
    assert [(await store.stats(1, u, mode="teams")).matches_played for u in LINEUP] == [1, 0, 1, 0]
    assert [(await store.stats(1, u, mode="teams")).hands_as_opponents for u in (2, 4)] == [2, 2]


async def test_computer_replacements_from_the_release_still_count_as_before(
    store: Store,
) -> None:
    """Before holders existed a leaver's seat simply became a computer: unchanged rules."""
    await play_match(store, guild=1, channel=10, match_key="M", players=(1, None, 3, None),
                     hands=[H("A", 60, "declarers", 1)], winner="A")
    s = await store.stats(1, 1, mode="teams")
    assert (s.matches_played, s.hands_as_declarers, s.rated_hands) == (1, 1, 0)
