"""What one seat knows in a Finding Friends hand (F1–F6), from its `PlayerView` alone.

Card counting with D decks (every card D times: the unseen cards are the pack minus the own
hand, the own kitty and every card played), the cards each seat holds, the suits each seat
has shown it lacks, the state of every friend call, and the sides as far as they can be
told: the starter and revealed friends are on the starter's side for sure; this seat knows
it is a friend once it holds the copies a call still needs; every other unknown seat gets a
probability of being a hidden friend (the open calls whose copies are out, shared among the
unknown seats that may still hold the called card, weighted by how friend-like their plays
were: feeding the starter's side points, or taking tricks from it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import ALL_CARDS, Card, card_points
from engine.deal import deal_shape
from engine.friends import FriendCall
from engine.matching import strongest_unit, tuple_counts
from engine.throw import beats_unit
from engine.trick import trick_winner
from engine.units import decompose_suit
from engine.views import PlayerView

TRUMP = 4


@dataclass(frozen=True, slots=True)
class CallState:
    """One friend call as this seat sees it."""

    index: int
    call: FriendCall
    seat: int | None
    """The seat that played the called copy, once it has."""
    played: int
    """Copies of the called card played so far this hand."""
    mine: int
    """Copies of it in this seat's hand."""
    buried: int
    """Copies of it in this seat's kitty (the starter's only)."""

    @property
    def open(self) -> bool:
        return self.seat is None

    @property
    def needed(self) -> int:
        """Copies still to be played up to and including the called one."""
        return self.call.copy - self.played

    @property
    def suit(self) -> int:
        """The called card's suit index (a side suit: calls are never trump)."""
        suit = self.call.card.suit
        assert suit is not None
        return "SHDC".index(suit.value)


