"""The house rules as R12 table options: names, values, defaults (the game of R1–R11), and
validation (unknown values refused)."""

from __future__ import annotations

import pytest

from engine import FixedTrump, Follow, LevelScoring, RuleSet, ThrowRuff

HOUSE = {
    "follow": (Follow, "r8", ["r8", "suit_only"]),
    "throw_ruff": (ThrowRuff, "largest_unit", ["largest_unit", "every_unit", "highest_card"]),
    "level_scoring": (LevelScoring, "table", ["table", "one_per_hand"]),
    "fixed_trump": (FixedTrump, "none", ["none", "S", "H", "D", "C", "NT"]),
}


@pytest.mark.parametrize("name", sorted(HOUSE))
def test_values_and_defaults(name: str) -> None:
    enum, default, values = HOUSE[name]
    assert [member.value for member in enum] == values
    assert getattr(RuleSet(), name) == default
    for value in values:
        rules = RuleSet(**{name: value})
        assert getattr(rules, name) is enum(value)
        assert rules.to_dict()[name] == value
        assert RuleSet.from_dict(rules.to_dict()) == rules
        assert RuleSet().with_changes(**{name: value}) == rules


@pytest.mark.parametrize("name", sorted(HOUSE))
@pytest.mark.parametrize("bad", ["", "R8", "every", "spades", "nt", 3])
def test_unknown_values_are_refused(name: str, bad: object) -> None:
    with pytest.raises(ValueError):
        RuleSet(**{name: bad})
    with pytest.raises(ValueError):
        RuleSet.from_dict({name: bad})


def test_take_backs_default_off() -> None:
    assert RuleSet().take_backs is False
    assert RuleSet.from_dict({"take_backs": True}).take_backs is True
    assert RuleSet(take_backs=True).to_dict()["take_backs"] is True


def test_a_saved_rule_set_without_the_house_rules_plays_as_before() -> None:
    old = {"kitty_multiplier": "twice_cards", "throw_penalty": 0, "no_bid": "kitty_top_card",
           "no_trump_allowed": True, "match_end": "pass_ace", "must_defend": "none",
           "declare_window_s": 15, "turn_timer_s": 90}
    assert RuleSet.from_dict(old) == RuleSet()
