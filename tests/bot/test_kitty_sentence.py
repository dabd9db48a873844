"""The end-of-hand kitty sentence states who won the last trick and what the kitty did, and
both must be true (issue 38): decided by the last trick's winner, not by the kitty's score.
All four cases (declarers / opponents won it × a kitty with / without points), both modes,
every language, in the announcement and the replay wording, and the result picture agrees."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from bot.i18n import t
from bot.present.text import kitty_lines
from bot.render.sides import kitty_to_opponents
from bot.render.summary import HandSummary
from engine.game import Match
from engine.rules import Mode, RuleSet
from engine.views import PublicView
from tests.bot.friends_hand import play_friends_hand
from tools.demo_positions import positions

LOCALES = ("en", "zh_Hans", "zh_Hant")


@cache
def settled(mode: str) -> PublicView:
    """A settled hand's public view, teams or Finding Friends (six seats)."""
    if mode == "teams":
        return positions().settled.public_view()
    steps = play_friends_hand(Match.new(RuleSet(mode=Mode.FRIENDS, players=6)), 5)
    *_, (_, match) = steps
    view = match.public_view()
    assert view.result is not None
    return view


def case(mode: str, opponents_won: bool, points: int) -> PublicView:
    """The settled view with its last trick won by a declarer or an opponent and a kitty of
    `points` (scored as the engine would)."""
    view = settled(mode)
    result, last = view.result, view.last_trick
    assert result is not None and last is not None
    side = result.declarer_seats
    winner = next(s for s in range(view.seats) if (s in side) != opponents_won)
    scored = points * result.kitty_multiplier if opponents_won else 0
    return replace(view, last_trick=replace(last, winner=winner),
                   result=replace(result, kitty_points=points, kitty_scored=scored))


@pytest.mark.parametrize("mode", ["teams", "friends"])
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("prefix", ["summary", "replay"])
@pytest.mark.parametrize(("opponents_won", "points"),
                         [(True, 25), (True, 0), (False, 25), (False, 0)])
def test_the_kitty_sentence_follows_from_the_last_trick(mode: str, locale: str, prefix: str,
                                                        opponents_won: bool,
                                                        points: int) -> None:
    view = case(mode, opponents_won, points)
    result = view.result
    assert result is not None
    if not opponents_won:
        expected = t(f"{prefix}.kitty_not_scored", locale)
    elif points:
        expected = t(f"{prefix}.kitty_scored", locale, points=points,
                     multiplier=result.kitty_multiplier, total=result.kitty_scored)
    else:
        expected = t(f"{prefix}.kitty_empty", locale)
    assert kitty_lines(view, locale, prefix)[1] == expected
    assert kitty_to_opponents(view) is opponents_won
    assert HandSummary.from_view(view).kitty_counted is opponents_won


def test_the_english_sentences_name_the_winner_of_the_last_trick() -> None:
    """The case of the report: the opponents won the last trick, the kitty had no points."""
    for mode in ("teams", "friends"):
        empty = kitty_lines(case(mode, True, 0), "en", "summary")[1]
        assert empty == "The opponents won the last trick, but the kitty has no points."
        assert "declarers" not in empty
        assert kitty_lines(case(mode, False, 0), "en", "summary")[1] == \
            "The declarers won the last trick: the kitty does not count."
        assert kitty_lines(case(mode, True, 10), "en", "replay")[1].startswith(
            "The opponents won the last trick: kitty 10 × ")
