"""Computer players and suggestions, behind small adapter functions.

Everything here sees one seat's `PlayerView` only (docs/architecture.md): computer seats, timeouts,
``Hint``, ``Suggest``, the Quick plays select, the friend call's first picks and the typed
commands' autocomplete.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from engine import hints
from engine.actions import Action
from engine.ai import make_player
from engine.ai.friends import choose_calls
from engine.cards import Card
from engine.friends import FriendCall, legal_calls
from engine.views import PlayerView

__all__ = [
    "QuickPlay",
    "computer_action",
    "quick_plays",
    "suggest_bury",
    "suggest_calls",
]


def _seed(*parts: object) -> int:
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def computer_action(view: PlayerView, player: str, *seed_parts: object) -> Action:
    """The computer player's action for this seat (blocking: run it in a thread), in either
    mode: `engine.ai.make_player` answers Finding Friends views too (F1–F6)."""
    return make_player(player, _seed(player, view.seat, *seed_parts)).decide(view)


@dataclass(frozen=True, slots=True)
class QuickPlay:
    """A suggested play: the cards, and whether it is the recommended one."""

    cards: tuple[Card, ...]
    recommended: bool = False


def quick_plays(view: PlayerView, limit: int = 25) -> list[QuickPlay]:
    """Legal plays for the seat to move, the recommended one first (empty if not its turn):
    ``engine.hints.quick_plays`` (forced cards first; leads: safe throws, tractors, pairs,
    side aces, low cards; follows: cheapest winning, lowest legal, other shapes)."""
    plays = hints.quick_plays(view, limit=limit)
    return [QuickPlay(tuple(cards), index == 0) for index, cards in enumerate(plays)]


def suggest_bury(view: PlayerView) -> tuple[Card, ...]:
    """A sensible bury of the kitty's size (``engine.hints.suggest_bury``)."""
    return tuple(hints.suggest_bury(view))


def suggest_calls(view: PlayerView) -> tuple[FriendCall, ...]:
    """The calls a computer starter would make (``engine.ai.friends.choose_calls``: a top
    card the starter does not hold, or the copy after those it holds), empty unless the seat
    is calling."""
    if not legal_calls(view):
        return ()
    return choose_calls(view)
