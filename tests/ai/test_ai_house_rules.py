"""The computer players judge trick winners under the table's house rules (R12
`throw_ruff`), not always under R9's default."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from ai_puzzle_support import C, position

from engine.ai import make_player
from engine.game import Match
from engine.rules import RuleSet, ThrowRuff


def ruffed_throw(rule: ThrowRuff) -> Match:
    """My partner threw AS AS KS, the second seat ruffed with 3H 3H 8H (trump 2H). My
    4H 4H 6H beats that ruff under R9 (compared by the pair) but not when a later ruff must
    beat every unit (6H < 8H)."""
    match = position(["?", "?", "4H 4H 6H 5C 6C 7C 3D 4D", "?"], "2H", 1, leader=0,
                     trick=["AS AS KS", "3H 3H 8H"])
    return replace(match, rules=RuleSet(throw_ruff=rule))


@pytest.mark.parametrize("player", ["expert", "ai"])
@pytest.mark.parametrize(("rule", "ruffs"), [(ThrowRuff.LARGEST_UNIT, True),
                                              (ThrowRuff.EVERY_UNIT, False)])
def test_ruffs_only_where_the_ruff_wins(player: str, rule: ThrowRuff, ruffs: bool) -> None:
    match = ruffed_throw(rule)
    action = make_player(player, 1).decide(match.view_for(2))
    match.apply(action)  # legal
    assert (Counter(getattr(action, "cards", ())) == Counter(C("4H 4H 6H"))) is ruffs
