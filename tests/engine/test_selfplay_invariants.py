"""Seeded self-play invariants: card census, 200 points, legal plays accepted, illegal
variations refused, deterministic replay."""

from __future__ import annotations

import random

import pytest
from test_game_support import FULL_PACK, card_census, selfplay_steps

from engine.actions import Action, Play, StartHand
from engine.cards import Card
from engine.errors import IllegalPlay
from engine.events import HandSettled
from engine.follow import follow_error
from engine.game import Match, Phase
from engine.rules import KittyMultiplier, NoBid, RuleSet
from engine.throw import lead_error

RULE_VARIANTS = [
    RuleSet(),
    RuleSet(no_bid=NoBid.REVEAL_UNTIL_LEVEL, throw_penalty=10,
            kitty_multiplier=KittyMultiplier.LARGEST_UNIT),
]


def illegal_variation(before: Match, action: Play, rng: random.Random) -> tuple[Card, ...] | None:
    """A random change of one card of a legal play that the rules refuse, if one is found."""
    hand = before.hand
    assert hand is not None and hand.trump is not None
    held = hand.hands[action.seat]
    others = list(held)
    for card in action.cards:
        others.remove(card)
    if not others:
        return None
    trick = hand.trick
    for _ in range(6):
        cards = list(action.cards)
        cards[rng.randrange(len(cards))] = rng.choice(others)
        if trick is None:
            if lead_error(cards, hand.trump) is not None:
                return tuple(cards)
        elif follow_error(held, trick.plays[0], cards, hand.trump) is not None:
            return tuple(cards)
    return None


def check_invariants(hands: int, seed: int, rules: RuleSet) -> dict[str, int]:
    rng = random.Random(seed)
    seen = {"hands": 0, "refused": 0, "plays": 0}
    for before, action, after, events in selfplay_steps(hands, seed, rules):
        hand = after.hand
        assert hand is not None
        assert card_census(after) == FULL_PACK  # every card exactly twice, at all times
        if isinstance(action, Play):
            seen["plays"] += 1
            assert after.public_view().played[-1][0] == action.seat
            if rng.random() < 0.5:
                wrong = illegal_variation(before, action, rng)
                if wrong is not None:
                    with pytest.raises(IllegalPlay):
                        before.apply(Play(action.seat, wrong))
                    seen["refused"] += 1
                following = before.hand is not None and before.hand.trick is not None
                if following and len(action.cards) > 1:  # a follow owes the led count
                    with pytest.raises(IllegalPlay):
                        before.apply(Play(action.seat, action.cards[:-1]))
        if any(isinstance(e, HandSettled) for e in events):
            result = hand.result
            assert result is not None
            seen["hands"] += 1
            assert (hand.opponent_trick_points + hand.declarer_trick_points
                    + result.kitty_points) == 200
            penalties = sum(f.penalty for f in hand.failed_throws)
            assert result.opponent_points == (hand.opponent_trick_points + penalties
                                              + result.kitty_scored)
            assert not any(hand.hands) and len(hand.kitty) == 8
            assert after.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER)
    assert seen["hands"] == hands
    return seen


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=["default", "variants"])
def test_selfplay_invariants(rules):
    seen = check_invariants(500, 20260, rules)
    assert seen["refused"] > 1000 and seen["plays"] > 40000


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=["default", "variants"])
def test_selfplay_invariants_soak(rules):
    check_invariants(10_000, 777, rules)


def record(hands: int, seed: int) -> list[tuple[Match, list[Action], list]]:
    games: list[tuple[Match, list[Action], list]] = []
    for before, action, _, events in selfplay_steps(hands, seed):
        if isinstance(action, StartHand):
            games.append((before, [], []))
        games[-1][1].append(action)
        games[-1][2].extend(events)
    return games


def test_a_hand_replays_exactly_from_its_seed_and_actions():
    for start, actions, events in record(40, 4):
        match, replayed = start, []
        for action in actions:
            match, new = match.apply(action)
            replayed += new
        assert replayed == events
        again = start
        for action in actions:
            again, _ = again.apply(action)
        assert again == match
