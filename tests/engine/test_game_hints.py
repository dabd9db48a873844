"""Hints: quick plays are always legal and sensible; bury suggestions; declarations."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from test_game_support import C, pass_to_end, playing, selfplay_steps, started

from engine.actions import Bury, Play, StartHand
from engine.game import Match, Phase
from engine.hints import legal_declarations, quick_plays, suggest_bury
from engine.trump import Trump


def test_quick_plays_are_legal_over_self_play():
    checked = 0
    for before, _, _, _ in selfplay_steps(60, 12):
        public = before.public_view()
        if public.phase is Phase.PLAYING:
            assert public.turn is not None
            view = before.view_for(public.turn)
            plays = quick_plays(view)
            assert 1 <= len(plays) <= 8
            assert len({tuple(sorted(c.code for c in p)) for p in plays}) == len(plays)
            for play in plays:
                before.apply(Play(view.seat, play))  # raises if illegal
                checked += 1
            other = before.view_for((public.turn + 1) % 4)
            assert quick_plays(other) == []
        elif public.phase is Phase.BURYING:
            assert public.turn is not None
            view = before.view_for(public.turn)
            before.apply(Bury(view.seat, suggest_bury(view)))
    assert checked > 5000


def test_quick_plays_respect_the_limit():
    for before, _, _, _ in selfplay_steps(3, 2):
        public = before.public_view()
        if public.phase is Phase.PLAYING and public.trick is None:
            assert public.turn is not None
            assert len(quick_plays(before.view_for(public.turn), limit=2)) <= 2


def test_leading_offers_a_throw_that_must_stand_and_side_aces():
    match = playing(["AH AH KH 3C 3S", "QH 4H 4C 5C 4S", "5H 6D 7D 8D 5S", "JH 9C 10C 6S 7S"],
                    "2S")
    plays = quick_plays(match.view_for(0))
    assert plays[0] == C("AH AH KH")  # nobody can beat any unit: the throw stands
    match, events = match.apply(Play(0, plays[0]))
    assert len(events) == 1  # no ThrowFailed


def test_leading_without_sure_winners_starts_low_in_a_short_side_suit():
    match = playing(["QH 3C 4C 5C 3S 9D 8D 7D", "AH 4H 6C 7C 4S 2D 3D 4D",
                     "5H 6D JD QD 5S 6H 7H 8H", "JH 9C 10C 6S 7S 9H 10H KH"], "2S")
    plays = quick_plays(match.view_for(0))
    assert plays[0] != C("3S")  # not a low trump first
    assert len(plays[0]) == 1 and not Trump.parse("2S").is_trump(plays[0][0])


def test_following_the_forced_cards_come_first():
    match = playing(["AH AH", "KH 3C 4C 5C", "5H 6D", "JH 9C"], "2S")
    match, _ = match.apply(Play(0, C("AH AH")))
    plays = quick_plays(match.view_for(1))
    assert all(play[0] == C("KH")[0] for play in plays)  # the one heart is owed


def test_following_prefers_the_cheapest_winning_play():
    match = playing(["9H", "KH QH 10H 3H", "5H", "JH"], "2S", starter=1, turn=0)
    match, _ = match.apply(Play(0, C("9H")))
    plays = quick_plays(match.view_for(1))
    assert plays[0] == C("QH")  # wins without risking the 10 or the K (not last to play)
    assert C("3H") in plays


def test_following_with_the_partner_ahead_and_others_to_come_plays_low():
    match = playing(["AH", "3H", "KH 5H 6H", "4H"], "2S", starter=1, turn=0)
    for seat, card in [(0, "AH"), (1, "3H")]:
        match, _ = match.apply(Play(seat, C(card)))
    assert quick_plays(match.view_for(2))[0] == C("6H")


def test_following_last_with_the_partner_ahead_adds_points():
    match = playing(["3H", "AH", "4H", "KH 5H 6H"], "2S", starter=1, turn=0)
    for seat, card in [(0, "3H"), (1, "AH"), (2, "4H")]:
        match, _ = match.apply(Play(seat, C(card)))
    plays = quick_plays(match.view_for(3))
    assert plays[0] == C("KH")


def test_suggest_bury_keeps_trumps_and_points_and_voids_a_short_suit():
    match, _ = Match(starter=0).apply(StartHand(8))
    match, _ = pass_to_end(match)
    hand = match.hand
    assert hand is not None and hand.trump is not None
    trump = hand.trump
    hands = list(hand.hands)
    # 33 cards: lots of trumps, a short club suit, spare low hearts and diamonds
    hands[0] = C("RJ BJ 2S 2H 2D AS KS QS JS 10S 9S 8S AH KH QH 10H 9H 7H 6H AD KD QD JD 9D 8D")
    kitty = C("3C 4C 6C 3H 4H 3D 4D 5H")
    match = replace(match, hand=replace(hand, hands=tuple(hands), kitty=kitty,
                                        trump=Trump(trump.level, trump.suit)))
    view = match.view_for(0)
    chosen = suggest_bury(view)
    assert len(chosen) == 8
    assert not Counter(chosen) - Counter(view.hand + kitty)
    assert not any(match.hand.trump.is_trump(c) for c in chosen)  # type: ignore[union-attr]
    assert sum(c.points for c in chosen) == 0
    assert {c for c in C("3C 4C 6C")} <= set(chosen)  # clubs voided
    match.apply(Bury(0, chosen))


def test_legal_declarations_helper_reads_the_view():
    match = started(3)
    hand = match.hand
    assert hand is not None
    hands = list(hand.hands)
    hands[2] = C("2D 5S 6S 7S 8S")
    match = replace(match, hand=replace(hand, hands=tuple(hands)))
    assert legal_declarations(match.view_for(2)) == (C("2D"),)
