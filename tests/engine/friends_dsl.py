"""Test helpers for Finding Friends with three or four decks (docs/rules.md F2): deals of D
decks, and a brute-force reading of F2's following duty built on the literal R3 ladder of
`tractor_dsl` (not on the engine's order tables), for the property tests."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

from tractor_dsl import RANKS, ref_pos, sub_multisets

from engine import Card, Rank, Suit, Trump
from engine.cards import ALL_CARDS
from engine.units import decompose_suit

Shape = tuple[int, int]


def pack(decks: int) -> list[Card]:
    """`decks` packs shuffled together: every card exactly `decks` times (F1)."""
    return [card for card in ALL_CARDS for _ in range(decks)]


def random_trump(rng: random.Random) -> Trump:
    return Trump(rng.choice(RANKS), rng.choice([*Suit, None]))


def deal(seed: int, decks: int, seats: int, size: int, narrow: bool = False,
         trumps: bool = False) -> tuple[Trump, list[list[Card]]]:
    """A random trump and `seats` hands of `size` cards from `decks` packs. `narrow` deals
    mostly one effective suit (♠'s) and a few other cards, so that triples, quadruples and
    their tractors abound; with `trumps`, the trumps too (for ruffs)."""
    rng = random.Random(seed)
    trump = random_trump(rng)
    cards = pack(decks)
    if narrow:
        spades = trump.suit_index(Card(Rank.ACE, Suit.SPADES))
        others = [c for c in cards if trump.suit_index(c) != spades]
        kept = (spades, 4) if trumps else (spades,)
        others = [c for c in others if trump.suit_index(c) not in kept]
        cards = [c for c in cards if trump.suit_index(c) in kept] + rng.sample(others, 12)
    rng.shuffle(cards)
    size = min(size, len(cards) // seats)
    return trump, [cards[i * size:(i + 1) * size] for i in range(seats)]


def suit_of(card: Card, trump: Trump) -> int:
    return trump.suit_index(card)


def lead_wide(lead: Sequence[Card], trump: Trump) -> tuple[Shape, ...]:
    """The lead's (width, length) shapes without singles, largest first (F2)."""
    units = decompose_suit(list(lead), trump)
    return tuple(sorted(((u.width, u.length) for u in units if u.width > 1),
                        key=lambda s: (s[0] * s[1], s[0]), reverse=True))


# ---------------------------------------------------------------- F2 following literally


def ref_units(cards: Sequence[Card], trump: Trump, width: int, length: int
              ) -> list[list[Card]]:
    """Every distinct unit of exactly `width` × `length` among `cards` (one suit): `length`
    cards at consecutive ladder steps, each held at least `width` times."""
    counts = Counter(cards)
    by_step: dict[int, list[Card]] = {}
    for card, k in counts.items():
        if k >= width:
            by_step.setdefault(ref_pos(card, trump)[1], []).append(card)
    found: list[list[Card]] = []
    for top in by_step:
        steps = [top - i for i in range(length)]
        if all(s in by_step for s in steps):
            choices: list[list[Card]] = [[]]
            for s in steps:
                choices = [[*c, card] for c in choices for card in by_step[s]]
            found += [[card for card in choice for _ in range(width)] for choice in choices]
    return found


def ref_groups(cards: Sequence[Card], width: int, cap: int
               ) -> list[tuple[tuple[int, ...], list[Card]]]:
    """Every way to take groups of 2..`width` identical cards, `cap` cards at most, from
    `cards`: (group sizes largest first, cards taken)."""
    counts = sorted(Counter(cards).items(), key=lambda kv: kv[0].code)
    out: list[tuple[tuple[int, ...], list[Card]]] = []

    def walk(i: int, left: int, sizes: list[int], taken: list[Card]) -> None:
        if i == len(counts):
            out.append((tuple(sorted(sizes, reverse=True)), list(taken)))
            return
        card, k = counts[i]
        for split in _splits(k, width):
            used = sum(split)
            if used <= left:
                walk(i + 1, left - used, [*sizes, *split], [*taken, *[card] * used])

    walk(0, cap, [], [])
    return out


@cache
def _splits(copies: int, width: int) -> list[tuple[int, ...]]:
    """Ways to take groups of 2..`width` from one card held `copies` times."""
    found: set[tuple[int, ...]] = {()}
    for size in range(2, min(width, copies) + 1):
        for rest in _splits(copies - size, width):
            found.add(tuple(sorted((size, *rest), reverse=True)))
    return sorted(found)


def ref_vector(shapes: Sequence[Shape], cards: Sequence[Card], trump: Trump
               ) -> tuple[tuple[int, ...], ...]:
    """F2 literally: the best answer vector `cards` give `shapes` (largest first), each
    unit scored `(width + 1,)` when met by its own shape, else by its group sizes."""
    if not shapes:
        return ()
    (width, length), rest = shapes[0], shapes[1:]
    best: tuple[tuple[int, ...], ...] | None = None
    options: list[tuple[tuple[int, ...], list[Card]]] = [
        ((width + 1,), unit) for unit in ref_units(cards, trump, width, length)]
    options += ref_groups(cards, width, width * length)
    for component, taken in options:
        left = list(cards)
        for card in taken:
            left.remove(card)
        candidate = (component, *ref_vector(rest, left, trump))
        if best is None or candidate > best:
            best = candidate
    assert best is not None
    return best


def ref_legal(hand: Sequence[Card], lead: Sequence[Card], play: Sequence[Card], trump: Trump
              ) -> bool:
    """Whether `play` (held, as many cards as the lead) is a legal R8/F2 follow, by
    enumerating every other choice of the same number of cards from `hand`."""
    suit = suit_of(lead[0], trump)
    held = [c for c in hand if suit_of(c, trump) == suit]
    n = len(lead)
    played = [c for c in play if suit_of(c, trump) == suit]
    if len(held) < n:
        return len(played) == len(held)
    if len(played) < n:
        return False
    shapes = lead_wide(lead, trump)
    best = max(ref_vector(shapes, choice, trump) for choice in sub_multisets(held, n))
    return ref_vector(shapes, played, trump) == best


def copies_ok(cards: Sequence[Card], decks: int) -> bool:
    return all(k <= decks for k in Counter(cards).values())


def choose(cards: Sequence[Card], n: int, rng: random.Random) -> list[Card]:
    return [cards[i] for i in sorted(rng.sample(range(len(cards)), n))]


def wide_cards(cards: Sequence[Card]) -> int:
    """How many cards of `cards` are held three or more times (a sanity measure)."""
    return sum(k for k in Counter(cards).values() if k >= 3)


def wide_lead(hand: Sequence[Card], trump: Trump, rng: random.Random, throw: float = 0.5
              ) -> list[Card]:
    """A lead from `hand` that favours triples and quadruples: a random suit's widest unit,
    sometimes thrown together with one or two more units of that suit."""
    groups: dict[int, list[Card]] = {}
    for card in hand:
        groups.setdefault(trump.suit_index(card), []).append(card)
    wide = [suit for suit, group in groups.items()
            if any(u.width > 2 for u in decompose_suit(group, trump))]
    suit = rng.choice(sorted(wide)) if wide and rng.random() < 0.85 else rng.choice(
        sorted(groups))
    units = decompose_suit(groups[suit], trump)
    units.sort(key=lambda u: -u.width)
    chosen = [units[0]]
    if len(units) > 1 and rng.random() < throw:
        chosen += rng.sample(units[1:], min(len(units) - 1, rng.randint(1, 2)))
    return [card for unit in chosen for card in unit.cards]
