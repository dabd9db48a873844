"""Events: what a transition tells the table, as data (docs/architecture.md).

Every event is public unless its docstring says otherwise: the bot may show any of them to
everyone. Private information (a seat's cards) never travels in an event; it leaves the
engine only through `view_for(seat)`. `event.to_dict()` is versioned JSON-able data,
`event_from_dict` reads it back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, Literal

from engine.cards import Card, Rank, format_cards, parse_cards
from engine.friends import FriendCall
from engine.trump import Trump

EVENT_VERSION = 1

Side = Literal["declarers", "opponents"]


class TrumpHow(StrEnum):
    """How the trump of a hand was set (R5, R12 `no_bid`)."""

    DECLARED = "declared"
    KITTY_TOP_CARD = "kitty_top_card"
    REVEAL_UNTIL_LEVEL = "reveal_until_level"
    FIXED = "fixed"  # R12 `fixed_trump`: the table's trump for the whole match


class _Event:
    """Serialization shared by the event dataclasses (driven by their field annotations)."""

    __slots__ = ()
    type: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"v": EVENT_VERSION, "type": self.type}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            data[f.name] = None if value is None else _CODECS[str(f.type)][0](value)
        return data


@dataclass(frozen=True, slots=True)
class HandStarted(_Event):
    """A new hand begins; `starter` is `None` in the first hand until a declaration decides."""

    hand_no: int
    starter: int | None
    level: Rank
    type: ClassVar[str] = "hand_started"


@dataclass(frozen=True, slots=True)
class CardsDealt(_Event):
    """Batch `batch` (1–5) of five cards each was dealt; a declaration window opens (R5),
    except under a fixed trump (R12 `fixed_trump`), where the five batches are dealt at once.

    Which cards a seat got is private: see `view_for(seat)`.
    """

    batch: int
    deal_no: int
    type: ClassVar[str] = "cards_dealt"


@dataclass(frozen=True, slots=True)
class Declared(_Event):
    """`seat` declared (or reinforced) by showing `cards`; shown cards are public (R5)."""

    seat: int
    cards: tuple[Card, ...]
    type: ClassVar[str] = "declared"


@dataclass(frozen=True, slots=True)
class Passed(_Event):
    """`seat` passed in the current declaration window."""

    seat: int
    type: ClassVar[str] = "passed"


@dataclass(frozen=True, slots=True)
class WindowClosed(_Event):
    """The declaration window after batch `batch` closed (`final` after the fifth batch)."""

    batch: int
    final: bool
    timed_out: bool
    type: ClassVar[str] = "window_closed"


@dataclass(frozen=True, slots=True)
class Redealt(_Event):
    """Nobody declared in the first hand: the cards are thrown in and dealt again (R5)."""

    deal_no: int
    type: ClassVar[str] = "redealt"


@dataclass(frozen=True, slots=True)
class StarterSet(_Event):
    """`seat` is the starter of this hand; their team are the declarers (R5, R10)."""

    seat: int
    type: ClassVar[str] = "starter_set"


@dataclass(frozen=True, slots=True)
class NoBidTrump(_Event):
    """Nobody declared in a later hand: these kitty cards were turned up and set trump (R5, R12)."""

    revealed: tuple[Card, ...]
    trump: Trump
    type: ClassVar[str] = "no_bid_trump"


@dataclass(frozen=True, slots=True)
class TrumpSet(_Event):
    """The trump of the hand; `seat` is the declarer whose declaration stood, if any."""

    trump: Trump
    seat: int | None
    how: TrumpHow
    type: ClassVar[str] = "trump_set"


@dataclass(frozen=True, slots=True)
class KittyTaken(_Event):
    """The starter took the kitty cards into their hand (R6; 8 of them, or F1's kitty size)."""

    seat: int
    type: ClassVar[str] = "kitty_taken"


@dataclass(frozen=True, slots=True)
class Buried(_Event):
    """The starter buried as many cards face down (which ones stays secret until settlement,
    R6)."""

    seat: int
    type: ClassVar[str] = "buried"


@dataclass(frozen=True, slots=True)
class FriendsCalled(_Event):
    """Finding Friends: the starter `seat` called `calls` (F4); then play begins."""

    seat: int
    calls: tuple[FriendCall, ...]
    type: ClassVar[str] = "friends_called"


@dataclass(frozen=True, slots=True)
class FriendRevealed(_Event):
    """Finding Friends: `seat` just played the copy named by call `call_index` (F4). It is
    now on the starter's side, unless it is the starter (the call is void) or already a
    friend (the call adds nobody)."""

    seat: int
    call_index: int
    type: ClassVar[str] = "friend_revealed"


@dataclass(frozen=True, slots=True)
class CardsPlayed(_Event):
    """`seat` played `cards` to the current trick."""

    seat: int
    cards: tuple[Card, ...]
    type: ClassVar[str] = "cards_played"


@dataclass(frozen=True, slots=True)
class PlayTakenBack(_Event):
    """`seat` took back its last play, `cards`, which return to its hand; the hand is as it
    was before that play (R12 `take_backs`)."""

    seat: int
    cards: tuple[Card, ...]
    type: ClassVar[str] = "play_taken_back"


@dataclass(frozen=True, slots=True)
class ThrowFailed(_Event):
    """`seat` attempted the throw `attempted`; a unit was beatable, so `forced` is led (R7).

    `penalty` is the change to the opponents' points (R12 `throw_penalty`; 0 by default).
    """

    seat: int
    attempted: tuple[Card, ...]
    forced: tuple[Card, ...]
    penalty: int
    type: ClassVar[str] = "throw_failed"


@dataclass(frozen=True, slots=True)
class TrickWon(_Event):
    """`seat` won trick `trick_no` (1-based) holding `points` card points (R9)."""

    seat: int
    points: int
    trick_no: int
    type: ClassVar[str] = "trick_won"


@dataclass(frozen=True, slots=True)
class KittyRevealed(_Event):
    """The buried kitty is shown; `scored` = points × multiplier if the opponents won the last
    trick, else 0 (R10)."""

    cards: tuple[Card, ...]
    points: int
    multiplier: int
    scored: int
    type: ClassVar[str] = "kitty_revealed"


@dataclass(frozen=True, slots=True)
class HandSettled(_Event):
    """The hand's result (R10): the opponents' total, which side goes up by how many levels,
    every seat's levels before and after (F5; partners share theirs),
    the next starter, and the seed."""

    hand_no: int
    opponent_points: int
    side: Side
    levels_gained: int
    levels: tuple[Rank, ...]
    new_levels: tuple[Rank, ...]
    next_starter: int
    seed: int
    type: ClassVar[str] = "hand_settled"


@dataclass(frozen=True, slots=True)
class MatchWon(_Event):
    """`seat` passed A and won the match (R11, F6; with fixed teams, with its partner:
    `match.variant.team_of(seat)` is the winning team)."""

    seat: int
    type: ClassVar[str] = "match_won"


Event = (HandStarted | CardsDealt | Declared | Passed | WindowClosed | Redealt | StarterSet
         | NoBidTrump | TrumpSet | KittyTaken | Buried | FriendsCalled | FriendRevealed
         | CardsPlayed | PlayTakenBack | ThrowFailed | TrickWon | KittyRevealed | HandSettled
         | MatchWon)
"""Any event `engine.game.apply` emits."""

_EVENT_TYPES: dict[str, type[_Event]] = {cls.type: cls for cls in (
    HandStarted, CardsDealt, Declared, Passed, WindowClosed, Redealt, StarterSet, NoBidTrump,
    TrumpSet, KittyTaken, Buried, FriendsCalled, FriendRevealed, CardsPlayed, PlayTakenBack,
    ThrowFailed, TrickWon, KittyRevealed, HandSettled, MatchWon)}


def _same(value: Any) -> Any:
    return value


_CODECS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "int": (_same, int),
    "int | None": (_same, int),
    "bool": (_same, bool),
    "Side": (_same, str),
    "Rank": (str, Rank.parse),
    "Trump": (str, Trump.parse),
    "TrumpHow": (lambda how: how.value, TrumpHow),
    "tuple[Card, ...]": (format_cards, lambda text: tuple(parse_cards(text))),
    "tuple[Rank, ...]": (lambda ranks: [str(r) for r in ranks],
                         lambda texts: tuple(Rank.parse(t) for t in texts)),
    "tuple[FriendCall, ...]": (lambda calls: [call.to_dict() for call in calls],
                               lambda data: tuple(FriendCall.from_dict(c) for c in data)),
}

def event_from_dict(data: dict[str, Any]) -> Event:
    """Inverse of `to_dict` for every event; raises `ValueError` on unknown data."""
    if data.get("v") != EVENT_VERSION:
        raise ValueError(f"unsupported event version {data.get('v')!r}")
    cls = _EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    args = {}
    for f in fields(cls):  # type: ignore[arg-type]
        value = data[f.name]
        args[f.name] = None if value is None else _CODECS[str(f.type)][1](value)
    event: Event = cls(**args)  # type: ignore[assignment]
    return event
