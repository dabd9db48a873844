"""R11 Winning the match (advance_level) and R12 table options (RuleSet)."""

from __future__ import annotations

import pytest

from engine import (
    KittyMultiplier,
    MatchEnd,
    MustDefend,
    NoBid,
    Rank,
    RuleSet,
    advance_level,
    settle,
)

R = Rank.parse
DEFAULT = RuleSet()
LOOP = RuleSet(match_end=MatchEnd.LOOP)
DEFEND_A = RuleSet(must_defend=MustDefend.A)
DEFEND_5_10_K_A = RuleSet(must_defend=MustDefend.FIVE_TEN_K_A)


# ---------------------------------------------------------------- R11


@pytest.mark.parametrize(
    ("level", "gained", "expected"),
    [
        ("2", 0, ("2", False)),
        ("2", 1, ("3", False)),
        ("2", 3, ("5", False)),
        ("9", 2, ("J", False)),  # 10 is a level like any other
        ("J", 3, ("A", False)),  # reaching A is not passing it
        ("K", 1, ("A", False)),
        ("A", 1, ("A", True)),  # passing A wins
        ("K", 2, ("A", True)),  # any jump over A wins
        ("Q", 3, ("A", True)),
        ("K", 3, ("A", True)),
        ("A", 5, ("A", True)),
    ],
)
def test_r11_advance_level_pass_ace_wins(level: str, gained: int,
                                         expected: tuple[str, bool]) -> None:
    for as_declarers in (True, False):
        got = advance_level(R(level), gained, as_declarers, DEFAULT)
        assert got == (R(expected[0]), expected[1])


def test_r11_default_rules_argument() -> None:
    assert advance_level(R("K"), 2, True) == (Rank.ACE, True)


def test_r11_no_one_is_set_back_and_levels_are_ranks() -> None:
    for level in (r for r in Rank if not r.is_joker):
        for gained in range(0, 6):
            new, won = advance_level(level, gained, False, DEFAULT)
            assert new >= level and isinstance(new, Rank) and not new.is_joker
            assert won == (level + gained > Rank.ACE)


def test_r11_settle_then_advance_a_whole_hand() -> None:
    """Seed example: N-S declarers at 7, E-W at 10. 60 → N-S 8; 160 → E-W Q."""
    side, gained = settle(60)
    assert (side, advance_level(R("7"), gained, True)) == ("declarers", (R("8"), False))
    side, gained = settle(85)
    assert (side, advance_level(R("10"), gained, False)) == ("opponents", (R("10"), False))
    side, gained = settle(160)
    assert (side, advance_level(R("10"), gained, False)) == ("opponents", (R("Q"), False))


# ---------------------------------------------------------------- R12 match_end = loop


@pytest.mark.parametrize(
    ("level", "gained", "expected"),
    [("K", 1, "A"), ("A", 1, "2"), ("K", 3, "3"), ("Q", 3, "2"), ("A", 3, "4"), ("5", 2, "7")],
)
def test_r12_loop_wraps_from_ace_to_two(level: str, gained: int, expected: str) -> None:
    for as_declarers in (True, False):
        assert advance_level(R(level), gained, as_declarers, LOOP) == (R(expected), False)


# ---------------------------------------------------------------- R12 must_defend


def test_r12_must_defend_ace_jump_stops_at_ace() -> None:
    assert advance_level(R("Q"), 3, True, DEFEND_A) == (Rank.ACE, False)
    assert advance_level(R("K"), 2, False, DEFEND_A) == (Rank.ACE, False)
    assert advance_level(R("J"), 2, True, DEFEND_A) == (R("K"), False)  # not reached: normal


def test_r12_must_defend_ace_passed_only_by_winning_as_declarers_at_ace() -> None:
    assert advance_level(R("A"), 1, True, DEFEND_A) == (Rank.ACE, True)
    assert advance_level(R("A"), 3, True, DEFEND_A) == (Rank.ACE, True)
    assert advance_level(R("A"), 1, False, DEFEND_A) == (Rank.ACE, False)  # taking over at A
    assert advance_level(R("A"), 2, False, DEFEND_A) == (Rank.ACE, False)


@pytest.mark.parametrize(
    ("level", "gained", "as_declarers", "expected"),
    [
        ("3", 3, True, "5"),  # stops at 5
        ("4", 2, True, "5"),
        ("2", 3, True, "5"),
        ("2", 2, True, "4"),
        ("5", 2, True, "7"),  # defending 5 as declarers: passes it
        ("5", 1, False, "5"),  # taking over at 5 does not pass it
        ("5", 3, False, "5"),
        ("8", 3, True, "10"),  # stops at 10
        ("10", 3, True, "K"),  # passes 10 as declarers, then J, Q, K — stops at K
        ("J", 3, True, "K"),
        ("K", 1, True, "A"),  # passes K as declarers, stops at A
        ("K", 2, True, "A"),
        ("K", 1, False, "K"),
        ("Q", 2, False, "K"),
        ("J", 5, False, "K"),  # a big take-over jump stops at K too
    ],
)
def test_r12_must_defend_5_10_k_a(level: str, gained: int, as_declarers: bool,
                                  expected: str) -> None:
    assert advance_level(R(level), gained, as_declarers, DEFEND_5_10_K_A) == (R(expected), False)


