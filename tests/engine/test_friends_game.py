"""Finding Friends game flow: the deal of every table (F1), calling friends and reveals (F4),
and the seats a match does not have."""

from __future__ import annotations

import pytest
from friends_support import C, F, calling, friends_rules, pack, playing, run
from test_game_support import card_census

from engine.actions import Bury, CallFriends, CloseWindow, Declare, Pass, Play, StartHand, TakeBack
from engine.deal import deal_shape
from engine.errors import IllegalPlay, NotYourTurn, WrongPhase
from engine.events import CardsDealt, FriendRevealed, FriendsCalled, ThrowFailed, TrickWon
from engine.game import Match, Phase
from engine.rules import FixedTrump, RuleSet

# ---------------------------------------------------------------- F1: the deal


@pytest.mark.parametrize(("players", "decks"), [(p, d) for p in range(4, 9) for d in (2, 3, 4)])
def test_f1_every_table_deals_its_shape_in_five_batches(players: int, decks: int) -> None:
    rules = friends_rules(players, decks)
    shape = deal_shape(rules)
    match, _ = Match.new(rules).apply(StartHand(7))
    assert match.seats == players and match.shape == shape
    assert len(match.levels) == players
    sizes = [len(match.hand.hands[0])]  # type: ignore[union-attr]
    while match.phase is Phase.DECLARING and match.hand.batch < 5:  # type: ignore[union-attr]
        match, _ = match.apply(CloseWindow())
        sizes.append(len(match.hand.hands[0]))  # type: ignore[union-attr]
    assert sizes == [sum(shape.batches[:i + 1]) for i in range(5)]
    hand = match.hand
    assert hand is not None
    assert all(len(cards) == shape.hand_size for cards in hand.hands)
    assert len(hand.kitty) == shape.kitty_size and not hand.stock
    assert card_census(match) == pack(decks)  # every card exactly D times


def test_f1_a_fixed_trump_deals_the_whole_shape_at_once() -> None:
    rules = friends_rules(7, fixed_trump=FixedTrump.HEARTS)
    match, events = Match.new(rules).apply(StartHand(3))
    assert [e.batch for e in events if isinstance(e, CardsDealt)] == [1, 2, 3, 4, 5]
    assert match.phase is Phase.BURYING and match.hand is not None
    assert match.hand.cards_left(0) == 22 + 8
    kept = match.hand.hands[0][:14] + match.hand.kitty  # bury 8 of the 30
    match, _ = match.apply(Bury(0, match.hand.hands[0][14:]))
    assert match.phase is Phase.CALLING and match.hand.turn == 0  # type: ignore[union-attr]
    assert sorted(map(str, match.hand.hands[0])) == sorted(map(str, kept))  # type: ignore


def test_f1_burying_takes_the_tables_kitty_size() -> None:
    rules = friends_rules(6, fixed_trump=FixedTrump.SPADES)
    match, _ = Match.new(rules).apply(StartHand(3))
    hand = match.hand
    assert hand is not None
    with pytest.raises(IllegalPlay) as refused:
        match.apply(Bury(0, hand.hands[0][:8]))
    assert refused.value.reason.key == "bury.count"
    match, _ = match.apply(Bury(0, hand.hands[0][:6]))
    assert match.phase is Phase.CALLING


# ---------------------------------------------------------------- seats a match lacks


def test_actions_take_seats_0_to_7_and_the_game_refuses_seats_it_lacks() -> None:
    with pytest.raises(ValueError):
        Pass(8)
    match, _ = Match.new().apply(StartHand(1))
    for action in (Pass(4), Declare(5, C("2H"))):
        with pytest.raises(NotYourTurn) as refused:
            match.apply(action)
        assert refused.value.reason.key == "seat.absent"
    six, _ = Match.new(friends_rules(6)).apply(StartHand(1))
    six, _ = six.apply(Pass(5))  # seat 5 exists at six seats
    with pytest.raises(NotYourTurn):
        six.apply(Pass(6))


# ---------------------------------------------------------------- F4: calling


FIVE = ["3D KH", "4D 3H", "AD AH", "5D 4H", "10D 6H"]


def test_f4_the_starter_calls_after_burying_then_leads() -> None:
    match = calling(FIVE, "2S")
    assert match.phase is Phase.CALLING and match.hand.turn == 0  # type: ignore[union-attr]
    with pytest.raises(WrongPhase):
        match.apply(Play(0, C("3D")))
    match, events = match.apply(CallFriends(0, (F("AH", 1),)))
    assert events == (FriendsCalled(0, (F("AH", 1),)),)
    assert match.phase is Phase.PLAYING and match.hand.turn == 0  # type: ignore[union-attr]
    assert match.hand.call_seats == (None,)  # type: ignore[union-attr]


