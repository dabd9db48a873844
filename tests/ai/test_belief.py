"""The learned card-location model (issue 30): the shipped weights load, beat the
room-proportional belief on fresh positions, and the player using them stays legal,
deterministic and within its view."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from engine.actions import Action
from engine.ai.belief import (
    PLACES,
    WEIGHTS_PATH,
    learned_belief,
    load_weights,
    place_seat,
    position,
    probabilities,
    scores,
)
from engine.ai.context import Knowledge
from engine.ai.inference import KITTY, sample_world
from engine.ai.montecarlo import place_known
from engine.ai.search import AiPlayer
from engine.rules import RuleSet
from tools.arena import deal_setup, play_hand
from tools.belief_data import player, positions, seen_from_dict, seen_to_dict


def fresh_positions(seed: int, deals: int) -> list[tuple[Knowledge, list[Counter[int]]]]:
    """Positions of cheap self-play (`expert` against `greedy`, seeds no training used),
    with the truth: each place's cards (the kitty last)."""
    out = []
    for index in range(deals):
        hand_seed, level, starter = deal_setup(seed, index)
        players = [player("expert" if s % 2 == 0 else "greedy", s) for s in range(4)]
        record: list[Action] = []
        play_hand(players, hand_seed, level, starter, RuleSet(), 0, record)
        for _, seen, hands, kitty in positions(record, hand_seed, level, starter, RuleSet()):
            truth = [Counter(h) for h in hands]
            truth.append(Counter(kitty) if seen.kitty is None else Counter())
            out.append((Knowledge.of(seen), truth))
    return out


def mean_log_loss(cases: list[tuple[Knowledge, list[Counter[int]]]], learned: bool) -> float:
    """Mean over the unseen copies still to place of -log(chance of the true place)."""
    total = 0.0
    copies = 0
    for k, truth in cases:
        pos = position(k)
        if not pos.cards:
            continue
        _, fixed, _ = place_known(k)
        probs = probabilities(pos, scores(pos, load_weights()) if learned else None)
        me = k.seen.seat
        for card, row in zip(pos.cards, probs, strict=True):
            at = [truth[place_seat(me, p)][card.code]
                  - sum(1 for c in fixed[place_seat(me, p)] if c == card)
                  if place_seat(me, p) != KITTY else truth[KITTY][card.code]
                  for p in range(PLACES)]
            for p, n in enumerate(at):
                if n > 0:
                    total -= n * math.log(max(row[p], 1e-12))
                    copies += n
    return total / copies


def test_the_shipped_weights_are_small_and_beat_room_proportional() -> None:
    assert WEIGHTS_PATH.stat().st_size <= 2_000_000
    cases = fresh_positions(seed=90_210, deals=2)
    assert len(cases) > 100
    room, learned = mean_log_loss(cases, False), mean_log_loss(cases, True)
    assert learned < 0.95 * room, (learned, room)


def test_learned_beliefs_keep_the_hard_facts() -> None:
    cases = fresh_positions(seed=4242, deals=1)
    rng = random.Random(1)
    for k, _ in cases[10::15]:
        belief = learned_belief(k)
        for _ in range(5):
            sim = sample_world(belief, rng)
            for seat in k.others():
                suits = {k.seen.trump.suit_index(c) for c in sim.hands[seat]}
                assert not suits & k.void[seat]
                assert len(sim.hands[seat]) == k.left[seat]
                assert not +(k.known[seat] - Counter(sim.hands[seat]))


def test_a_position_round_trips_through_the_data_format() -> None:
    k, _ = fresh_positions(seed=77, deals=1)[40]
    again = seen_from_dict(seen_to_dict(k.seen))
    assert again == k.seen


class CheapBeliefAi(AiPlayer):
    work = 350
    max_samples = 12


@pytest.mark.parametrize("seed", [3])
def test_the_belief_player_is_deterministic(seed: int) -> None:
    hand_seed, level, starter = deal_setup(seed, 0)
    runs = []
    for _ in range(2):
        record: list[Action] = []
        players = [CheapBeliefAi(s) if s % 2 == 0 else player("greedy", s) for s in range(4)]
        result = play_hand(players, hand_seed, level, starter, RuleSet(), 0, record)
        assert result.illegal == 0
        runs.append(record)
    assert runs[0] == runs[1]
