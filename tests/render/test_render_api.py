"""The renderers' inputs: views only, public information only for public pictures."""

from __future__ import annotations

import typing
from collections.abc import Sequence
from functools import cache

import pytest

from bot.render import (
    ENGLISH,
    HandSummary,
    Labels,
    SeatLabel,
    render_hand,
    render_summary,
    render_table,
)
from engine.views import PlayerView, PublicView
from tools.demo_positions import SEATS, Positions, positions


@cache
def demo() -> Positions:
    return positions()


def test_table_takes_the_public_view_only() -> None:
    hints = typing.get_type_hints(render_table)
    assert hints["view"] is PublicView
    assert hints["seats"] == Sequence[SeatLabel]
    assert hints["return"] is bytes


def test_table_rejects_a_player_view() -> None:
    with pytest.raises(TypeError, match="PublicView"):
        render_table(demo().playing, SEATS)  # type: ignore[arg-type]


def test_summary_rejects_a_player_view_and_an_unsettled_hand() -> None:
    hints = typing.get_type_hints(render_summary)
    assert hints["summary"] == HandSummary | PublicView
    with pytest.raises(TypeError):
        render_summary(demo().playing, SEATS)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not settled"):
        render_summary(demo().playing.public, SEATS)


def test_hand_takes_a_player_view() -> None:
    assert typing.get_type_hints(render_hand)["view"] is PlayerView
    with pytest.raises(TypeError, match="PlayerView"):
        render_hand(demo().playing.public)  # type: ignore[arg-type]


def test_table_needs_four_seats() -> None:
    with pytest.raises(ValueError, match="4 seats"):
        render_table(demo().playing.public, SEATS[:3])


def test_summary_from_events_matches_the_view() -> None:
    settled = demo().settled
    view = settled.public_view()
    from_view = HandSummary.from_view(view)
    result = view.result
    assert result is not None
    from engine.events import HandSettled, KittyRevealed

    revealed = KittyRevealed(result.kitty, result.kitty_points, result.kitty_multiplier,
                             result.kitty_scored)
    done = HandSettled(view.hand_no, result.opponent_points, result.side,
                       result.levels_gained, result.levels, result.new_levels,
                       result.next_starter, result.seed)
    assert view.level is not None and view.starter is not None
    from_events = HandSummary.from_events(revealed, done, level=view.level, trump=view.trump,
                                          starter=view.starter,
                                          match_winner=result.match_winner,
                                          kitty_counted=from_view.kitty_counted,
                                          declarer_seats=result.declarer_seats)
    assert from_events == from_view


def test_labels_come_from_the_catalog_in_every_language() -> None:
    from bot.i18n import SUPPORTED, messages

    for lang in SUPPORTED:
        catalog = messages(lang)
        missing = [key for key in Labels.catalog_keys() if key not in catalog]
        assert not missing, f"{lang}: {missing}"
        labels = Labels.from_messages(catalog)
        assert labels == Labels.from_lookup(catalog.__getitem__)
    # The English defaults are the English catalog.
    assert Labels.from_messages(messages("en")) == ENGLISH


def test_missing_catalog_keys_fall_back_to_english() -> None:
    labels = Labels.from_messages({"render.level": "级牌 {rank}"})
    assert labels.level == "级牌 {rank}" and labels.trump == ENGLISH.trump


def test_the_bot_draws_pictures_in_the_players_language() -> None:
    """bot/present/images.py used to format the templates with no values, fail, and fall back to
    English for every locale."""
    from bot.present.images import labels_for

    assert labels_for("zh-CN").level == "级牌 {rank}"
    assert labels_for("zh-TW").call_found == "{nth}{card} → {name}"
    assert labels_for("en-US") == ENGLISH


@pytest.mark.parametrize("mode", ["teams", "friends"])
def test_before_the_first_deal_the_table_says_so_not_hand_over(
        mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31 item 8: the picture of a table not yet dealt said "Hand over"."""
    from bot.render import draw as draw_module
    from bot.render import ring as ring_module
    from bot.render import table as table_module
    from engine.game import Match
    from engine.rules import RuleSet
    drawn: list[str] = []
    real = draw_module.text

    def spy(draw: object, xy: object, words: str, *args: object, **kwargs: object) -> object:
        drawn.append(words)
        return real(draw, xy, words, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(table_module, "text", spy)
    monkeypatch.setattr(ring_module, "text", spy)
    rules = RuleSet() if mode == "teams" else RuleSet.from_dict({"mode": "friends",
                                                                 "players": 6})
    view = Match.new(rules).public_view()
    assert view.hand_no == 0
    seats = [SeatLabel(f"P{n}") for n in range(rules.players)]
    render_table(view, seats)
    assert "Not dealt" in drawn and "Hand over" not in drawn
