"""Views as plain data, to pickle them for other processes (`bot.runtime.offload`'s workers).

A slots dataclass pickles field by field through `dataclasses.fields` (a Python call per
object, each card one), and a view holds dozens of them. Here a public view pickles as
the bytes of one tuple of plain values (cards as bytes of their codes, ranks as ints,
enums as their values), made once per view object: the view of a move travels with
several jobs (a computer's decision, the Quick plays, the pictures). The other side
rebuilds it once per distinct bytes, its cards the shared ones of `ALL_CARDS`. A player
view adds its seat and its cards.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from functools import cache, lru_cache
from itertools import accumulate, chain, pairwise
from operator import attrgetter
from typing import Any

from engine.cards import ALL_CARDS, Card, Rank, Suit
from engine.events import TrumpHow
from engine.friends import FriendCall
from engine.memo import ByIdentity
from engine.phase import Phase
from engine.rules import RuleSet, ThrowRuff
from engine.state import Cards, Declaration, FailedThrow, HandResult, Trick
from engine.trump import Trump

__all__ = ["KEPT", "cards_of", "codes_of", "public_fields", "public_wire"]

PublicView = Any
"""An `engine.views.PublicView` (which pickles through here: named by its fields only, so
that this module does not import it back)."""

KEPT = 256
"""Views whose pickled form is kept (one for each table's last move, and more)."""

_CODE = attrgetter("code")
_CARD = ALL_CARDS.__getitem__
_RANK = {int(rank): rank for rank in Rank}.__getitem__


def public_wire(view: PublicView) -> bytes:
    """A public view's fields as bytes (made once per view object); `public_fields` reads
    them back."""
    return _wires.get(view, _public_wire)


def public_fields(wire: bytes) -> tuple[Any, ...]:
    """The fields of the public view `public_wire` made `wire` from, in order."""
    return _public_in(*pickle.loads(wire))


def codes_of(cards: Iterable[Card]) -> bytes:
    """Cards as the bytes of their codes."""
    return bytes(map(_CODE, cards))


def cards_of(codes: bytes) -> Cards:
    """Inverse of `codes` (the shared cards of `ALL_CARDS`)."""
    return tuple(map(_CARD, codes))


_wires: ByIdentity[PublicView, bytes] = ByIdentity(KEPT)


def _public_wire(view: PublicView) -> bytes:
    return pickle.dumps(_public_out(view), pickle.HIGHEST_PROTOCOL)


def _plays_out(plays: Sequence[Cards]) -> tuple[bytes, bytes]:
    """Several plays: their lengths and all their cards."""
    return bytes(map(len, plays)), codes_of(chain.from_iterable(plays))


def _plays_in(lengths: bytes, codes: bytes) -> list[Cards]:
    played = cards_of(codes)
    return [played[start:end] for start, end in pairwise(accumulate(lengths, initial=0))]


def _values(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """The values of a dataclass's fields, in order (`cls(*values)` rebuilds it)."""
    if not all(f.init for f in fields(cls)):
        raise TypeError(f"{cls.__name__} has fields its constructor does not take")
    return attrgetter(*[f.name for f in fields(cls)])


_FAILED_THROW = _values(FailedThrow)
_RESULT = _values(HandResult)
_CALL = _values(FriendCall)
"""Rare in a view (their cards pickle one by one, as `Card.__reduce__`)."""


def _trick_out(trick: Trick | None) -> tuple[Any, ...] | None:
    if trick is None:
        return None
    return (trick.number, trick.leader, _plays_out(trick.plays), trick.winner,
            trick.failed_throw, trick.throw_ruff.value, trick.seat_count)


def _trick_in(wire: tuple[Any, ...] | None) -> Trick | None:
    if wire is None:
        return None
    number, leader, plays, winner, failed_throw, throw_ruff, seat_count = wire
    return Trick(number, leader, tuple(_plays_in(*plays)), winner, failed_throw,
                 ThrowRuff(throw_ruff), seat_count)


@lru_cache(maxsize=64)
def _rules_in(values: tuple[Any, ...]) -> RuleSet:
    return RuleSet(*values)


@cache
def _trump_in(level: int, suit: str | None) -> Trump:
    return Trump(_RANK(level), None if suit is None else Suit(suit))


def _public_out(view: PublicView) -> tuple[Any, ...]:
    """`view`'s fields in order, as plain values (`_public_in` rebuilds it)."""
    trump, level, result = view.trump, view.level, view.result
    seats, plays = zip(*view.played, strict=True) if view.played else ((), ())
    return (
        view.phase.value, tuple(view.rules.to_dict().values()), view.hand_no,
        bytes(view.levels), None if level is None else int(level), view.starter,
        None if trump is None else (int(trump.level), trump.suit and trump.suit.value),
        view.trump_how and view.trump_how.value,
        tuple([(d.seat, codes_of(d.cards)) for d in view.declarations]),
        codes_of(view.revealed), view.deal_no, view.batch, view.awaiting, view.turn,
        view.cards_left, _trick_out(view.trick), _trick_out(view.last_trick),
        view.tricks_played, (bytes(seats), *_plays_out(plays)), view.opponent_points,
        tuple(map(_FAILED_THROW, view.failed_throws)),
        None if result is None else _RESULT(result), view.match_winner, view.take_back_seat,
        tuple(map(_CALL, view.friend_calls)), view.call_seats, view.points_by_seat)


def _public_in(phase: str, rules: tuple[Any, ...], hand_no: int, levels: bytes,
               level: int | None, starter: int | None, trump: tuple[int, str | None] | None,
               trump_how: str | None, declarations: tuple[tuple[int, bytes], ...],
               revealed: bytes, deal_no: int, batch: int, awaiting: tuple[int, ...],
               turn: int | None, cards_left: tuple[int, ...],
               trick: tuple[Any, ...] | None, last_trick: tuple[Any, ...] | None,
               tricks_played: int, played: tuple[bytes, bytes, bytes],
               opponent_points: int, failed_throws: tuple[tuple[Any, ...], ...],
               result: tuple[Any, ...] | None, match_winner: int | None,
               take_back_seat: int | None, friend_calls: tuple[tuple[Any, ...], ...],
               call_seats: tuple[int | None, ...], points_by_seat: tuple[int, ...]
               ) -> tuple[Any, ...]:
    """The fields `_public_out` flattened."""
    return (
        Phase(phase), _rules_in(rules), hand_no, tuple(map(_RANK, levels)),
        None if level is None else _RANK(level), starter,
        None if trump is None else _trump_in(*trump),
        None if trump_how is None else TrumpHow(trump_how),
        tuple([Declaration(seat, cards_of(codes)) for seat, codes in declarations]),
        cards_of(revealed), deal_no, batch, awaiting, turn, cards_left, _trick_in(trick),
        _trick_in(last_trick), tricks_played,
        tuple(zip(played[0], _plays_in(*played[1:]), strict=True)), opponent_points,
        tuple([FailedThrow(*f) for f in failed_throws]),
        None if result is None else HandResult(*result), match_winner, take_back_seat,
        tuple([FriendCall(*c) for c in friend_calls]), call_seats, points_by_seat)
