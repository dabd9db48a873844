"""A fast full-information simulator of the play of a hand, for Monte Carlo rollouts.

Unlike `engine.game`, it trusts its callers (moves come from `engine.ai.moves`) and keeps
only what scoring needs: the four hands, the trick in progress, the opponents' points and
the kitty's points. Each hand's cards by suit, and its strongest card and pair of a suit, are
kept between plays for the rollout rules (`engine.ai.tables.ExactTable`), which ask them
many times a play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import Card, card_points
from engine.rules import RuleSet
from engine.scoring import kitty_multiplier
from engine.throw import check_throw
from engine.trick import trick_winner
from engine.trump import Trump
from engine.units import group_by_suit


@dataclass(slots=True)
class Sim:
    trump: Trump
    hands: list[list[Card]]
    starter: int
    leader: int
    current: list[list[Card]]
    opp_points: int
    kitty_points: int
    rules: RuleSet
    _groups: list[list[list[Card]] | None] = field(
        default_factory=lambda: [None, None, None, None], repr=False, compare=False)
    _tops: list[dict[int, int]] = field(
        default_factory=lambda: [{}, {}, {}, {}], repr=False, compare=False)

    def copy(self) -> Sim:
        return Sim(self.trump, [list(h) for h in self.hands], self.starter, self.leader,
                   [list(p) for p in self.current], self.opp_points, self.kitty_points,
                   self.rules)

    def groups(self, seat: int) -> list[list[Card]]:
        """`seat`'s cards by effective suit (`group_by_suit`, kept up to date)."""
        found = self._groups[seat]
        if found is None:
            found = self._groups[seat] = group_by_suit(self.hands[seat], self.trump)
        return found

    def top(self, seat: int, suit: int) -> int:
        """The strength of `seat`'s strongest card of `suit`, -1 if none."""
        tops = self._tops[seat]
        found = tops.get(suit)
        if found is None:
            strengths = self.trump.strengths
            found = tops[suit] = max([strengths[c.code] for c in self.groups(seat)[suit]],
                                     default=-1)
        return found

    def pair_top(self, seat: int, suit: int) -> int:
        """The strength of `seat`'s strongest pair of `suit`, -1 if none."""
        tops = self._tops[seat]
        found = tops.get(suit + 8)
        if found is None:
            strengths = self.trump.strengths
            seen: set[int] = set()
            found = -1
            for card in self.groups(seat)[suit]:
                code = card.code
                if code in seen:
                    found = max(found, strengths[code])
                else:
                    seen.add(code)
            tops[suit + 8] = found
        return found

    @property
    def turn(self) -> int:
        return (self.leader + len(self.current)) % 4

    @property
    def done(self) -> bool:
        return not self.current and not self.hands[self.leader]

    def is_declarer(self, seat: int) -> bool:
        return seat % 2 == self.starter % 2

    def play(self, cards: Sequence[Card]) -> None:
        seat = self.turn
        hand = self.hands[seat]
        chosen = list(cards)
        if not self.current and len(chosen) > 1:
            others = [self.hands[s] for s in range(4) if s != seat]
            forced = check_throw(chosen, others, self.trump)
            if forced is not None:
                chosen = forced
        _remove(hand, chosen)
        groups = self._groups[seat]
        if groups is not None:  # the same as grouping the hand again: first copies go
            suits = self.trump.suit_indexes
            for card in chosen:
                _remove(groups[suits[card.code]], (card,))
        if self._tops[seat]:
            self._tops[seat] = {}
        self.current.append(chosen)
        if len(self.current) == 4:
            self._finish_trick()

    def _finish_trick(self) -> None:
        winner = (self.leader + trick_winner(self.current, self.trump,
                                                   self.rules.throw_ruff)) % 4
        if not self.is_declarer(winner):
            self.opp_points += sum(card_points(p) for p in self.current)
            if not self.hands[0]:
                self.opp_points += self.kitty_points * kitty_multiplier(
                    self.current[0], self.trump, self.rules)
        self.leader = winner
        self.current = []


def _remove(cards: list[Card], taken: Sequence[Card]) -> None:
    """`cards.remove` of each of `taken` (the first equal card goes), comparing codes."""
    for card in taken:
        del cards[[c.code for c in cards].index(card.code)]
