"""House rule `take_backs` (R12, default off): a player may take back their last play until
the next seat acts — `TakeBack(seat)`.

- Only the last play of the hand, only by its player, only while nobody has acted since: a
  play that completed a trick may be taken back until the trick's winner leads.
- The hand is restored exactly as it was before that play (cards, trick, last trick,
  points, turn, the record of plays); a take-back cannot be chained to the play before.
- Refused: when the table does not allow it, for a failed throw (R7: everyone has seen it),
  and once the hand is settled (its last play ended it).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_game_support import C, playing

from engine import RuleSet, TakeBack
from engine.actions import Action, Play, action_from_dict
from engine.errors import IllegalPlay, TractorError, WrongPhase
from engine.events import PlayTakenBack, TrickWon
from engine.game import Match

ON = RuleSet(take_backs=True)
HANDS = ["AS KS 3D", "5S 4S 4D", "QS 9S 5D", "10S 6S 6D"]


def run(match: Match, *actions: Action) -> Match:
    for action in actions:
        match, _ = match.apply(action)
    return match


def without_undo(match: Match) -> Match:
    assert match.hand is not None
    return replace(match, hand=replace(match.hand, undo=None))


def refusal(match: Match, action: Action) -> str:
    with pytest.raises(TractorError) as refused:
        match.apply(action)
    return refused.value.ruling.key


def test_off_by_default() -> None:
    assert RuleSet().take_backs is False
    match = run(playing(HANDS, "2H"), Play(0, C("AS")))
    assert match.hand is not None and match.hand.undo is None
    assert match.public_view().take_back_seat is None
    with pytest.raises(IllegalPlay, match=r"does not allow taking back a play \(R12\)"):
        match.apply(TakeBack(0))


def test_a_lead_taken_back_restores_the_hand_exactly() -> None:
    start = playing(HANDS, "2H", rules=ON)
    led = run(start, Play(0, C("AS")))
    assert led.public_view().take_back_seat == 0
    back, events = led.apply(TakeBack(0))
    assert events == (PlayTakenBack(0, C("AS")),)
    assert back == start
    assert back.public_view().take_back_seat is None


def test_a_follow_taken_back_and_no_chaining() -> None:
    led = run(playing(HANDS, "2H", rules=ON), Play(0, C("AS")))
    followed = run(led, Play(1, C("5S")))
    assert refusal(followed, TakeBack(0)) == "takeback.not_last"  # seat 1 has acted
    assert refusal(followed, TakeBack(2)) == "takeback.not_last"
    back = run(followed, TakeBack(1))
    assert back == without_undo(led)
    assert refusal(back, TakeBack(0)) == "takeback.not_last"  # no chain to the lead
    assert refusal(back, TakeBack(1)) == "takeback.not_last"  # nothing left to take back
    again = run(back, Play(1, C("4S")))  # and seat 1 plays something else
    assert again.hand is not None and again.hand.trick is not None
    assert again.hand.trick.plays == (C("AS"), C("4S"))


def test_the_play_that_completes_a_trick_until_the_winner_leads() -> None:
    three = run(playing(HANDS, "2H", rules=ON), Play(0, C("AS")), Play(1, C("5S")),
                Play(2, C("QS")))
    complete, events = three.apply(Play(3, C("10S")))
    assert TrickWon(0, 15, 1) in events
    assert complete.hand is not None and complete.hand.declarer_trick_points == 15
    assert complete.public_view().take_back_seat == 3
    back = run(complete, TakeBack(3))
    assert back == without_undo(three)
    assert back.hand is not None and back.hand.trick is not None and back.hand.last_trick is None
    assert back.hand.declarer_trick_points == 0 and back.hand.turn == 3
    led = run(complete, Play(0, C("KS")))
    assert refusal(led, TakeBack(3)) == "takeback.not_last"  # the winner has led


def test_points_and_the_last_trick_are_restored() -> None:
    hands = ["AS KS 3D", "5S 4S 4D", "QS 9S 5D", "10S 2S 6D"]  # 2♠: a level trump
    first = run(playing(hands, "2H", rules=ON, opponent_points=30),
                Play(0, C("AS")), Play(1, C("5S")), Play(2, C("QS")), Play(3, C("10S")),
                Play(0, C("KS")), Play(1, C("4S")), Play(2, C("9S")))
    ruffed, events = first.apply(Play(3, C("2S")))  # seat 3, an opponent, ruffs the K♠
    assert TrickWon(3, 10, 2) in events
    assert ruffed.hand is not None and first.hand is not None
    assert ruffed.hand.opponent_points == 40 and ruffed.hand.last_trick is not None
    assert ruffed.hand.last_trick.number == 2
    back = run(ruffed, TakeBack(3))
    assert back == without_undo(first)
    assert back.hand is not None and back.hand.opponent_points == 30
    assert back.hand.last_trick == first.hand.last_trick and back.hand.tricks_played == 1
    # the last play of the hand settles it: it cannot be taken back
    settled = run(ruffed, Play(3, C("6D")), Play(0, C("3D")), Play(1, C("4D")),
                  Play(2, C("5D")))
    assert settled.hand is not None and settled.hand.result is not None
    with pytest.raises(WrongPhase, match=r"The hand is over") as refused:
        settled.apply(TakeBack(2))
    assert refused.value.ruling.key == "takeback.settled"


def test_a_failed_throw_cannot_be_taken_back() -> None:
    hands = ["AS KS 3D", "5S 4S 4D", "QS 9S 5D", "AS 6S 6D"]
    rules = replace(ON, throw_penalty=10)
    match, events = playing(hands, "2H", rules=rules).apply(Play(0, C("AS KS")))
    assert any(e.type == "throw_failed" for e in events)
    assert match.hand is not None and match.hand.failed_throws
    with pytest.raises(IllegalPlay, match=r"A failed throw cannot be taken back"):
        match.apply(TakeBack(0))
    after = run(match, Play(1, C("5S")))
    back = run(after, TakeBack(1))  # the follow after it can
    assert back == without_undo(match)
    assert back.hand is not None and back.hand.opponent_points == 20  # the penalty stays


def test_nothing_to_take_back_before_the_first_play() -> None:
    assert refusal(playing(HANDS, "2H", rules=ON), TakeBack(0)) == "takeback.not_last"
    assert refusal(Match.new(ON), TakeBack(0)) == "takeback.not_last"


def test_take_backs_are_actions_in_the_log_and_replay_exactly() -> None:
    assert TakeBack(2).to_dict() == {"v": 1, "type": "take_back", "seat": 2}
    assert action_from_dict({"v": 1, "type": "take_back", "seat": 2}) == TakeBack(2)
    with pytest.raises(ValueError):
        TakeBack(8)  # actions take seats 0–7 (F1)
    start = playing(HANDS, "2H", rules=ON)
    log = [Play(0, C("AS")), TakeBack(0), Play(0, C("KS")), Play(1, C("4S")), TakeBack(1),
           Play(1, C("5S"))]
    once = run(start, *log)
    twice = run(start, *(action_from_dict(a.to_dict()) for a in log))
    assert once == twice
    mid = run(start, *log[:4])  # an undo point in the state: it round-trips
    assert mid.hand is not None and mid.hand.undo is not None
    assert Match.from_dict(mid.to_dict()) == mid
    assert "undo" not in str(mid.public_view().to_dict())
    for seat in range(4):  # the remembered hand leaks nothing
        assert "undo" not in mid.view_for(seat).to_dict()
        assert mid.view_for(seat).hand == mid.hand.hands[seat]
