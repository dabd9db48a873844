"""Actions: everything players (and the bot's timers) do to a match, as versioned data.

`action.to_dict()` gives e.g. `{"v": 1, "type": "play", "seat": 2, "cards": "AS AS"}`;
`action_from_dict` reads it back. A hand's seed plus its list of actions replays it exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cards import Card, format_cards, parse_cards
from engine.friends import FriendCall

ACTION_VERSION = 1


def _check_seat(seat: int) -> None:
    if seat not in _SEATS:
        raise ValueError(f"a seat is 0–7, not {seat!r}")


_SEATS = frozenset(range(8))
"""Seats any table may have (Finding Friends seats up to 8); the game refuses seats its
match does not have."""


def _cards(cards: Sequence[Card] | str) -> tuple[Card, ...]:
    return tuple(parse_cards(cards)) if isinstance(cards, str) else tuple(cards)


@dataclass(frozen=True, slots=True)
class StartHand:
    """Deal a new hand from `seed` (the bot picks it with a CSPRNG and stores it)."""

    seed: int
    type: ClassVar[str] = "start_hand"

    def __post_init__(self) -> None:
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise ValueError(f"a seed is a non-negative int, not {self.seed!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"v": ACTION_VERSION, "type": self.type, "seed": self.seed}


@dataclass(frozen=True, slots=True)
class _SeatCards:
    """An action of one seat showing or playing cards (`cards` may be given as text)."""

    seat: int
    cards: tuple[Card, ...]
    type: ClassVar[str]

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        if type(self.cards) is not tuple:
            object.__setattr__(self, "cards", _cards(self.cards))

    def to_dict(self) -> dict[str, Any]:
        return {"v": ACTION_VERSION, "type": self.type, "seat": self.seat,
                "cards": format_cards(self.cards)}


@dataclass(frozen=True, slots=True)
class Declare(_SeatCards):
    """Show level cards or a joker pair to set trump while the cards are dealt (R5)."""

    type: ClassVar[str] = "declare"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to declare in the current declaration window (R5)."""

    seat: int
    type: ClassVar[str] = "pass"

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    def to_dict(self) -> dict[str, Any]:
        return {"v": ACTION_VERSION, "type": self.type, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class CloseWindow:
    """The declaration window's timer ran out (R5, R12 `declare_window_s`)."""

    type: ClassVar[str] = "close_window"

    def to_dict(self) -> dict[str, Any]:
        return {"v": ACTION_VERSION, "type": self.type}


@dataclass(frozen=True, slots=True)
class Bury(_SeatCards):
    """The starter puts 8 of their 33 cards face down as the new kitty (R6)."""

    type: ClassVar[str] = "bury"


@dataclass(frozen=True, slots=True)
class Play(_SeatCards):
    """Lead (R7) or follow (R8) with `cards`."""

    type: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Take back one's last play before anyone else acts (R12 `take_backs`)."""

    seat: int
    type: ClassVar[str] = "take_back"

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    def to_dict(self) -> dict[str, Any]:
        return {"v": ACTION_VERSION, "type": self.type, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class CallFriends:
    """Finding Friends: the starter names its friends by card and copy (F4)."""

    seat: int
    calls: tuple[FriendCall, ...]
    type: ClassVar[str] = "call_friends"

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        calls = tuple(self.calls)
        if not all(isinstance(call, FriendCall) for call in calls):
            raise ValueError(f"calls are FriendCalls, not {self.calls!r}")
        object.__setattr__(self, "calls", calls)

    def to_dict(self) -> dict[str, Any]:
        return {"v": ACTION_VERSION, "type": self.type, "seat": self.seat,
                "calls": [call.to_dict() for call in self.calls]}


Action = StartHand | Declare | Pass | CloseWindow | Bury | CallFriends | Play | TakeBack
"""Any action `engine.game.apply` accepts."""


def action_from_dict(data: dict[str, Any]) -> Action:
    """Inverse of `to_dict` for every action; raises `ValueError` on unknown data."""
    if data.get("v") != ACTION_VERSION:
        raise ValueError(f"unsupported action version {data.get('v')!r}")
    kind = data.get("type")
    try:
        if kind == StartHand.type:
            return StartHand(int(data["seed"]))
        if kind == Pass.type:
            return Pass(int(data["seat"]))
        if kind == TakeBack.type:
            return TakeBack(int(data["seat"]))
        if kind == CloseWindow.type:
            return CloseWindow()
        if kind == CallFriends.type:
            return CallFriends(int(data["seat"]),
                               tuple(FriendCall.from_dict(call) for call in data["calls"]))
        for cls in (Declare, Bury, Play):
            if kind == cls.type:
                return cls(int(data["seat"]), tuple(parse_cards(data["cards"])))
    except KeyError as missing:
        raise ValueError(f"action {kind!r} lacks {missing}") from None
    raise ValueError(f"unknown action type {kind!r}")
