"""Declaring trump while the cards are dealt (R5; with up to four copies of a card, F3)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import (
    ALL_CARDS,
    BLACK_JOKER,
    RED_JOKER,
    Card,
    Rank,
    RankLike,
    as_rank,
    format_cards,
)
from engine.deal import deal_shape
from engine.reasons import Reason, ruling
from engine.rules import RuleSet
from engine.trump import Trump

Standing = tuple[int, Sequence[Card]] | None
"""The declaration that currently stands: `(seat, cards)`, or `None` before any."""


def declaration_strength(cards: Sequence[Card], level: RankLike) -> int | None:
    """1 one level card, 2 two identical level cards, 3 two black jokers, 4 two red jokers (R5).

    With more decks (F3), k identical cards (k = 3 or 4): more copies beat fewer, and among
    k copies red jokers beat black jokers beat level cards: 3k − 4 for level cards, 3k − 3
    for black jokers, 3k − 2 for red jokers (k = 2 gives R5's 2, 3, 4).
    `None` when `cards` are not a declaration at this level.
    """
    level = as_rank(level)
    if len(cards) == 1:
        return 1 if cards[0].rank == level else None
    if len(cards) == 2 and cards[0] == cards[1]:
        if cards[0] == RED_JOKER:
            return 4
        if cards[0] == BLACK_JOKER:
            return 3
        return 2 if cards[0].rank == level else None
    if len(cards) in (3, 4) and all(card == cards[0] for card in cards):
        base = 3 * len(cards) - 4
        if cards[0] == RED_JOKER:
            return base + 2
        if cards[0] == BLACK_JOKER:
            return base + 1
        return base if cards[0].rank == level else None
    return None


def declared_trump(cards: Sequence[Card], level: Rank) -> Trump:
    """The trump a declaration names: the level card's suit, or no trump for jokers."""
    return Trump(level, cards[0].suit)


def declaration_error(
    standing: Standing,
    seat: int,
    cards: Sequence[Card],
    level: RankLike,
    rules: RuleSet = RuleSet(),  # noqa: B008 - a frozen value
) -> Reason | None:
    """Why `seat` may not declare `cards` over `standing` now, or `None` if it may (R5).

    More identical cards than the table's decks hold are refused (F3: k up to D). Does not
    check that the seat holds the cards: the game does.
    """
    level = as_rank(level)
    key = _refusal(standing, seat, cards, level, rules)
    if key is None:
        return None
    if key == "declare.shape":
        return ruling(_many(key, rules), level=str(level))
    if key == "declare.self":
        return ruling(_many(key, rules))
    if key == "declare.too_weak":
        assert standing is not None
        return ruling(key, cards=format_cards(standing[1]))
    if key == "declare.copies":
        return ruling(key, decks=deal_shape(rules).decks)
    return ruling(key)


_MANY = {"declare.shape": "declare.shape_many", "declare.self": "declare.self_many"}


def _many(key: str, rules: RuleSet) -> str:
    """`key`, or its Finding Friends wording (F3) at a table of three or four decks."""
    return _MANY[key] if deal_shape(rules).decks > 2 else key


def _refusal(standing: Standing, seat: int, cards: Sequence[Card], level: Rank,
             rules: RuleSet) -> str | None:
    """`declaration_error`'s ruling key, or `None` (no message built: `legal_declarations`
    asks this of every option)."""
    strength = declaration_strength(cards, level)
    if strength is None:
        return "declare.shape"
    decks = deal_shape(rules).decks
    if len(cards) > decks:  # more copies than the pack holds (F3: k up to D)
        return "declare.copies" if decks > 2 else "declare.shape"
    if cards[0].suit is None and not rules.no_trump_allowed:
        return "declare.no_trump_off"
    if standing is None:
        return None
    holder, shown = standing
    shown_strength = declaration_strength(shown, level) or 0
    if holder == seat:
        if len(cards) > len(shown) and cards[0] == shown[0]:
            return None  # reinforcing one's own declaration with more copies (R5, F3)
        return "declare.self"
    if strength <= shown_strength:
        return "declare.too_weak"
    return None


def legal_declarations(
    hand: Sequence[Card],
    seat: int,
    level: Rank,
    standing: Standing,
    rules: RuleSet = RuleSet(),  # noqa: B008 - a frozen value
) -> list[tuple[Card, ...]]:
    """Every distinct declaration `seat` could make now from `hand`, weakest first: each
    level card or joker shown 1 (level cards only) up to as many times as held (R5, F3)."""
    counts: dict[int, int] = {}  # only level cards and jokers declare: count those by code
    for card in hand:
        if card.rank == level or card.suit is None:
            counts[card.code] = counts.get(card.code, 0) + 1
    options: list[tuple[Card, ...]] = []
    for code in sorted(counts):
        card = ALL_CARDS[code]
        if card.rank == level:
            options.append((card,))
        options += [(card,) * k for k in range(2, counts[code] + 1)]
    legal = [c for c in options if _refusal(standing, seat, c, level, rules) is None]
    legal.sort(key=lambda c: (declaration_strength(c, level) or 0, c[0].code))
    return legal
