"""Finding Friends puzzles for the computer players: positions with a known good play
(calling a useful card, a hidden friend feeding the starter, no points for the opponents,
over-ruffing with the triple that holds, a friend revealing itself by taking a trick)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import CallFriends, Play
from engine.ai import make_player
from engine.ai.friends_know import FriendsTable
from engine.cards import Card, parse_cards
from engine.events import TrumpHow
from engine.friends import FriendCall
from engine.game import HandState, Match, Phase, Trick
from engine.rules import Mode, RuleSet
from engine.trump import Trump

PLAYERS = ("strong", "normal", "ai1")
"""The rule player (normal) and the strong search over it (ai1, ai) keep these; easy plays
Finding Friends greedily (issue 27: each level at its own strength)."""


def C(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def F(card: str, copy: int) -> FriendCall:
    return FriendCall(Card.parse(card), copy)


def rules(players: int, decks: int = 0) -> RuleSet:
    return RuleSet(mode=Mode.FRIENDS, players=players, decks=decks)


def table(hands: Sequence[str], trump: str, starter: int, *, phase: Phase = Phase.PLAYING,
          leader: int | None = None, trick: Sequence[str] = (),
          calls: Sequence[FriendCall] = (), call_seats: Sequence[int | None] | None = None,
          kitty: str = "2C 3C 4C 6C 7C", decks: int = 0,
          history: Sequence[tuple[int, Sequence[str]]] = ()) -> Match:
    """A friends match with the given hands (seat 0 first), calls, earlier tricks
    (`history`: (leader, plays)) and current trick."""
    n = len(hands)
    chosen = Trump.parse(trump)
    ruleset = rules(n, decks)
    leader = starter if leader is None else leader
    plays = tuple(C(p) for p in trick)
    seats = call_seats if call_seats is not None else (None,) * len(calls)
    earlier = tuple(((first + i) % n, C(p)) for first, trick_plays in history
                    for i, p in enumerate(trick_plays))
    hand = HandState(
        number=1, seed=1, deal_no=0, phase=phase, level=chosen.level, starter=starter,
        hands=tuple(C(h) for h in hands), stock=(), kitty=C(kitty), batch=5, trump=chosen,
        trump_how=TrumpHow.DECLARED, turn=(leader + len(plays)) % n,
        trick=Trick(1, leader, plays, None, None, ruleset.throw_ruff, n) if plays else None,
        played=earlier + tuple(((leader + i) % n, p) for i, p in enumerate(plays)),
        tricks_played=len(history),
        friend_calls=tuple(calls), call_seats=tuple(seats), points_by_seat=(0,) * n)
    return Match(rules=ruleset, levels=(chosen.level,) * n, hand_no=1, starter=starter,
                 hand=hand)


def decide(match: Match, seat: int, player: str = "strong") -> Play:
    action = make_player(player, 1).decide(match.view_for(seat))
    match.apply(action)  # legal
    assert isinstance(action, Play)
    return action


def calls_of(match: Match, player: str = "strong") -> tuple[FriendCall, ...]:
    action = make_player(player, 1).decide(match.view_for(match.starter or 0))
    assert isinstance(action, CallFriends)
    match.apply(action)  # legal
    return action.calls


def test_the_starter_holding_one_ace_calls_the_other_copy() -> None:
    # Five players, two decks, spades trump: the starter holds one A♥ and both A♣ and A♦.
    # "The 2nd A♥": it leads its own A♥ first, so the friend is surely someone else.
    hands = ["AH 7H 8H AC AC 9C AD AD 9D 5S 6S 7S 8S 9S 10S JS QS KS BJ RJ",
             "", "", "", ""]
    match = table(hands, "2S", 0, phase=Phase.CALLING)
    for player in PLAYERS:
        assert calls_of(match, player) == (F("AH", 2),)


def test_the_starter_calls_the_ace_of_a_short_suit_and_never_a_buried_one() -> None:
    # No ace held: "the 1st A" of the short suit (hearts: two low cards to lead to it), not
    # of diamonds, whose two aces the starter buried (nobody could play them).
    hands = ["3H 4H 5C 6C 7C 8C 9C 10C JC QC 5S 6S 7S 8S 9S 10S JS QS KS BJ", "", "", "", ""]
    match = table(hands, "2S", 0, phase=Phase.CALLING, kitty="AD AD 3D 4D 5D")
    assert calls_of(match) == (F("AH", 1),)


def test_two_calls_go_to_two_suits() -> None:
    # Six players, three decks: two friends; both calls name a top card, in different suits.
    hands = ["AH 4H AC 4C 5C 6C 7C 9D 10D JD 5S 6S 7S 8S 9S 10S JS QS KS BJ", *[""] * 5]
    match = table(hands, "2S", 0, phase=Phase.CALLING)
    calls = calls_of(match)
    assert len(calls) == 2 and len({c.card.suit for c in calls}) == 2
    assert all(c.card.rank.name == "ACE" for c in calls)
    assert F("AD", 1) in calls  # no A♦ held, diamonds short: "the 1st A♦"
    assert {F("AH", 2), F("AC", 2)} & set(calls)  # one ace held: the next copy


def test_a_hidden_friend_feeds_points_to_the_starter() -> None:
    # Five players; the 1st A♥ is called and unplayed; seat 2 holds it (it knows it is the
    # friend). The starter (seat 0) wins the club trick; seat 2 plays last: it gives 10♣.
    hands = ["5D", "6D", "10C 3C AH", "7D", "8D"]
    match = table(hands, "2S", 0, leader=3, trick=["4C", "5C", "BJ", "6C"],
                  calls=[F("AH", 1)])
    view = match.view_for(2)
    assert FriendsTable(view).declarer
    for player in PLAYERS:
        assert decide(match, 2, player).cards == C("10C")


def test_an_opponent_gives_the_starter_no_points() -> None:
    # The same trick, but the friend is revealed (seat 4): seat 2 is an opponent and keeps
    # its 10♣ away from the starter's trick.
    hands = ["5D", "6D", "10C 3C 9H", "7D", "8D"]
    match = table(hands, "2S", 0, leader=3, trick=["4C", "5C", "BJ", "6C"],
                  calls=[F("AH", 1)], call_seats=[4])
    assert not FriendsTable(match.view_for(2)).declarer
    for player in PLAYERS:
        assert decide(match, 2, player).cards == C("3C")


def test_over_ruff_with_the_cheapest_triple_that_holds() -> None:
    # Six players, three decks, spades trump. An opponent leads three K♦ (30 points), another
    # ruffs with three 4♠; the starter, void in diamonds and last to play, over-ruffs with
    # three 5♠ (the cheapest triple that takes it), keeping the 9♠ triple and the jokers.
    hands = ["5S 5S 5S 9S 9S 9S BJ 3H", "4H", "5H", "6H", "7H", "8H"]
    match = table(hands, "2S", 0, leader=1,
                  trick=["KD KD KD", "4S 4S 4S", "3D 4D 6D", "7D 8D 9D", "10D JD QD"],
                  calls=[F("AH", 1), F("AC", 1)])
    for player in PLAYERS:
        assert decide(match, 0, player).cards == C("5S 5S 5S")


def test_a_hidden_friend_reveals_itself_by_taking_the_trick() -> None:
    # The 1st A♥ is called; an opponent leads a low heart; seat 2 holds A♥ and plays it:
    # it takes the trick and joins the starter's side at that moment.
    hands = ["5D 6D", "6D 7D", "AH 3H", "7D 8D", "8D 9D"]
    match = table(hands, "2S", 0, leader=1, trick=["4H"], calls=[F("AH", 1)])
    assert decide(match, 2).cards == C("AH")


def test_the_starter_does_not_answer_its_own_call() -> None:
    # The starter called "the 2nd A♥" holding one; seat 3 played the 1st already, so its
    # own A♥ would be the called copy (adding nobody): it lets K♥ go and follows with 3♥.
    hands = ["AH 3H", "6D 7D", "5H 6D", "8D 8D", "9D 9D"]
    match = table(hands, "2S", 0, leader=3, trick=["KH", "4H"], calls=[F("AH", 2)],
                  history=[(3, ["AH", "2H", "10D", "JD", "QD"])])
    assert decide(match, 0).cards == C("3H")


def test_an_opponent_does_not_lead_into_the_called_suit() -> None:
    # The 1st A♥ is called and unplayed; seat 1 (an opponent, no A♥) leads: not a low heart,
    # (its shortest suit), which the hidden friend would take with the A♥, but a low club.
    hands = ["5D 6D 7D", "3H 3C 4C", "6D 7D 8D", "7D 8D 9D", "8D 9D 10D"]
    match = table(hands, "2S", 0, leader=1, calls=[F("AH", 1)])
    for player in PLAYERS:
        assert decide(match, 1, player).cards == C("3C")
