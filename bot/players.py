"""Computer players and suggestions, behind small adapter functions.

Everything here sees one seat's `PlayerView` only (DESIGN.md §1): computer seats, timeouts,
``Hint``, ``Suggest``, the Quick plays select and the typed commands' autocomplete.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.friends import is_friends
from bot.logging import log
from engine import hints
from engine.actions import Action, Bury, CallFriends, Declare, Pass, Play
from engine.ai import make_player
from engine.cards import Card
from engine.deal import deal_shape
from engine.entry import play_error
from engine.friends import call_error, legal_calls
from engine.game import Phase
from engine.selfplay import RandomAgent
from engine.trump import Trump
from engine.units import decompose
from engine.views import PlayerView

__all__ = [
    "QuickPlay",
    "computer_action",
    "quick_plays",
    "suggest_bury",
]



def _seed(*parts: object) -> int:
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def computer_action(view: PlayerView, player: str, *seed_parts: object) -> Action:
    """The computer player's action for this seat (blocking: run it in a thread).

    Finding Friends: an action the player cannot make legally there (a player not yet
    taught the mode) is replaced by a random legal one, so a computer seat never stalls
    the table; the four-player game asks the player alone, as always."""
    seed = _seed(player, view.seat, *seed_parts)
    if not is_friends(view.public.rules):
        return make_player(player, seed).decide(view)
    try:
        action = make_player(player, seed).decide(view)
    except Exception:
        log.debug("player %s failed at seat %s", player, view.seat, exc_info=True)
        action = None
    if action is not None and _plausible(view, action):
        return action
    log.info("player %s cannot play Finding Friends here (%s): a random legal action",
             player, view.public.phase.value)
    return RandomAgent(random.Random(seed)).act(view)


def _plausible(view: PlayerView, action: Action) -> bool:
    """`action` answers the view's phase within the rules the view can check (friends)."""
    public = view.public
    shape = deal_shape(public.rules)
    if isinstance(action, CallFriends):
        return public.phase is Phase.CALLING and public.trump is not None and call_error(
            action.calls, public.trump, shape.friends, shape.decks) is None and all(
            call in legal_calls(view) for call in action.calls)
    if isinstance(action, Bury):
        return public.phase is Phase.BURYING and len(action.cards) == shape.kitty_size
    if isinstance(action, Play):
        return public.phase is Phase.PLAYING and play_error(view, action.cards) is None
    if isinstance(action, Declare):
        return public.phase is Phase.DECLARING and tuple(action.cards) in {
            tuple(d) for d in view.legal_declarations}
    return public.phase is Phase.DECLARING and isinstance(action, Pass)


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
    """A sensible bury of the kitty's size (8 of the starter's 33 cards in the four-player
    game; ``engine.hints.suggest_bury``, its first cards when the kitty is smaller)."""
    return tuple(hints.suggest_bury(view))[:deal_shape(view.public.rules).kitty_size]




def shape_of(cards: Sequence[Card], trump: Trump | None, *, leading: bool = True) -> str:
    """``single`` / ``pair`` / ``tractor`` / ``throw`` / ``mixed`` for a play. Only a lead
    of several units is a throw (R7); a follow of several units is ``mixed``."""
    if trump is None or not cards:
        return "mixed"
    suits = {trump.suit_index(c) for c in cards}
    if len(suits) > 1:
        return "mixed"
    units = decompose(list(cards), trump)
    if len(units) > 1:
        return "throw" if leading else "mixed"
    return units[0].kind.value
