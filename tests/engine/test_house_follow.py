"""House rule `follow` (R8, R12): `r8` (the default) or `suit_only` — R8.1's suit and count
obligations stay, R8.2's pair and tractor obligations go."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_game_support import C, playing
from tractor_dsl import T, cards, key, ref_legal_follows, ref_suit, sub_multisets

from engine import Follow, RuleSet, follow_error, random_legal_follow
from engine.actions import Play
from engine.errors import IllegalPlay
from engine.game import Match

SUIT_ONLY = Follow.SUIT_ONLY


def err(hand: str, lead: str, play: str, follow: Follow, trump: str = "2H") -> str | None:
    return follow_error(cards(hand), cards(lead), cards(play), T(trump), follow)


# (hand, lead, play): refused by R8 for its structure, legal under suit_only
STRUCTURE_ONLY = [
    ("9S 9S KS QS 3D", "5S 5S", "KS QS"),  # a pair led, a pair held
    ("9S 9S 10S 10S KS 4D", "5S 5S 6S 6S", "9S 9S 10S KS"),  # a tractor led, a tractor held
    ("9S 9S 10S 10S KS 4D", "5S 5S 6S 6S", "9S 10S KS 10S"),  # the tractor broken
    ("9S 9S KS QS JS 3D", "AS AS 7S", "KS QS JS"),  # a throw's pair
    ("3H 3H 4H 5H 9S", "2S 2S", "4H 5H"),  # trumps: 2♠ 2♠ led, a 3♥ pair held
    ("3H 3H 4H 4H 5H 9S", "2S 2S 2C 2C", "3H 3H 5H 4H"),  # two trump pairs owed, not given
]


@pytest.mark.parametrize(("hand", "lead", "play"), STRUCTURE_ONLY)
def test_suit_only_drops_the_pair_and_tractor_obligations(hand: str, lead: str,
                                                          play: str) -> None:
    assert err(hand, lead, play, Follow.R8) is not None  # R8: the structure is owed
    assert err(hand, lead, play, SUIT_ONLY) is None


def test_the_default_is_r8() -> None:
    assert RuleSet().follow is Follow.R8
    assert err("9S 9S KS QS 3D", "5S 5S", "KS QS", Follow.R8) == \
        "You hold a ♠ pair, so you must play a pair (R8)"


@pytest.mark.parametrize(("hand", "lead", "play", "why"), [
    ("9S 9S KS 3D", "5S 5S", "KS 3D", "You still hold ♠ cards, so every card you play must be ♠"
                                      " (R8)"),
    ("KS 3D 4D", "5S 5S", "3D 4D", "You must play your ♠ card before any other (R8)"),
    ("9S 9S KS", "5S 5S", "KS", "Play exactly 2 cards, as many as were led (R8)"),
    ("9S KS 3D", "5S 5S", "AS AS", "You don't hold A♠ A♠ (R8)"),
])
def test_suit_only_keeps_the_suit_and_count_obligations(hand: str, lead: str, play: str,
                                                        why: str) -> None:
    assert err(hand, lead, play, SUIT_ONLY) == why
    assert err(hand, lead, play, Follow.R8) == why


def test_the_game_applies_the_tables_follow_rule() -> None:
    hands = ["5S 5S 3C", "9S 9S KS QS 3D", "4C 5C 6C", "7C 8C 9C"]
    for follow, allowed in ((Follow.R8, False), (SUIT_ONLY, True)):
        match = playing(hands, "2H", rules=RuleSet(follow=follow))
        match, _ = match.apply(Play(0, C("5S 5S")))
        if allowed:
            after, _ = match.apply(Play(1, C("KS QS")))
            assert after.hand is not None and after.hand.trick is not None
            # two loose cards never beat a pair (R9): the lead still wins
            assert after.hand.trick.winning_seat(after.hand.trump) == 0  # type: ignore[arg-type]
        else:
            with pytest.raises(IllegalPlay, match=r"must play a pair \(R8\)"):
                match.apply(Play(1, C("KS QS")))


def test_a_view_and_a_saved_match_carry_the_rule() -> None:
    match = playing(["5S", "6S", "7S", "8S"], "2H", rules=RuleSet(follow=SUIT_ONLY))
    assert match.public_view().rules.follow is SUIT_ONLY
    assert Match.from_dict(match.to_dict()).rules.follow is SUIT_ONLY


def ref_suit_only_follows(hand: list, lead: list, trump) -> set[tuple[str, ...]]:
    """Every legal follow under suit_only, straight from R8.1 by brute force."""
    n = len(lead)
    suit = ref_suit(lead[0], trump)
    held = [c for c in hand if ref_suit(c, trump) == suit]
    out = set()
    for play in sub_multisets(hand, n):
        in_suit = [c for c in play if ref_suit(c, trump) == suit]
        if len(in_suit) == min(n, len(held)):
            out.add(key(play))
    return out


HAND_CARDS = cards("3S 3S 4S 4S 5S 6S 6S 9S KS AS 3H 4H 2H 2D")


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_suit_only_is_r8_1_exactly_and_contains_every_r8_follow(data: st.DataObject) -> None:
    trump = T("2H")
    hand = data.draw(st.lists(st.sampled_from(HAND_CARDS), min_size=3, max_size=8)
                     .filter(lambda cs: all(cs.count(c) <= 2 for c in cs)))
    lead = data.draw(st.sampled_from([cards(x) for x in (
        "7S 7S", "7S 7S 8S 8S", "QS QS 10S", "JS 7S", "5H 5H", "AD AD KD")]))
    if len(hand) < len(lead):
        return
    expected = ref_suit_only_follows(hand, lead, trump)
    got = {key(play) for play in sub_multisets(hand, len(lead))
           if follow_error(hand, lead, play, trump, SUIT_ONLY) is None}
    assert got == expected
    assert ref_legal_follows(hand, lead, trump) <= got  # R8 legal ⇒ suit_only legal
    rng = random.Random(len(hand))
    for _ in range(5):
        play = random_legal_follow(hand, lead, trump, rng, SUIT_ONLY)
        assert follow_error(hand, lead, play, trump, SUIT_ONLY) is None
