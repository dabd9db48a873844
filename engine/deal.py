"""The shape of a deal (R1, R5, R6; Finding Friends F1): seats, decks, hand and kitty sizes,
the batches dealt between declaration windows, and how many friends the starter calls."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.rules import RuleSet

CARDS_PER_DECK = 54
BATCHES = 5
"""Declaration windows per deal: one after each batch (R5)."""
MIN_KITTY = 5


@dataclass(frozen=True, slots=True)
class DealShape:
    """How a table's cards are dealt.

    Four seats, two decks: 25 cards each in five batches of five and a kitty of 8 (R1, R5).
    Otherwise each seat gets the most cards that leave a kitty of at least 5 (so 5 to 12):
    6 players × 26 cards + 6 with 3 decks, 8 × 26 + 8 with 4 decks.
    """

    seats: int
    decks: int
    hand_size: int
    kitty_size: int
    friends: int
    """Friends the starter calls (`Variant.friends`; Finding Friends: 1 for 4–5 seats, 2 for
    6–7, 3 for 8); 0: no calling phase (teams mode)."""
    batches: tuple[int, ...]
    """Cards each seat receives in each batch: five batches, sizes differing by at most
    one, larger first (25 → 5 5 5 5 5; 26 → 6 5 5 5 5)."""

    @property
    def total_cards(self) -> int:
        return CARDS_PER_DECK * self.decks

    @property
    def total_points(self) -> int:
        """100 points per deck (R1)."""
        return 100 * self.decks


def level_step(decks: int) -> int:
    """The opponents' points per level step: 20 per deck (40 with two decks; R10, F5)."""
    return 20 * decks


def take_over_points(decks: int) -> int:
    """The opponents' points that take over: 40 per deck (80 with two decks; R10, F5)."""
    return 2 * level_step(decks)


def default_decks(players: int) -> int:
    """2 decks for 4–5 players, 3 for 6–7, 4 for 8."""
    return 2 if players <= 5 else 3 if players <= 7 else 4


def deal_shape(rules: RuleSet) -> DealShape:
    """The deal of a table with `rules` (`mode`, `players`, `decks`)."""
    seats = rules.players
    return _shape(seats, rules.decks or default_decks(seats), rules.variant.friends(seats))


@cache
def _shape(seats: int, decks: int, friends: int) -> DealShape:
    hand = (CARDS_PER_DECK * decks - MIN_KITTY) // seats
    kitty = CARDS_PER_DECK * decks - seats * hand
    base, extra = divmod(hand, BATCHES)
    batches = tuple(base + (1 if i < extra else 0) for i in range(BATCHES))
    return DealShape(seats, decks, hand, kitty, friends, batches)
