"""Pictures and computer players off the event loop (issue 16): worker processes or
threads, TRACTOR_WORKERS, and hand pictures drawn again only when what they show changed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import offload, pictures
from bot.config import Config, ConfigError
from engine.actions import Pass, StartHand
from engine.game import Match, Phase
from engine.rules import RuleSet


@pytest.fixture
def pool() -> Iterator[None]:
    offload.configure(1)
    try:
        yield
    finally:
        offload.shutdown()


def test_workers_setting() -> None:
    assert Config.from_env({}, require_token=False).workers == 1
    assert Config.from_env({"TRACTOR_WORKERS": "0"}, require_token=False).workers == 0
    for bad in ("-1", "17", "two"):
        with pytest.raises(ConfigError, match="TRACTOR_WORKERS"):
            Config.from_env({"TRACTOR_WORKERS": bad}, require_token=False)
    assert Config().workers == 0  # tests and SimCord: threads


async def test_threads_by_default() -> None:
    assert offload.workers() == 0
    assert await offload.run(divmod, 7, 2) == (3, 1)


def dealt() -> Match:
    match, _ = Match.new(RuleSet()).apply(StartHand(5))
    assert match.phase is Phase.DECLARING
    return match


async def test_a_worker_process_draws_the_same_picture(pool: None) -> None:
    match = dealt()
    assert offload.workers() == 1
    view = match.view_for(0)
    drawn = await offload.run(pictures._draw_hand, view, "en", (), True)
    assert drawn == pictures._draw_hand(view, "en", (), True)
    assert drawn.startswith(b"\x89PNG")


def test_a_hand_picture_is_keyed_on_what_it_shows() -> None:
    match = dealt()
    before = pictures.hand_key(match.view_for(1), "en", (), True)
    moved, _ = match.apply(Pass(0))
    assert moved.public_view() != match.public_view()
    # another seat acted: seat 1's cards, trump and level are the same, so is the key
    assert pictures.hand_key(moved.view_for(1), "en", (), True) == before
    assert pictures.hand_key(match.view_for(1), "zh_Hans", (), True) != before
    assert pictures.hand_key(match.view_for(2), "en", (), True) != before
