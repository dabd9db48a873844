"""Following a lead (R8): what a player owes, why a follow is illegal, and legal follows."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.cards import Card, format_cards, missing_from
from engine.matching import (
    Component,
    Shape,
    best_answer,
    best_answer_path,
    holding,
    pair_counts,
    shapes_of,
    wide_answer,
    wide_best,
    wide_shapes,
)
from engine.reasons import SUIT_CODES, Reason, ruling
from engine.rules import Follow
from engine.trump import Trump
from engine.units import Unit, decompose_lead


def lead_wide_shapes(units: Sequence[Unit]) -> tuple[Shape, ...]:
    """The (width, length) of a lead's units, largest first, singles left out: the duties of
    a lead holding triples or quadruples (`engine.units.decompose_lead` tells), which
    `engine.matching.wide_answer` scores and `answer_wide` answers (F2). Leads of pairs and
    tractors of pairs keep R8's pair machinery, where a card held three or four times simply
    makes one or two pairs."""
    return wide_shapes((unit.width, unit.length) for unit in units)


def follow_error(
    hand: Sequence[Card], lead: Sequence[Card], play: Sequence[Card], trump: Trump,
    follow: Follow = Follow.R8,
) -> Reason | None:
    """`None` if `play` is a legal follow to `lead` from `hand`, else the reason (R8).

    `follow` is the table's following rule (R12 `follow`): `suit_only` keeps R8's suit
    obligation and drops the pair and tractor obligations.
    """
    if len(play) == len(lead):
        missing = missing_from(hand, play)
        if missing:
            return ruling("follow.not_held", cards=format_cards(missing))
    return held_follow_error(hand, lead, play, trump, follow)


def held_follow_error(
    hand: Sequence[Card], lead: Sequence[Card], play: Sequence[Card], trump: Trump,
    follow: Follow = Follow.R8,
) -> Reason | None:
    """`follow_error` for a `play` already known to come from `hand` (the game checks
    possession as it takes the cards out)."""
    n = len(lead)
    if len(play) != n:
        return ruling("follow.count", count=n)
    suits = trump.suit_indexes
    suit = suits[lead[0].code]
    if n == 1:  # the common case: a card of the led suit, or none left in that suit
        if suits[play[0].code] == suit or all(suits[c.code] != suit for c in hand):
            return None
        return ruling("follow.suit", suit=SUIT_CODES[suit])
    held = [c for c in hand if suits[c.code] == suit]
    played = [c for c in play if suits[c.code] == suit]
    if len(held) < n:
        if len(played) < len(held):
            return ruling("follow.all_of_suit", count=len(held), suit=SUIT_CODES[suit])
        return None
    if len(played) < n:
        return ruling("follow.suit", suit=SUIT_CODES[suit])
    if follow is Follow.SUIT_ONLY:
        return None
    units, wide = decompose_lead(lead, trump)
    if wide:
        return _wide_error(lead_wide_shapes(units), held, played, trump, SUIT_CODES[suit],
                           len(units) > 1)
    shapes = shapes_of(u.pairs for u in units)
    if not shapes:
        return None
    need = best_answer(shapes, pair_counts(held, trump))
    got = best_answer(shapes, pair_counts(played, trump))
    if got == need:
        return None
    return _structure_reason(shapes, need, got, SUIT_CODES[suit], throw=len(units) > 1)


def _structure_reason(
    shapes: tuple[int, ...], need: tuple[int, ...], got: tuple[int, ...], suit: str, throw: bool
) -> Reason:
    i = next(i for i, (a, b) in enumerate(zip(need, got, strict=True)) if a != b)
    pairs = shapes[i]
    if pairs == 1:
        return ruling("follow.pair_throw" if throw else "follow.pair", suit=suit)
    if need[i] == 2 * pairs + 1:
        return ruling("follow.tractor_throw" if throw else "follow.tractor", suit=suit,
                      pairs=pairs)
    if throw:
        return ruling("follow.pairs_throw", count=need[i] // 2, suit=suit, pairs=pairs)
    return ruling("follow.pairs", count=need[i] // 2, suit=suit)


def _wide_error(shapes: tuple[Shape, ...], held: Sequence[Card], played: Sequence[Card],
                trump: Trump, suit: str, throw: bool) -> Reason | None:
    """`held_follow_error`'s shape duty against a lead with triples or quadruples (F2)."""
    need = wide_answer(shapes, held, trump)
    got = wide_answer(shapes, played, trump)
    if got == need:
        return None
    i = next(i for i, (a, b) in enumerate(zip(need, got, strict=True)) if a != b)
    width, length = shapes[i]
    return wide_reason(width, length, need[i], suit, throw)


def wide_reason(width: int, length: int, need: Component, suit: str, throw: bool) -> Reason:
    """Why a follow fails the duty to a lead unit of `width` × `length` (F2): the player
    holds its shape (`need` is `(width + 1,)`), or groups `need` of identical cards. Pair
    units are worded as in R8."""
    if width == 2:
        full = need == (3,)
        score = 2 * length + 1 if full else 2 * len(need)
        return _structure_reason((length if length > 1 else 1,), (score,), (-1,), suit, throw)
    if need == (width + 1,):
        if length == 1:
            return ruling("follow.tuple", width=width, suit=suit)
        return ruling("follow.tuple_tractor", width=width, length=length, suit=suit)
    return ruling("follow.groups", size=width * length, suit=suit,
                  groups="+".join(str(part) for part in need))


