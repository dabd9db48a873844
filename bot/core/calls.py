"""A friend call being made, as the table document keeps it (Discord-free): the calls so far
in their written form (``AH1-10S2``: the first A♥, the second 10♠), which the call
components' custom ids carry too (parsed against the legal calls by `bot.ui.friend_calls`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.friends import FriendCall

__all__ = ["MAX_CALLS", "CallDraft", "call_code", "calls_ok", "encode_calls"]

MAX_CALLS = 3
"""Friends called at most (8 seats)."""
_CALL = re.compile(r"(?:[2-9JQKA]|10)[SHDC][1-4]")


def call_code(call: FriendCall) -> str:
    """``AH1``: the first A♥."""
    return f"{call.card}{call.copy}"


def encode_calls(calls: Sequence[FriendCall]) -> str:
    return "-".join(call_code(c) for c in calls)


def calls_ok(text: str) -> bool:
    """The calls part of a call component's id is well formed (for `bot.ui.ids`)."""
    if not text:
        return True
    codes = text.split("-")
    return len(codes) <= MAX_CALLS and all(_CALL.fullmatch(code) for code in codes)


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
