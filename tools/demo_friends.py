"""Finding Friends positions for the demo, the goldens and the benchmark: a 6-seat and an
8-seat table mid-hand, drawn from fixed cards (so the pictures show the crowded cases on
purpose: every seat's tractor in one trick, tuples in the starter's 34 cards)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from bot.render.board import SeatLabel
from bot.render.summary import HandSummary
from engine.cards import Card, Rank, Suit, parse_cards
from engine.events import TrumpHow
from engine.friends import FriendCall
from engine.game import Declaration, HandResult, Phase, Trick
from engine.rules import Mode, RuleSet
from engine.trump import Trump
from engine.views import PlayerView, PublicView

NAMES = ("Alice", "小明", "Bernadette the Bold", "Chen", "Dmitri", "Bo", "Émilie", "龍")


def seat_labels(players: int) -> tuple[SeatLabel, ...]:
    return tuple(SeatLabel(NAMES[s], computer=s in (1, 6), autopilot=s == 3)
                 for s in range(players))


def with_friends(view: PublicView, **values: Any) -> PublicView:
    """`view` with Finding Friends fields set (`friend_calls`, `call_seats`,
    `points_by_seat`)."""
    return replace(view, **values)


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def _public(players: int, *, phase: Phase, levels: tuple[Rank, ...], starter: int,
            trump: Trump, trick: Trick | None, last: Trick | None, tricks_played: int,
            cards_left: tuple[int, ...], turn: int | None, opponent_points: int,
            declared_by: int) -> PublicView:
    rules = RuleSet(mode=Mode.FRIENDS, players=players)
    level = levels[starter]
    declaration = Declaration(declared_by, (Card(level, trump.suit),) * 2) \
        if trump.suit is not None else Declaration(declared_by, _cards("RJ RJ"))
    return PublicView(
        phase=phase, rules=rules, hand_no=4, levels=levels,
        level=level, starter=starter, trump=trump, trump_how=TrumpHow.DECLARED,
        declarations=(declaration,), revealed=(), deal_no=1, batch=5, awaiting=(),
        turn=turn, cards_left=cards_left, trick=trick, last_trick=last,
        tricks_played=tricks_played, played=(), opponent_points=opponent_points,
        failed_throws=(), result=None, match_winner=None)


def _trick(leader: int, plays: list[str], players: int, *, winner: int | None = None,
           number: int = 1) -> Trick:
    return Trick(number, leader, tuple(_cards(p) for p in plays), winner, seat_count=players)


@dataclass(frozen=True, slots=True)
class FriendsPositions:
    """One Finding Friends table's demo views."""

    seats: tuple[SeatLabel, ...]
    playing: PublicView
    """Mid-trick, the called cards partly found."""
    full_trick: PublicView
    """Every seat has played to the trick (the widest the board gets)."""
    burying: PlayerView
    """The starter with its hand and the kitty."""
    summary: HandSummary
    """The hand settled."""


def eight_seats() -> FriendsPositions:
    """8 seats, 4 decks: ♠ trump at 7, seat 2 starts; three calls, one found so far."""
    n = 8
    levels = (Rank.TWO, Rank.FIVE, Rank.SEVEN, Rank.THREE, Rank.TWO, Rank.TEN, Rank.FOUR,
              Rank.SEVEN)
    trump = Trump(Rank.SEVEN, Suit.SPADES)
    tractors = ["8H 8H 9H 9H", "JH JH QH QH", "10H 10H 6H 6H", "3S 3S 4S 4S", "5H 4H 2D 3C",
                "KH KH 2H 2H", "5S 5S 6S 6S", "9S 9S 10S 10S"]
    trick = _trick(3, tractors[:7], n, number=6)
    full = _trick(3, tractors, n, number=6)
    last = _trick(5, ["AC AC", "3C 4C", "QC QC", "10C 10C", "5D 6C", "JC JC", "2S 2S",
                      "8C 9C"], n, winner=3, number=5)
    calls = (FriendCall(Card(Rank.ACE, Suit.HEARTS), 1), FriendCall(Card(Rank.KING, Suit.CLUBS), 2),
             FriendCall(Card(Rank.ACE, Suit.DIAMONDS), 1))
    points = (0, 20, 15, 10, 0, 25, 5, 0)
    cards_left = tuple(14 if s in (3, 4, 5, 6, 7, 0, 1) else 18 for s in range(n))
    playing = _public(n, phase=Phase.PLAYING, levels=levels, starter=2, trump=trump,
                      trick=trick, last=last, tricks_played=5, cards_left=cards_left, turn=2,
                      opponent_points=35, declared_by=2)
    playing = with_friends(playing, friend_calls=calls, call_seats=(5, None, None),
                           points_by_seat=points)
    full_trick = with_friends(replace(playing, trick=full, turn=None,
                                      cards_left=(14,) * n), friend_calls=calls,
                              call_seats=(5, None, None), points_by_seat=points)
    burying = _burying(n, decks=4, hand=26, kitty=8, starter=2, levels=levels, trump=trump,
                       seed=8)
    # The opponents made 150 + a kitty of 25 × 4: 250 (160 take over, +1 from 240).
    up = tuple(level if s in (2, 5, 7) else Rank(level + 1) for s, level in enumerate(levels))
    summary = _summary(4, levels, up, starter=2, trump=trump, declarers=(2, 5, 7),
                       kitty="KD KD 10C 5C 5S 3H 4H 6C", points=25, multiplier=4,
                       opponents=250, side="opponents", gained=1, next_starter=3)
    return FriendsPositions(seat_labels(n), playing, full_trick, burying, summary)


