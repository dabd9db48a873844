"""Scoring a hand (R10) and advancing levels to the end of the match (R11, R12)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.cards import Card, Rank
from engine.deal import deal_shape, level_step, take_over_points
from engine.rules import KittyMultiplier, LevelScoring, MatchEnd, MustDefend, RuleSet
from engine.trump import Trump
from engine.units import decompose

Side = Literal["declarers", "opponents"]

_DEFENDED = {
    MustDefend.NONE: frozenset[Rank](),
    MustDefend.A: frozenset({Rank.ACE}),
    MustDefend.FIVE_TEN_K_A: frozenset({Rank.FIVE, Rank.TEN, Rank.KING, Rank.ACE}),
}


def kitty_multiplier(
    last_lead: Sequence[Card],
    trump: Trump,
    rules: RuleSet = RuleSet(),  # noqa: B008 - a frozen value
) -> int:
    """The kitty multiplier from the cards led to the last trick (R10, R12)."""
    if rules.kitty_multiplier is KittyMultiplier.FLAT_2:
        return 2
    if rules.kitty_multiplier is KittyMultiplier.LARGEST_UNIT:
        return 2 * max(unit.size for unit in decompose(last_lead, trump))
    return 2 * len(last_lead)


def settle(
    opponent_points: int,
    rules: RuleSet = RuleSet(),  # noqa: B008 - a frozen value
) -> tuple[Side, int]:
    """Which side goes up (or takes over) and by how many levels, from the opponents' total.

    0 → declarers +3; 5–35 → +2; 40–75 → +1; 80–115 → opponents take over, +0; then +1 for
    every further 40 points (R10). R12 `level_scoring=one_per_hand`: under 80 the declarers
    +1, from 80 the opponents take over and +1. With D decks (Finding Friends, F5) every
    threshold is scaled by D/2: take-over at 40 points per deck, steps of 20 per deck.
    """
    decks = deal_shape(rules).decks
    step, take_over = level_step(decks), take_over_points(decks)
    if rules.level_scoring is LevelScoring.ONE_PER_HAND:
        return ("declarers", 1) if opponent_points < take_over else ("opponents", 1)
    if opponent_points <= 0:
        return "declarers", 3
    if opponent_points < step:
        return "declarers", 2
    if opponent_points < take_over:
        return "declarers", 1
    return "opponents", (opponent_points - take_over) // step


def advance_level(
    level: Rank,
    gained: int,
    as_declarers: bool,
    rules: RuleSet = RuleSet(),  # noqa: B008 - a frozen value
) -> tuple[Rank, bool]:
    """A team's new level after gaining `gained` levels, and whether it has won the match.

    R11: passing A by any jump wins. R12 `must_defend`: a jump stops at a defended level the
    team has not yet won as declarers; it passes that level only by winning a hand as
    declarers while at it. R12 `match_end=loop`: levels wrap from A back to 2, no one wins.
    """
    defended = _DEFENDED[rules.must_defend]
    value = level
    for _ in range(gained):
        if value in defended and not (as_declarers and value == level):
            break  # a defended level is passed only by winning a hand as declarers at it
        if value == Rank.ACE:
            if rules.match_end is MatchEnd.LOOP:
                value = Rank.TWO
                continue
            return Rank.ACE, True
        value = Rank(value + 1)
    return value, False
