"""A match's views are made once per match object (the bot asks for them many times)."""

from __future__ import annotations

from engine.actions import Pass, StartHand
from engine.game import Match
from engine.memo import ByIdentity
from engine.views import player_view, public_view


def test_the_same_match_gives_the_same_views() -> None:
    match, _ = Match.new().apply(StartHand(5))
    assert public_view(match) is public_view(match)
    assert player_view(match, 2) is player_view(match, 2)
    assert player_view(match, 2).public is public_view(match)
    assert player_view(match, 1) is not player_view(match, 2)


def test_a_new_match_gives_new_views() -> None:
    """A move makes a new match: its views are its own, never the last match's."""
    match, _ = Match.new().apply(StartHand(5))
    before = public_view(match)
    after, _ = match.apply(Pass(0))
    assert public_view(after).awaiting == (1, 2, 3) != before.awaiting
    assert player_view(after, 0).public is public_view(after)
    again, _ = Match.new().apply(StartHand(5))
    assert again == match and again is not match
    assert public_view(again) == public_view(match)
    assert public_view(again) is not public_view(match)


def test_by_identity_keys_on_the_object_and_keeps_the_last_ones() -> None:
    made: list[object] = []
    kept: ByIdentity[tuple[int, ...], int] = ByIdentity(2)

    def make(key: tuple[int, ...]) -> int:
        made.append(key)
        return len(made)

    a, b, c = (1, 2), tuple([1, 2]), (3,)
    assert kept.get(a, make) == 1 and kept.get(a, make) == 1
    assert kept.get(b, make) == 2  # equal to `a`, another object
    assert kept.get(c, make) == 3 and len(kept) == 2  # `a` dropped
    assert kept.get(a, make) == 4
    assert kept.get(c, make) == 3
