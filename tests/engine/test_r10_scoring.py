"""R10 Scoring a hand: kitty multipliers (and the R12 variants), the level table."""

from __future__ import annotations

import pytest
from tractor_dsl import T, cards

from engine import KittyMultiplier, RuleSet, kitty_multiplier, settle

TWICE = RuleSet()
LARGEST = RuleSet(kitty_multiplier=KittyMultiplier.LARGEST_UNIT)
FLAT = RuleSet(kitty_multiplier="flat_2")  # type: ignore[arg-type]  # values accepted


# ---------------------------------------------------------------- kitty multiplier


@pytest.mark.parametrize(
    ("last_lead", "twice", "largest", "flat"),
    [
        ("AS", 2, 2, 2),
        ("AS AS", 4, 4, 2),
        ("AS AS KS KS", 8, 8, 2),  # a two-pair tractor
        ("3S 3S 4S 4S 5S 5S", 12, 12, 2),  # a three-pair tractor
        ("AS KS", 4, 2, 2),  # a throw of two singles: its largest unit is a single
        ("AS AS KS", 6, 4, 2),  # throw: pair + single
        ("AS AS QS QS", 8, 4, 2),  # two pairs, not a tractor (K between)
        ("AS AS KS KS 9S 9S 7S", 14, 8, 2),  # tractor + pair + single
        ("RJ RJ BJ BJ", 8, 8, 2),
    ],
)
def test_r10_r12_kitty_multiplier(last_lead: str, twice: int, largest: int, flat: int) -> None:
    lead, trump = cards(last_lead), T("2H")
    assert kitty_multiplier(lead, trump) == twice  # default: twice the cards led (R10)
    assert kitty_multiplier(lead, trump, TWICE) == twice
    assert kitty_multiplier(lead, trump, rules=LARGEST) == largest
    assert kitty_multiplier(lead, trump, rules=FLAT) == flat


def test_r10_kitty_multiplier_uses_the_hands_trump_for_structure() -> None:
    """`4S 4S 4D 4D` is a tractor at level 4, diamonds trump, two pairs otherwise."""
    lead = cards("4S 4S 4D 4D")
    assert kitty_multiplier(lead, T("4D"), LARGEST) == 8
    assert kitty_multiplier(lead, T("7D"), LARGEST) == 4
    assert kitty_multiplier(lead, T("4D")) == kitty_multiplier(lead, T("7D")) == 8


# ---------------------------------------------------------------- the level table


@pytest.mark.parametrize(
    ("points", "side", "levels"),
    [
        (0, "declarers", 3),
        (5, "declarers", 2),
        (35, "declarers", 2),
        (40, "declarers", 1),
        (75, "declarers", 1),
        (80, "opponents", 0),
        (115, "opponents", 0),
        (120, "opponents", 1),
        (155, "opponents", 1),
        (160, "opponents", 2),
        (195, "opponents", 2),
        (200, "opponents", 3),
        (235, "opponents", 3),
        (240, "opponents", 4),  # +1 more for each further 40
        (275, "opponents", 4),
        (280, "opponents", 5),
        (320, "opponents", 6),
    ],
)
def test_r10_level_table_boundaries(points: int, side: str, levels: int) -> None:
    assert settle(points) == (side, levels)
    assert settle(points, rules=RuleSet()) == (side, levels)


def test_r10_level_table_has_no_gaps() -> None:
    """Every total in steps of 5 falls in exactly the R10 band."""
    for points in range(0, 400, 5):
        side, levels = settle(points)
        if points == 0:
            assert (side, levels) == ("declarers", 3)
        elif points < 40:
            assert (side, levels) == ("declarers", 2)
        elif points < 80:
            assert (side, levels) == ("declarers", 1)
        else:
            assert side == "opponents" and levels == (points - 80) // 40


def test_r10_the_table_is_the_same_under_every_variant() -> None:
    for rules in (LARGEST, FLAT, RuleSet(match_end="loop"),  # type: ignore[arg-type]
                  RuleSet(must_defend="A"), RuleSet(throw_penalty=10)):  # type: ignore[arg-type]
        assert [settle(p, rules) for p in (0, 40, 80, 200)] == \
            [("declarers", 3), ("declarers", 1), ("opponents", 0), ("opponents", 3)]
