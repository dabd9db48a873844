"""Builders shared by the storage tests (imported as a plain module from this folder)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bot.storage import HandAction, HandRecord, MatchRecord, Side, Store, StoredTable

Team = Literal["A", "B"]
"""A team of the four-player game in the scripts: A = seats 0 and 2, B = seats 1 and 3."""


def team_levels(a: str, b: str) -> tuple[str, str, str, str]:
    """Per-seat levels of the four-player game from team A's and team B's."""
    return (a, b, a, b)


def team_seats(team: Team | None) -> tuple[int, ...]:
    """The seats of a team (``()`` for None)."""
    return () if team is None else (0, 2) if team == "A" else (1, 3)


class FakeClock:
    """A clock that advances one second per reading unless set."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


@dataclass(frozen=True)
class H:
    """A scripted hand: declaring team, opponents' points, result."""

    declaring: Team
    opponent_points: int
    result_side: Side
    result_levels: int


def up(rank: str, n: int) -> str:
    return RANKS[min(RANKS.index(rank) + n, len(RANKS) - 1)]


async def play_match(
    store: Store,
    *,
    guild: int,
    channel: int,
    match_key: str,
    players: tuple[int | None, ...],
    hands: Sequence[H],
    winner: Team | None,
    end_table: bool = True,
) -> StoredTable:
    """Create a table and play ``hands`` through save_table (deal, then settle, per hand)."""
    creator = next(p for p in players if p is not None)
    table = await store.create_table(guild, channel, creator, {"phase": "lobby"})
    levels = {"A": "2", "B": "2"}
    match = MatchRecord(
        match_key=match_key, table_id=table.id, guild_id=guild, channel_id=channel,
        players=players, mode="teams", levels=team_levels("2", "2"),
    )
    for i, h in enumerate(hands, start=1):
        seats = (0, 2) if h.declaring == "A" else (1, 3)
        hand = HandRecord(
            hand_key=f"{match_key}:{i}", match_key=match_key, table_id=table.id, hand_no=i,
            seed=1000 + i, level=levels[h.declaring], players=players, declarers=seats,
            starter=seats[0], mode="teams",
        )
        table = await store.save_table(
            table.id, table.version, {"phase": "play", "hand": i}, status="playing",
            match=replace(match, hands_played=i - 1,
                          levels=team_levels(levels["A"], levels["B"])),
            hand=hand,
            actions=[HandAction(hand.hand_key, 0, {"type": "deal"}),
                     HandAction(hand.hand_key, 1, {"type": "play", "cards": ["AS"]})],
        )
        gainer: Team = h.declaring if h.result_side == "declarers" else (
            "B" if h.declaring == "A" else "A")
        levels[gainer] = up(levels[gainer], h.result_levels)
        last = i == len(hands)
        table = await store.save_table(
            table.id, table.version, {"phase": "scored", "hand": i},
            match=replace(match, hands_played=i, levels=team_levels(levels["A"], levels["B"]),
                          winners=team_seats(winner if last else None)),
            hand=replace(hand, trump=f"{hand.level}S", kitty=["5H", "KD"],
                         opponent_points=h.opponent_points, result_side=h.result_side,
                         result_levels=h.result_levels),
            actions=[HandAction(hand.hand_key, 2, {"type": "end"})],
        )
    if end_table:
        await store.end_table(table.id, table.version)
    return table


@dataclass(frozen=True)
class F:
    """A scripted friends hand: the starter, the final side (starter + friends), the
    opponents' points and the result."""

    starter: int
    side: tuple[int, ...]
    opponent_points: int
    result_side: Side
    result_levels: int
    revealed_early: tuple[int, ...] = ()
    """Friends already revealed at the mid-hand save (the rest only at settlement)."""


async def play_friends_match(
    store: Store,
    *,
    guild: int,
    channel: int,
    match_key: str,
    players: tuple[int | None, ...],
    hands: Sequence[F],
    holders: dict[int, tuple[tuple[int | None, ...], ...]] | None = None,
    end_table: bool = True,
) -> StoredTable:
    """Play a Finding Friends match through save_table: per hand a deal save (the starter
    alone), a mid-hand save (early friends) and the settlement (every seat's side and own
    level); the match ends with the first seat to pass A."""
    creator = next(p for p in players if p is not None)
    table = await store.create_table(guild, channel, creator, {"phase": "lobby"})
    n = len(players)
    levels = ["2"] * n
    match = MatchRecord(match_key=match_key, table_id=table.id, guild_id=guild,
                        channel_id=channel, players=players, mode="friends",
                        levels=("2",) * len(players))
    winner: int | None = None
    for i, f in enumerate(hands, start=1):
        before = tuple(levels)
        hand = HandRecord(
            hand_key=f"{match_key}:{i}", match_key=match_key, table_id=table.id, hand_no=i,
            seed=2000 + i, level=levels[f.starter], players=players, starter=f.starter,
            declarers=(f.starter,), mode="friends", levels_before=before,
        )
        table = await store.save_table(
            table.id, table.version, {"phase": "play", "hand": i}, status="playing",
            match=replace(match, hands_played=i - 1, levels=before), hand=hand,
            actions=[HandAction(hand.hand_key, 0, {"type": "deal"})])
        early = tuple(sorted({f.starter, *f.revealed_early}))
        table = await store.save_table(
            table.id, table.version, {"phase": "play", "hand": i},
            hand=replace(hand, declarers=early, opponent_points=f.opponent_points // 2),
            actions=[HandAction(hand.hand_key, 1, {"type": "play", "cards": ["AS"]})])
        won = set(f.side) if f.result_side == "declarers" else set(range(n)) - set(f.side)
        for seat in sorted(won):
            if RANKS.index(levels[seat]) + f.result_levels >= len(RANKS) and winner is None:
                winner = seat
            levels[seat] = up(levels[seat], f.result_levels)
        after = tuple(levels)
        table = await store.save_table(
            table.id, table.version, {"phase": "scored", "hand": i},
            match=replace(match, hands_played=i, levels=after,
                          winners=() if winner is None else (winner,)),
            hand=replace(hand, declarers=tuple(sorted(f.side)), trump=f"{hand.level}S",
                         opponent_points=f.opponent_points, result_side=f.result_side,
                         result_levels=f.result_levels, levels_after=after,
                         holders=(holders or {}).get(i, ())),
            actions=[HandAction(hand.hand_key, 2, {"type": "end"})])
        if winner is not None:
            break
    if end_table:
        await store.end_table(table.id, table.version)
    return table