def forced_cards(hand: Sequence[Card], lead: Sequence[Card], trump: Trump) -> list[Card]:
    """Cards every legal follow must contain: all of the led suit when you hold no more
    than were led (R8). Empty when the choice is open."""
    suits = trump.suit_indexes
    suit = suits[lead[0].code]
    held = [c for c in hand if suits[c.code] == suit]
    return held if len(held) <= len(lead) else []


def build_follow(
    hand: Sequence[Card],
    lead: Sequence[Card],
    trump: Trump,
    *,
    prefer_high: bool,
    fill_key: Callable[[Card], float],
) -> list[Card]:
    """A legal follow: the best structure (highest or lowest pairs), then the remaining
    cards by `fill_key` (smallest first) — from the led suit, else from the rest."""
    n = len(lead)
    suits = trump.suit_indexes
    suit = suits[lead[0].code]
    held = [c for c in hand if suits[c.code] == suit]
    if len(held) <= n:
        rest = sorted((c for c in hand if suits[c.code] != suit), key=fill_key)
        return held + rest[: n - len(held)]
    units, wide = decompose_lead(lead, trump)
    if wide:
        return answer_wide(held, lead_wide_shapes(units), n, trump, prefer_high=prefer_high,
                           fill_key=fill_key)
    shapes = shapes_of(u.pairs for u in units)
    return answer_shapes(held, shapes, n, trump, prefer_high=prefer_high, fill_key=fill_key)


def answer_shapes(
    pool: Sequence[Card],
    shapes: tuple[int, ...],
    n: int,
    trump: Trump,
    *,
    prefer_high: bool,
    fill_key: Callable[[Card], float],
) -> list[Card]:
    """`n` cards of `pool` (one effective suit) answering the lead unit `shapes` as well as
    `pool` can (R8, R9), the highest or lowest pairs, then filled by `fill_key`."""
    chosen: list[Card] = []
    rest = list(pool)
    if shapes:
        _, path = best_answer_path(shapes, pair_counts(rest, trump), prefer_high)
        for used in path:
            for order in used:
                card = _take_pair(rest, order, trump)
                chosen += [card, card]
    rest.sort(key=fill_key)
    return chosen + rest[: n - len(chosen)]


def answer_wide(
    pool: Sequence[Card],
    shapes: tuple[Shape, ...],
    n: int,
    trump: Trump,
    *,
    prefer_high: bool,
    fill_key: Callable[[Card], float],
) -> list[Card]:
    """`answer_shapes` for lead units with triples or quadruples (F2): `n` cards of `pool`
    answering the (width, length) `shapes` as well as `pool` can, then filled by `fill_key`."""
    chosen: list[Card] = []
    rest = list(pool)
    _, path = wide_best(shapes, holding(rest, trump), prefer_high)
    for taken in path:
        for code, count in taken:
            for _ in range(count):
                card = next(c for c in rest if c.code == code)
                rest.remove(card)
                chosen.append(card)
    rest.sort(key=fill_key)
    return chosen + rest[: n - len(chosen)]


def _take_pair(pool: list[Card], order: int, trump: Trump) -> Card:
    seen: set[Card] = set()
    for card in pool:
        if trump.strength(card) == order:
            if card in seen:
                pool.remove(card)
                pool.remove(card)
                return card
            seen.add(card)
    raise AssertionError("no pair at that strength")


def random_legal_follow(
    hand: Sequence[Card], lead: Sequence[Card], trump: Trump, rng: random.Random,
    follow: Follow = Follow.R8,
) -> list[Card]:
    """A random legal follow (for random agents and property tests) under `follow`."""
    if len(lead) == 1:  # the common case, without the structure machinery
        suits = trump.suit_indexes
        suit = suits[lead[0].code]
        held = [c for c in hand if suits[c.code] == suit]
        return [rng.choice(held or list(hand))]
    if follow is Follow.SUIT_ONLY:  # any cards of the led suit (all of them if too few)
        suits = trump.suit_indexes
        suit = suits[lead[0].code]
        held = [c for c in hand if suits[c.code] == suit]
        if len(held) >= len(lead):
            return rng.sample(held, len(lead))
        rest = [c for c in hand if suits[c.code] != suit]
        return held + rng.sample(rest, len(lead) - len(held))
    noise = {card: rng.random() for card in hand}
    return build_follow(hand, lead, trump, prefer_high=rng.random() < 0.5,
                        fill_key=noise.__getitem__)


def legal_follow_candidates(
    hand: Sequence[Card], lead: Sequence[Card], trump: Trump, limit: int = 4
) -> list[list[Card]]:
    """A few distinct legal follows, the cheapest first: lowest cards without points, then
    the strongest, then with points (to feed a partner)."""
    def cheap(card: Card) -> float:
        return card.points * 100 + trump.suit_index(card) * 20 + trump.strength(card)

    def strong(card: Card) -> float:
        return -trump.strength(card) - trump.suit_index(card) * 20

    def points_first(card: Card) -> float:
        return -card.points * 100 + trump.strength(card)

    options = [
        build_follow(hand, lead, trump, prefer_high=False, fill_key=cheap),
        build_follow(hand, lead, trump, prefer_high=True, fill_key=strong),
        build_follow(hand, lead, trump, prefer_high=False, fill_key=points_first),
    ]
    unique: dict[tuple[int, ...], list[Card]] = {}
    for option in options:
        unique.setdefault(tuple(sorted(c.code for c in option)), option)
    return list(unique.values())[:limit]
