"""The records of a hand and its match (`bot.storage.HandRecord`, `MatchRecord`), built
from the engine's match for the store, per seat in every mode (issue 39): the starter's
side as far as it is public (its partners and the friends revealed so far; the engine's
final `HandResult.declarer_seats` once settled), every seat's level before and after the
hand, the seats that won the match. Nothing hidden goes in: an unrevealed friend is
recorded as an opponent until the reveal or the settlement shows otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage import HandRecord, Holders, MatchRecord, Players
from engine.game import Match

__all__ = ["hand_record", "match_record"]


def _texts(levels: Sequence[object]) -> tuple[str, ...]:
    return tuple(str(level) for level in levels)


def hand_record(match: Match, *, hand_key: str, match_key: str, table_id: int,
                players: Players, holders: Holders = ()) -> HandRecord:
    """The record of ``match``'s current hand (upsert it at the deal, after public changes
    and at settlement; see `bot.storage.HandRecord`), per seat in every mode."""
    hand = match.hand
    assert hand is not None
    starter, result = hand.starter, hand.result
    declarers: tuple[int, ...] | None
    if starter is None:
        declarers = None
    elif result is not None and result.declarer_seats:
        declarers = tuple(result.declarer_seats)
    else:
        declarers = match.public_view().declarer_seats
    return HandRecord(
        hand_key=hand_key, match_key=match_key, table_id=table_id, hand_no=hand.number,
        seed=hand.seed, level=str(hand.level),
        trump=None if hand.trump is None else str(hand.trump), starter=starter,
        declarers=declarers, players=players,
        kitty=() if result is None else [str(c) for c in result.kitty],
        opponent_points=hand.opponent_points,
        kitty_points=0 if result is None else result.kitty_points,
        multiplier=1 if result is None else result.kitty_multiplier,
        result_side=None if result is None else result.side,
        result_levels=0 if result is None else result.levels_gained,
        holders=holders, mode=match.rules.mode,
        levels_before=_texts(match.levels if result is None else result.levels),
        levels_after=() if result is None else _texts(result.new_levels),
    )


def match_record(match: Match, *, match_key: str, table_id: int, guild_id: int,
                 channel_id: int, players: Players, hands_played: int) -> MatchRecord:
    """The record of ``match`` (see `bot.storage.MatchRecord`): every seat's level and the
    seats that won (the winner and its partners, `Variant.partners`)."""
    winner = match.winner
    return MatchRecord(
        match_key=match_key, table_id=table_id, guild_id=guild_id, channel_id=channel_id,
        players=players, mode=match.rules.mode, levels=_texts(match.levels),
        winners=() if winner is None else match.variant.partners(winner, len(match.levels)),
        hands_played=hands_played)
