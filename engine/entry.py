"""Entry points for front ends (the Discord bot, local play): what a player typed becomes
an action, and one legality check for a play from a player's view (lead or follow)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.actions import Action, Bury, Declare, Pass, Play
from engine.cards import Card, parse_cards
from engine.follow import follow_error
from engine.reasons import Reason
from engine.throw import lead_error
from engine.views import PlayerView

__all__ = ["TypedKind", "parse_action", "play_error"]

TypedKind = Literal["play", "bury", "declare", "pass"]


def parse_action(kind: TypedKind, text: str, seat: int, seats: int = 4) -> Action | None:
    """`seat`'s action from typed `text` (R1 notation): ``play``, ``bury`` or ``declare``
    those cards, or ``pass`` (the text is ignored). None when no card was typed; raises
    `InvalidNotation` for a bad card and ValueError for a seat not in 0..`seats`-1 (pass the
    table's seats in Finding Friends)."""
    if not 0 <= seat < seats:
        raise ValueError(f"a seat is 0–{seats - 1}, not {seat!r}")
    if kind == "pass":
        return Pass(seat)
    cards = tuple(parse_cards(text))
    if not cards:
        return None
    if kind == "play":
        return Play(seat, cards)
    if kind == "bury":
        return Bury(seat, cards)
    return Declare(seat, cards)


def play_error(view: PlayerView, cards: Sequence[Card]) -> Reason | None:
    """Why the view's seat may not play `cards` now — a lead (R7) or a follow (R8) from
    its hand — or None. Only a seat to play while trump is known is asked; for others this
    returns None (the engine refuses the action itself with its own reason)."""
    trump = view.public.trump
    if not view.to_move or trump is None:
        return None
    lead = view.lead
    if lead is None:
        return lead_error(cards, trump)
    return follow_error(view.hand, lead, cards, trump, view.public.rules.follow)
