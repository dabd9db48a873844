"""The match and hand state machine: `apply(match, action) -> (match, events)`.

A `Match` is immutable: `apply` returns a new one (sharing unchanged parts) and the events
the transition produced, or raises a `TractorError` and leaves the old one untouched.

Phases of a hand: DECLARING (five batches of five cards, a declaration window after each,
R5) → BURYING (the starter takes the kitty and buries 8, R6) → PLAYING (tricks, R7–R9) →
settlement (R10, R11) → BETWEEN_HANDS until the next `StartHand`, or MATCH_OVER.
Seats are numbered in play order. What depends on the game mode (the sides, a calling phase,
who moves up, the match winner) is asked of `match.variant` (`engine.variant`): Finding
Friends (`mode=friends`, F1–F6) has 4–8 seats and D decks dealt by `deal_shape`, and after
BURYING comes CALLING (the starter's `CallFriends`). Levels, points and the winner are kept
per seat in every mode (with fixed teams, partners move together).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.actions import (
    Action,
    Bury,
    CallFriends,
    CloseWindow,
    Declare,
    Pass,
    Play,
    StartHand,
    TakeBack,
)
from engine.cards import (
    ALL_CARDS,
    Card,
    Rank,
    card_points,
    format_cards,
    full_deck,
    missing_from,
)
from engine.deal import DealShape, deal_shape
from engine.declaring import declaration_error, declared_trump
from engine.errors import IllegalPlay, NotYourTurn, WrongPhase
from engine.events import (
    Buried,
    CardsDealt,
    CardsPlayed,
    Declared,
    Event,
    FriendRevealed,
    FriendsCalled,
    HandSettled,
    HandStarted,
    KittyRevealed,
    KittyTaken,
    MatchWon,
    NoBidTrump,
    Passed,
    PlayTakenBack,
    Redealt,
    StarterSet,
    ThrowFailed,
    TrickWon,
    TrumpHow,
    TrumpSet,
    WindowClosed,
)
from engine.follow import follow_error, held_follow_error
from engine.friends import call_error, reveals
from engine.phase import Phase
from engine.reasons import ruling
from engine.rules import FixedTrump, NoBid, RuleSet
from engine.scoring import advance_level, kitty_multiplier, settle
from engine.state import (
    SEATS,
    Cards,
    Declaration,
    FailedThrow,
    HandResult,
    HandState,
    Trick,
    hand_from_dict,
    hand_to_dict,
    levels_from_texts,
    opt_int,
    per_seat,
    result_to_dict,
    trick_to_dict,
    winner_seat,
)
from engine.throw import check_throw, lead_error
from engine.trick import trick_winner
from engine.trump import Trump
from engine.variant import Variant
from engine.views import PlayerView, PublicView, player_view, public_view

__all__ = [
    "BATCHES", "FIXED_TRUMP_FIRST_STARTER", "HAND_SIZE", "KITTY_SIZE", "SEATS", "STATE_VERSION",
    "Cards", "Declaration", "FailedThrow", "HandResult", "HandState", "Match", "Phase", "Trick",
    "apply", "deal_seed", "no_bid_trump", "pack", "result_to_dict", "trick_to_dict",
]

STATE_VERSION = 1
BATCHES = 5
BATCH_SIZE = 5
KITTY_SIZE = 8
HAND_SIZE = BATCHES * BATCH_SIZE
"""The four-player game's shape (R1, R5, R6), kept for the modules that import it; a match's
own shape is `Match.shape` (`deal_shape(rules)`)."""
FIXED_TRUMP_FIRST_STARTER = 0
"""The first hand's starter under R12 `fixed_trump` (the bot seats the table's creator at 0)."""

@dataclass(frozen=True, slots=True)
class Match:
    """A match: every seat's level (partners share theirs), the hands played, the current
    hand."""

    rules: RuleSet = RuleSet()  # noqa: RUF009 - a frozen value
    levels: tuple[Rank, ...] = (Rank.TWO,) * SEATS
    """One level per seat (F5; with fixed teams, partners' levels move together, R10)."""
    hand_no: int = 0
    """Hands started so far (the current hand's number)."""
    starter: int | None = None
    """The current hand's starter, or after settlement the next one; `None` until the first
    hand's declaring decides it."""
    winner: int | None = None
    """The seat that won the match (R11, F6; with fixed teams, with its partner)."""
    hand: HandState | None = None

    def __post_init__(self) -> None:
        if len(self.levels) != self.rules.players:  # one per fixed team, as until issue 27
            object.__setattr__(self, "levels", per_seat(self.levels, self.rules))

    @classmethod
    def new(cls, rules: RuleSet | None = None) -> Match:
        """A match before its first hand: level 2 for every seat, no starter; send
        `StartHand(seed)`."""
        rules = rules or RuleSet()
        return cls(rules=rules, levels=(Rank.TWO,) * rules.players)

    @property
    def variant(self) -> Variant:
        """The game this match plays (`engine.variant`)."""
        return self.rules.variant

    @property
    def seats(self) -> int:
        """Seats at the table (4 in teams mode)."""
        return self.rules.players

    @property
    def shape(self) -> DealShape:
        """How this match's cards are dealt (F1; R1, R5, R6 in teams mode)."""
        return deal_shape(self.rules)

    def level_of(self, seat: int) -> Rank:
        """The level of `seat` (its team's, with fixed teams)."""
        return self.levels[seat]

    @property
    def phase(self) -> Phase:
        if self.winner is not None:
            return Phase.MATCH_OVER
        return Phase.BETWEEN_HANDS if self.hand is None else self.hand.phase

    def apply(self, action: Action) -> tuple[Match, tuple[Event, ...]]:
        """See `apply`."""
        return apply(self, action)

    def view_for(self, seat: int) -> PlayerView:
        """What `seat` may see: its own cards plus the public view."""
        return player_view(self, seat)

    def public_view(self) -> PublicView:
        """What everyone (spectators included) may see."""
        return public_view(self)

    def to_dict(self, *, rules: bool = True) -> dict[str, Any]:
        """JSON-able state; `rules` False leaves out the ``rules`` entry (a caller that
        keeps the rules elsewhere, as the bot's table document does)."""
        return _match_to_dict(self, rules=rules)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        return _match_from_dict(data)

# --- transitions --------------------------------------------------------------------------


def apply(match: Match, action: Action) -> tuple[Match, tuple[Event, ...]]:
    """The match after `action`, and the events it produced.

    Raises `WrongPhase`, `NotYourTurn` or `IllegalPlay` (a `TractorError` with a reason
    citing the rule) and changes nothing when the action is not allowed now.
    """
    if isinstance(action, Play):
        return _play(match, action)
    if isinstance(action, TakeBack):
        return _take_back(match, action)
    if isinstance(action, (Pass, Declare, CloseWindow)) \
            and match.rules.fixed_trump is not FixedTrump.NONE:
        raise WrongPhase(ruling("declare.fixed_trump"))
    if isinstance(action, Pass):
        return _pass(match, action)
    if isinstance(action, Declare):
        return _declare(match, action)
    if isinstance(action, CloseWindow):
        return _close_window(match)
    if isinstance(action, Bury):
        return _bury(match, action)
    if isinstance(action, CallFriends):
        return _call_friends(match, action)
    if isinstance(action, StartHand):
        return _start_hand(match, action)
    raise TypeError(f"not an action: {action!r}")


_PHASE_RULINGS = {
    Phase.DECLARING: "phase.declaring",
    Phase.BURYING: "phase.burying",
    Phase.CALLING: "phase.calling",
    Phase.PLAYING: "phase.playing",
}


def _hand_in(match: Match, phase: Phase) -> HandState:
    hand = match.hand
    if hand is None or hand.phase is not phase:
        raise WrongPhase(ruling(_PHASE_RULINGS[phase]))
    return hand


def _with_hand(match: Match, hand: HandState,
               events: list[Event]) -> tuple[Match, tuple[Event, ...]]:
    """`match` with its hand replaced (every action ends here or in `replace`)."""
    return Match(match.rules, match.levels, match.hand_no, match.starter, match.winner,
                 hand), tuple(events)


def _start_hand(match: Match, action: StartHand) -> tuple[Match, tuple[Event, ...]]:
    if match.winner is not None:
        raise WrongPhase(ruling("phase.match_over"))
    if match.hand is not None and match.hand.phase is not Phase.BETWEEN_HANDS:
        raise WrongPhase(ruling("phase.hand_running", number=match.hand.number))
    fixed = match.rules.fixed_trump
    starter = match.starter
    if starter is None and fixed is not FixedTrump.NONE:
        starter = FIXED_TRUMP_FIRST_STARTER  # no declaring to decide the first starter
    level = match.level_of(starter) if starter is not None else match.levels[0]
    number = match.hand_no + 1
    shape = match.shape
    hand = _deal(number, action.seed, 0, level, starter, shape)
    events: list[Event] = [HandStarted(number, starter, level)]
    if starter is not None:
        events.append(StarterSet(starter))
    events.append(CardsDealt(1, 0))
    if fixed is FixedTrump.NONE:
        return replace(match, hand=hand, hand_no=number), tuple(events)
    while hand.batch < len(shape.batches):  # R12 `fixed_trump`: the whole deal, no windows
        hand = _deal_batch(hand, shape)
        events.append(CardsDealt(hand.batch, 0))
    trump = Trump.parse(f"{level}{fixed.value}")
    events.append(TrumpSet(trump, None, TrumpHow.FIXED))
    hand = replace(hand, trump=trump, trump_how=TrumpHow.FIXED)
    return _take_kitty(replace(match, hand_no=number), hand, events)


def deal_seed(seed: int, deal_no: int) -> int:
    """The seed of deal `deal_no` of a hand (0: the hand's own seed; then one per redeal)."""
    if deal_no == 0:
        return seed
    digest = hashlib.sha256(f"tractor-redeal:{seed}:{deal_no}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def pack(decks: int) -> list[Card]:
    """The cards of `decks` packs shuffled together: every card `decks` times (R1, F1)."""
    if decks == 2:
        return full_deck()
    return [card for card in ALL_CARDS for _ in range(decks)]


def _deal(number: int, seed: int, deal_no: int, level: Rank, starter: int | None,
          shape: DealShape) -> HandState:
    deck = pack(shape.decks)
    random.Random(deal_seed(seed, deal_no)).shuffle(deck)
    dealt = shape.seats * shape.hand_size
    stock = tuple(deck[:dealt])
    kitty = tuple(deck[dealt:])
    empty: tuple[Cards, ...] = ((),) * shape.seats
    hand = HandState(number=number, seed=seed, deal_no=deal_no, phase=Phase.DECLARING,
                     level=level, starter=starter, hands=empty, stock=stock, kitty=kitty,
                     batch=0, points_by_seat=(0,) * shape.seats)
    return _deal_batch(hand, shape)


def _deal_batch(hand: HandState, shape: DealShape) -> HandState:
    """Deal the next batch (`shape.batches`: five cards each with four seats) to every seat
    and open its declaration window (R5, F1)."""
    order = Trump(hand.level, None)
    stock = hand.stock
    size = shape.batches[hand.batch]
    hands = tuple(
        tuple(order.sort(hand.hands[seat] + stock[seat * size:(seat + 1) * size]))
        for seat in range(shape.seats)
    )
    return replace(hand, hands=hands, stock=stock[shape.seats * size:], batch=hand.batch + 1,
                   responded=())


def _check_seat(match: Match, seat: int) -> None:
    """Refuse a seat this match does not have (actions accept any seat 0–7)."""
    if seat >= match.rules.players:
        raise NotYourTurn(ruling("seat.absent", seat=seat))


def _declare(match: Match, action: Declare) -> tuple[Match, tuple[Event, ...]]:
    hand = _hand_in(match, Phase.DECLARING)
    _check_seat(match, action.seat)
    missing = missing_from(hand.hands[action.seat], action.cards)
    if missing:
        raise IllegalPlay(ruling("declare.not_held", notation=format_cards(missing)),
                          action.cards)
    standing = (hand.declarations[-1].seat, hand.declarations[-1].cards) if hand.declarations \
        else None
    reason = declaration_error(standing, action.seat, action.cards, hand.level, match.rules)
    if reason is not None:
        raise IllegalPlay(reason, action.cards)
    responded = hand.responded if action.seat in hand.responded else (
        *hand.responded, action.seat)
    hand = _answered(hand, responded,
                     (*hand.declarations, Declaration(action.seat, action.cards)))
    return _after_response(match, hand, [Declared(action.seat, action.cards)])


def _pass(match: Match, action: Pass) -> tuple[Match, tuple[Event, ...]]:
    hand = _hand_in(match, Phase.DECLARING)
    _check_seat(match, action.seat)
    if action.seat in hand.responded:
        raise NotYourTurn(ruling("declare.answered"))
    events: list[Event] = [Passed(action.seat)]
    if len(hand.responded) == len(hand.hands) - 1:
        # The last answer closes the window, which forgets who answered: skip recording it.
        return _end_window(match, hand, events, timed_out=False)
    return _with_hand(match, _answered(hand, (*hand.responded, action.seat), hand.declarations),
                      events)


def _answered(hand: HandState, responded: tuple[int, ...],
              declarations: tuple[Declaration, ...]) -> HandState:
    """`hand` after an answer in a declaration window, every other field copied.

    `dataclasses.replace` spelled out, as `_after_play` (a test checks both).
    """
    return HandState(
        hand.number, hand.seed, hand.deal_no, hand.phase, hand.level, hand.starter,
        hand.hands, hand.stock, hand.kitty, hand.batch, responded, declarations, hand.trump,
        hand.trump_how, hand.revealed, hand.turn, hand.trick, hand.last_trick,
        hand.tricks_played, hand.played, hand.opponent_points, hand.opponent_trick_points,
        hand.declarer_trick_points, hand.failed_throws, hand.result, hand.undo,
        hand.friend_calls, hand.call_seats, hand.points_by_seat,
    )


def _after_response(match: Match, hand: HandState,
                    events: list[Event]) -> tuple[Match, tuple[Event, ...]]:
    if len(hand.responded) < len(hand.hands):
        return _with_hand(match, hand, events)
    return _end_window(match, hand, events, timed_out=False)


def _close_window(match: Match) -> tuple[Match, tuple[Event, ...]]:
    hand = _hand_in(match, Phase.DECLARING)
    return _end_window(match, hand, [], timed_out=True)


def _end_window(match: Match, hand: HandState, events: list[Event],
                timed_out: bool) -> tuple[Match, tuple[Event, ...]]:
    shape = match.shape
    final = hand.batch == len(shape.batches)
    events.append(WindowClosed(hand.batch, final, timed_out))
    if not final:
        hand = _deal_batch(hand, shape)
        events.append(CardsDealt(hand.batch, hand.deal_no))
        return _with_hand(match, hand, events)
    if hand.declarations:
        declaration = hand.declarations[-1]
        starter = hand.starter
        if starter is None:  # first hand: the standing declaration makes the starter (R5)
            starter = declaration.seat
            events.append(StarterSet(starter))
        level = match.level_of(starter)
        trump = declared_trump(declaration.cards, level)
        events.append(TrumpSet(trump, declaration.seat, TrumpHow.DECLARED))
        hand = replace(hand, starter=starter, level=level, trump=trump,
                       trump_how=TrumpHow.DECLARED)
    elif hand.starter is None:  # first hand, nobody declared: deal again (R5)
        deal_no = hand.deal_no + 1
        hand = _deal(hand.number, hand.seed, deal_no, hand.level, None, shape)
        events += [Redealt(deal_no), CardsDealt(1, deal_no)]
        return _with_hand(match, hand, events)
    else:  # later hand, nobody declared (R5, R12 `no_bid`)
        revealed, trump = no_bid_trump(hand.kitty, hand.level, match.rules.no_bid)
        how = TrumpHow(match.rules.no_bid.value)
        events += [NoBidTrump(revealed, trump), TrumpSet(trump, None, how)]
        hand = replace(hand, trump=trump, trump_how=how, revealed=revealed)
    return _take_kitty(match, hand, events)


def _take_kitty(match: Match, hand: HandState,
                events: list[Event]) -> tuple[Match, tuple[Event, ...]]:
    """Trump is set: hands sorted by it, the starter takes the kitty to bury (R6)."""
    starter, chosen = hand.starter, hand.trump
    assert starter is not None and chosen is not None
    hands = tuple(tuple(chosen.sort(cards)) for cards in hand.hands)
    hand = replace(hand, hands=hands, phase=Phase.BURYING, turn=starter, responded=())
    events.append(KittyTaken(starter))
    return replace(match, hand=hand, starter=starter), tuple(events)


def no_bid_trump(kitty: Sequence[Card], level: Rank, rule: NoBid) -> tuple[Cards, Trump]:
    """The kitty cards turned up and the trump they name when nobody declared (R5, R12).

    `kitty_top_card`: the top card's suit, no trump for a joker. `reveal_until_level`: turn
    cards until a level card names its suit; if none, the suit of the highest card by rank (A
    down to 2; jokers have no suit and are passed over), the first of equals; a kitty of
    jokers only (possible with three or four decks) names no trump, as a joker on top does.
    """
    if rule is NoBid.KITTY_TOP_CARD:
        return (kitty[0],), Trump(level, kitty[0].suit)
    for index, card in enumerate(kitty):
        if card.rank == level:
            return tuple(kitty[: index + 1]), Trump(level, card.suit)
    suited = [card for card in kitty if card.suit is not None]
    highest = max(suited, key=lambda c: c.rank).suit if suited else None
    return tuple(kitty), Trump(level, highest)


def _bury(match: Match, action: Bury) -> tuple[Match, tuple[Event, ...]]:
    hand = _hand_in(match, Phase.BURYING)
    assert hand.starter is not None and hand.trump is not None
    if action.seat != hand.starter:
        raise NotYourTurn(ruling("bury.not_starter", seat=hand.starter))
    size = match.shape.kitty_size
    if len(action.cards) != size:
        raise IllegalPlay(ruling("bury.count", size=size, played=len(action.cards)),
                          action.cards)
    pool = hand.hands[action.seat] + hand.kitty
    missing = missing_from(pool, action.cards)
    if missing:
        raise IllegalPlay(ruling("bury.not_held", notation=format_cards(missing), size=size,
                                 held=len(pool)), action.cards)
    kept = tuple(hand.trump.sort(_remove(pool, action.cards)))
    hands = _set_seat(hand.hands, action.seat, kept)
    calling = match.variant.calling(match.seats)
    hand = replace(hand, hands=hands, kitty=action.cards,
                   phase=Phase.CALLING if calling else Phase.PLAYING, turn=hand.starter)
    return _with_hand(match, hand, [Buried(action.seat)])


def _call_friends(match: Match, action: CallFriends) -> tuple[Match, tuple[Event, ...]]:
    """The starter names its friends (F4); then the starter leads."""
    hand = _hand_in(match, Phase.CALLING)
    assert hand.starter is not None and hand.trump is not None
    if action.seat != hand.starter:
        raise NotYourTurn(ruling("call.not_starter", seat=hand.starter))
    shape = match.shape
    reason = call_error(action.calls, hand.trump, shape.friends, shape.decks)
    if reason is not None:
        raise IllegalPlay(reason)
    hand = replace(hand, phase=Phase.PLAYING, friend_calls=action.calls,
                   call_seats=(None,) * len(action.calls))
    return _with_hand(match, hand, [FriendsCalled(action.seat, action.calls)])


def _take(cards: Sequence[Card], taken: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    """(`cards` without `taken`, the cards of `taken` that `cards` lacks), as multisets."""
    rest = list(cards)
    codes = [card.code for card in rest]  # compare ints, not Cards: this is the hot path
    missing = []
    for card in taken:
        try:
            index = codes.index(card.code)
        except ValueError:
            missing.append(card)
        else:
            del rest[index], codes[index]
    return rest, missing


def _remove(cards: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    rest, missing = _take(cards, taken)
    assert not missing, "removing cards that are not there"
    return rest


def _set_seat(hands: tuple[Cards, ...], seat: int, cards: Cards) -> tuple[Cards, ...]:
    return (*hands[:seat], cards, *hands[seat + 1:])


def _play(match: Match, action: Play) -> tuple[Match, tuple[Event, ...]]:
    hand = _hand_in(match, Phase.PLAYING)
    trump, starter = hand.trump, hand.starter
    assert trump is not None and hand.turn is not None and starter is not None
    seat, cards = action.seat, action.cards
    trick = hand.trick
    if seat != hand.turn:
        raise NotYourTurn(ruling("turn.lead" if trick is None else "turn.follow",
                                 seat=hand.turn))
    held = hand.hands[seat]
    rest, missing = _take(held, cards)
    events: list[Event] = []
    opponent_points = hand.opponent_points
    failed_throws = hand.failed_throws
    plays: tuple[Cards, ...]
    if trick is None:
        if missing:
            raise IllegalPlay(ruling("lead.not_held", notation=format_cards(missing)), cards)
        reason = lead_error(cards, trump)
        if reason is not None:
            raise IllegalPlay(reason, cards)
        seats = len(hand.hands)
        others = [hand.hands[(seat + i) % seats] for i in range(1, seats)]
        forced = check_throw(cards, others, trump)
        failed = None
        if forced is not None:
            known = match.variant.side(starter, len(hand.hands), hand.call_seats)
            penalty = _throw_penalty(match.rules, len(cards), opponent_points, seat in known)
            opponent_points += penalty
            failed = FailedThrow(seat, cards, tuple(forced), penalty)
            failed_throws = (*failed_throws, failed)
            events.append(ThrowFailed(seat, cards, failed.forced, penalty))
            cards = failed.forced
            rest = _remove(held, cards)
        number, leader, plays = hand.tricks_played + 1, seat, (cards,)
    else:
        lead = trick.plays[0]
        # `_take` has checked possession: only a play with missing cards needs the full check
        # (whose first reasons, wrong count or cards not held, it then gives).
        follow = match.rules.follow
        reason = (follow_error(held, lead, cards, trump, follow) if missing
                  else held_follow_error(held, lead, cards, trump, follow))
        if reason is not None:
            raise IllegalPlay(reason, cards)
        number, leader, plays, failed = (trick.number, trick.leader, (*trick.plays, cards),
                                         trick.failed_throw)
    events.append(CardsPlayed(seat, cards))
    hands = _set_seat(hand.hands, seat, tuple(rest))
    played = (*hand.played, (seat, cards))
    ruffs = match.rules.throw_ruff
    before = hand
    seats = len(hands)
    # Finding Friends: this play may reveal a friend (F4)
    call_seats, fulfilled = reveals(hand.friend_calls, hand.call_seats, played, seat, cards)
    events += [FriendRevealed(seat, index) for index in fulfilled]
    by_seat = hand.points_by_seat or _points_so_far(match, hand, starter)
    if len(plays) < seats:
        hand = _after_play(hand, hands=hands, turn=(seat + 1) % seats,
                           trick=Trick(number, leader, plays, None, failed, ruffs, seats),
                           last_trick=hand.last_trick, tricks_played=hand.tricks_played,
                           played=played, failed_throws=failed_throws,
                           **_points(match, starter, call_seats, by_seat, failed_throws))
        return _with_hand(match, _undoable(match, before, hand, failed_throws), events)
    winner = (leader + trick_winner(plays, trump, ruffs)) % seats
    trick = Trick(number, leader, plays, winner, failed, ruffs, seats)
    points = trick.points
    events.append(TrickWon(winner, points, number))
    by_seat = (*by_seat[:winner], by_seat[winner] + points, *by_seat[winner + 1:])
    hand = _after_play(
        hand, hands=hands, turn=winner, trick=None, last_trick=trick, tricks_played=number,
        played=played, failed_throws=failed_throws,
        **_points(match, starter, call_seats, by_seat, failed_throws))
    if any(hands):
        return _with_hand(match, _undoable(match, before, hand, failed_throws), events)
    return _settle(match, hand, events)


def _points_so_far(match: Match, hand: HandState, starter: int) -> tuple[int, ...]:
    """Per-seat trick points for a hand made without them (a position built by hand): the
    declarers' at the starter, the opponents' (throw penalties aside) at the first seat not
    on the starter's side, so that the totals stay what the hand says."""
    seats = len(hand.hands)
    side = match.variant.side(starter, seats, hand.call_seats)
    opponents = hand.opponent_points - sum(failed.penalty for failed in hand.failed_throws)
    other = next(seat for seat in range(seats) if seat not in side)
    return tuple((hand.declarer_trick_points if seat == starter else 0)
                 + (opponents if seat == other else 0) for seat in range(seats))


def _points(match: Match, starter: int, call_seats: tuple[int | None, ...],
            by_seat: tuple[int, ...], failed_throws: tuple[FailedThrow, ...]) -> dict[str, Any]:
    """The points fields of a hand after a play: the trick points each seat has won, split
    by the side known now (the starter's partners and revealed friends, F4, F5), and the
    opponents' total with the throw penalties."""
    side = match.variant.side(starter, len(by_seat), call_seats)
    declarers = sum(by_seat[seat] for seat in side)
    opponents = sum(by_seat) - declarers
    penalties = sum(failed.penalty for failed in failed_throws)
    return {"call_seats": call_seats, "points_by_seat": by_seat,
            "opponent_points": max(0, opponents + penalties),
            "opponent_trick_points": opponents, "declarer_trick_points": declarers}


def _undoable(match: Match, before: HandState, after: HandState,
              failed_throws: tuple[FailedThrow, ...]) -> HandState:
    """`after` (a play) remembering `before` while the play may be taken back (R12
    `take_backs`): not a failed throw (the table has seen it and learnt which unit was
    beatable)."""
    if not match.rules.take_backs:
        return after  # `undo` stays None
    failed = failed_throws is not before.failed_throws
    return replace(after, undo=None if failed else replace(before, undo=None))


def _take_back(match: Match, action: TakeBack) -> tuple[Match, tuple[Event, ...]]:
    """The hand as it was before `action.seat`'s last play (R12 `take_backs`)."""
    if not match.rules.take_backs:
        raise IllegalPlay(ruling("takeback.off"))
    hand = match.hand
    if hand is not None and hand.result is not None:
        raise WrongPhase(ruling("takeback.settled"))
    if hand is None or hand.take_back_seat != action.seat:
        trick = None if hand is None else hand.trick
        if trick is not None and trick.failed_throw is not None and len(trick.plays) == 1 \
                and trick.leader == action.seat:
            raise IllegalPlay(ruling("takeback.failed_throw"))
        raise IllegalPlay(ruling("takeback.not_last"))
    assert hand.undo is not None
    return _with_hand(match, hand.undo, [PlayTakenBack(action.seat, hand.played[-1][1])])


def _after_play(hand: HandState, *, hands: tuple[Cards, ...], turn: int, trick: Trick | None,
                last_trick: Trick | None, tricks_played: int,
                played: tuple[tuple[int, Cards], ...], opponent_points: int,
                opponent_trick_points: int, declarer_trick_points: int,
                failed_throws: tuple[FailedThrow, ...], call_seats: tuple[int | None, ...],
                points_by_seat: tuple[int, ...]) -> HandState:
    """`hand` after a play: the fields a play changes as given, every other one copied.

    `dataclasses.replace` spelled out, with the fields in declaration order: this is the hot
    path (one call per play), where `replace` takes twice as long. A test checks that it
    agrees with `replace`.
    """
    return HandState(
        hand.number, hand.seed, hand.deal_no, hand.phase, hand.level, hand.starter, hands,
        hand.stock, hand.kitty, hand.batch, hand.responded, hand.declarations, hand.trump,
        hand.trump_how, hand.revealed, turn, trick, last_trick, tricks_played, played,
        opponent_points, opponent_trick_points, declarer_trick_points, failed_throws,
        hand.result, hand.undo, hand.friend_calls, call_seats, points_by_seat,
    )


def _throw_penalty(rules: RuleSet, cards: int, opponent_points: int, by_declarer: bool) -> int:
    """The change to the opponents' points for a failed throw of `cards` cards (R12)."""
    points = rules.throw_penalty * cards
    return points if by_declarer else -min(points, opponent_points)


def _settle(match: Match, hand: HandState, events: list[Event]) -> tuple[Match, tuple[Event, ...]]:
    """Score the finished hand, move levels and name the next starter (R10, R11; F5, F6)."""
    last, trump, starter = hand.last_trick, hand.trump, hand.starter
    assert last is not None and trump is not None and starter is not None
    seats = len(hand.hands)
    variant = match.variant
    declarer_seats = variant.side(starter, seats, hand.call_seats)
    multiplier = kitty_multiplier(last.lead, trump, match.rules)
    kitty_points = card_points(hand.kitty)
    scored = kitty_points * multiplier if last.winning_seat(trump) not in declarer_seats \
        else 0
    total = hand.opponent_points + scored
    side, gained = settle(total, match.rules)
    declarers_won = side == "declarers"
    levels = list(match.levels)
    passed = []
    if gained:  # every seat of the winning side goes up from its own level (R10; F5)
        for seat in variant.movers(declarer_seats, declarers_won, seats):
            levels[seat], won = advance_level(levels[seat], gained, declarers_won, match.rules)
            if won:
                passed.append(seat)
    new_levels = tuple(levels)
    following = variant.next_starter(starter, declarer_seats, seats, declarers_won)
    winner = variant.match_winner(starter, passed, seats)
    result = HandResult(hand.seed, hand.kitty, kitty_points, multiplier, scored, total, side,
                        gained, match.levels, new_levels, following, winner, declarer_seats)
    events += [KittyRevealed(hand.kitty, kitty_points, multiplier, scored),
               HandSettled(hand.number, total, side, gained, match.levels, new_levels,
                           following, hand.seed)]
    if winner is not None:
        events.append(MatchWon(winner))
    over = winner is not None
    hand = replace(hand, phase=Phase.MATCH_OVER if over else Phase.BETWEEN_HANDS, turn=None,
                   opponent_points=total, result=result, undo=None)
    return replace(match, hand=hand, levels=new_levels, starter=following,
                   winner=winner), tuple(events)


# --- serialization ------------------------------------------------------------------------


def _match_to_dict(match: Match, *, rules: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {"v": STATE_VERSION}
    if rules:
        data["rules"] = match.rules.to_dict()
    data.update(levels=[str(r) for r in match.levels], hand_no=match.hand_no,
                starter=match.starter, winner=match.winner,
                hand=None if match.hand is None else hand_to_dict(match.hand))
    return data


def _match_from_dict(data: dict[str, Any]) -> Match:
    if data.get("v") != STATE_VERSION:
        raise ValueError(f"unsupported state version {data.get('v')!r}")
    rules = RuleSet.from_dict(data["rules"])
    hand = None if data["hand"] is None else hand_from_dict(data["hand"], rules)
    levels = levels_from_texts(data["levels"])
    winner = opt_int(data["winner"])
    if len(levels) != rules.players:  # today's release: levels per team, the winning team
        winner = winner_seat(winner, rules, None if hand is None else hand.starter)
        levels = per_seat(levels, rules)
    return Match(rules=rules, levels=levels, hand_no=int(data["hand_no"]),
                 starter=opt_int(data["starter"]), winner=winner, hand=hand)