@pytest.mark.parametrize(("seat", "calls", "error", "key"), [
    (1, [F("AH", 1)], NotYourTurn, "call.not_starter"),
    (0, [], IllegalPlay, "call.count"),
    (0, [F("AH", 1), F("KH", 1)], IllegalPlay, "call.count"),
    (0, [F("AS", 1)], IllegalPlay, "call.trump"),  # the trump suit
    (0, [F("2H", 1)], IllegalPlay, "call.trump"),  # a level card
    (0, [F("RJ", 1)], IllegalPlay, "call.trump"),  # a joker
    (0, [F("AH", 3)], IllegalPlay, "call.copy"),  # two decks: copies 1 and 2
])
def test_f4_illegal_calls_are_refused(seat: int, calls: list, error: type, key: str) -> None:
    with pytest.raises(error) as refused:
        calling(FIVE, "2S").apply(CallFriends(seat, tuple(calls)))
    assert refused.value.reason.key == key


def test_f4_a_call_is_not_made_twice_and_only_in_friends_mode() -> None:
    six = calling(["3D"] * 6, "2S", rules=friends_rules(6))
    with pytest.raises(IllegalPlay) as refused:
        six.apply(CallFriends(0, (F("AH", 2), F("AH", 2))))
    assert refused.value.reason.key == "call.duplicate"
    six, _ = six.apply(CallFriends(0, (F("AH", 3), F("AH", 2))))  # three decks: copy 3 exists
    teams, _ = Match.new(RuleSet(fixed_trump=FixedTrump.SPADES)).apply(StartHand(1))
    with pytest.raises(WrongPhase):
        teams.apply(CallFriends(0, (F("AH", 1),)))


# ---------------------------------------------------------------- F4: reveals


def test_f4_the_called_copy_reveals_its_player_at_once() -> None:
    match = playing(FIVE, "2S", [F("AH", 1)])
    match, events = run(match, [Play(0, C("3D")), Play(1, C("4D")), Play(2, C("AD")),
                                Play(3, C("5D")), Play(4, C("10D"))])
    hand = match.hand
    assert hand is not None
    assert hand.points_by_seat == (0, 0, 15, 0, 0)
    assert hand.opponent_points == 15  # seat 2 is not known to be a friend yet
    assert match.public_view().declarer_seats == (0,)
    match, events = match.apply(Play(2, C("AH")))
    assert FriendRevealed(2, 0) in events
    assert match.hand.call_seats == (2,)  # type: ignore[union-attr]
    assert match.public_view().declarer_seats == (0, 2)
    assert match.public_view().opponent_points == 0  # its 15 count for the starter's side
    match, events = run(match, [Play(3, C("4H")), Play(4, C("6H")), Play(0, C("KH")),
                                Play(1, C("3H"))])
    result = match.hand.result  # type: ignore[union-attr]
    assert result is not None and result.declarer_seats == (0, 2)
    assert result.opponent_points == 0


def test_f4_copies_count_in_play_order_across_plays() -> None:
    """docs/rules.md F4's example: the second A♥ played makes seat 1 the friend."""
    hands = ["AH 3D", "AH 4D", "5H 5D", "AH 6D", "7H 7D"]
    match = playing(hands, "2S", [F("AH", 2)])
    match, events = run(match, [Play(0, C("AH")), Play(1, C("AH"))])
    assert [e for e in events if isinstance(e, FriendRevealed)] == [FriendRevealed(1, 0)]
    match, events = run(match, [Play(2, C("5H")), Play(3, C("AH")), Play(4, C("7H"))])
    assert not [e for e in events if isinstance(e, FriendRevealed)]  # the third adds nobody
    assert match.hand.call_seats == (1,)  # type: ignore[union-attr]


def test_f4_copies_count_within_one_play_in_order() -> None:
    hands = ["KH KH 3D", "AH AH 3C", "5H 6H 4C", "7H 8H 5C", "9H 9H 6C"]
    match = playing(hands, "2S", [F("AH", 2)])
    match, events = run(match, [Play(0, C("KH KH")), Play(1, C("AH AH"))])
    assert FriendRevealed(1, 0) in events  # the pair holds copies 1 and 2


