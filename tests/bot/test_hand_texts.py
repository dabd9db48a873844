"""The end-of-hand announcement and a replay's last step share one builder for the kitty
and the outcome (`bot.core.text.kitty_lines`, `hand_outcome`), each with its own wording."""

from __future__ import annotations

from dataclasses import replace

from bot.core.text import cards_text, hand_outcome, kitty_lines, pair_text
from bot.render.demo import positions
from engine.game import HandResult


def settled() -> HandResult:
    result = positions().settled.public_view().result
    assert result is not None
    return result


def test_kitty_lines_keep_each_texts_wording() -> None:
    result = replace(settled(), kitty_points=25, kitty_multiplier=2, kitty_scored=50)
    kitty = cards_text(result.kitty)
    assert kitty_lines(result, "en", "summary") == [
        f"Kitty: {kitty} (25 points)",
        "The opponents won the last trick: kitty 25 × 2 = 50."]
    assert kitty_lines(result, "en", "replay") == [
        f"Kitty: {kitty} (25 points).",
        "The opponents won the last trick: kitty 25 × 2 = 50 points for them."]
    unscored = replace(result, kitty_scored=0)
    assert kitty_lines(unscored, "zh_Hans", "summary")[1] == "庄家方赢得最后一墩：底牌不计分。"
    assert kitty_lines(unscored, "zh_Hans", "replay")[1] == "庄家赢得最后一轮：底牌不计分。"


def test_hand_outcome_follows_r10() -> None:
    result = settled()
    assert hand_outcome(replace(result, side="declarers", levels_gained=1)) == "declarers_up"
    assert hand_outcome(replace(result, side="opponents", levels_gained=2)) == "opponents_up"
    assert hand_outcome(replace(result, side="opponents", levels_gained=0)) == "take_over"


def test_pair_text() -> None:
    assert pair_text(["A", "B", "C", "D"], 0) == "A & C"
    assert pair_text(["A", "B", "C", "D"], 1) == "B & D"