def test_r12_must_defend_5_10_k_a_the_match_is_won_at_ace() -> None:
    assert advance_level(R("A"), 1, True, DEFEND_5_10_K_A) == (Rank.ACE, True)
    assert advance_level(R("A"), 2, False, DEFEND_5_10_K_A) == (Rank.ACE, False)


# ---------------------------------------------------------------- R12 RuleSet


def test_r12_defaults_exactly_as_the_table() -> None:
    rules = RuleSet()
    assert rules.kitty_multiplier is KittyMultiplier.TWICE_CARDS
    assert rules.to_dict()["kitty_multiplier"] == "twice_cards"
    assert rules.throw_penalty == 0
    assert rules.no_bid is NoBid.KITTY_TOP_CARD
    assert rules.to_dict()["no_bid"] == "kitty_top_card"
    assert rules.no_trump_allowed is True
    assert rules.match_end is MatchEnd.PASS_ACE
    assert rules.to_dict()["match_end"] == "pass_ace"
    assert rules.must_defend is MustDefend.NONE
    assert rules.declare_window_s == 15
    assert rules.turn_timer_s == 90


def test_r12_option_values_as_in_the_table() -> None:
    assert {m.value for m in KittyMultiplier} == {"twice_cards", "largest_unit", "flat_2"}
    assert {m.value for m in NoBid} == {"kitty_top_card", "reveal_until_level"}
    assert {m.value for m in MatchEnd} == {"pass_ace", "loop"}
    assert {m.value for m in MustDefend} >= {"A", "5_10_K_A"}


def test_r12_options_accept_their_string_values() -> None:
    rules = RuleSet(kitty_multiplier="largest_unit", no_bid="reveal_until_level",  # type: ignore[arg-type]
                    match_end="loop", must_defend="5_10_K_A")  # type: ignore[arg-type]
    assert rules.kitty_multiplier is KittyMultiplier.LARGEST_UNIT
    assert rules.no_bid is NoBid.REVEAL_UNTIL_LEVEL
    assert rules.match_end is MatchEnd.LOOP
    assert rules.must_defend is MustDefend.FIVE_TEN_K_A


@pytest.mark.parametrize("window", [5, 15, 60, 120])
def test_r12_declare_window_range_accepted(window: int) -> None:
    assert RuleSet(declare_window_s=window).declare_window_s == window


@pytest.mark.parametrize("window", [0, 4, 121, -1])
def test_r12_declare_window_range_rejected(window: int) -> None:
    with pytest.raises(ValueError):
        RuleSet(declare_window_s=window)


@pytest.mark.parametrize("timer", [0, 15, 90, 600])
def test_r12_turn_timer_range_accepted(timer: int) -> None:
    assert RuleSet(turn_timer_s=timer).turn_timer_s == timer


@pytest.mark.parametrize("timer", [1, 14, 601, -1])
def test_r12_turn_timer_range_rejected(timer: int) -> None:
    with pytest.raises(ValueError):
        RuleSet(turn_timer_s=timer)


def test_r12_throw_penalty_is_a_non_negative_number_of_points() -> None:
    assert RuleSet(throw_penalty=10).throw_penalty == 10
    with pytest.raises(ValueError):
        RuleSet(throw_penalty=-5)


@pytest.mark.parametrize(
    "changes",
    [{"kitty_multiplier": "triple"}, {"no_bid": "redeal"}, {"match_end": "never"},
     {"must_defend": "K"}],
)
def test_r12_unknown_option_values_rejected(changes: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        RuleSet(**changes)  # type: ignore[arg-type]


def test_r12_ruleset_is_frozen_and_round_trips() -> None:
    rules = RuleSet(kitty_multiplier=KittyMultiplier.FLAT_2, match_end=MatchEnd.LOOP,
                    must_defend=MustDefend.A, no_trump_allowed=False, throw_penalty=10,
                    declare_window_s=30, turn_timer_s=0)
    with pytest.raises(AttributeError):
        rules.throw_penalty = 5  # type: ignore[misc]
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert RuleSet.from_dict({}) == RuleSet()
    assert rules.with_changes(throw_penalty=0).throw_penalty == 0
    with pytest.raises(ValueError):
        rules.with_changes(declare_window_s=500)
