"""Finding Friends (F4): the starter's friend calls and their reveals (the sides, the next
starter and the match winner are `engine.variant`'s).

A call names "the copy-th <card> played" (a card that is not trump this hand). Whoever plays
that copy joins the starter's side at that moment (F4). The functions here are pure; the
state machine (`engine.game`) applies them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.cards import ALL_CARDS, Card
from engine.deal import deal_shape
from engine.phase import Phase
from engine.reasons import Reason, ruling
from engine.rules import RuleSet
from engine.trump import Trump

Cards = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class FriendCall:
    """"The `copy`-th `card` played in this hand" (copy 1..decks, F4)."""

    card: Card
    copy: int

    def __post_init__(self) -> None:
        if not isinstance(self.copy, int) or isinstance(self.copy, bool) or not \
                1 <= self.copy <= 4:
            raise ValueError(f"a called copy is 1–4, not {self.copy!r}")

    def to_dict(self) -> list[Any]:
        """`["AH", 1]`."""
        return [str(self.card), self.copy]

    @classmethod
    def from_dict(cls, data: Sequence[Any]) -> FriendCall:
        """Inverse of `to_dict`; raises `ValueError` on bad data."""
        if isinstance(data, str) or len(data) != 2:
            raise ValueError(f"a friend call is [card, copy], not {data!r}")
        card, copy = data
        if not isinstance(copy, int) or isinstance(copy, bool):
            raise ValueError(f"a called copy is a whole number, not {copy!r}")
        return cls(Card.parse(str(card)), copy)


def call_error(calls: Sequence[FriendCall], trump: Trump, friends: int,
               decks: int) -> Reason | None:
    """Why `calls` are not a legal call of `friends` friends this hand (F4), or `None`."""
    if len(calls) != friends:
        return ruling("call.count", size=friends, played=len(calls))
    seen: set[FriendCall] = set()
    for call in calls:
        if trump.is_trump(call.card):
            return ruling("call.trump", cards=str(call.card))
        if call.copy > decks:
            return ruling("call.copy", size=decks, number=call.copy)
        if call in seen:
            return ruling("call.duplicate", cards=str(call.card), number=call.copy)
        seen.add(call)
    return None


class _Public(Protocol):
    @property
    def phase(self) -> Phase: ...
    @property
    def trump(self) -> Trump | None: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def rules(self) -> RuleSet: ...


class CallerView(Protocol):
    """What `legal_calls` reads of a `PlayerView` (named here: `engine.views` imports this
    module)."""

    @property
    def seat(self) -> int: ...
    @property
    def public(self) -> _Public: ...


def legal_calls(view: CallerView) -> list[FriendCall]:
    """Every single call the starter may make now (card, copy), strongest card first; empty
    unless this seat is calling (F4). A legal call is `friends` distinct ones of these."""
    public = view.public
    trump = public.trump
    if public.phase is not Phase.CALLING or trump is None or public.turn != view.seat:
        return []
    decks = deal_shape(public.rules).decks
    cards = trump.sort(card for card in ALL_CARDS if not trump.is_trump(card))
    return [FriendCall(card, copy) for card in cards for copy in range(1, decks + 1)]


def reveals(calls: Sequence[FriendCall], call_seats: tuple[int | None, ...],
            played: Sequence[tuple[int, Cards]], seat: int,
            cards: Cards) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
    """After `seat` played `cards` (the last entry of `played`): the new `call_seats` and
    the indexes of the calls this play fulfilled (F4: copies count in play order, cards
    within one play in order)."""
    fulfilled: list[int] = []
    seats = list(call_seats)
    for index, call in enumerate(calls):
        if seats[index] is not None or call.card not in cards:
            continue
        before = sum(play.count(call.card) for _, play in played[:-1])
        if before < call.copy <= before + cards.count(call.card):
            seats[index] = seat
            fulfilled.append(index)
    return tuple(seats), tuple(fulfilled)
