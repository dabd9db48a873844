"""The engine's exceptions: every rule violation is a `TractorError` a player can read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.reasons import Reason

if TYPE_CHECKING:
    from engine.cards import Card


class TractorError(Exception):
    """Base of every error the engine raises for a bad action (never for a bug).

    `str(error)` is the English message; `ruling` is the same text as a `Reason` (with the
    message key and parameters when raised with one, key ``""`` for plain text).
    """

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.ruling: Reason = message if isinstance(message, Reason) else Reason(str(message))

    @property
    def reason(self) -> str:
        """The message shown to the player (the `ruling`, a `str`)."""
        return self.ruling


class InvalidNotation(TractorError, ValueError):
    """Card text that cannot be parsed; names the bad token."""

    def __init__(self, message: str, token: str = "") -> None:
        super().__init__(message)
        self.token = token


class IllegalPlay(TractorError):
    """A lead, follow, declaration or bury the rules do not allow."""

    def __init__(self, reason: str, cards: Sequence[Card] = ()) -> None:
        super().__init__(reason)
        self.cards = tuple(cards)


class NotYourTurn(TractorError):
    """The seat acted when it was not its turn to."""


class WrongPhase(TractorError):
    """The action does not belong to the current phase of the hand."""
