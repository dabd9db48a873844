"""What the `expert` rules ask about a position, answered two ways.

`ExactTable` reads a full deal (Monte Carlo rollouts: every answer is 0 or 1);
`TrackedTable` answers from one seat's card tracking (`Knowledge`) with chances: a seat
that has not shown a void may still be void, and the chance is counted from how many cards
of the suit are unseen and how many cards each seat still holds (hypergeometric).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.ai.context import Knowledge, SeatFacts
from engine.ai.moves import follow_options, single_best, units_of, wins_now
from engine.ai.sim import Sim
from engine.cards import Card, card_points
from engine.rules import ThrowRuff
from engine.throw import beats_unit
from engine.trick import trick_winner
from engine.trump import Trump

TRUMP = 4
KITTY = 8


class Table(Protocol):
    """The position of the seat to play, as the expert rules see it."""

    seat: int
    trump: Trump
    throw_ruff: ThrowRuff
    """The table's house rule for ruffing a throw (R12): how trick winners are judged."""
    hand: list[Card]
    starter: int
    leader: int
    plays: list[list[Card]]

    def left(self, seat: int) -> int:
        """Cards `seat` still holds."""
        ...

    def kitty_value(self) -> float:
        """The kitty's points as the last trick would score them (known or estimated)."""
        ...

    def beat_chance(self, plays: Sequence[Sequence[Card]], seats: Sequence[int]) -> float:
        """The chance that one of `seats` (to play later) takes the trick from its winner."""
        ...

    def ruff_chance(self, seat: int, suit: int) -> float:
        """The chance that `seat` is void in side suit `suit` and holds a trump."""
        ...

    def unit_safe(self, cards: Sequence[Card], seats: Sequence[int]) -> bool:
        """Whether no seat of `seats` can beat these units in their own suit."""
        ...

    def trumps_held(self, seats: Sequence[int]) -> float:
        """How many trumps `seats` hold together (expected)."""
        ...


class ExactTable:
    """`Table` over a full deal: every seat's cards are known."""

    def __init__(self, sim: Sim) -> None:
        self.sim = sim
        self.seat = sim.turn
        self.trump = sim.trump
        self.throw_ruff = sim.rules.throw_ruff
        self.hand = sim.hands[self.seat]
        self.starter = sim.starter
        self.leader = sim.leader
        self.plays = sim.current
        self.groups = sim.groups
        self.top = sim.top
        self.pair_top = sim.pair_top
        self._best: dict[tuple[int, ...], int] = {}

    def left(self, seat: int) -> int:
        return len(self.sim.hands[seat])

    def kitty_value(self) -> float:
        return self.sim.kitty_points * 2.0

    def beat_chance(self, plays: Sequence[Sequence[Card]], seats: Sequence[int]) -> float:
        lead = plays[0]
        trump = self.trump
        suits = trump.suit_indexes
        if len(lead) == 1:  # `single_beats` over each seat's cards, from its top cards
            suit = suits[lead[0].code]
            _, top, ruffed = single_best(plays, trump)
            for seat in seats:
                if self.groups(seat)[suit]:
                    if not ruffed and self.top(seat, suit) > top:
                        return 1.0
                elif suit != TRUMP and self.groups(seat)[TRUMP] and (
                        not ruffed or self.top(seat, TRUMP) > top):
                    return 1.0
            return 0.0
        for seat in seats:
            for option in follow_options(self.sim.hands[seat], lead, trump):
                if wins_now(plays, option, trump, self.throw_ruff):
                    return 1.0
        return 0.0

    def ruff_chance(self, seat: int, suit: int) -> float:
        if suit == TRUMP:
            return 0.0
        groups = self.groups(seat)
        return 1.0 if groups[TRUMP] and not groups[suit] else 0.0

    def unit_safe(self, cards: Sequence[Card], seats: Sequence[int]) -> bool:
        trump = self.trump
        code = cards[0].code
        size = len(cards)
        suit = trump.suit_indexes[code]
        if size == 1 or (size == 2 and cards[1].code == code):  # `beats_unit`, from tops
            slot = (size, suit, *seats)
            best = self._best.get(slot)
            if best is None:
                tops = self.top if size == 1 else self.pair_top
                best = self._best[slot] = max([tops(seat, suit) for seat in seats], default=-1)
            return best <= trump.strengths[code]
        hands = [self.groups(s)[suit] for s in seats]
        return not any(beats_unit(unit, hand, trump)
                       for unit in units_of(cards, trump) for hand in hands if hand)

    def trumps_held(self, seats: Sequence[int]) -> float:
        return float(sum(len(self.groups(s)[TRUMP]) for s in seats))


def none_chance(pool: int, marked: int, draws: int) -> float:
    """The chance that `draws` cards taken from `pool` include none of `marked` of them."""
    if marked <= 0:
        return 1.0
    chance = 1.0
    for i in range(min(draws, pool)):
        if pool - i <= 0:
            return 0.0
        chance *= max(0.0, (pool - marked - i) / (pool - i))
        if chance == 0.0:
            break
    return chance