def six_seats() -> FriendsPositions:
    """6 seats, 3 decks: ♥ trump at 5, seat 0 starts; both calls settled (one void)."""
    n = 6
    levels = (Rank.FIVE, Rank.TWO, Rank.JACK, Rank.THREE, Rank.FIVE, Rank.FOUR)
    trump = Trump(Rank.FIVE, Suit.HEARTS)
    plays = ["QC QC QC KC KC KC", "3C 3C 4C 4C 9C 9C", "AC AC AC 7C 8C 10C", "2H 2H 2H 3H 3H 3H"]
    trick = _trick(4, plays[:3], n, number=9)
    full = _trick(4, [*plays, "JC JC 6C 2C 2C 7D", "6H 6H 6H 7H 7H 7H"], n, number=9)
    last = _trick(3, ["AS AS", "KS QS", "10S 10S", "3S 3S", "JS JS", "8D 9D"], n, winner=3,
                  number=8)
    calls = (FriendCall(Card(Rank.ACE, Suit.SPADES), 2), FriendCall(Card(Rank.ACE, Suit.CLUBS), 1))
    points = (30, 15, 0, 40, 10, 5)
    cards_left = (10, 11, 11, 11, 10, 10)
    playing = _public(n, phase=Phase.PLAYING, levels=levels, starter=0, trump=trump,
                      trick=trick, last=last, tricks_played=8, cards_left=cards_left, turn=1,
                      opponent_points=30, declared_by=4)
    playing = with_friends(playing, friend_calls=calls, call_seats=(3, 0),
                           points_by_seat=points)
    full_trick = with_friends(replace(playing, trick=full, turn=None,
                                      cards_left=(10,) * n), friend_calls=calls,
                              call_seats=(3, 0), points_by_seat=points)
    burying = _burying(n, decks=3, hand=26, kitty=6, starter=0, levels=levels, trump=trump,
                       seed=6)
    # The starter and seat 3 (the second call was void) held the opponents to 70: +1.
    up = (Rank.SIX, Rank.TWO, Rank.JACK, Rank.FOUR, Rank.FIVE, Rank.FOUR)
    summary = _summary(3, levels, up, starter=0, trump=trump, declarers=(0, 3),
                       kitty="10D 5C 3S 4S 7D 8D", points=15, multiplier=2, opponents=70,
                       side="declarers", gained=1, next_starter=3, counted=False)
    return FriendsPositions(seat_labels(n), playing, full_trick, burying, summary)


def _burying(n: int, *, decks: int, hand: int, kitty: int, starter: int,
             levels: tuple[Rank, ...], trump: Trump, seed: int) -> PlayerView:
    """The starter's view while burying: a seeded deal of `decks` packs."""
    from engine.cards import ALL_CARDS

    pack = [card for card in ALL_CARDS for _ in range(decks)]
    random.Random(seed).shuffle(pack)
    cards_left = tuple(hand + kitty if s == starter else hand for s in range(n))
    public = _public(n, phase=Phase.BURYING, levels=levels, starter=starter, trump=trump,
                     trick=None, last=None, tricks_played=0, cards_left=cards_left,
                     turn=starter, opponent_points=0, declared_by=starter)
    public = with_friends(public, points_by_seat=(0,) * n)
    return PlayerView(starter, public, tuple(pack[:hand]), tuple(pack[hand:hand + kitty]))


def _summary(decks: int, levels: tuple[Rank, ...], new_levels: tuple[Rank, ...], *,
             starter: int, trump: Trump, declarers: tuple[int, ...], kitty: str, points: int,
             multiplier: int, opponents: int, side: str, gained: int, next_starter: int,
             counted: bool = True) -> HandSummary:
    result = HandResult(seed=4, kitty=_cards(kitty), kitty_points=points,
                        kitty_multiplier=multiplier,
                        kitty_scored=points * multiplier if counted else 0,
                        opponent_points=opponents, side=side,  # type: ignore[arg-type]
                        levels_gained=gained, levels=levels, new_levels=new_levels,
                        next_starter=next_starter, match_winner=None,
                        declarer_seats=declarers)
    return HandSummary(hand_no=4, level=levels[starter], trump=trump, starter=starter,
                       result=result, kitty_counted=counted, friends=True, decks=decks,
                       declarer_seats=declarers)
