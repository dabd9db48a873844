"""Forced plays: the one legal play of the seat to move, when there is exactly one
(Discord-free; `TableService` plays it for players who asked, R12's rules in force)."""

from __future__ import annotations

import itertools
import math

from engine.cards import Card
from engine.follow import held_follow_error
from engine.game import Phase
from engine.views import PlayerView

__all__ = ["forced_play"]

MAX_CANDIDATES = 3000
"""Follows examined at most; beyond that the play is taken as not forced (it never is:
so many cards of the led suit always leave a choice)."""


def forced_play(view: PlayerView) -> tuple[Card, ...] | None:
    """The only legal play of this seat now, or None (not its turn, or a choice)."""
    public = view.public
    trump = public.trump
    hand = view.hand
    if public.phase is not Phase.PLAYING or not view.to_move or trump is None or not hand:
        return None
    lead = view.lead
    if lead is None:
        return tuple(hand) if len(hand) == 1 else None  # any single is a legal lead
    count = len(lead)
    if len(hand) == count:
        return tuple(hand)
    suit = trump.suit_index(lead[0])
    same = trump.sort([c for c in hand if trump.suit_index(c) == suit])
    if len(same) <= count:
        return tuple(same) if len(same) == count else None  # else: free cards to add
    if math.comb(len(same), count) > MAX_CANDIDATES:
        return None
    found: tuple[Card, ...] | None = None
    seen: set[tuple[int, ...]] = set()
    for play in itertools.combinations(same, count):
        key = tuple(sorted(c.code for c in play))
        if key in seen:
            continue
        seen.add(key)
        if held_follow_error(hand, lead, play, trump, public.rules.follow) is None:
            if found is not None:
                return None
            found = play
    return found
