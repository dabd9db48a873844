"""The end-of-hand announcement and a replay's last step share one builder for the kitty
and the outcome (`bot.present.text.kitty_lines`, `hand_outcome`), each with its own wording."""

from __future__ import annotations

from dataclasses import replace

from bot.core.table import Seat, TableDoc
from bot.present.text import cards_text, hand_outcome, kitty_lines, team_letter, team_names
from engine.game import HandResult
from tools.demo_positions import positions


def settled() -> HandResult:
    result = positions().settled.public_view().result
    assert result is not None
    return result


def test_kitty_lines_keep_each_texts_wording() -> None:
    view = positions().settled.public_view()
    assert view.result is not None and view.last_trick is not None
    opponent = next(s for s in range(4) if s not in view.result.declarer_seats)
    won = replace(view, last_trick=replace(view.last_trick, winner=opponent),
                  result=replace(view.result, kitty_points=25, kitty_multiplier=2,
                                 kitty_scored=50))
    kitty = cards_text(view.result.kitty)
    assert kitty_lines(won, "en", "summary") == [
        f"Kitty: {kitty} (25 points)",
        "The opponents won the last trick: kitty 25 × 2 = 50."]
    assert kitty_lines(won, "en", "replay") == [
        f"Kitty: {kitty} (25 points).",
        "The opponents won the last trick: kitty 25 × 2 = 50 points for them."]
    lost = replace(won, last_trick=replace(view.last_trick, winner=view.starter))
    assert kitty_lines(lost, "zh_Hans", "summary")[1] == "庄家方赢得最后一墩：底牌不计分。"
    assert kitty_lines(lost, "zh_Hans", "replay")[1] == "庄家赢得最后一轮：底牌不计分。"


def test_hand_outcome_follows_r10() -> None:
    result = settled()
    assert hand_outcome(replace(result, side="declarers", levels_gained=1)) == "declarers_up"
    assert hand_outcome(replace(result, side="opponents", levels_gained=2)) == "opponents_up"
    assert hand_outcome(replace(result, side="opponents", levels_gained=0)) == "take_over"


def test_a_team_is_its_seats_by_the_variant() -> None:
    doc = TableDoc(guild_id=1, channel_id=2, creator_id=3)
    doc.seats = [Seat(None, name) for name in "ABCD"]
    assert [team_names(doc, team, "en") for team in (0, 1)] == ["A & C", "B & D"]
    assert [team_letter(team) for team in (0, 1, 2)] == ["A", "B", "C"]
