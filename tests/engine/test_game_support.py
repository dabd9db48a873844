"""Helpers shared by the game, view, self-play and serialization tests (no tests here)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

from engine.actions import Action, Pass, StartHand
from engine.ai.random_agent import RandomAgent
from engine.cards import ALL_CARDS, Card, Rank, parse_cards
from engine.events import Event, TrumpHow
from engine.game import HandState, Match, Phase
from engine.rules import RuleSet
from engine.trump import Trump
from tools.selfplay import play_hand

Step = tuple[Match, Action, Match, tuple[Event, ...]]


def C(text: str) -> tuple[Card, ...]:
    """`C("AS AS")`: cards as a tuple."""
    return tuple(parse_cards(text))


def started(seed: int = 1, match: Match | None = None) -> Match:
    """A match with a hand just dealt (first batch) from `seed`."""
    after, _ = (match or Match.new()).apply(StartHand(seed))
    return after


def answer_rest(match: Match) -> tuple[Match, list[Event]]:
    """Every seat that has not answered the open window passes."""
    events: list[Event] = []
    assert match.hand is not None
    for seat in [s for s in range(4) if s not in match.hand.responded]:
        match, new = match.apply(Pass(seat))
        events += new
    return match, events


def pass_to_end(match: Match) -> tuple[Match, list[Event]]:
    """Everyone passes every remaining window of the deal."""
    events: list[Event] = []
    deal = match.hand.deal_no if match.hand else 0
    while match.phase is Phase.DECLARING and match.hand and match.hand.deal_no == deal:
        match, new = answer_rest(match)
        events += new
    return match, events


def playing(hands: Sequence[str], trump: str, starter: int = 0, *, turn: int | None = None,
            kitty: str = "2C 3C 4C 6C 7C 8C 9C JC", rules: RuleSet | None = None,
            levels: tuple[str, str] = ("2", "2"), opponent_points: int = 0,
            tricks_played: int = 0) -> Match:
    """A match in the PLAYING phase with the given hands (seat 0 first) and kitty."""
    chosen = Trump.parse(trump)
    hand = HandState(
        number=1, seed=99, deal_no=0, phase=Phase.PLAYING, level=chosen.level,
        starter=starter, hands=tuple(C(h) for h in hands), stock=(), kitty=C(kitty), batch=5,
        trump=chosen, trump_how=TrumpHow.DECLARED,
        turn=starter if turn is None else turn, opponent_points=opponent_points,
        opponent_trick_points=opponent_points, tricks_played=tricks_played,
        points_by_seat=tuple(opponent_points if seat == (starter + 1) % 4 else 0
                             for seat in range(4)),  # the opponents' points: one seat's
    )
    team_levels = (Rank.parse(levels[0]), Rank.parse(levels[1]))
    return Match(rules=rules or RuleSet(), levels=team_levels * 2, hand_no=1, starter=starter,
                 hand=hand)


def card_census(match: Match) -> Counter[Card]:
    """Every card of the hand in play: hands, stock, kitty and played cards."""
    hand = match.hand
    assert hand is not None
    census: Counter[Card] = Counter(hand.stock)
    census.update(hand.kitty)
    for cards in hand.hands:
        census.update(cards)
    for _, cards in hand.played:
        census.update(cards)
    return census


FULL_PACK = Counter({card: 2 for card in ALL_CARDS})


def selfplay_steps(hands: int, seed: int, rules: RuleSet | None = None) -> Iterator[Step]:
    """Every step of `hands` random-agent hands (new matches when one is won)."""
    agents = [RandomAgent(random.Random(f"test-agent:{seed}:{s}")) for s in range(4)]
    driver = random.Random(f"test-driver:{seed}")
    seeds = random.Random(f"test-seeds:{seed}")
    match = Match.new(rules)
    for _ in range(hands):
        if match.phase is Phase.MATCH_OVER:
            match = Match.new(rules)
        for step in play_hand(match, seeds.getrandbits(64), agents, driver):
            yield step
            match = step[2]
