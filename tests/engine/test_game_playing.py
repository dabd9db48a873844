"""Burying (R6), playing (R7–R9), the last trick and settlement (R10), the match end (R11)."""

from __future__ import annotations

import pytest
from test_game_support import C, pass_to_end, playing

from engine.actions import Bury, Play, StartHand
from engine.cards import Rank
from engine.errors import IllegalPlay, NotYourTurn, WrongPhase
from engine.events import (
    Buried,
    CardsPlayed,
    HandSettled,
    HandStarted,
    KittyRevealed,
    MatchWon,
    StarterSet,
    ThrowFailed,
    TrickWon,
)
from engine.game import FailedThrow, Match, Phase
from engine.rules import KittyMultiplier, MatchEnd, MustDefend, RuleSet

TWO = Rank.TWO


def burying() -> Match:
    """A later hand (starter 2, nobody declared) at the burying step."""
    match = Match(levels=(Rank.FIVE, Rank.THREE), hand_no=1, starter=2)
    match, _ = match.apply(StartHand(11))
    match, _ = pass_to_end(match)
    assert match.phase is Phase.BURYING
    return match


# --- burying ------------------------------------------------------------------------------


def test_the_starter_buries_eight_of_33_cards():
    match = burying()
    hand = match.hand
    assert hand is not None
    pool = hand.hands[2] + hand.kitty
    chosen = pool[-8:]
    after, events = match.apply(Bury(2, chosen))
    assert events == (Buried(2),)  # which cards stays secret
    assert after.phase is Phase.PLAYING and after.hand is not None
    assert after.hand.kitty == chosen and len(after.hand.hands[2]) == 25
    assert after.hand.turn == 2
    assert after.view_for(2).kitty == chosen and after.view_for(0).kitty is None


def test_only_the_starter_buries():
    with pytest.raises(NotYourTurn, match=r"Only the starter .*\(R6\)"):
        burying().apply(Bury(0, C("2S") * 8))


def test_bury_exactly_eight_cards():
    match = burying()
    assert match.hand is not None
    with pytest.raises(IllegalPlay, match=r"exactly 8 .*\(R6\)"):
        match.apply(Bury(2, match.hand.kitty[:7]))


def test_bury_only_cards_you_hold():
    match = burying()
    hand = match.hand
    assert hand is not None
    pool = hand.hands[2] + hand.kitty
    absent = next(c for c in C("RJ BJ AS AH AD AC") if pool.count(c) < 2)
    with pytest.raises(IllegalPlay, match=r"don't hold .*\(R6\)"):
        match.apply(Bury(2, (*pool[:6], absent, absent)))


def test_play_while_burying_is_the_wrong_phase():
    match = burying()
    assert match.hand is not None
    with pytest.raises(WrongPhase, match=r"\(R7\)"):
        match.apply(Play(2, match.hand.hands[2][:1]))


def test_bury_while_playing_is_the_wrong_phase():
    with pytest.raises(WrongPhase, match=r"\(R6\)"):
        playing(["3H", "4H", "5H", "6H"], "2S").apply(Bury(0, C("3H")))


def test_start_hand_during_a_hand_is_the_wrong_phase():
    with pytest.raises(WrongPhase, match="still being played"):
        playing(["3H", "4H", "5H", "6H"], "2S").apply(StartHand(1))


# --- leading and following ----------------------------------------------------------------

HANDS = ["AH KH 3H 3S", "QH 4H 4C 5C", "5H 6D 7D 8D", "JH 9C 10C 6S"]


def test_not_your_turn():
    with pytest.raises(NotYourTurn, match=r"seat 0 plays next \(R7\)"):
        playing(HANDS, "2S").apply(Play(1, C("QH")))


def test_a_follow_out_of_turn_cites_r8():
    match, _ = playing(HANDS, "2S").apply(Play(0, C("AH")))
    with pytest.raises(NotYourTurn, match=r"seat 1 plays next \(R8\)"):
        match.apply(Play(2, C("5H")))


