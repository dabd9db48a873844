"""What one seat knows during the play of a hand, and the card tracking built on it.

`Seen` is the raw knowledge of one seat (its hand, every trick so far, its own kitty if it
buried it, the declarations shown, failed throws). `Knowledge` derives from it exactly what
counting proves: the unseen cards, each seat's cards left, voids shown by failing to follow,
"holds no pair in that suit" shown by answering a pair with singles, and cards a seat is
known to hold (shown in a declaration or in a failed throw, and not played since).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import ALL_CARDS, Card
from engine.game import HAND_SIZE
from engine.matching import best_answer, full_answer, pair_counts, shapes_of
from engine.rules import RuleSet
from engine.trump import SUIT_INDEX, Trump
from engine.units import decompose_suit

TRUMP = 4

Play = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: its leader and the plays in play order (the leader's first)."""

    leader: int
    plays: tuple[Play, ...]

    def seat_of(self, index: int) -> int:
        return (self.leader + index) % 4


@dataclass(frozen=True, slots=True)
class Seen:
    """Everything `seat` knows in the play phase (all of it public or its own)."""

    seat: int
    trump: Trump
    hand: tuple[Card, ...]
    starter: int
    tricks: tuple[Trick, ...] = ()
    current: Trick | None = None
    kitty: tuple[Card, ...] | None = None
    """The kitty, only when this seat buried it."""
    shown: tuple[tuple[int, Play], ...] = ()
    """Declarations shown while dealing: (seat, cards)."""
    failed_throws: tuple[tuple[int, Play], ...] = ()
    """Throws that failed: (seat, the cards attempted)."""
    opp_points: int = 0
    rules: RuleSet = field(default_factory=RuleSet)

    @property
    def declarers(self) -> tuple[int, int]:
        return self.starter, (self.starter + 2) % 4

    @property
    def is_declarer(self) -> bool:
        return self.seat % 2 == self.starter % 2

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4



def same_team(a: int, b: int) -> bool:
    return a % 2 == b % 2


