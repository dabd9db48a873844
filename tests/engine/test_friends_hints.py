"""Hints with three or four decks (F2): the lead suggestions offer triples, quadruples and
tractors of tuples, every suggestion is a lead, a suggested throw stands, and in Finding
Friends games every quick play and suggested bury is accepted."""

from __future__ import annotations

from collections import Counter

import pytest
from friends_dsl import deal, pack
from friends_support import friends_rules, friends_steps
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import T, cards

from engine import check_throw, lead_error
from engine.actions import Bury, Play
from engine.game import Phase
from engine.hints import lead_options, quick_plays, suggest_bury
from engine.units import decompose
from engine.views import player_view

H2 = T("2H")


def unseen_for(hand: list, decks: int) -> list:
    left = Counter(pack(decks))
    left.subtract(Counter(hand))
    return list(left.elements())


def test_f2_hints_lead_tuples_and_their_tractors() -> None:
    hand = cards("5S 5S 5S 6S 6S 6S 9D 9D 9D 9D 3C 4C KC KC KC")
    options = [" ".join(map(str, o)) for o in lead_options(hand, unseen_for(hand, 4), H2)]
    assert "6S 6S 6S 5S 5S 5S" in options
    assert "9D 9D 9D 9D" in options
    assert "KC KC KC" in options
    kinds = [decompose(list(o), H2)[0].kind.value for o in lead_options(
        hand, unseen_for(hand, 4), H2)[:3]]
    assert kinds[0] == "tractor"


def test_f2_hints_offer_a_throw_only_when_it_stands() -> None:
    hand = cards("AS AS AS KS KS KS 3D")  # nobody can beat either unit with three decks
    options = lead_options(hand, unseen_for(hand, 3), H2)
    assert [str(c) for c in options[0]] == ["AS", "AS", "AS", "KS", "KS", "KS"]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([3, 4]))
def test_f2_property_hint_leads_are_leads_and_throws_stand(seed: int, decks: int) -> None:
    trump, hands = deal(seed, decks, 4, 26, narrow=True)
    hand = hands[0]
    unseen = unseen_for(hand, decks)
    for option in lead_options(hand, unseen, trump):
        assert lead_error(option, trump) is None
        assert not Counter(option) - Counter(hand)
        if len(decompose(list(option), trump)) > 1:
            assert check_throw(option, hands[1:], trump) is None


@pytest.mark.parametrize("players", [5, 6, 8])
def test_f2_hints_in_finding_friends_games_are_legal(players: int) -> None:
    """In random Finding Friends hands, every quick play offered to the seat to move is
    accepted by the game, and the suggested bury is a legal bury of the kitty's size."""
    checked = 0
    for before, action, _, _ in friends_steps(2, players, friends_rules(players)):
        hand = before.hand
        if hand is None:
            continue
        if hand.phase is Phase.BURYING and isinstance(action, Bury):
            view = player_view(before, action.seat)
            before.apply(Bury(action.seat, suggest_bury(view)))
        if hand.phase is Phase.PLAYING and isinstance(action, Play) and checked < 400:
            view = player_view(before, action.seat)
            for option in quick_plays(view, limit=4):
                before.apply(Play(action.seat, option))
                checked += 1
    assert checked > 50
