"""Finding Friends at a Discord table (Discord-free): the friend calls as component values,
and the one parser of a call being made.

A call in progress lives in the starter's panel: the calls made so far are written in the
custom ids of the panel's call components (``{seat}.AH1-10S2``: the first A♥, the second
10♠), the card being picked in its three selects' defaults (suit, rank, copy). Every value
coming back is parsed here, once (`parse_calls`), and checked against the calls the engine
allows (`engine.friends.legal_calls`); anything else is the one refusal,
``error.bad_button``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.errors import UserFacingError
from engine.friends import FriendCall
from engine.game import Phase
from engine.rules import RuleSet

__all__ = ["CALLING", "MAX_CALLS", "CallChoices", "CallDraft", "call_choices", "calls_ok",
           "encode_calls", "is_friends", "parse_calls", "suit_of"]

CALLING = Phase.CALLING
MAX_CALLS = 3
"""Friends called at most (8 seats)."""
_CALL = re.compile(r"(?:[2-9JQKA]|10)[SHDC][1-4]")


def is_friends(rules: RuleSet) -> bool:
    """Whether the table's sides are made in play, not fixed (Finding Friends: levels,
    points and sides shown per seat); the variant answers (`engine.variant`)."""
    return not rules.variant.fixed_sides


def call_code(call: FriendCall) -> str:
    """``AH1``: the first A♥."""
    return f"{call.card}{call.copy}"


def suit_of(call: FriendCall) -> str:
    """The called card's suit letter (a call never names a joker)."""
    return "" if call.card.suit is None else call.card.suit.value


def encode_calls(calls: Sequence[FriendCall]) -> str:
    return "-".join(call_code(c) for c in calls)


def calls_ok(text: str) -> bool:
    """The calls part of a call component's id is well formed (for `bot.ui.ids`)."""
    if not text:
        return True
    codes = text.split("-")
    return len(codes) <= MAX_CALLS and all(_CALL.fullmatch(code) for code in codes)


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
class CallDraft:
    """The starter's friend call being made: the calls so far (``AH1-10S2``) and the card
    being picked (suit letter, rank text, copy); empty picks take the first legal ones.
    Kept with the table (`bot.core.table.TableDoc.call_draft`), so a restart keeps it."""

    calls: str = ""
    suit: str = ""
    rank: str = ""
    copy: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"calls": self.calls, "suit": self.suit, "rank": self.rank,
                "copy": self.copy}

    @classmethod
    def from_dict(cls, data: Any) -> CallDraft:
        """Back from `to_dict` (anything malformed: a fresh draft; the calls are checked
        against the legal ones when used, `call_choices`)."""
        if not isinstance(data, dict):
            return cls()
        calls, suit, rank, copy = (data.get(k) for k in ("calls", "suit", "rank", "copy"))
        if not (isinstance(calls, str) and calls_ok(calls) and isinstance(suit, str)
                and len(suit) <= 1 and isinstance(rank, str) and len(rank) <= 2
                and isinstance(copy, int) and 0 <= copy <= 4):
            return cls()
        return cls(calls, suit, rank, copy)


@dataclass(frozen=True, slots=True)
class CallChoices:
    """What the call selects offer for a draft, and what they show chosen."""

    made: tuple[FriendCall, ...]
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    copies: tuple[int, ...]
    pick: FriendCall | None
    """The `FriendCall` the suit, rank and copy selects name now (None: none left)."""


def call_choices(draft: CallDraft, legal: Sequence[FriendCall], wanted: int) -> CallChoices:
    """The choices of the call selects: among `legal` calls not made yet, the draft's suit
    (else the first), its rank (else the highest), its copy (else the first)."""
    made = tuple(parse_calls(draft.calls, legal, wanted))
    left = [c for c in legal if c not in made]
    suits = tuple(dict.fromkeys(suit_of(c) for c in left))
    suit = draft.suit if draft.suit in suits else (suits[0] if suits else "")
    in_suit = sorted((c for c in left if suit_of(c) == suit),
                     key=lambda c: (-c.card.rank, c.copy))
    ranks = tuple(dict.fromkeys(str(c.card.rank) for c in in_suit))
    rank = draft.rank if draft.rank in ranks else (ranks[0] if ranks else "")
    of_rank = [c for c in in_suit if str(c.card.rank) == rank]
    copies = tuple(c.copy for c in of_rank)
    copy = draft.copy if draft.copy in copies else (copies[0] if copies else 0)
    pick = next((c for c in of_rank if c.copy == copy), None)
    return CallChoices(made, suits, ranks, copies, pick)
