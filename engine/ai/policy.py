"""The heuristic play of the `ai` player (leads and follows), over an `Info` oracle.

The same rules run on two kinds of knowledge: `TrackedInfo` (what one seat can prove by
counting, for real decisions) and `ExactInfo` (a sampled full deal, for Monte Carlo
rollouts).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from engine.ai.context import SeatFacts
from engine.ai.moves import (
    TRUMP,
    best_cash,
    discard_key,
    follow_options,
    single_beats,
    single_best,
    suit_of,
    units_of,
    wins_now,
)
from engine.ai.sim import Sim
from engine.cards import Card, card_points
from engine.throw import beats_unit
from engine.trick import trick_winner
from engine.trump import Trump
from engine.units import group_by_suit


class Info(Protocol):
    """What the heuristic asks about the position of the seat to play."""

    seat: int
    trump: Trump
    hand: list[Card]
    starter: int
    leader: int
    plays: list[list[Card]]

    def beatable_by(self, plays: Sequence[Sequence[Card]], seats: Sequence[int]) -> bool:
        """Whether one of `seats` (to play later in this trick) may take it from its winner."""
        ...

    def unit_safe(self, cards: Sequence[Card], seats: Sequence[int]) -> bool:
        """Whether no seat of `seats` can beat these units in their own suit."""
        ...

    def may_ruff(self, seat: int, suit: int) -> bool:
        """Whether `seat` is void in side suit `suit` and may hold trumps."""
        ...


def later_seats(info: Info, after: int) -> list[int]:
    """Seats still to play in this trick after `after` plays have been made."""
    return [(info.leader + i) % 4 for i in range(after, 4)]


def opponents_of(seat: int) -> list[int]:
    return [(seat + 1) % 4, (seat + 3) % 4]


def card_value(card: Card, trump: Trump) -> float:
    """How much a card is worth keeping for control (points aside)."""
    strength = trump.strength(card)
    if trump.suit_index(card) == TRUMP:
        return 6 + strength * 1.5
    return strength * 0.6


def cost(cards: Sequence[Card], trump: Trump) -> float:
    return sum(card_value(c, trump) for c in cards)


class ExactInfo:
    """`Info` over a full deal (rollouts): every seat's cards are known."""

    def __init__(self, sim: Sim) -> None:
        self.sim = sim
        self.seat = sim.turn
        self.trump = sim.trump
        self.hand = sim.hands[self.seat]
        self.starter = sim.starter
        self.leader = sim.leader
        self.plays = sim.current

    def beatable_by(self, plays: Sequence[Sequence[Card]], seats: Sequence[int]) -> bool:
        lead = plays[0]
        trump = self.trump
        if len(lead) == 1:
            suit = trump.suit_index(lead[0])
            _, top, ruffed = single_best(plays, trump)
            for seat in seats:
                hand = self.sim.hands[seat]
                held = [c for c in hand if trump.suit_index(c) == suit]
                pool = held if held else hand
                if any(single_beats(c, suit, top, ruffed, trump) for c in pool):
                    return True
            return False
        for seat in seats:
            for option in follow_options(self.sim.hands[seat], lead, self.trump):
                if wins_now(plays, option, self.trump):
                    return True
        return False

    def unit_safe(self, cards: Sequence[Card], seats: Sequence[int]) -> bool:
        suit = suit_of(cards, self.trump)
        hands = [[c for c in self.sim.hands[s] if self.trump.suit_index(c) == suit]
                 for s in seats]
        return not any(beats_unit(unit, hand, self.trump)
                       for unit in units_of(cards, self.trump) for hand in hands)

    def may_ruff(self, seat: int, suit: int) -> bool:
        hand = self.sim.hands[seat]
        index = self.trump.suit_index
        return (suit != TRUMP and not any(index(c) == suit for c in hand)
                and any(index(c) == TRUMP for c in hand))


class TrackedInfo(SeatFacts):
    """`Info` from one seat's card tracking (`Knowledge`)."""

    def may_be_void(self, seat: int, suit: int) -> bool:
        if suit in self.k.void[seat]:
            return True
        return len(self.k.unseen_in(suit)) <= 2

    def beatable_by(self, plays: Sequence[Sequence[Card]], seats: Sequence[int]) -> bool:
        trump = self.trump
        lead = list(plays[0])
        suit = trump.suit_index(lead[0])
        best = plays[trick_winner(plays, trump)]
        ruffed = trump.suit_index(best[0]) != suit
        single_unit = len(units_of(lead, trump)) == 1
        for seat in seats:
            if self.k.left[seat] == 0:
                continue
            if not ruffed and single_unit and not self.k.unit_safe(best, [seat]):
                return True
            if suit != TRUMP and self.may_be_void(seat, suit) and TRUMP not in self.k.void[seat]:
                trumps = self.k.trumps_out([seat])
                if trumps >= len(lead) and (not ruffed or not self.k.unit_safe(
                        units_cards(best, trump), [seat])):
                    return True
        return False

    def unit_safe(self, cards: Sequence[Card], seats: Sequence[int]) -> bool:
        return self.k.unit_safe(cards, seats)

    def may_ruff(self, seat: int, suit: int) -> bool:
        return (suit != TRUMP and suit in self.k.void[seat] and TRUMP not in self.k.void[seat]
                and self.k.trumps_out([seat]) > 0)


