"""Versioned dicts for states, actions and events: exact round trips, JSON-able."""

from __future__ import annotations

import json

import pytest
from test_game_support import C, selfplay_steps

from engine.actions import (
    Bury,
    CloseWindow,
    Declare,
    Pass,
    Play,
    StartHand,
    action_from_dict,
)
from engine.cards import Rank
from engine.events import (
    Buried,
    CardsDealt,
    CardsPlayed,
    Declared,
    HandSettled,
    HandStarted,
    KittyRevealed,
    KittyTaken,
    MatchWon,
    NoBidTrump,
    Passed,
    Redealt,
    StarterSet,
    ThrowFailed,
    TrickWon,
    TrumpHow,
    TrumpSet,
    WindowClosed,
    event_from_dict,
)
from engine.game import Match, Phase
from engine.rules import KittyMultiplier, NoBid, RuleSet
from engine.trump import Trump


def through_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


def test_actions_round_trip():
    actions = [StartHand(2**63 + 5), Declare(1, C("2H 2H")), Pass(3), CloseWindow(),
               Bury(0, C("3S 4S 5S 6S 7S 8S 9S 10S")), Play(2, C("AS AS")), Play(0, ())]
    for action in actions:
        data = through_json(action.to_dict())
        assert data["v"] == 1 and data["type"] == action.type
        assert action_from_dict(data) == action


def test_the_documented_action_format():
    assert Play(2, C("AS AS")).to_dict() == {"v": 1, "type": "play", "seat": 2, "cards": "AS AS"}
    assert action_from_dict({"v": 1, "type": "play", "seat": 2, "cards": "as,as"}) == \
        Play(2, C("AS AS"))


@pytest.mark.parametrize("data", [
    {"v": 2, "type": "pass", "seat": 1},
    {"v": 1, "type": "shuffle"},
    {"v": 1, "type": "play", "seat": 1},
    {"v": 1, "type": "play", "seat": 9, "cards": "AS"},
    {"v": 1, "type": "play", "seat": 1, "cards": "ZZ"},
    {"v": 1, "type": "start_hand", "seed": -1},
])
def test_bad_action_data_is_refused(data):
    with pytest.raises(ValueError):
        action_from_dict(data)


def test_events_round_trip():
    trump = Trump(Rank.FOUR, None)
    events = [
        HandStarted(3, None, Rank.TWO), HandStarted(4, 2, Rank.TEN), CardsDealt(2, 1),
        Declared(1, C("RJ RJ")), Passed(2), WindowClosed(5, True, False), Redealt(1),
        StarterSet(3), NoBidTrump(C("9D RJ 4H"), trump), TrumpSet(trump, None,
                                                                  TrumpHow.KITTY_TOP_CARD),
        TrumpSet(Trump.parse("4D"), 1, TrumpHow.DECLARED), KittyTaken(1), Buried(1),
        CardsPlayed(0, C("AS AS KS")), ThrowFailed(0, C("AS AS KS"), C("KS"), -15),
        TrickWon(2, 25, 7), KittyRevealed(C("5D 10D KD 3C 4C 6C 7C 8C"), 25, 4, 100),
        HandSettled(4, 120, "opponents", 1, (Rank.TWO, Rank.ACE), (Rank.THREE, Rank.ACE), 3,
                    12345),
        MatchWon(1),
    ]
    for event in events:
        data = through_json(event.to_dict())
        assert data["v"] == 1 and data["type"] == event.type
        assert event_from_dict(data) == event
    assert Buried(1).to_dict() == {"v": 1, "type": "buried", "seat": 1}
    assert CardsDealt(2, 0).to_dict() == {"v": 1, "type": "cards_dealt", "batch": 2,
                                          "deal_no": 0}


@pytest.mark.parametrize("data", [{"v": 9, "type": "buried", "seat": 1},
                                  {"v": 1, "type": "nothing"}])
def test_bad_event_data_is_refused(data):
    with pytest.raises(ValueError):
        event_from_dict(data)


def test_states_round_trip_in_every_phase():
    rules = RuleSet(no_bid=NoBid.REVEAL_UNTIL_LEVEL, throw_penalty=5,
                    kitty_multiplier=KittyMultiplier.FLAT_2)
    phases: set[Phase] = set()
    for before, action, after, events in selfplay_steps(40, 8, rules):
        phases.add(before.phase)
        data = through_json(before.to_dict())
        restored = Match.from_dict(data)
        assert restored == before and restored.to_dict() == data
        assert restored.apply(action) == (after, events)  # and it plays on identically
    assert phases >= {Phase.DECLARING, Phase.BURYING, Phase.PLAYING, Phase.BETWEEN_HANDS}
    assert Match.from_dict(through_json(Match.new().to_dict())) == Match.new()


def test_a_won_match_round_trips():
    for _, _, after, _ in selfplay_steps(60, 3):
        if after.phase is Phase.MATCH_OVER:
            assert Match.from_dict(through_json(after.to_dict())) == after
            return
    pytest.skip("no match ended in 60 hands")


def test_an_unknown_state_version_is_refused():
    data = Match.new().to_dict()
    data["v"] = 99
    with pytest.raises(ValueError):
        Match.from_dict(data)
