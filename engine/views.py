"""Views: the only way hidden information leaves the engine (docs/architecture.md).

`public_view(match)` is what everyone may see; `player_view(match, seat)` adds that seat's
own cards (and, for the starter, the kitty they took and buried). Renderers, public
messages and computer players receive views only.

Finding Friends (F4): who holds a called card is hidden like any hand; the public view
names a friend (`call_seats`) only once the called copy has been played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from engine import wire
from engine.cards import ALL_CARDS, Card, Rank, format_cards
from engine.deal import deal_shape
from engine.declaring import legal_declarations as declarations_for
from engine.events import TrumpHow
from engine.friends import FriendCall
from engine.memo import ByIdentity
from engine.phase import Phase
from engine.rules import RuleSet
from engine.state import (
    Cards,
    Declaration,
    FailedThrow,
    HandResult,
    HandState,
    Trick,
    result_to_dict,
    trick_to_dict,
)
from engine.trump import Trump
from engine.variant import Variant


class Match(Protocol):
    """What a view is made from (`engine.game.Match`; named here so that this module does
    not import the state machine, which imports it)."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def levels(self) -> tuple[Rank, ...]: ...
    @property
    def hand_no(self) -> int: ...
    @property
    def starter(self) -> int | None: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def hand(self) -> HandState | None: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def seats(self) -> int: ...


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything public about a match right now (spectators see exactly this)."""

    phase: Phase
    rules: RuleSet
    hand_no: int
    levels: tuple[Rank, ...]
    """Every seat's level (F5; partners share theirs)."""
    level: Rank | None
    """The level rank of the current hand."""
    starter: int | None
    trump: Trump | None
    trump_how: TrumpHow | None
    declarations: tuple[Declaration, ...]
    """Declarations shown in this deal, in order; the last one stands."""
    revealed: Cards
    """Kitty cards turned up to set trump when nobody declared."""
    deal_no: int
    batch: int
    """Batches of five dealt so far (1–5)."""
    awaiting: tuple[int, ...]
    """While declaring: seats that have not yet passed or declared in the open window."""
    turn: int | None
    """The seat to bury or play; `None` while declaring or between hands."""
    cards_left: tuple[int, ...]
    trick: Trick | None
    last_trick: Trick | None
    tricks_played: int
    played: tuple[tuple[int, Cards], ...]
    """Every play of the hand in order, as (seat, cards)."""
    opponent_points: int
    """Points the opponents have so far (tricks, throw penalties; the kitty once settled).
    Finding Friends: points of the seats not (yet) known to be on the starter's side."""
    failed_throws: tuple[FailedThrow, ...]
    result: HandResult | None
    """After settlement: the kitty, the seed and the outcome."""
    match_winner: int | None
    """The seat that won the match (with fixed teams, with its partner)."""
    take_back_seat: int | None = None
    """With R12 `take_backs`: the seat that may take back its last play now, if any."""
    friend_calls: tuple[FriendCall, ...] = ()
    """Finding Friends: the starter's calls, once made (F4)."""
    call_seats: tuple[int | None, ...] = ()
    """Finding Friends: per call, the seat that played the called copy, or `None` while it
    is unplayed (F4)."""
    points_by_seat: tuple[int, ...] = ()
    """Trick points each seat has won this hand."""

    @property
    def variant(self) -> Variant:
        """The game this table plays (`engine.variant`)."""
        return self.rules.variant

    @property
    def seats(self) -> int:
        """Seats at the table (4 in teams mode)."""
        return self.rules.players

    @property
    def declarer_team(self) -> int | None:
        """The starter's fixed team (0: seats 0, 2; 1: seats 1, 3) once it is known; `None`
        where sides are not fixed (Finding Friends)."""
        return None if self.starter is None else self.variant.team_of(self.starter)

    @property
    def declarer_seats(self) -> tuple[int, ...]:
        """The seats known to be on the starter's side, sorted: its partners and the
        revealed friends (F4)."""
        if self.starter is None:
            return ()
        return self.variant.side(self.starter, self.seats, self.call_seats)

    @property
    def seat_levels(self) -> tuple[Rank, ...]:
        """Each seat's level (`levels`, kept for its readers)."""
        return self.levels

    @property
    def trick_winner(self) -> int | None:
        """The seat winning the current trick so far (R9), if a trick is under way."""
        if self.trick is None or self.trump is None:
            return None
        return self.trick.winning_seat(self.trump)

    @property
    def standing(self) -> Declaration | None:
        """The declaration that stands (the last one shown)."""
        return self.declarations[-1] if self.declarations else None

    @property
    def trump_seat(self) -> int | None:
        """The seat whose declaration set trump, if one did."""
        if self.trump_how is TrumpHow.DECLARED and self.declarations:
            return self.declarations[-1].seat
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase.value, "rules": self.rules.to_dict(), "hand_no": self.hand_no,
            "levels": [str(r) for r in self.levels],
            "level": None if self.level is None else str(self.level),
            "starter": self.starter, "declarer_team": self.declarer_team,
            "trump": None if self.trump is None else str(self.trump),
            "trump_seat": self.trump_seat,
            "trump_how": None if self.trump_how is None else self.trump_how.value,
            "declarations": [[d.seat, format_cards(d.cards)] for d in self.declarations],
            "revealed": format_cards(self.revealed), "deal_no": self.deal_no,
            "batch": self.batch, "awaiting": list(self.awaiting), "turn": self.turn,
            "cards_left": list(self.cards_left),
            "trick": None if self.trick is None else trick_to_dict(self.trick),
            "trick_winner": self.trick_winner,
            "last_trick": None if self.last_trick is None else trick_to_dict(self.last_trick),
            "tricks_played": self.tricks_played,
            "played": [[seat, format_cards(cards)] for seat, cards in self.played],
            "opponent_points": self.opponent_points,
            "failed_throws": [[f.seat, format_cards(f.attempted), format_cards(f.forced),
                               f.penalty] for f in self.failed_throws],
            "result": None if self.result is None else result_to_dict(self.result),
            "match_winner": self.match_winner, "take_back_seat": self.take_back_seat,
            "friend_calls": [call.to_dict() for call in self.friend_calls],
            "call_seats": list(self.call_seats), "points_by_seat": list(self.points_by_seat),
            "declarer_seats": list(self.declarer_seats),
            "seat_levels": [str(r) for r in self.seat_levels],
        }

    def __reduce__(self) -> tuple[Callable[..., PublicView], tuple[Any, ...]]:
        """Pickled as plain data (`engine.wire`)."""
        return _public_from, (wire.public_wire(self),)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat sees: the public view plus its own cards."""

    seat: int
    public: PublicView
    hand: Cards
    kitty: Cards | None
    """The starter's kitty: the cards taken (while burying; `hand` + `kitty` are the cards to
    bury from, 33 in the four-player game), then the ones buried (8, or F1's `kitty_size`).
    `None` for other seats until settlement."""

    @property
    def legal_declarations(self) -> tuple[Cards, ...]:
        """Declarations this seat could make now, weakest first (empty when not declaring)."""
        public = self.public
        if public.phase is not Phase.DECLARING or public.level is None:
            return ()
        standing = public.standing
        return tuple(declarations_for(
            self.hand, self.seat, public.level,
            None if standing is None else (standing.seat, standing.cards), public.rules))

    @property
    def to_move(self) -> bool:
        """Whether this seat must bury or play now."""
        return self.public.turn == self.seat

    @property
    def lead(self) -> Cards | None:
        """The cards led to the current trick, or `None` when this seat would lead."""
        trick = self.public.trick
        return None if trick is None else trick.plays[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "public": self.public.to_dict(),
            "hand": format_cards(self.hand),
            "kitty": None if self.kitty is None else format_cards(self.kitty),
            "legal_declarations": [format_cards(d) for d in self.legal_declarations],
        }

    def __reduce__(self) -> tuple[Callable[..., PlayerView], tuple[Any, ...]]:
        """Pickled as plain data (`engine.wire`)."""
        kitty = self.kitty
        return _player_from, (self.seat, wire.public_wire(self.public), wire.codes_of(self.hand),
                              None if kitty is None else wire.codes_of(kitty))


@lru_cache(maxsize=wire.KEPT)
def _public_from(data: bytes) -> PublicView:
    """A public view from `wire.public_wire`'s bytes (rebuilt once per distinct bytes)."""
    return PublicView(*wire.public_fields(data))


def _player_from(seat: int, public: bytes, hand: bytes, kitty: bytes | None) -> PlayerView:
    return PlayerView(seat, _public_from(public), wire.cards_of(hand),
                      None if kitty is None else wire.cards_of(kitty))



_NO_CARDS: Cards = ()

VIEWS_KEPT = 256
"""Matches whose views are kept: the bot asks for the views of the match a move left
many times (each seat's panel, whose turn it is, the computers, the table picture)."""
_views: ByIdentity[Match, tuple[PublicView, list[PlayerView | None]]] = \
    ByIdentity(VIEWS_KEPT)


def _seen(match: Match) -> tuple[PublicView, list[PlayerView | None]]:
    """The public view of `match` and its player views made so far (made once per match:
    a match never changes)."""
    return _views.get(match, _first_seen)


def _first_seen(match: Match) -> tuple[PublicView, list[PlayerView | None]]:
    return _public_view(match), [None] * match.seats


def public_view(match: Match) -> PublicView:
    """The public view of `match`."""
    return _seen(match)[0]


def _public_view(match: Match) -> PublicView:
    hand = match.hand
    if hand is None:
        return PublicView(match.phase, match.rules, match.hand_no, match.levels, None,
                          match.starter, None, None, (), _NO_CARDS, 0, 0, (), None,
                          (0,) * match.seats, None, None, 0, (), 0, (), None, match.winner)
    phase = hand.phase
    cards_left = tuple(map(len, hand.hands))
    awaiting: tuple[int, ...] = ()
    if phase is Phase.DECLARING:
        awaiting = tuple(s for s in range(len(cards_left)) if s not in hand.responded)
    elif phase is Phase.BURYING and hand.starter is not None:  # the starter holds the kitty
        cards_left = tuple(n + len(hand.kitty) if seat == hand.starter else n
                           for seat, n in enumerate(cards_left))
    return PublicView(phase, match.rules, hand.number, match.levels, hand.level, hand.starter,
                      hand.trump, hand.trump_how, hand.declarations, hand.revealed,
                      hand.deal_no, hand.batch, awaiting, hand.turn, cards_left, hand.trick,
                      hand.last_trick, hand.tricks_played, hand.played, hand.opponent_points,
                      hand.failed_throws, hand.result, match.winner, hand.take_back_seat,
                      hand.friend_calls, hand.call_seats, hand.points_by_seat)


def player_view(match: Match, seat: int) -> PlayerView:
    """What `seat` may see of `match`."""
    if not 0 <= seat < match.seats:
        raise ValueError(f"a seat is 0–{match.seats - 1}, not {seat!r}")
    public, players = _seen(match)
    view = players[seat]
    if view is None:
        view = players[seat] = _player_view(match, seat, public)
    return view


def _player_view(match: Match, seat: int, public: PublicView) -> PlayerView:
    hand = match.hand
    if hand is None:
        return PlayerView(seat, public, _NO_CARDS, None)
    kitty: Cards | None = None
    if hand.result is not None:
        kitty = hand.result.kitty
    elif seat == hand.starter and hand.phase is not Phase.DECLARING:
        kitty = hand.kitty
    return PlayerView(seat, public, hand.hands[seat], kitty)


def unseen_cards(view: PlayerView) -> list[Card]:
    """Cards this seat cannot see: the pack minus its hand, its kitty and every played card.

    (They are in the other hands or, for a non-starter, the kitty.)
    """
    decks = deal_shape(view.public.rules).decks
    left = Counter({card: decks for card in ALL_CARDS})
    left.subtract(view.hand)
    if view.kitty is not None and view.public.result is None:
        left.subtract(view.kitty)
    for _, cards in view.public.played:
        left.subtract(cards)
    return [card for card, count in left.items() for _ in range(max(count, 0))]
