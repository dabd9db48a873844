"""The computer players (`engine.ai`: random, greedy) act legally under every house rule
(R12): no action of theirs is refused, whatever the options."""

from __future__ import annotations

import random

import pytest

from engine.actions import StartHand
from engine.ai import make_player
from engine.game import Match, Phase
from engine.rules import RuleSet

OPTIONS = [
    RuleSet(follow="suit_only"),  # type: ignore[arg-type]  # values accepted
    RuleSet(throw_ruff="every_unit"),  # type: ignore[arg-type]
    RuleSet(throw_ruff="highest_card"),  # type: ignore[arg-type]
    RuleSet(level_scoring="one_per_hand"),  # type: ignore[arg-type]
    RuleSet(fixed_trump="D"),  # type: ignore[arg-type]
    RuleSet(fixed_trump="NT"),  # type: ignore[arg-type]
    RuleSet(take_backs=True),
    RuleSet(follow="suit_only", throw_ruff="every_unit",  # type: ignore[arg-type]
            level_scoring="one_per_hand", fixed_trump="C", take_backs=True),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("rules", OPTIONS,
                         ids=lambda r: ",".join(f"{k}={v}" for k, v in r.to_dict().items()
                                                if v != RuleSet().to_dict()[k]))
def test_computer_players_only_act_legally(rules: RuleSet) -> None:
    names = ["greedy", "random", "greedy", "random"]
    players = [make_player(name, seat) for seat, name in enumerate(names)]
    seeds = random.Random(3)
    match = Match.new(rules)
    for _ in range(6):
        if match.phase is Phase.MATCH_OVER:
            match = Match.new(rules)
        match, _ = match.apply(StartHand(seeds.getrandbits(63)))
        while match.phase not in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
            public = match.public_view()
            seat = public.awaiting[0] if public.phase is Phase.DECLARING else public.turn
            assert seat is not None
            match, _ = match.apply(players[seat].decide(match.view_for(seat)))  # never refused
        assert match.hand is not None and match.hand.result is not None
