"""Builders shared by the storage tests (imported as a plain module from this folder)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.storage import HandAction, HandRecord, MatchRecord, Side, Store, StoredTable, Team


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
        players=players,
    )
    for i, h in enumerate(hands, start=1):
        seats = (0, 2) if h.declaring == "A" else (1, 3)
        hand = HandRecord(
            hand_key=f"{match_key}:{i}", match_key=match_key, table_id=table.id, hand_no=i,
            seed=1000 + i, level=levels[h.declaring], players=players, declarers=seats,
            starter=seats[0],
        )
        table = await store.save_table(
            table.id, table.version, {"phase": "play", "hand": i}, status="playing",
            match=replace(match, hands_played=i - 1, levels_a=levels["A"], levels_b=levels["B"]),
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
            match=replace(match, hands_played=i, levels_a=levels["A"], levels_b=levels["B"],
                          winner_team=winner if last else None),
            hand=replace(hand, trump=f"{hand.level}S", kitty=["5H", "KD"],
                         opponent_points=h.opponent_points, result_side=h.result_side,
                         result_levels=h.result_levels),
            actions=[HandAction(hand.hand_key, 2, {"type": "end"})],
        )
    if end_table:
        await store.end_table(table.id, table.version)
    return table
