"""engine.entry: typed text to an action for a seat; one legality check for a play from a
view (lead R7 or follow R8)."""

from __future__ import annotations

import pytest

from engine.actions import Bury, CloseWindow, Declare, Pass, Play, StartHand
from engine.ai import make_player
from engine.cards import parse_cards
from engine.entry import parse_action, play_error
from engine.errors import InvalidNotation
from engine.follow import follow_error
from engine.game import Match, Phase
from engine.throw import lead_error


def test_parse_action_builds_the_seats_action() -> None:
    assert parse_action("play", "AS as", 2) == Play(2, tuple(parse_cards("AS AS")))
    assert parse_action("bury", "2c 3c", 0) == Bury(0, tuple(parse_cards("2C 3C")))
    assert parse_action("declare", "2h", 3) == Declare(3, tuple(parse_cards("2H")))
    assert parse_action("pass", "anything", 1) == Pass(1)
    assert parse_action("play", "  ", 1) is None
    with pytest.raises(InvalidNotation):
        parse_action("play", "AS 1X", 1)
    with pytest.raises(ValueError):
        parse_action("play", "AS", 4)


def test_play_error_is_the_lead_or_follow_check() -> None:
    match = Match.new().apply(StartHand(7))[0]
    players = {s: make_player("greedy", s) for s in range(4)}
    checked = 0
    for _ in range(400):
        public = match.public_view()
        if public.phase is Phase.PLAYING and public.turn is not None:
            view = match.view_for(public.turn)
            trump = public.trump
            assert trump is not None
            hand = list(view.hand)
            for cards in ([hand[0]], hand[:2], hand[-3:]):
                lead = view.lead
                expected = lead_error(cards, trump) if lead is None else follow_error(
                    view.hand, lead, cards, trump)
                assert play_error(view, cards) == expected
                checked += 1
            other = match.view_for((public.turn + 1) % 4)
            assert play_error(other, hand[:1]) is None  # not to move: not asked
        if public.phase is Phase.BETWEEN_HANDS:
            break
        seat = public.turn if public.turn is not None else (
            public.awaiting[0] if public.awaiting else None)
        if seat is None:
            match = match.apply(CloseWindow())[0]
            continue
        match = match.apply(players[seat].decide(match.view_for(seat)))[0]
    assert checked > 30


@pytest.mark.parametrize(("data", "error"), [
    ({"no_trump_allowed": "false"}, TypeError),
    ({"no_trump_allowed": 0}, TypeError),
    ({"turn_timer_s": "60"}, TypeError),
    ({"turn_timer_s": True}, TypeError),
    ({"throw_penalty": 1.5}, TypeError),
    ({"kitty_multiplier": "triple"}, ValueError),
    ({"no_such_option": 1}, ValueError),
])
def test_rule_set_refuses_unknown_and_ill_typed_options(data: dict[str, object],
                                                         error: type[Exception]) -> None:
    from engine.rules import RuleSet

    with pytest.raises(error):
        RuleSet.from_dict(data)
    assert RuleSet.from_dict({"no_trump_allowed": False}).no_trump_allowed is False
    assert RuleSet.from_dict(RuleSet().to_dict()) == RuleSet()
