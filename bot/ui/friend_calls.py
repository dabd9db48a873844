"""Finding Friends' call on a hand panel: the one parser of the calls a component carries,
and what the call selects offer.

A call in progress lives in the starter's panel: the calls made so far are written in the
custom ids of the panel's call components (``{seat}.AH1-10S2``: the first A♥, the second
10♠), the card being picked in its three selects' defaults (suit, rank, copy). Every value
coming back is parsed here, once (`parse_calls`), and checked against the calls the engine
allows (`engine.friends.legal_calls`); anything else is the one refusal,
``error.bad_button``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.calls import CallDraft, call_code, calls_ok
from bot.core.errors import UserFacingError
from engine.friends import FriendCall

__all__ = ["CallChoices", "call_choices", "parse_calls", "suit_of"]

def suit_of(call: FriendCall) -> str:
    """The called card's suit letter (a call never names a joker)."""
    return "" if call.card.suit is None else call.card.suit.value


def parse_calls(text: str, legal: Sequence[FriendCall], wanted: int) -> list[FriendCall]:
    """The calls named by `text`, each one of the `legal` calls (`FriendCall`s), no
    duplicates, at most `wanted`; `UserFacingError("error.bad_button")` otherwise."""
    if not calls_ok(text):
        raise UserFacingError("error.bad_button")
    by_code = {call_code(call): call for call in legal}
    codes = text.split("-") if text else []
    if len(codes) > wanted or len(set(codes)) != len(codes) \
            or any(code not in by_code for code in codes):
        raise UserFacingError("error.bad_button")
    return [by_code[code] for code in codes]


@dataclass(frozen=True, slots=True)
class CallChoices:
    """What the call selects offer for a draft, and what they show chosen."""

    made: tuple[FriendCall, ...]
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    copies: tuple[int, ...]
    pick: FriendCall | None
    """The `FriendCall` the suit, rank and copy selects name now (None: none left)."""


def call_choices(draft: CallDraft, legal: Sequence[FriendCall], wanted: int,
                 advised: Sequence[FriendCall] = ()) -> CallChoices:
    """The choices of the call selects: among `legal` calls not made yet, the draft's suit,
    rank and copy; where the draft picks none, the first `advised` call not made yet
    (`bot.services.players.suggest_calls`: not a card the starter holds, whose call would
    be void), else the first suit, the highest rank, the first copy."""
    made = tuple(parse_calls(draft.calls, legal, wanted))
    left = [c for c in legal if c not in made]
    advice = next((c for c in advised if c in left), None)
    suits = tuple(dict.fromkeys(suit_of(c) for c in left))
    suit = draft.suit if draft.suit in suits else \
        suit_of(advice) if advice is not None else (suits[0] if suits else "")
    in_suit = sorted((c for c in left if suit_of(c) == suit),
                     key=lambda c: (-c.card.rank, c.copy))
    advice = advice if advice is not None and suit_of(advice) == suit else None
    ranks = tuple(dict.fromkeys(str(c.card.rank) for c in in_suit))
    rank = draft.rank if draft.rank in ranks else \
        str(advice.card.rank) if advice is not None else (ranks[0] if ranks else "")
    of_rank = [c for c in in_suit if str(c.card.rank) == rank]
    advice = advice if advice is not None and str(advice.card.rank) == rank else None
    copies = tuple(c.copy for c in of_rank)
    copy = draft.copy if draft.copy in copies else \
        advice.copy if advice is not None else (copies[0] if copies else 0)
    pick = next((c for c in of_rank if c.copy == copy), None)
    return CallChoices(made, suits, ranks, copies, pick)