class FriendsTable:
    """Card tracking and sides for `view.seat` in a Finding Friends hand (module docstring)."""

    def __init__(self, view: PlayerView, selfish: bool = False) -> None:
        public = view.public
        self.selfish = selfish
        """A baseline that ignores the calls and plays every trick for itself."""
        trump, starter = public.trump, public.starter
        assert trump is not None and starter is not None
        shape = deal_shape(public.rules)
        self.view = view
        self.rules = public.rules
        self.seat = view.seat
        self.seats = shape.seats
        self.decks = shape.decks
        self.trump = trump
        self.starter = starter
        self.hand = list(view.hand)
        self.kitty = list(view.kitty) if view.kitty is not None and view.seat == starter \
            and public.result is None else []
        self.left = list(public.cards_left)
        unseen: Counter[Card] = Counter({card: shape.decks for card in ALL_CARDS})
        unseen.subtract(self.hand)
        unseen.subtract(self.kitty)
        self.void: list[set[int]] = [set() for _ in range(self.seats)]
        self.played_by: list[Counter[Card]] = [Counter() for _ in range(self.seats)]
        played = public.played
        suits = trump.suit_indexes
        lead_suit = -1
        for index, (seat, cards) in enumerate(played):
            unseen.subtract(cards)
            self.played_by[seat].update(cards)
            if index % self.seats == 0:
                lead_suit = suits[cards[0].code]
            elif any(suits[c.code] != lead_suit for c in cards):
                self.void[seat].add(lead_suit)
        self.unseen = +unseen
        trick = public.trick
        current = trick is not None and not trick.complete
        self.leader = trick.leader if trick is not None and current else self.seat
        self.plays: list[list[Card]] = [list(p) for p in trick.plays] \
            if trick is not None and current else []
        self.copies_played: Counter[Card] = Counter()
        for _, cards in played:
            self.copies_played.update(cards)
        mine = Counter(self.hand)
        kitty = Counter(self.kitty)
        self.calls = [
            CallState(i, call, seat, self.copies_played[call.card], mine[call.card],
                      kitty[call.card])
            for i, (call, seat) in enumerate(zip(public.friend_calls, public.call_seats,
                                                 strict=True))
        ]
        self.known = set(public.declarer_seats)
        self.friend_calls = [c for c in self.calls if c.open and self.seat != starter
                             and 0 < c.needed <= c.mine and not selfish]
        """Open calls this seat can fulfil itself: it knows it is (to be) a friend."""
        self.declarer = self.seat in self.known or bool(self.friend_calls)
        self.p = self._friend_odds()

    # --- sides -----------------------------------------------------------------------------

    def _friend_odds(self) -> list[float]:
        """Per seat, the chance it is on the starter's side (1 known, 0 known not)."""
        odds = [1.0 if s in self.known else 0.0 for s in range(self.seats)]
        odds[self.seat] = 1.0 if self.declarer else 0.0
        unknown = [s for s in range(self.seats) if s not in self.known and s != self.seat]
        weights: list[float] | None = None
        for call in self.calls:
            if not call.open or call in self.friend_calls or call.needed <= 0:
                continue
            out = self.decks - call.played - call.mine - call.buried
            if out < 1:
                continue  # nobody else can play the called copy
            holders = [s for s in unknown if call.suit not in self.void[s] and self.left[s]]
            if weights is None:
                weights = self._behaviour()
            total = sum(weights[s] for s in holders)
            for s in holders:
                odds[s] = min(1.0, odds[s] + weights[s] / total)
        return odds

    def _behaviour(self) -> list[float]:
        """Per seat, how friend-like its plays were: ×3 for each trick of the starter's side
        it fed 10 points or more, ÷9 for each such trick it took from them."""
        weights = [1.0] * self.seats
        played = self.view.public.played
        for start in range(0, len(played), self.seats):
            trick = played[start:start + self.seats]
            plays = [list(trick[0][1])]
            for seat, cards in trick[1:]:
                before = trick[self.winner_index(plays)][0]
                plays.append(list(cards))
                if before not in self.known or seat in self.known:
                    continue
                if trick[self.winner_index(plays)][0] == seat:
                    weights[seat] /= 9
                elif card_points(cards) >= 10:
                    weights[seat] *= 3
        return weights

    def ally(self, seat: int) -> float:
        """How much `seat` is on this seat's side: 1 sure, 0 sure not."""
        if seat == self.seat:
            return 1.0
        if self.selfish:
            return 0.0
        return self.p[seat] if self.declarer else 1.0 - self.p[seat]

    def allied(self, seat: int) -> bool:
        return self.ally(seat) > 0.5

    def others(self) -> list[int]:
        return [s for s in range(self.seats) if s != self.seat]

    def enemies(self, seats: Sequence[int] | None = None) -> list[int]:
        pool = self.others() if seats is None else seats
        return [s for s in pool if not self.allied(s)]

    def later(self) -> list[int]:
        """Seats still to play in this trick after this seat."""
        done = len(self.plays) + 1
        return [(self.leader + i) % self.seats for i in range(done, self.seats)]

    # --- counting --------------------------------------------------------------------------

    def unseen_in(self, suit: int) -> list[Card]:
        suits = self.trump.suit_indexes
        return [c for c, n in self.unseen.items() for _ in range(n) if suits[c.code] == suit]

    def may_be_void(self, seat: int, suit: int) -> bool:
        if suit in self.void[seat]:
            return True
        return len(self.unseen_in(suit)) <= max(2, self.seats - 3)

    def may_ruff(self, seat: int, suit: int) -> bool:
        """Whether `seat` may trump a lead of side suit `suit`."""
        return (suit != TRUMP and self.left[seat] > 0 and self.may_be_void(seat, suit)
                and TRUMP not in self.void[seat] and bool(self.unseen_in(TRUMP)))

    def unit_safe(self, cards: Sequence[Card]) -> bool:
        """Whether no unseen cards (pooled, as if one hand held them all) beat any unit of
        `cards` (one suit) in that suit: then no seat can."""
        trump = self.trump
        pool = self.unseen_in(trump.suit_index(cards[0]))
        return not any(beats_unit(u, pool, trump) for u in decompose_suit(list(cards), trump))

    def winner_index(self, plays: Sequence[Sequence[Card]]) -> int:
        return trick_winner(plays, self.trump, self.rules.throw_ruff)

    def wins_now(self, option: Sequence[Card]) -> bool:
        return self.winner_index([*self.plays, option]) == len(self.plays)

    def beatable(self, plays: Sequence[Sequence[Card]], seats: Sequence[int]) -> bool:
        """Whether one of `seats` (still to play) may take the trick from its winner."""
        trump = self.trump
        lead = list(plays[0])
        suit = trump.suit_index(lead[0])
        best = list(plays[self.winner_index(plays)])
        ruffed = trump.suit_index(best[0]) != suit
        lead_units = decompose_suit(lead, trump)
        largest = lead_units[0]
        in_suit = self.unseen_in(suit)
        trumps = self.unseen_in(TRUMP)
        for seat in seats:
            if self.left[seat] == 0:
                continue
            if not ruffed and len(lead_units) == 1 and suit not in self.void[seat] and \
                    beats_unit(decompose_suit(best, trump)[0], in_suit, trump):
                return True
            if suit == TRUMP or not self.may_ruff(seat, suit) or len(trumps) < len(lead):
                continue
            if ruffed:
                if beats_unit(decompose_suit(best, trump)[0], trumps, trump):
                    return True
            elif largest.width == 1 or strongest_unit(
                    tuple_counts(trumps, trump, largest.width), largest.length) is not None:
                return True
        return False
