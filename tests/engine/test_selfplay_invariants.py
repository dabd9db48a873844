"""Seeded self-play invariants: card census, 200 points, legal plays accepted, illegal
variations refused, deterministic replay — under the default rules, a fixed variant set,
and random option sets (hypothesis strategies over `RuleSet`, house rules included)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_game_support import FULL_PACK, card_census, selfplay_steps
from test_views_hiding import check_views, public_cards

from engine.actions import Action, Play, StartHand, TakeBack, action_from_dict
from engine.cards import Card
from engine.errors import IllegalPlay
from engine.events import Event, HandSettled, PlayTakenBack
from engine.follow import follow_error
from engine.game import Match, Phase
from engine.rules import (
    FixedTrump,
    Follow,
    KittyMultiplier,
    LevelScoring,
    MatchEnd,
    MustDefend,
    NoBid,
    RuleSet,
    ThrowRuff,
)
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
        elif follow_error(held, trick.plays[0], cards, hand.trump,
                          before.rules.follow) is not None:
            return tuple(cards)
    return None


def check_invariants(hands: int, seed: int, rules: RuleSet,
                     views: float = 0.0) -> dict[str, int]:
    """Play `hands` hands and check the invariants at every step (and the views at a
    `views` fraction of the steps)."""
    rng = random.Random(seed)
    seen = {"hands": 0, "refused": 0, "plays": 0, "take_backs": 0}
    last_play: Match | None = None
    shown: list[Event] = []
    for before, action, after, events in selfplay_steps(hands, seed, rules):
        hand = after.hand
        assert hand is not None
        assert card_census(after) == FULL_PACK  # every card exactly twice, at all times
        if isinstance(action, StartHand):
            shown = []
        shown += events
        if views and rng.random() < views:
            check_views(after, public_cards(shown), deep=True)
        if isinstance(action, TakeBack):  # the hand exactly as before the play taken back
            assert last_play is not None and last_play.hand is not None
            assert after == replace(last_play, hand=replace(last_play.hand, undo=None))
            assert isinstance(events[0], PlayTakenBack) and events[0].seat == action.seat
            seen["take_backs"] += 1
        if isinstance(action, Play):
            last_play = before
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
    seen = check_invariants(250, 20260, rules)  # 10,000 in the soak below (`make soak`)
    assert seen["refused"] > 500 and seen["plays"] > 20000


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=["default", "variants"])
def test_selfplay_invariants_soak(rules):
    check_invariants(10_000, 777, rules)


def record(hands: int, seed: int, rules: RuleSet | None = None,
           ) -> list[tuple[Match, list[Action], list]]:
    games: list[tuple[Match, list[Action], list]] = []
    for before, action, _, events in selfplay_steps(hands, seed, rules):
        if isinstance(action, StartHand):
            games.append((before, [], []))
        games[-1][1].append(action)
        games[-1][2].extend(events)
    return games


def test_a_hand_replays_exactly_from_its_seed_and_actions():
    check_replay(record(40, 4))


def check_replay(games: list[tuple[Match, list[Action], list]]) -> None:
    for start, actions, events in games:
        match, replayed = start, []
        for action in actions:
            match, new = match.apply(action)
            replayed += new
        assert replayed == events
        again = start
        for action in actions:
            again, _ = again.apply(action)
        assert again == match


# ---------------------------------------------------------------- random option sets

RULE_SETS = st.builds(
    RuleSet,
    kitty_multiplier=st.sampled_from(KittyMultiplier),
    throw_penalty=st.sampled_from([0, 5, 10]),
    no_bid=st.sampled_from(NoBid),
    no_trump_allowed=st.booleans(),
    match_end=st.sampled_from(MatchEnd),
    must_defend=st.sampled_from(MustDefend),
    follow=st.sampled_from(Follow),
    throw_ruff=st.sampled_from(ThrowRuff),
    level_scoring=st.sampled_from(LevelScoring),
    fixed_trump=st.sampled_from(FixedTrump),
    take_backs=st.booleans(),
)
"""Every table option (the timers aside: the engine does not read them)."""


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULE_SETS, seed=st.integers(0, 2**32))
def test_invariants_under_random_option_sets(rules: RuleSet, seed: int) -> None:
    """Every card exactly twice, 200 points, refused variations, exact take-backs, views that
    hide cards — whatever the options."""
    check_random_option_set(rules, seed)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULE_SETS, seed=st.integers(0, 2**32))
def test_invariants_under_random_option_sets_soak(rules: RuleSet, seed: int) -> None:
    check_random_option_set(rules, seed)


def check_random_option_set(rules: RuleSet, seed: int) -> None:
    """`test_invariants_under_random_option_sets` for one option set."""
    seen = check_invariants(12, seed, rules, views=0.05)
    assert seen["hands"] == 12
    if rules.take_backs:
        assert seen["take_backs"] > 0


@settings(max_examples=15, deadline=None)
@given(rules=RULE_SETS, seed=st.integers(0, 2**32))
def test_replay_is_exact_under_random_option_sets(rules: RuleSet, seed: int) -> None:
    games = record(4, seed, rules)
    check_replay(games)
    for start, actions, _ in games:  # and through the serialized action log
        again = start
        for action in actions:
            again, _ = again.apply(action_from_dict(action.to_dict()))
        final = start
        for action in actions:
            final, _ = final.apply(action)
        assert Match.from_dict(final.to_dict()) == final == again
