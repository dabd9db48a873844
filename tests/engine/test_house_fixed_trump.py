"""House rule `fixed_trump` (R5, R12): a trump suit (♠ ♥ ♦ ♣) or no trump for the whole
match; nobody declares. `none` (the default) declares as R5.

The deal is R5's (the same cards to the same seats from the same seed), all five batches
at once with no declaration windows. The level rank is still the declarers' level (R2);
the first hand's starter is seat 0 (the table's creator), later starters follow R10.
"""

from __future__ import annotations

from collections import Counter

import pytest
from test_game_support import pass_to_end

from engine import FixedTrump, RuleSet, Trump
from engine.actions import Bury, CloseWindow, Declare, Pass, StartHand
from engine.cards import Rank
from engine.errors import WrongPhase
from engine.events import (
    CardsDealt,
    HandStarted,
    KittyTaken,
    StarterSet,
    TrumpHow,
    TrumpSet,
)
from engine.game import Match, Phase

SPADES = RuleSet(fixed_trump=FixedTrump.SPADES)


def test_the_default_declares() -> None:
    assert RuleSet().fixed_trump is FixedTrump.NONE
    match, _ = Match.new().apply(StartHand(5))
    assert match.phase is Phase.DECLARING


def test_the_first_hand_goes_straight_to_the_kitty_with_seat_0_starting() -> None:
    match, events = Match.new(SPADES).apply(StartHand(5))
    two = Rank.TWO
    assert events == (HandStarted(1, 0, two), StarterSet(0),
                      *(CardsDealt(batch, 0) for batch in range(1, 6)),
                      TrumpSet(Trump.parse("2S"), None, TrumpHow.FIXED),
                      KittyTaken(0))
    hand = match.hand
    assert hand is not None and hand.trump is not None
    assert match.phase is Phase.BURYING and hand.turn == 0 and match.starter == 0
    assert [len(cards) for cards in hand.hands] == [25] * 4 and len(hand.kitty) == 8
    assert all(list(cards) == hand.trump.sort(cards) for cards in hand.hands)
    public = match.public_view()
    assert public.trump_how is TrumpHow.FIXED and public.declarations == ()
    assert all(match.view_for(seat).legal_declarations == () for seat in range(4))


def test_the_deal_is_the_same_as_with_declaring() -> None:
    fixed, _ = Match(rules=SPADES, starter=2, hand_no=3).apply(StartHand(77))
    declared, _ = Match(starter=2, hand_no=3).apply(StartHand(77))
    declared, _ = pass_to_end(declared)
    assert fixed.hand is not None and declared.hand is not None
    assert [Counter(c) for c in fixed.hand.hands] == [Counter(c) for c in declared.hand.hands]
    assert fixed.hand.kitty == declared.hand.kitty


@pytest.mark.parametrize(("fixed", "suit"), [("S", "S"), ("H", "H"), ("D", "D"), ("C", "C"),
                                             ("NT", None)])
def test_later_hands_keep_the_suit_and_play_the_declarers_level(fixed: str,
                                                                suit: str | None) -> None:
    """Team B (seats 1, 3) at 5 declares from seat 3 (R10): the level rank is 5."""
    rules = RuleSet(fixed_trump=fixed)  # type: ignore[arg-type]  # values accepted
    match = Match(rules=rules, levels=(Rank.KING, Rank.FIVE), hand_no=4, starter=3)
    match, events = match.apply(StartHand(9))
    assert match.hand is not None and match.hand.trump is not None
    assert match.hand.trump == Trump.parse(f"5{suit or 'NT'}")
    assert match.hand.level is Rank.FIVE and match.hand.starter == 3 and match.hand.turn == 3
    assert HandStarted(5, 3, Rank.FIVE) in events


@pytest.mark.parametrize("action", [Pass(1), Declare(0, ()), CloseWindow()])
def test_nobody_declares(action: Pass | Declare | CloseWindow) -> None:
    match, _ = Match.new(SPADES).apply(StartHand(5))
    with pytest.raises(WrongPhase) as refused:
        match.apply(action)
    assert refused.value.ruling.key == "declare.fixed_trump"
    assert str(refused.value) == ("This table plays with a fixed trump for the whole match: "
                                  "nobody declares (R12)")


def test_a_fixed_trump_hand_buries_plays_and_round_trips() -> None:
    match, _ = Match.new(RuleSet(fixed_trump=FixedTrump.NO_TRUMP)).apply(StartHand(5))
    assert Match.from_dict(match.to_dict()) == match
    view = match.view_for(0)
    assert view.kitty is not None
    match, _ = match.apply(Bury(0, view.kitty))
    assert match.phase is Phase.PLAYING and match.hand is not None
    assert match.hand.trump == Trump(Rank.TWO, None)


def test_unknown_trumps_are_refused() -> None:
    for bad in ("spades", "X", "nt", ""):
        with pytest.raises(ValueError):
            RuleSet(fixed_trump=bad)  # type: ignore[arg-type]
