"""Declaring (R5) and burying (R6) heuristics."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

from engine.cards import Card, Rank
from engine.declaring import declaration_strength
from engine.trump import Trump

KITTY = 8


def trump_count(hand: Sequence[Card], trump: Trump) -> int:
    return sum(1 for card in hand if trump.is_trump(card))


def trump_quality(hand: Sequence[Card], trump: Trump) -> float:
    """A rough worth of the trumps `hand` would hold under `trump`: length, height, pairs."""
    trumps = [c for c in hand if trump.is_trump(c)]
    counts = Counter(trumps)
    high = sum(1 for c in trumps if trump.strength(c) >= 11)  # A of trump and up
    pairs = sum(1 for n in counts.values() if n >= 2)
    return len(trumps) + 0.5 * high + 0.7 * pairs


def greedy_declaration(hand: Sequence[Card], options: Sequence[tuple[Card, ...]],
                       level: Rank) -> tuple[Card, ...] | None:
    """Declare when this trump gives more than 5 trumps making at least 40% of the hand."""
    for option in options:
        trump = Trump(level, option[0].suit)
        count = trump_count(hand, trump)
        if count > 5 and count >= 0.4 * len(hand):
            return option
    return None


def ai_declaration(hand: Sequence[Card], options: Sequence[tuple[Card, ...]], level: Rank,
                   standing_seat: int | None, seat: int, starter: int | None,
                   final: bool) -> tuple[Card, ...] | None:
    """Declare on suit length and quality, relative to the cards dealt so far.

    Never overturns the partner unless clearly better; reinforces its own single; in the
    last window of a first hand, declares the best option rather than see a redeal.
    """
    if not options:
        return None
    dealt = len(hand)
    best: tuple[float, tuple[Card, ...]] | None = None
    for option in options:
        trump = Trump(level, option[0].suit)
        score = trump_quality(hand, trump) / dealt * 25
        if option[0].suit is None:  # no trump: worth it with many level cards and jokers
            score += 1.5
        strength = declaration_strength(option, level) or 0
        score += 0.3 * strength
        if best is None or score > best[0]:
            best = (score, option)
    assert best is not None
    score, option = best
    if standing_seat == seat:  # reinforce our own single with its twin
        return option if len(option) == 2 and option[0] == option[1] else None
    partner_stands = standing_seat is not None and standing_seat % 2 == seat % 2
    threshold = 11.5 if dealt <= 10 else 10.5
    if partner_stands:
        threshold += 3.0
    if starter is not None and starter % 2 != seat % 2:
        threshold += 0.5  # as opponents a trump of our own is still good, a bit less so
    if score >= threshold or (final and starter is None and standing_seat is None):
        return option
    return None


def _keep_value(card: Card, trump: Trump, counts: Counter[Card]) -> float:
    """How costly burying `card` is (higher: keep)."""
    if trump.is_trump(card):
        return 100 + trump.strength(card)
    value = trump.strength(card) * 1.0 + card.points * 3.0
    if counts[card] >= 2:
        value += 25
    if trump.strength(card) == 11:  # the side ace (or king at level A): top of its suit
        value += 20
    return value


KeepValue = Callable[[Card, Trump, Counter[Card]], float]


def ai_bury(cards: Sequence[Card], trump: Trump, void_bonus: float = 18.0,
            value: KeepValue | None = None, size: int = KITTY) -> list[Card]:
    """Bury `size` cards (8 of 33 in the four-player game): void short side suits without
    points, keep points, trumps and pairs.

    Tries every set of up to two side suits to void that fits in `size` cards and fills the
    rest with the cheapest cards by `value` (how costly burying a card is; `ai1`'s by
    default); a voided suit is worth a bonus (the starter can ruff it later).
    """
    counts = Counter(cards)
    side = {s: [c for c in cards if trump.suit_index(c) == s] for s in range(4)}
    keep_value = value or _keep_value
    values = {c: keep_value(c, trump, counts) for c in cards}
    ranked = sorted(cards, key=lambda c: (values[c], c.code))
    best: tuple[float, list[Card]] | None = None
    suits = [s for s in range(4) if side[s]]
    for voids in range(0, 3):
        for chosen in combinations(suits, voids):
            bury = [c for s in chosen for c in side[s]]
            if len(bury) > size:
                continue
            rest = list(ranked)
            for c in bury:
                rest.remove(c)
            total = bury + rest[: size - len(bury)]
            score = sum(values[c] for c in total) - void_bonus * len(chosen)
            if best is None or score < best[0]:
                best = (score, total)
    assert best is not None
    return best[1]


def greedy_bury(cards: Sequence[Card], trump: Trump) -> list[Card]:
    """Bury low side singles (no points, not aces, not paired), then the lowest side cards."""
    counts = Counter(cards)

    def key(card: Card) -> tuple[int, int, int, int, int]:
        return (trump.is_trump(card), card.points > 0, counts[card] >= 2,
                trump.strength(card), card.code)
    return sorted(cards, key=key)[:KITTY]

