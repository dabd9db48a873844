"""bot/present/replay.py: a hand rebuilt from its seed and actions, step by step, showing only
what was public at each step (no Discord here; see test_records.py for the command)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from bot.features.records import id_ranges
from bot.present.replay import (
    Frame,
    ReplayError,
    SeatInfo,
    frame_png,
    frame_text,
    levels_before,
    replay_frames,
)
from bot.present.text import cards_text
from bot.storage import HandRecord, LevelPoint
from engine.ai.random_agent import RandomAgent
from engine.cards import Card, Rank
from engine.game import Match, Phase
from engine.rules import NoBid, RuleSet
from tools.selfplay import play_hand

SEATS = [SeatInfo(f"P{i}", f"<@{100 + i}>", computer=i == 3) for i in range(4)]


def played_hand(match: Match, seed: int, *, declare: float = 0.5,
                rng: str = "x") -> tuple[Match, list[dict[str, Any]]]:
    agents = [RandomAgent(random.Random(f"{rng}-{s}"), declare_chance=declare) for s in range(4)]
    actions: list[dict[str, Any]] = []
    after = match
    for step in play_hand(match, seed, agents, random.Random(rng)):
        actions.append(step[1].to_dict())
        after = step[2]
    return after, actions


def record_of(match: Match, actions: list[dict[str, Any]], **changes: Any) -> HandRecord:
    hand = match.hand
    assert hand is not None and hand.result is not None and hand.starter is not None
    result = hand.result
    record = HandRecord(
        hand_key="h", match_key="m", table_id=1, hand_no=hand.number, seed=hand.seed,
        level=str(hand.level), trump=str(hand.trump), starter=hand.starter,
        declarers=(hand.starter % 2, hand.starter % 2 + 2), players=(1, 2, 3, None),
        kitty=[str(c) for c in result.kitty], opponent_points=result.opponent_points,
        kitty_points=result.kitty_points, multiplier=result.kitty_multiplier,
        result_side=result.side, result_levels=result.levels_gained, actions=actions,
        mode="teams")
    return replace(record, **changes)


def check_public(frames: tuple[Frame, ...], match: Match) -> None:
    """Every step before the last shows exactly the cards played so far and no kitty."""
    hand = match.hand
    assert hand is not None and hand.result is not None
    assert [f.kind for f in frames] == ["start"] + ["trick"] * hand.tricks_played + ["kitty"]
    before = hand.result.levels
    opponents_so_far = 0
    for index, frame in enumerate(frames[:-1]):
        view = frame.view
        assert view.result is None and view.match_winner is None
        assert view.phase is Phase.PLAYING
        assert view.levels == before
        expected: Counter[Card] = Counter()
        for _, cards in hand.played[: 4 * index]:
            expected.update(cards)
        assert Counter(c for _, cards in view.played for c in cards) == expected
        assert sum(view.cards_left) == 100 - sum(expected.values())
        if frame.trick is not None:
            assert view.trick == frame.trick and frame.trick.number == index
            assert frame.trick.winner is not None
            if frame.trick.winner % 2 != hand.starter % 2:  # type: ignore[operator]
                opponents_so_far += frame.trick.points
        assert view.opponent_points == opponents_so_far  # no kitty bonus (throw penalty 0)
        assert "kitty" not in str(view.to_dict()["result"])
    last = frames[-1].view
    assert last.result == hand.result
    assert last.opponent_points == hand.result.opponent_points


@pytest.mark.parametrize("seed", [1, 7, 2024, 31337])
def test_first_hands_replay_exactly_and_publicly(seed: int) -> None:
    match, actions = played_hand(Match.new(), seed, rng=f"first-{seed}")
    frames = replay_frames(record_of(match, actions))
    check_public(frames, match)
    assert frames[0].view.trump == match.hand.trump  # type: ignore[union-attr]
    assert frames[0].view.starter == match.hand.starter  # type: ignore[union-attr]


def test_a_later_hand_with_no_declaration_turns_trump_up_from_the_kitty() -> None:
    first, _ = played_hand(Match.new(), 5, rng="later")
    assert first.hand is not None and first.hand.result is not None
    second, actions = played_hand(first, 6, declare=0.0, rng="later-2")
    hand = second.hand
    assert hand is not None and hand.number == 2 and hand.revealed
    assert first.rules.no_bid is NoBid.KITTY_TOP_CARD
    record = record_of(second, actions)
    assert hand.result is not None
    after_first, after_second = first.hand.result.new_levels, hand.result.new_levels
    history = [LevelPoint(0, ("2",) * 4, 1.0),
               LevelPoint(1, tuple(str(r) for r in after_first), 2.0),
               LevelPoint(2, tuple(str(r) for r in after_second), 3.0)]
    levels = levels_before(history, 2)
    assert levels == tuple(str(r) for r in first.levels)
    frames = replay_frames(record, RuleSet(), levels)
    check_public(frames, second)
    # Without the match's level history both teams show the hand's level.
    assert replay_frames(record)[0].view.levels == (hand.level,) * 4  # one per seat
    text = frame_text(frames, 0, SEATS, "en", hand_id=9)
    revealed = cards_text(hand.revealed)
    assert f"Nobody declared: {revealed} turned up from the kitty set trump." in text


def test_records_without_the_start_action_or_with_bookkeeping_entries_replay() -> None:
    match, actions = played_hand(Match.new(), 11, rng="bookkeeping")
    trimmed = [{"type": "note"}, *actions[1:]]  # StartHand(seed) is implied by the seed
    check_public(replay_frames(record_of(match, trimmed)), match)


def test_unfinished_or_broken_records_are_refused() -> None:
    match, actions = played_hand(Match.new(), 3, rng="broken")
    with pytest.raises(ReplayError):
        replay_frames(record_of(match, actions, result_side=None))
    with pytest.raises(ReplayError):
        replay_frames(record_of(match, actions[:-5]))  # stops before the last trick
    with pytest.raises(ReplayError):
        replay_frames(record_of(match, actions, level="Z"))


def test_texts_show_the_kitty_only_at_the_end() -> None:
    match, actions = played_hand(Match.new(), 42, rng="texts")
    hand = match.hand
    assert hand is not None and hand.result is not None
    frames = replay_frames(record_of(match, actions))
    kitty = cards_text(hand.result.kitty)
    for step in range(len(frames) - 1):
        for locale in ("en", "zh-CN", "zh-TW"):
            text = frame_text(frames, step, SEATS, locale, hand_id=3)
            assert kitty not in text and "Kitty" not in text and "底牌：" not in text
    last = frame_text(frames, len(frames) - 1, SEATS, "en", hand_id=3)
    assert f"Kitty: {kitty} ({hand.result.kitty_points} points)." in last
    assert frame_text(frames, len(frames) - 1, SEATS, "zh-CN", hand_id=3).count(kitty) == 1
    first_trick = frame_text(frames, 1, SEATS, "en", hand_id=3)
    assert first_trick.startswith(f"**Replay of hand #3** (hand 1 of its match), step 2/"
                                  f"{len(frames)}\nTrick 1: ")
    assert "Opponents' points: " in first_trick


def test_images_are_pngs_of_the_table_then_the_summary() -> None:
    match, actions = played_hand(Match.new(), 8, rng="images")
    frames = replay_frames(record_of(match, actions))
    table = frame_png(frames[1], SEATS, "en")
    summary = frame_png(frames[-1], SEATS, "zh-TW", four_colour=False, bottom=2)
    assert table is not None and table.startswith(b"\x89PNG")
    assert summary is not None and summary.startswith(b"\x89PNG") and summary != table


def test_level_is_the_hands_level() -> None:
    match, actions = played_hand(Match.new(), 9, rng="level")
    frames = replay_frames(record_of(match, actions))
    assert frames[0].view.level is Rank.TWO


def test_hand_number_ranges() -> None:
    assert id_ranges([7]) == "#7"
    assert id_ranges([3, 4, 5, 9, 11, 12]) == "#3–#5, #9, #11–#12"


def test_the_declarers_are_the_starters_partners() -> None:
    """The start names the starter's team as the variant's partners (seats s and s + 2)."""
    match, actions = played_hand(Match.new(), 42, rng="texts")
    hand = match.hand
    assert hand is not None and hand.starter is not None
    frames = replay_frames(record_of(match, actions))
    first, second = match.variant.partners(hand.starter, 4)
    assert (first, second) == (hand.starter % 2, hand.starter % 2 + 2)
    start = frame_text(frames, 0, SEATS, "en", hand_id=3)
    assert f"Declarers: {SEATS[first].mention} & {SEATS[second].mention}." in start
