"""Dealing and declaring (R5): windows, the first hand's starter, redeals, later hands, no bid."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_game_support import C, answer_rest, pass_to_end, started

from engine.actions import CloseWindow, Declare, Pass, StartHand
from engine.cards import Rank, Suit
from engine.errors import IllegalPlay, NotYourTurn
from engine.events import (
    CardsDealt,
    Declared,
    HandStarted,
    KittyTaken,
    NoBidTrump,
    Passed,
    Redealt,
    StarterSet,
    TrumpHow,
    TrumpSet,
    WindowClosed,
)
from engine.game import Match, Phase, no_bid_trump
from engine.rules import NoBid, RuleSet
from engine.trump import Trump


def first_declarable(match: Match) -> tuple[int | None, tuple]:
    """(seat, single level card) for the first seat holding a level card now."""
    hand = match.hand
    assert hand is not None
    for seat in range(4):
        for card in hand.hands[seat]:
            if card.rank == hand.level:
                return seat, (card,)
    return None, ()


def seed_where(predicate, seeds=range(500)) -> int:
    for seed in seeds:
        if predicate(started(seed)):
            return seed
    raise LookupError("no seed found")


def test_a_new_match_waits_for_its_first_hand():
    match = Match.new()
    assert match.phase is Phase.BETWEEN_HANDS
    assert match.levels == (Rank.TWO,) * 4  # one per seat
    assert match.starter is None and match.hand is None and match.hand_no == 0


def test_start_hand_deals_the_first_batch_of_five():
    match, events = Match.new().apply(StartHand(7))
    assert events == (HandStarted(1, None, Rank.TWO), CardsDealt(1, 0))
    hand = match.hand
    assert hand is not None and match.phase is Phase.DECLARING
    assert [len(cards) for cards in hand.hands] == [5, 5, 5, 5]
    assert len(hand.stock) == 80 and len(hand.kitty) == 8 and hand.batch == 1


def test_the_same_seed_deals_the_same_cards_and_another_seed_does_not():
    assert started(7).hand == started(7).hand
    assert started(7).hand != started(8).hand


def test_a_window_closes_when_all_four_answered_and_the_next_batch_is_dealt():
    match = started(3)
    for seat in (2, 0, 3):
        match, events = match.apply(Pass(seat))
        assert events == (Passed(seat),)
    match, events = match.apply(Pass(1))
    assert events == (Passed(1), WindowClosed(1, False, False), CardsDealt(2, 0))
    assert match.hand is not None
    assert [len(cards) for cards in match.hand.hands] == [10] * 4
    assert match.hand.responded == ()


def test_close_window_ends_a_window_on_timeout():
    match, events = started(3).apply(Pass(0))
    match, events = match.apply(CloseWindow())
    assert events == (WindowClosed(1, False, True), CardsDealt(2, 0))


def test_a_declaration_counts_as_an_answer():
    seed = seed_where(lambda m: first_declarable(m)[0] == 1)
    match = started(seed)
    seat, cards = first_declarable(match)
    for other in (0, 2, 3):
        match, _ = match.apply(Pass(other))
    match, events = match.apply(Declare(seat, cards))
    assert events[:2] == (Declared(seat, cards), WindowClosed(1, False, False))


def test_passing_twice_in_one_window_is_refused():
    match, _ = started(3).apply(Pass(0))
    with pytest.raises(NotYourTurn, match="already answered"):
        match.apply(Pass(0))


def test_a_seat_that_passed_may_still_declare_in_the_open_window():
    seed = seed_where(lambda m: first_declarable(m)[0] == 0)
    match, _ = started(seed).apply(Pass(0))
    match, events = match.apply(Declare(0, first_declarable(match)[1]))
    assert events == (Declared(0, first_declarable(match)[1]),)


def test_declaring_cards_you_do_not_hold_is_refused():
    match = started(3)
    hand = match.hand
    assert hand is not None
    absent = next(c for c in (C("2S") + C("2H") + C("2D") + C("2C"))
                  if c not in hand.hands[0])
    with pytest.raises(IllegalPlay, match=r"don't hold .*\(R5\)"):
        match.apply(Declare(0, (absent,)))


def test_a_declaration_the_rules_refuse_cites_r5():
    seed = seed_where(lambda m: first_declarable(m)[0] is not None)
    match = started(seed)
    seat, cards = first_declarable(match)
    match, _ = match.apply(Declare(seat, cards))
    with pytest.raises(IllegalPlay, match=r"\(R5\)"):
        match.apply(Declare(seat, cards))  # overturning yourself


def test_a_non_level_card_is_no_declaration():
    match = started(3)
    hand = match.hand
    assert hand is not None
    card = next(c for c in hand.hands[0] if c.rank != Rank.TWO and not c.rank.is_joker)
    with pytest.raises(IllegalPlay, match=r"\(R5\)"):
        match.apply(Declare(0, (card,)))


def test_first_hand_the_standing_declaration_makes_the_starter():
    seed = seed_where(lambda m: first_declarable(m)[0] == 3)
    match = started(seed)
    seat, cards = first_declarable(match)
    match, _ = match.apply(Declare(seat, cards))
    match, events = pass_to_end(match)
    assert match.phase is Phase.BURYING
    trump = Trump(Rank.TWO, cards[0].suit)
    assert events[-4:] == [WindowClosed(5, True, False), StarterSet(3),
                           TrumpSet(trump, 3, TrumpHow.DECLARED), KittyTaken(3)]
    assert match.starter == 3 and match.hand is not None
    assert match.hand.starter == 3 and match.variant.team_of(3) == 1
    assert match.hand.turn == 3 and match.hand.trump == trump
    assert match.public_view().cards_left == (25, 25, 25, 33)


def test_first_hand_overturned_declaration_moves_the_starter():
    match = started(3)
    hand = match.hand
    assert hand is not None
    hands = list(hand.hands)
    hands[0] = C("2S 3S 4S 5S 6S")
    hands[2] = C("RJ RJ 3H 4H 5H")
    match = replace(match, hand=replace(hand, hands=tuple(hands)))
    match, _ = match.apply(Declare(0, C("2S")))
    match, _ = match.apply(Declare(2, C("RJ RJ")))
    match, events = pass_to_end(match)
    assert StarterSet(2) in events and match.starter == 2
    assert match.hand is not None and match.hand.trump == Trump(Rank.TWO, None)


def test_first_hand_without_a_declaration_is_dealt_again():
    match = started(5)
    first = match.hand
    match, events = pass_to_end(match)
    assert events[-3:] == [WindowClosed(5, True, False), Redealt(1), CardsDealt(1, 1)]
    assert match.phase is Phase.DECLARING and match.hand is not None
    assert match.hand.deal_no == 1 and match.hand.number == 1 and match.hand.batch == 1
    assert first is not None and match.hand.hands != first.hands[:1]
    assert match.hand.declarations == ()
    again, _ = pass_to_end(started(5))
    assert again.hand == match.hand  # the redeal is deterministic too


def later_hand(starter: int = 2, levels=(Rank.FIVE, Rank.THREE), rules=None, seed=11) -> Match:
    match = Match(rules=rules or RuleSet(), levels=levels, hand_no=3, starter=starter)
    after, events = match.apply(StartHand(seed))
    assert events == (HandStarted(4, starter, levels[starter % 2]), StarterSet(starter),
                      CardsDealt(1, 0))
    return after


def test_later_hands_play_the_declarers_level_and_declaring_only_sets_trump():
    match = later_hand(starter=1)  # team B at 3
    assert match.hand is not None and match.hand.level == Rank.THREE
    hand = match.hand
    hands = list(hand.hands)
    hands[0] = C("3H 4S 5S 6S 7S")
    match = replace(match, hand=replace(hand, hands=tuple(hands)))
    match, _ = match.apply(Declare(0, C("3H")))
    match, events = pass_to_end(match)
    assert StarterSet(0) not in events
    assert TrumpSet(Trump(Rank.THREE, Suit.HEARTS), 0, TrumpHow.DECLARED) in events
    assert match.starter == 1 and match.hand is not None and match.hand.starter == 1
    assert match.hand.turn == 1 and match.phase is Phase.BURYING


def with_kitty(match: Match, kitty: str) -> Match:
    """Swap the kitty for `kitty`, moving the displaced cards into the stock (same census)."""
    hand = match.hand
    assert hand is not None
    wanted = list(C(kitty))
    pool = list(hand.stock) + list(hand.kitty)
    for card in wanted:
        pool.remove(card)
    return replace(match, hand=replace(hand, stock=tuple(pool[:80]), kitty=tuple(wanted)))


def test_no_bid_kitty_top_card_names_trump():
    match = with_kitty(later_hand(), "9D 2S KC 5H 6H 7H 8H JH")
    match, events = pass_to_end(match)
    trump = Trump(Rank.FIVE, Suit.DIAMONDS)
    assert events[-3:] == [NoBidTrump(C("9D"), trump),
                           TrumpSet(trump, None, TrumpHow.KITTY_TOP_CARD), KittyTaken(2)]
    assert match.public_view().revealed == C("9D")


def test_no_bid_kitty_top_joker_means_no_trump():
    match = with_kitty(later_hand(), "BJ 2S KC 5H 6H 7H 8H JH")
    match, events = pass_to_end(match)
    assert NoBidTrump(C("BJ"), Trump(Rank.FIVE, None)) in events


def test_no_bid_reveal_until_level_turns_cards_to_the_first_level_card():
    rules = RuleSet(no_bid=NoBid.REVEAL_UNTIL_LEVEL)
    match = with_kitty(later_hand(rules=rules), "9D RJ KC 5H 6H 5S 8H JH")
    match, events = pass_to_end(match)
    trump = Trump(Rank.FIVE, Suit.HEARTS)
    assert events[-3:] == [NoBidTrump(C("9D RJ KC 5H"), trump),
                           TrumpSet(trump, None, TrumpHow.REVEAL_UNTIL_LEVEL), KittyTaken(2)]


def test_no_bid_reveal_until_level_without_one_takes_the_highest_card():
    revealed, trump = no_bid_trump(C("9D RJ KC 3H AH 4S AS JH"), Rank.FIVE,
                                   NoBid.REVEAL_UNTIL_LEVEL)
    assert revealed == C("9D RJ KC 3H AH 4S AS JH")
    assert trump == Trump(Rank.FIVE, Suit.HEARTS)  # AH is the first of the equal aces


def test_no_bid_reveal_until_level_passes_jokers_over_and_jokers_only_name_no_trump():
    """docs/rules.md#r12 `no_bid`: jokers have no suit; a kitty of jokers only (three or four
    decks) names no trump, as a joker on top does under `kitty_top_card`."""
    rule = NoBid.REVEAL_UNTIL_LEVEL
    assert no_bid_trump(C("RJ BJ 3H 9S 9D 4C"), Rank.FIVE, rule)[1] == Trump(Rank.FIVE,
                                                                              Suit.SPADES)
    revealed, trump = no_bid_trump(C("BJ RJ BJ RJ RJ BJ"), Rank.FIVE, rule)
    assert revealed == C("BJ RJ BJ RJ RJ BJ") and trump == Trump(Rank.FIVE, None)


def test_declare_after_the_deal_is_the_wrong_phase():
    from engine.errors import WrongPhase

    match, _ = pass_to_end(later_hand())
    with pytest.raises(WrongPhase, match=r"\(R5\)"):
        match.apply(Declare(0, C("5S")))
    with pytest.raises(WrongPhase):
        match.apply(Pass(0))
    with pytest.raises(WrongPhase):
        match.apply(CloseWindow())


def test_answer_rest_helper_closes_the_window():
    match, events = answer_rest(started(3))
    assert isinstance(events[-1], CardsDealt)
    assert match.hand is not None and match.hand.batch == 2
