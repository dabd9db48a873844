"""The engine's exceptions: every rule violation is a `TractorError` a player can read."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.reasons import InvalidNotation as InvalidNotation  # defined below the cards
from engine.reasons import TractorError as TractorError


class IllegalPlay(TractorError):
    """A lead, follow, declaration or bury the rules do not allow."""

    def __init__(self, reason: str, cards: Sequence[Card] = ()) -> None:
        super().__init__(reason)
        self.cards = tuple(cards)


class NotYourTurn(TractorError):
    """The seat acted when it was not its turn to."""


class WrongPhase(TractorError):
    """The action does not belong to the current phase of the hand."""