def units_cards(cards: Sequence[Card], trump: Trump) -> list[Card]:
    """The largest unit of a play (what a ruff is compared by)."""
    return list(units_of(cards, trump)[0].cards)


# --------------------------------------------------------------------------- leads


def safe_units(info: Info, group: Sequence[Card]) -> list[list[Card]]:
    """The units of `group` (one suit) that no other seat can beat in that suit."""
    others = [s for s in range(4) if s != info.seat]
    return [list(u.cards) for u in units_of(group, info.trump)
            if info.unit_safe(u.cards, others)]


def choose_lead(info: Info) -> list[Card]:
    trump = info.trump
    groups = group_by_suit(info.hand, trump)
    opponents = opponents_of(info.seat)
    partner = (info.seat + 2) % 4
    # 1. Cash what cannot be beaten: a safe throw of a whole side suit, else the biggest
    #    safe unit of a side suit no opponent can ruff.
    def safe_of(suit: int, group: Sequence[Card]) -> list[list[Card]]:
        if any(info.may_ruff(s, suit) for s in opponents):
            return []
        return safe_units(info, group)

    cash = best_cash(groups, safe_of)
    if cash is not None:
        return cash
    # 2. Lead into the partner's void: a low card the partner ruffs.
    for suit in range(4):
        group = groups[suit]
        if group and info.may_ruff(partner, suit) and not any(
                info.may_ruff(s, suit) for s in opponents):
            return [min(group, key=discard_key(info.hand, trump))]
    # 3. Safe trump units (top trump pairs and tractors draw the opponents' trumps).
    trumps = groups[TRUMP]
    safe_trumps = [u for u in safe_units(info, trumps) if len(u) >= 2]
    if safe_trumps:
        return max(safe_trumps, key=len)
    # 4. Otherwise a low pair or a low single, from a short side suit, without points.
    key = discard_key(info.hand, trump)
    side = [c for s in range(4) for c in groups[s]]
    counts = Counter(side)
    low_pairs = [c for c, n in counts.items() if n >= 2 and c.points == 0
                 and trump.strength(c) <= 7]
    if low_pairs:
        card = min(low_pairs, key=trump.strength)
        return [card, card]
    if side:
        sizes = Counter(trump.suit_index(c) for c in side)
        return [min(side, key=lambda c: (key(c) + sizes[trump.suit_index(c)] * 2))]
    return [min(info.hand, key=key)]


# --------------------------------------------------------------------------- follows


def choose_follow(info: Info) -> list[Card]:
    trump = info.trump
    plays = info.plays
    options = follow_options(info.hand, plays[0], trump)
    if len(options) == 1:
        return options[0]
    winner = (info.leader + trick_winner(plays, trump)) % 4
    later = [s for s in later_seats(info, len(plays) + 1) if s % 2 != info.seat % 2]
    key = discard_key(info.hand, trump)
    trick_points = sum(card_points(p) for p in plays)

    def cheapness(option: Sequence[Card]) -> float:
        return sum(key(c) for c in option)

    if winner % 2 == info.seat % 2:
        secure = not later or not info.beatable_by(plays, later)
        if secure:
            return max(options, key=lambda o: (card_points(o), -cheapness(o)))
        # The partner may lose it: take over ourselves if that is sure, else play cheap.
        sure = [o for o in options if wins_now(plays, o, trump)
                and not info.beatable_by([*plays, o], later)]
        if sure and trick_points >= 10:
            return min(sure, key=lambda o: cost(o, trump) - 3 * card_points(o))
        return min(options, key=cheapness)
    winning = [o for o in options if wins_now(plays, o, trump)]
    sure = [o for o in winning if not later or not info.beatable_by([*plays, o], later)]
    if sure:
        pick = min(sure, key=lambda o: cost(o, trump) - 2 * card_points(o))
        gain = trick_points + card_points(pick)
        if gain > 0 or cost(pick, trump) < 12:
            return pick
    if winning and trick_points >= 10:
        # Not provably safe, but nothing in the led suit beats it: only a ruff could.
        top = [o for o in winning if info.unit_safe(o, later)
               and trump.suit_index(o[0]) == trump.suit_index(plays[0][0])]
        if top:
            return min(top, key=lambda o: cost(o, trump))
        if not later or trick_points >= 15:
            return min(winning, key=lambda o: cost(o, trump))
    return min(options, key=cheapness)


def choose_play(info: Info) -> list[Card]:
    return choose_follow(info) if info.plays else choose_lead(info)


def rollout(sim: Sim) -> int:
    """Play the hand out with the heuristic for every seat; the opponents' final points."""
    while not sim.done:
        sim.play(choose_play(ExactInfo(sim)))
    return sim.opp_points

