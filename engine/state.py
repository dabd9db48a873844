"""A match's state as data: the phases, tricks, hand results and the hand itself, and their
JSON codec. `engine.game` holds the match and its transitions; `engine.views` reads these
types (below both, so that neither imports the other back)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card, Rank, card_points, format_cards, parse_cards
from engine.events import Side, TrumpHow
from engine.friends import FriendCall
from engine.phase import Phase
from engine.rules import RuleSet, ThrowRuff
from engine.trick import trick_winner
from engine.trump import Trump

SEATS = 4
"""Seats of the four-player game (a match's own count is `Match.seats`)."""

Cards = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Declaration:
    """Cards shown by `seat` to declare trump (public, R5)."""

    seat: int
    cards: Cards


@dataclass(frozen=True, slots=True)
class FailedThrow:
    """A throw that did not stand (R7): what was attempted, what was led instead, and the
    change to the opponents' points (R12 `throw_penalty`)."""

    seat: int
    attempted: Cards
    forced: Cards
    penalty: int


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick (public): the plays in order from `leader`, and once complete its winner."""

    number: int
    leader: int
    plays: tuple[Cards, ...]
    winner: int | None = None
    """The seat that won, once every seat has played."""
    failed_throw: FailedThrow | None = None
    throw_ruff: ThrowRuff = ThrowRuff.LARGEST_UNIT
    """How ruffs of a throw are compared at this table (R12 `throw_ruff`; not serialized:
    it is the match's rule)."""
    seat_count: int = SEATS
    """Seats at the table (not serialized: the match's rule)."""

    @property
    def lead(self) -> Cards:
        return self.plays[0]

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple((self.leader + i) % self.seat_count for i in range(len(self.plays)))

    @property
    def points(self) -> int:
        return card_points([card for play in self.plays for card in play])

    @property
    def complete(self) -> bool:
        return len(self.plays) == self.seat_count

    def winning_seat(self, trump: Trump | None) -> int:
        """The seat winning so far (R9), or that won (with no trump known: its leader)."""
        if self.winner is not None:
            return self.winner
        if trump is None:
            return self.leader
        return (self.leader + trick_winner(self.plays, trump, self.throw_ruff)) \
            % self.seat_count


@dataclass(frozen=True, slots=True)
class HandResult:
    """A settled hand (R10, R11); public, including the kitty and the seed."""

    seed: int
    kitty: Cards
    kitty_points: int
    kitty_multiplier: int
    kitty_scored: int
    opponent_points: int
    side: Side
    levels_gained: int
    levels: tuple[Rank, ...]
    """Every seat's level before the hand (F5; partners share theirs, R10)."""
    new_levels: tuple[Rank, ...]
    next_starter: int
    match_winner: int | None
    """The seat that won the match (R11, F6), if this hand ended it."""
    declarer_seats: tuple[int, ...] = ()
    """The starter's final side, sorted (its team; Finding Friends: it and its friends)."""


@dataclass(frozen=True, slots=True)
class HandState:
    """One hand, hidden cards included. Only `engine.views` turns it into what a seat sees."""

    number: int
    seed: int
    deal_no: int
    phase: Phase
    level: Rank
    starter: int | None
    hands: tuple[Cards, ...]
    stock: Cards
    """Cards not dealt yet (hidden)."""
    kitty: Cards
    """The face-down cards (8; F1: the kitty size): as dealt (top card first) until buried,
    then the buried ones."""
    batch: int
    responded: tuple[int, ...] = ()
    """Seats that passed or declared in the open declaration window."""
    declarations: tuple[Declaration, ...] = ()
    trump: Trump | None = None
    trump_how: TrumpHow | None = None
    revealed: Cards = ()
    """Kitty cards turned up to set trump when nobody declared (public, R12 `no_bid`)."""
    turn: int | None = None
    trick: Trick | None = None
    last_trick: Trick | None = None
    tricks_played: int = 0
    played: tuple[tuple[int, Cards], ...] = ()
    opponent_points: int = 0
    """The opponents' points so far: trick points plus throw penalties (kitty at the end)."""
    opponent_trick_points: int = 0
    declarer_trick_points: int = 0
    failed_throws: tuple[FailedThrow, ...] = ()
    result: HandResult | None = None
    undo: HandState | None = None
    """With R12 `take_backs`: the hand as it was before the last play, while that play may
    still be taken back (its own `undo` is `None`: take-backs do not chain)."""
    friend_calls: tuple[FriendCall, ...] = ()
    """Finding Friends: the starter's calls (public once made, F4)."""
    call_seats: tuple[int | None, ...] = ()
    """Finding Friends: per call, the seat that played the called copy, or `None`."""
    points_by_seat: tuple[int, ...] = ()
    """Trick points each seat has won this hand."""

    @property
    def take_back_seat(self) -> int | None:
        """The seat that may take back its last play now (R12 `take_backs`), if any."""
        return self.played[-1][0] if self.undo is not None and self.played else None

    @property
    def trump_seat(self) -> int | None:
        """The seat whose declaration set trump, if one did."""
        if self.trump_how is TrumpHow.DECLARED and self.declarations:
            return self.declarations[-1].seat
        return None

    def cards_left(self, seat: int) -> int:
        """Cards `seat` holds (the starter also holds the kitty while burying: 33 with four)."""
        extra = len(self.kitty) if self.phase is Phase.BURYING and seat == self.starter else 0
        return len(self.hands[seat]) + extra



# --- the codec ----------------------------------------------------------------------------


def _cards_in(text: str) -> Cards:
    return tuple(parse_cards(text))


def opt_int(value: Any) -> int | None:
    """``int(value)``, keeping None (a stored id or seat that may be absent)."""
    return None if value is None else int(value)


def _failed_to_dict(failed: FailedThrow) -> dict[str, Any]:
    return {"seat": failed.seat, "attempted": format_cards(failed.attempted),
            "forced": format_cards(failed.forced), "penalty": failed.penalty}


def _failed_from_dict(data: dict[str, Any]) -> FailedThrow:
    return FailedThrow(int(data["seat"]), _cards_in(data["attempted"]),
                       _cards_in(data["forced"]), int(data["penalty"]))


def trick_to_dict(trick: Trick) -> dict[str, Any]:
    """A trick as JSON-able data (public)."""
    return {"number": trick.number, "leader": trick.leader,
            "plays": [format_cards(play) for play in trick.plays], "winner": trick.winner,
            "failed_throw": None if trick.failed_throw is None
            else _failed_to_dict(trick.failed_throw)}


def _trick_from_dict(data: dict[str, Any] | None, throw_ruff: ThrowRuff) -> Trick | None:
    if data is None:
        return None
    failed = data["failed_throw"]
    return Trick(int(data["number"]), int(data["leader"]),
                 tuple(_cards_in(play) for play in data["plays"]), opt_int(data["winner"]),
                 None if failed is None else _failed_from_dict(failed), throw_ruff)


def result_to_dict(result: HandResult) -> dict[str, Any]:
    """A hand result as JSON-able data (public)."""
    return {
        "seed": result.seed, "kitty": format_cards(result.kitty),
        "kitty_points": result.kitty_points, "kitty_multiplier": result.kitty_multiplier,
        "kitty_scored": result.kitty_scored, "opponent_points": result.opponent_points,
        "side": result.side, "levels_gained": result.levels_gained,
        "levels": [str(r) for r in result.levels],
        "new_levels": [str(r) for r in result.new_levels],
        "next_starter": result.next_starter, "match_winner": result.match_winner,
        "declarer_seats": list(result.declarer_seats),
    }


def levels_from_texts(texts: Sequence[str]) -> tuple[Rank, ...]:
    return tuple(Rank.parse(text) for text in texts)


def _side(text: str) -> Side:
    if text == "declarers":
        return "declarers"
    if text == "opponents":
        return "opponents"
    raise ValueError(f"unknown side {text!r}")


def _result_from_dict(data: dict[str, Any] | None, rules: RuleSet,
                      starter: int | None) -> HandResult | None:
    if data is None:
        return None
    result = HandResult(
        int(data["seed"]), _cards_in(data["kitty"]), int(data["kitty_points"]),
        int(data["kitty_multiplier"]), int(data["kitty_scored"]), int(data["opponent_points"]),
        _side(data["side"]), int(data["levels_gained"]), levels_from_texts(data["levels"]),
        levels_from_texts(data["new_levels"]), int(data["next_starter"]),
        opt_int(data["match_winner"]),
        tuple(int(seat) for seat in data.get("declarer_seats", ())),
    )
    if len(result.levels) == rules.players:
        return result
    # Today's release kept a teams match's levels per team and its winner as a team.
    assert starter is not None
    variant = rules.variant
    return replace(result, levels=per_seat(result.levels, rules),
                   new_levels=per_seat(result.new_levels, rules),
                   match_winner=winner_seat(result.match_winner, rules, starter),
                   declarer_seats=variant.side(starter, rules.players))


def per_seat(levels: tuple[Rank, ...], rules: RuleSet) -> tuple[Rank, ...]:
    """`levels` one per seat: as stored, or from today's release's one per fixed team."""
    if len(levels) == rules.players:
        return levels
    variant = rules.variant
    teams = [variant.team_of(seat) for seat in range(rules.players)]
    if None in teams or len(levels) != len(set(teams)):
        raise ValueError(f"{len(levels)} levels for {rules.players} seats")
    return tuple(levels[team] for team in teams if team is not None)


def winner_seat(team: int | None, rules: RuleSet, starter: int | None) -> int | None:
    """The winning seat of a match that today's release stored as its winning team: the
    seat the engine names now (the starter if on that team, else the next seat after it)."""
    if team is None:
        return None
    variant = rules.variant
    passed = [seat for seat in range(rules.players) if variant.team_of(seat) == team]
    return variant.match_winner(team if starter is None else starter, passed, rules.players)


def hand_to_dict(hand: HandState) -> dict[str, Any]:
    data: dict[str, Any] = {
        "number": hand.number, "seed": hand.seed, "deal_no": hand.deal_no,
        "phase": hand.phase.value, "level": str(hand.level), "starter": hand.starter,
        "hands": [format_cards(cards) for cards in hand.hands],
        "stock": format_cards(hand.stock), "kitty": format_cards(hand.kitty),
        "batch": hand.batch, "responded": list(hand.responded),
        "declarations": [[d.seat, format_cards(d.cards)] for d in hand.declarations],
        "trump": None if hand.trump is None else str(hand.trump),
        "trump_how": None if hand.trump_how is None else hand.trump_how.value,
        "revealed": format_cards(hand.revealed), "turn": hand.turn,
        "trick": None if hand.trick is None else trick_to_dict(hand.trick),
        "last_trick": None if hand.last_trick is None else trick_to_dict(hand.last_trick),
        "tricks_played": hand.tricks_played,
        "played": [[seat, format_cards(cards)] for seat, cards in hand.played],
        "opponent_points": hand.opponent_points,
        "opponent_trick_points": hand.opponent_trick_points,
        "declarer_trick_points": hand.declarer_trick_points,
        "failed_throws": [_failed_to_dict(f) for f in hand.failed_throws],
        "result": None if hand.result is None else result_to_dict(hand.result),
    }
    if hand.undo is not None:  # only with R12 `take_backs`
        data["undo"] = hand_to_dict(hand.undo)
    if hand.points_by_seat:  # always, but in an undo kept by today's release
        data["friend_calls"] = [call.to_dict() for call in hand.friend_calls]
        data["call_seats"] = list(hand.call_seats)
        data["points_by_seat"] = list(hand.points_by_seat)
    return data


def _trick_from(data: dict[str, Any] | None, rules: RuleSet) -> Trick | None:
    trick = _trick_from_dict(data, rules.throw_ruff)
    if trick is None or rules.players == SEATS:
        return trick
    return replace(trick, seat_count=rules.players)


def hand_from_dict(data: dict[str, Any], rules: RuleSet) -> HandState:
    undo = data.get("undo")
    starter = opt_int(data["starter"])
    trump = None if data["trump"] is None else Trump.parse(data["trump"])
    played = tuple((int(seat), _cards_in(text)) for seat, text in data["played"])
    points = data.get("points_by_seat")  # today's release kept none in teams mode
    return HandState(
        number=int(data["number"]), seed=int(data["seed"]), deal_no=int(data["deal_no"]),
        phase=Phase(data["phase"]), level=Rank.parse(data["level"]),
        starter=starter,
        hands=tuple(_cards_in(text) for text in data["hands"]),
        stock=_cards_in(data["stock"]), kitty=_cards_in(data["kitty"]),
        batch=int(data["batch"]), responded=tuple(int(s) for s in data["responded"]),
        declarations=tuple(Declaration(int(seat), _cards_in(text))
                           for seat, text in data["declarations"]),
        trump=trump,
        trump_how=None if data["trump_how"] is None else TrumpHow(data["trump_how"]),
        revealed=_cards_in(data["revealed"]), turn=opt_int(data["turn"]),
        trick=_trick_from(data["trick"], rules),
        last_trick=_trick_from(data["last_trick"], rules),
        tricks_played=int(data["tricks_played"]),
        played=played,
        opponent_points=int(data["opponent_points"]),
        opponent_trick_points=int(data["opponent_trick_points"]),
        declarer_trick_points=int(data["declarer_trick_points"]),
        failed_throws=tuple(_failed_from_dict(f) for f in data["failed_throws"]),
        result=_result_from_dict(data["result"], rules, starter),
        undo=None if undo is None else hand_from_dict(undo, rules),
        friend_calls=tuple(FriendCall.from_dict(call) for call in data.get("friend_calls", ())),
        call_seats=tuple(opt_int(seat) for seat in data.get("call_seats", ())),
        points_by_seat=tuple(map(int, points)) if points is not None
        else _points_won(played, len(data["hands"]), trump, rules.throw_ruff),
    )


def _points_won(played: Sequence[tuple[int, Cards]], seats: int, trump: Trump | None,
                ruffs: ThrowRuff) -> tuple[int, ...]:
    """The trick points each seat has won in the complete tricks of `played` (R9)."""
    points = [0] * seats
    for start in range(0, len(played) - seats + 1, seats):
        trick = played[start:start + seats]
        assert trump is not None
        winner = trick[trick_winner([cards for _, cards in trick], trump, ruffs)][0]
        points[winner] += card_points([card for _, cards in trick for card in cards])
    return tuple(points)