def test_f4_the_starter_playing_its_own_called_card_voids_the_call() -> None:
    """docs/rules.md F4's example, had seat 0 called the first A♥: it plays alone."""
    hands = ["AH 3D", "KH 4D", "5H 5D", "6H 6D", "7H 7D"]
    match = playing(hands, "2S", [F("AH", 1)])
    match, events = match.apply(Play(0, C("AH")))
    assert FriendRevealed(0, 0) in events
    view = match.public_view()
    assert view.call_seats == (0,) and view.declarer_seats == (0,)  # alone against four


def test_f4_one_player_fulfilling_two_calls_is_one_friend() -> None:
    hands = ["3H 3D", "4H 4D", "AH KH", "5H 5D", "6H 6D", "7H 7D"]
    match = playing(hands, "2S", [F("AH", 1), F("KH", 1)], rules=friends_rules(6))
    match, events = run(match, [Play(0, C("3H")), Play(1, C("4H")), Play(2, C("AH")),
                                Play(3, C("5H")), Play(4, C("6H")), Play(5, C("7H"))])
    match, events = match.apply(Play(2, C("KH")))
    assert FriendRevealed(2, 1) in events
    assert match.public_view().call_seats == (2, 2)
    assert match.public_view().declarer_seats == (0, 2)


def test_f4_a_called_copy_never_played_adds_nobody() -> None:
    match = playing(FIVE, "2S", [F("QH", 1)], kitty="QH QH 3C 4C 6C 7C 8C 9C")
    match, _ = run(match, [Play(0, C("3D")), Play(1, C("4D")), Play(2, C("AD")),
                           Play(3, C("5D")), Play(4, C("10D")), Play(2, C("AH")),
                           Play(3, C("4H")), Play(4, C("6H")), Play(0, C("KH")),
                           Play(1, C("3H"))])
    result = match.hand.result  # type: ignore[union-attr]
    assert result is not None and result.declarer_seats == (0,)
    assert match.hand.call_seats == (None,)  # type: ignore[union-attr]
    assert result.opponent_points == 25  # seat 2's 15 + 10: the starter was alone


def test_f4_a_take_back_takes_back_the_reveal() -> None:
    hands = ["KH 3D", "AH 4D", "5H 5D", "6H 6D", "7H 7D"]
    match = playing(hands, "2S", [F("AH", 1)], rules=friends_rules(5, take_backs=True))
    match, _ = match.apply(Play(0, C("KH")))
    revealed, events = match.apply(Play(1, C("AH")))
    assert FriendRevealed(1, 0) in events
    back, _ = revealed.apply(TakeBack(1))
    assert back.hand.hands == match.hand.hands  # type: ignore[union-attr]
    assert back.public_view().call_seats == (None,)
    assert back.public_view().declarer_seats == (0,)


def test_f4_trick_winners_wrap_around_every_table_size() -> None:
    hands = ["3D", "4D", "5D", "AD", "6D", "7D", "8D"]
    match = playing(hands, "2S", [F("AH", 1), F("KH", 1)], starter=4,
                    rules=friends_rules(7))
    match, events = run(match, [Play((4 + i) % 7, C(hands[(4 + i) % 7])) for i in range(7)])
    assert TrickWon(3, 5, 1) in events
    assert match.hand.last_trick.seats == (4, 5, 6, 0, 1, 2, 3)  # type: ignore[union-attr]


def test_f4_a_failed_throws_returned_cards_are_not_played_copies() -> None:
    """docs/rules.md#f4: only the unit a failed throw leads is played; the called first A♥
    that went back to the starter's hand is not "the first A♥ played"."""
    match = playing(["AH 9H 9H 3C", "AH 10H 10H 4C", "5H 6H 7H 8C", "JH QH KH 6C"], "2S",
                    [F("AH", 1)], starter=0, rules=friends_rules(4))
    match, events = run(match, [Play(0, C("AH 9H 9H"))])
    assert any(isinstance(e, ThrowFailed) for e in events)
    assert not any(isinstance(e, FriendRevealed) for e in events)
    assert match.hand.call_seats == (None,)  # type: ignore[union-attr]
    match, events = run(match, [Play(1, C("10H 10H")), Play(2, C("5H 6H")),
                                Play(3, C("JH QH")), Play(1, C("AH"))])
    assert FriendRevealed(1, 0) in events
    assert match.hand.call_seats == (1,)  # type: ignore[union-attr]