class TrackedTable(SeatFacts):
    """`Table` from one seat's card tracking, with chances where counting proves nothing."""

    def __init__(self, knowledge: Knowledge) -> None:
        super().__init__(knowledge)
        seen = knowledge.seen
        self._suit_counts: dict[int, int] = {}
        for card, n in knowledge.unseen.items():
            s = self.trump.suit_index(card)
            self._suit_counts[s] = self._suit_counts.get(s, 0) + n
        self.kitty_hidden = seen.kitty is None
        self._known_in: list[dict[int, int]] = [{} for _ in range(4)]
        """Per seat, cards of each suit it is known to hold (shown, not played since)."""
        for seat in range(4):
            for card, n in knowledge.known[seat].items():
                s = self.trump.suit_index(card)
                self._known_in[seat][s] = self._known_in[seat].get(s, 0) + n

    def left(self, seat: int) -> int:
        return self.k.left[seat]

    def kitty_value(self) -> float:
        seen = self.k.seen
        if seen.kitty is not None:
            return card_points(seen.kitty) * 2.0
        unseen_points = sum(c.points * n for c, n in self.k.unseen.items())
        total = sum(self.k.unseen.values())
        # the starter keeps points out of the kitty when it can: count it at a third
        return 2.0 * unseen_points * KITTY / max(total, 1) / 3

    def _pool(self, suit: int, kitty: int = KITTY) -> int:
        """Unseen cards among places that may hold `suit` (seats not void, and the kitty
        counted as `kitty` cards)."""
        pool = sum(self.k.left[s] for s in self.k.holders(suit))
        return pool + (kitty if self.kitty_hidden else 0)

    def _hold_chance(self, seat: int, suit: int, marked: int, strong: bool = False) -> float:
        """The chance that `seat` holds at least one of `marked` unseen cards of `suit`
        (`strong` cards are seldom buried: the kitty counts for a quarter)."""
        total = self._suit_counts.get(suit, 0)
        if marked >= total and self._known_in[seat].get(suit, 0):
            return 1.0
        elsewhere = sum(self._known_in[s].get(suit, 0) for s in range(4) if s != seat)
        marked = min(marked, total - elsewhere)
        if marked <= 0 or not self.k.may_hold_suit(seat, suit):
            return 0.0
        pool = self._pool(suit, KITTY // 4 if strong else KITTY) - elsewhere
        draws = self.k.left[seat] - sum(self._known_in[seat].values())
        return 1.0 - none_chance(pool, marked, draws)

    def void_chance(self, seat: int, suit: int) -> float:
        if suit in self.k.void[seat]:
            return 1.0
        if self.k.left[seat] == 0:
            return 1.0
        return 1.0 - self._hold_chance(seat, suit, self._suit_counts.get(suit, 0))

    def ruff_chance(self, seat: int, suit: int) -> float:
        if suit == TRUMP:
            return 0.0
        void = self.void_chance(seat, suit)
        if void == 0.0:
            return 0.0
        return void * self._hold_chance(seat, TRUMP, self._suit_counts.get(TRUMP, 0))

    def unit_safe(self, cards: Sequence[Card], seats: Sequence[int]) -> bool:
        return self.k.unit_safe(cards, seats)

    def trumps_held(self, seats: Sequence[int]) -> float:
        trumps = self._suit_counts.get(TRUMP, 0)
        pool = self._pool(TRUMP)
        if pool == 0:
            return 0.0
        return sum(trumps * self.k.left[s] / pool for s in seats
                   if self.k.may_hold_suit(s, TRUMP))

    def _stronger(self, suit: int, top: int) -> int:
        trump = self.trump
        return sum(n for c, n in self.k.unseen.items()
                   if trump.suit_index(c) == suit and trump.strength(c) > top)

    def beat_chance(self, plays: Sequence[Sequence[Card]], seats: Sequence[int]) -> float:
        trump = self.trump
        lead = list(plays[0])
        suit = trump.suit_index(lead[0])
        best = plays[trick_winner(plays, trump, self.throw_ruff)]
        ruffed = trump.suit_index(best[0]) != suit
        largest = units_of(lead, trump)[0]
        single_unit = len(units_of(lead, trump)) == 1
        escape = 1.0
        for seat in seats:
            if self.k.left[seat] == 0:
                continue
            chance = 0.0
            if not ruffed and single_unit and not self.k.unit_safe(best, [seat]):
                if largest.pairs == 0:
                    chance = self._hold_chance(seat, suit, self._stronger(suit, trump.strength(
                        best[0])), strong=True)
                else:
                    chance = 0.5 if suit not in self.k.no_pairs[seat] else 0.0
            if suit != TRUMP and TRUMP not in self.k.void[seat]:
                ruff = self.ruff_chance(seat, suit)
                if largest.pairs:
                    ruff *= 0.0 if TRUMP in self.k.no_pairs[seat] else 0.5
                if ruffed:
                    top = trump.strength(units_of(best, trump)[0].cards[0])
                    ruff *= self._hold_chance(seat, TRUMP, self._stronger(TRUMP, top), strong=True)
                chance = 1.0 - (1.0 - chance) * (1.0 - ruff)
            escape *= 1.0 - chance
        return 1.0 - escape