@dataclass(slots=True)
class Knowledge:
    """Card tracking for one seat, derived from `Seen` (see the module docstring)."""

    seen: Seen
    unseen: Counter[Card]
    """Cards this seat has not seen: in the other hands or (unless its own) the kitty."""
    left: list[int]
    """Cards each seat still holds."""
    void: list[set[int]]
    """Effective suits (0–3 side, 4 trump) each seat is known to have none of."""
    no_pairs: list[set[int]]
    """Effective suits in which each seat is known to hold no pair."""
    known: list[Counter[Card]]
    """Cards each seat is known to hold (shown and not yet played)."""
    played_by: list[Counter[Card]]

    @classmethod
    def of(cls, seen: Seen) -> Knowledge:
        trump = seen.trump
        unseen: Counter[Card] = Counter({card: 2 for card in ALL_CARDS})
        unseen.subtract(seen.hand)
        if seen.kitty is not None:
            unseen.subtract(seen.kitty)
        left = [HAND_SIZE] * 4
        void: list[set[int]] = [set() for _ in range(4)]
        no_pairs: list[set[int]] = [set() for _ in range(4)]
        played_by: list[Counter[Card]] = [Counter() for _ in range(4)]
        tricks = list(seen.tricks)
        if seen.current is not None and seen.current.plays:
            tricks.append(seen.current)
        for trick in tricks:
            lead = list(trick.plays[0])
            suit = trump.suit_index(lead[0])
            shapes = shapes_of(u.pairs for u in decompose_suit(lead, trump))
            for index, play in enumerate(trick.plays):
                who = trick.seat_of(index)
                left[who] -= len(play)
                played_by[who].update(play)
                unseen.subtract(play)
                if index == 0:
                    continue
                in_suit = [c for c in play if trump.suit_index(c) == suit]
                if len(in_suit) < len(play):
                    void[who].add(suit)
                elif shapes and best_answer(shapes, pair_counts(in_suit, trump)) != full_answer(
                        shapes):
                    no_pairs[who].add(suit)
        known: list[Counter[Card]] = [Counter() for _ in range(4)]
        for who, cards in list(seen.shown) + list(seen.failed_throws):
            if who == seen.seat:
                continue
            for card, count in Counter(cards).items():
                known[who][card] = max(known[who][card], count)
        for who in range(4):
            known[who].subtract(played_by[who])
            known[who] = +known[who]
        unseen = +unseen
        return cls(seen, unseen, left, void, no_pairs, known, played_by)

    def others(self) -> list[int]:
        return [s for s in range(4) if s != self.seen.seat]

    def may_hold_suit(self, who: int, suit: int) -> bool:
        return suit not in self.void[who] and self.left[who] > 0

    def unseen_in(self, suit: int) -> list[Card]:
        trump = self.seen.trump
        return [c for c, n in self.unseen.items() for _ in range(n) if trump.suit_index(c) == suit]

    def holders(self, suit: int, seats: Sequence[int] | None = None) -> list[int]:
        """Seats among `seats` (default: the other three) that may hold cards of `suit`."""
        pool = self.others() if seats is None else seats
        return [s for s in pool if self.may_hold_suit(s, suit)]

    def can_beat_single(self, suit: int, top: int, seats: Sequence[int] | None = None) -> bool:
        """Whether some seat of `seats` may hold a card of `suit` stronger than `top`."""
        if not self.holders(suit, seats):
            return False
        trump = self.seen.trump
        return any(trump.suit_index(c) == suit and trump.strength(c) > top for c in self.unseen)

    def can_beat_pair(self, suit: int, top: int, seats: Sequence[int] | None = None) -> bool:
        pool = [s for s in self.holders(suit, seats) if suit not in self.no_pairs[s]]
        if not pool:
            return False
        trump = self.seen.trump
        return any(n >= 2 and trump.suit_index(c) == suit and trump.strength(c) > top
                   for c, n in self.unseen.items())

    def can_beat_tractor(self, suit: int, pairs: int, top: int,
                         seats: Sequence[int] | None = None) -> bool:
        pool = [s for s in self.holders(suit, seats) if suit not in self.no_pairs[s]]
        if not pool:
            return False
        trump = self.seen.trump
        orders = sorted({trump.strength(c) for c, n in self.unseen.items()
                         if n >= 2 and trump.suit_index(c) == suit})
        run = 0
        previous = -5
        for order in orders:
            run = run + 1 if order == previous + 1 else 1
            previous = order
            if run >= pairs and order > top:
                return True
        return False

    def unit_safe(self, cards: Sequence[Card], seats: Sequence[int] | None = None) -> bool:
        """Whether no seat of `seats` can beat this one unit in its own suit."""
        trump = self.seen.trump
        units = decompose_suit(list(cards), trump)
        for unit in units:
            suit = SUIT_INDEX[unit.suit]
            if unit.pairs == 0:
                beaten = self.can_beat_single(suit, unit.top, seats)
            elif unit.pairs == 1:
                beaten = self.can_beat_pair(suit, unit.top, seats)
            else:
                beaten = self.can_beat_tractor(suit, unit.pairs, unit.top, seats)
            if beaten:
                return False
        return True

    def trumps_out(self, seats: Sequence[int] | None = None) -> int:
        """Unseen trumps that `seats` (default: the other three) may still hold."""
        if not self.holders(TRUMP, seats):
            return 0
        return sum(n for c, n in self.unseen.items() if self.seen.trump.suit_index(c) == TRUMP)


class SeatFacts:
    """What one seat knows of the hand in progress, from its card tracking: the base of the
    computer players' `Info`/`Table` adapters."""

    def __init__(self, knowledge: Knowledge) -> None:
        seen = knowledge.seen
        self.k = knowledge
        self.seat = seen.seat
        self.trump = seen.trump
        self.throw_ruff = seen.rules.throw_ruff
        self.hand = list(seen.hand)
        self.starter = seen.starter
        self.leader = seen.current.leader if seen.current is not None else seen.seat
        self.plays = [list(p) for p in seen.current.plays] if seen.current is not None else []