def test_lead_cards_you_do_not_hold():
    with pytest.raises(IllegalPlay, match=r"don't hold QH \(R7\)"):
        playing(HANDS, "2S").apply(Play(0, C("QH")))


def test_lead_of_two_suits_is_refused():
    with pytest.raises(IllegalPlay, match=r"one suit .*\(R7\)"):
        playing(HANDS, "2S").apply(Play(0, C("AH 3S")))


def test_an_empty_lead_is_refused():
    with pytest.raises(IllegalPlay, match=r"\(R7\)"):
        playing(HANDS, "2S").apply(Play(0, ()))


def test_follow_with_the_wrong_number_of_cards():
    match, _ = playing(HANDS, "2S").apply(Play(0, C("AH")))
    with pytest.raises(IllegalPlay, match=r"exactly 1 card.*\(R8\)"):
        match.apply(Play(1, C("QH 4H")))


def test_follow_must_follow_suit():
    match, _ = playing(HANDS, "2S").apply(Play(0, C("AH")))
    with pytest.raises(IllegalPlay, match=r"\(R8\)"):
        match.apply(Play(1, C("4C")))


def test_follow_must_play_a_pair_when_holding_one():
    match = playing(["3H 3H", "4H 4H 5H 6H", "7H 8H", "9H 10H"], "2S")
    match, _ = match.apply(Play(0, C("3H 3H")))
    with pytest.raises(IllegalPlay, match=r"pair \(R8\)"):
        match.apply(Play(1, C("5H 6H")))


def test_follow_cards_you_do_not_hold():
    match, _ = playing(HANDS, "2S").apply(Play(0, C("AH")))
    with pytest.raises(IllegalPlay, match=r"don't hold"):
        match.apply(Play(1, C("AH")))


def test_a_refused_action_leaves_the_match_unchanged():
    match = playing(HANDS, "2S")
    before = match.to_dict()
    with pytest.raises(IllegalPlay):
        match.apply(Play(0, C("AH 3S")))
    assert match.to_dict() == before


def test_a_trick_is_played_round_and_won():
    match = playing(HANDS, "2S")  # seat 0 starts: team A declares
    events_all = []
    for seat, cards in [(0, "KH"), (1, "QH"), (2, "5H"), (3, "JH")]:
        match, events = match.apply(Play(seat, C(cards)))
        events_all += events
    assert events_all == [CardsPlayed(0, C("KH")), CardsPlayed(1, C("QH")),
                          CardsPlayed(2, C("5H")), CardsPlayed(3, C("JH")),
                          TrickWon(0, 15, 1)]
    hand = match.hand
    assert hand is not None
    assert hand.turn == 0 and hand.trick is None and hand.tricks_played == 1
    assert hand.declarer_trick_points == 15 and hand.opponent_points == 0
    assert hand.last_trick is not None and hand.last_trick.winner == 0


def test_points_won_by_the_opponents_count_for_them():
    match = playing(HANDS, "2S", starter=1, turn=0)  # team B declares, seat 0 leads
    for seat, cards in [(0, "KH"), (1, "QH"), (2, "5H"), (3, "JH")]:
        match, _ = match.apply(Play(seat, C(cards)))
    assert match.hand is not None
    assert match.hand.opponent_points == 15 and match.hand.opponent_trick_points == 15


def test_the_public_view_tracks_the_trick_winner_so_far():
    match = playing(HANDS, "2S", turn=0)
    match, _ = match.apply(Play(0, C("KH")))
    match, _ = match.apply(Play(1, C("QH")))
    public = match.public_view()
    assert public.trick_winner == 0 and public.turn == 2
    assert public.trick is not None and public.trick.seats == (0, 1)


# --- throws -------------------------------------------------------------------------------

THROW_HANDS = ["AH KH 3S 4S", "AH 4H 4C 5C", "5H 6H 7D 8D", "JH 9H 10C 6S"]


