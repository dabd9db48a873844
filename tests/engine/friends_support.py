"""Helpers for the Finding Friends tests (F1–F6): states built by hand, and random self-play
of whole hands at any table size."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

from engine.actions import Action, CallFriends, StartHand
from engine.ai.random_agent import RandomAgent
from engine.cards import ALL_CARDS, Card, Rank, parse_cards
from engine.events import Event, TrumpHow
from engine.friends import FriendCall
from engine.game import HandState, Match, Phase
from engine.rules import Mode, RuleSet
from engine.trump import Trump
from tools.selfplay import next_action

Step = tuple[Match, Action, Match, tuple[Event, ...]]


def C(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def F(text: str, copy: int) -> FriendCall:
    """`F("AH", 1)`: the first A♥ played."""
    return FriendCall(Card.parse(text), copy)


def friends_rules(players: int, decks: int = 0, **options: object) -> RuleSet:
    return RuleSet(mode=Mode.FRIENDS, players=players, decks=decks).with_changes(**options)


def calling(hands: Sequence[str], trump: str, starter: int = 0, *,
            kitty: str = "2C 3C 4C 6C 7C 8C", rules: RuleSet | None = None,
            levels: Sequence[str] | None = None) -> Match:
    """A Finding Friends match in CALLING with the given hands (seat 0 first) and kitty."""
    chosen = Trump.parse(trump)
    rules = rules or friends_rules(len(hands))
    hand = HandState(
        number=1, seed=99, deal_no=0, phase=Phase.CALLING, level=chosen.level,
        starter=starter, hands=tuple(C(h) for h in hands), stock=(), kitty=C(kitty), batch=5,
        trump=chosen, trump_how=TrumpHow.DECLARED, turn=starter,
        points_by_seat=(0,) * len(hands),
    )
    ranks = tuple(Rank.parse(r) for r in levels) if levels else (chosen.level,) * len(hands)
    return Match(rules=rules, levels=ranks, hand_no=1, starter=starter, hand=hand)


def playing(hands: Sequence[str], trump: str, calls: Sequence[FriendCall], starter: int = 0,
            **kwargs: object) -> Match:
    """`calling(...)` after the starter called `calls`."""
    match = calling(hands, trump, starter, **kwargs)  # type: ignore[arg-type]
    return match.apply(CallFriends(starter, tuple(calls)))[0]


def run(match: Match, actions: Sequence[Action]) -> tuple[Match, list[Event]]:
    events: list[Event] = []
    for action in actions:
        match, new = match.apply(action)
        events += new
    return match, events


def pack(decks: int) -> Counter[Card]:
    return Counter({card: decks for card in ALL_CARDS})


def friends_steps(hands: int, seed: int, rules: RuleSet) -> Iterator[Step]:
    """Every step of `hands` random-agent hands (new matches when one is won)."""
    match = Match.new(rules)
    agents = [RandomAgent(random.Random(f"ff-agent:{seed}:{s}")) for s in range(match.seats)]
    driver = random.Random(f"ff-driver:{seed}")
    seeds = random.Random(f"ff-seeds:{seed}")
    for _ in range(hands):
        if match.phase is Phase.MATCH_OVER:
            match = Match.new(rules)
        action: Action = StartHand(seeds.getrandbits(64))
        while True:
            after, events = match.apply(action)
            yield match, action, after, events
            match = after
            if match.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
                break
            action = next_action(match, agents, driver)