@pytest.mark.parametrize("penalty", [0, 10])
def test_a_failed_throw_leads_the_smallest_beatable_unit(penalty):
    match = playing(THROW_HANDS, "2S", rules=RuleSet(throw_penalty=penalty))
    match, events = match.apply(Play(0, C("AH KH")))
    assert events == (ThrowFailed(0, C("AH KH"), C("KH"), penalty * 2), CardsPlayed(0, C("KH")))
    hand = match.hand
    assert hand is not None
    assert hand.hands[0] == C("AH 3S 4S")  # the rest goes back to the hand
    assert hand.trick is not None and hand.trick.plays == (C("KH"),)
    failed = FailedThrow(0, C("AH KH"), C("KH"), penalty * 2)
    assert hand.trick.failed_throw == failed and hand.failed_throws == (failed,)
    assert hand.opponent_points == penalty * 2  # a declarer failed: the opponents gain
    assert match.public_view().failed_throws == (failed,)
    match, _ = match.apply(Play(1, C("4H")))  # the follow owes one card now


@pytest.mark.parametrize(("before", "after"), [(15, 0), (50, 30)])
def test_an_opponent_failing_a_throw_lowers_their_points_not_below_zero(before, after):
    match = playing(THROW_HANDS, "2S", starter=1, turn=0, opponent_points=before,
                    rules=RuleSet(throw_penalty=10))
    match, events = match.apply(Play(0, C("AH KH")))
    assert events[0] == ThrowFailed(0, C("AH KH"), C("KH"), after - before)
    assert match.hand is not None and match.hand.opponent_points == after


def test_a_throw_that_stands_is_led_whole():
    match = playing(["AH AH KH 3S", "QH 4H 4C 5C", "5H 6H 7D 8D", "JH 9H 10C 6S"], "2S")
    match, events = match.apply(Play(0, C("AH AH KH")))
    assert events == (CardsPlayed(0, C("AH AH KH")),)


# --- the last trick, settlement, levels, the match end ------------------------------------

LAST = ["AH AH KH", "3S 3S 4S", "4D 6D 7D", "7C 8C 9C"]  # seat 1 ruffs the throw
KITTY = "5D 10D KD 3C 4C 6C 7C 8C"  # 25 points


def play_last_trick(match: Match) -> tuple[Match, list]:
    """Each seat in turn plays its whole (last) hand."""
    events: list = []
    for _ in range(4):
        hand = match.hand
        assert hand is not None and hand.turn is not None
        match, new = match.apply(Play(hand.turn, hand.hands[hand.turn]))
        events += new
    return match, events


@pytest.mark.parametrize(("variant", "multiplier", "total", "side", "gained"), [
    (KittyMultiplier.TWICE_CARDS, 6, 160, "opponents", 2),
    (KittyMultiplier.LARGEST_UNIT, 4, 110, "opponents", 0),
    (KittyMultiplier.FLAT_2, 2, 60, "declarers", 1),
])
def test_the_opponents_winning_the_last_trick_score_the_kitty(variant, multiplier, total,
                                                               side, gained):
    match = playing(LAST, "2S", kitty=KITTY, rules=RuleSet(kitty_multiplier=variant))
    match, events = play_last_trick(match)
    assert events[-3:-1] == [TrickWon(1, 10, 1), KittyRevealed(C(KITTY), 25, multiplier,
                                                                 25 * multiplier)]
    settled = events[-1]
    assert isinstance(settled, HandSettled)
    assert (settled.opponent_points, settled.side, settled.levels_gained) == (total, side,
                                                                                gained)
    assert settled.seed == 99 and settled.hand_no == 1


def test_the_declarers_winning_the_last_trick_keep_the_kitty_from_scoring():
    match = playing(["AH AH KH", "3D 4D 5D", "4D 6D 7D", "7C 8C 9C"], "2S", kitty=KITTY)
    match, events = play_last_trick(match)
    assert events[-2] == KittyRevealed(C(KITTY), 25, 6, 0)
    assert events[-1] == HandSettled(1, 0, "declarers", 3, (TWO,) * 4, (Rank.FIVE, TWO) * 2,
                                     2, 99)
    assert match.phase is Phase.BETWEEN_HANDS
    assert match.levels == (Rank.FIVE, TWO) * 2 and match.starter == 2  # the partner starts
    result = match.public_view().result
    assert result is not None and result.kitty == C(KITTY) and result.seed == 99


def test_after_the_opponents_take_over_the_next_seat_starts_at_its_level():
    match = playing(LAST, "2S", kitty=KITTY, levels=("2", "4"))
    match, events = play_last_trick(match)
    assert match.starter == 1 and match.levels == (TWO, Rank.SIX) * 2
    match, events = match.apply(StartHand(5))
    assert events[:2] == (HandStarted(2, 1, Rank.SIX), StarterSet(1))
    assert match.hand is not None and match.hand.level == Rank.SIX and match.hand_no == 2


def test_passing_ace_wins_the_match():
    match = playing(["AH AH QH", "3D 4D 5D", "4D 6D 7D", "7C 8C 9C"], "KS", kitty=KITTY,
                    levels=("K", "9"))
    match, events = play_last_trick(match)
    assert events[-1] == MatchWon(0)
    assert match.phase is Phase.MATCH_OVER and match.winner == 0
    assert match.public_view().match_winner == 0
    with pytest.raises(WrongPhase, match=r"over \(R11\)"):
        match.apply(StartHand(1))


def test_opponents_can_win_the_match_too():
    match = playing(LAST, "2S", kitty=KITTY, levels=("2", "A"))
    match, events = play_last_trick(match)
    # seat 1 (team B) is the first winner after the starter, seat 0 (F6, R11)
    assert events[-1] == MatchWon(1) and match.levels == (TWO, Rank.ACE) * 2


def test_loop_variant_wraps_and_plays_on():
    rules = RuleSet(match_end=MatchEnd.LOOP)
    match = playing(["AH AH QH", "3D 4D 5D", "4D 6D 7D", "7C 8C 9C"], "KS", kitty=KITTY,
                    levels=("K", "9"), rules=rules)
    match, events = play_last_trick(match)
    assert not any(isinstance(e, MatchWon) for e in events)
    assert match.phase is Phase.BETWEEN_HANDS and match.levels == (Rank.THREE, Rank.NINE) * 2


def test_must_defend_a_stops_the_jump_at_ace():
    rules = RuleSet(must_defend=MustDefend.A)
    match = playing(["AH AH QH", "3D 4D 5D", "4D 6D 7D", "7C 8C 9C"], "KS", kitty=KITTY,
                    levels=("K", "9"), rules=rules)
    match, _ = play_last_trick(match)
    assert match.levels == (Rank.ACE, Rank.NINE) * 2 and match.winner is None


def test_hand_summary_counts_add_up():
    match = playing(LAST, "2S", kitty=KITTY)
    match, _ = play_last_trick(match)
    hand = match.hand
    assert hand is not None and hand.result is not None
    assert hand.opponent_trick_points == 10 and hand.declarer_trick_points == 0
    assert hand.result.opponent_points == 10 + 25 * 6


def test_the_fast_state_copies_copy_every_field_like_replace():
    """`_after_play` and `_answered` spell out `dataclasses.replace` for speed: no field may
    be dropped or swapped (every field gets a distinct value, so a mix-up shows)."""
    from dataclasses import fields, replace
    from typing import Any

    from engine.game import HandState, _after_play, _answered

    values: dict[str, Any] = {f.name: object() for f in fields(HandState)}
    hand = HandState(**values)
    changed: dict[str, Any] = {
        name: object() for name in ("hands", "turn", "trick", "last_trick", "tricks_played",
                                    "played", "opponent_points", "opponent_trick_points",
                                    "declarer_trick_points", "failed_throws", "call_seats",
                                    "points_by_seat")}
    answers: dict[str, Any] = {"responded": object(), "declarations": object()}
    for copied, expected in [(_after_play(hand, **changed), replace(hand, **changed)),
                             (_answered(hand, **answers), replace(hand, **answers))]:
        assert all(getattr(copied, f.name) is getattr(expected, f.name)
                   for f in fields(HandState))
