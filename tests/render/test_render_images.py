"""Pictures: golden images of seeded positions, and size/aspect/mode limits for all of them.

The goldens live in tests/render/golden/. After an intended change to the pictures (or to
the engine's dealing, which moves the seeded positions), look at the new images and
regenerate them with:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/render -q

A golden matches when the mean absolute pixel difference (RGB, 0–255) is at most
`TOLERANCE`: small font-rasterizer differences pass, a moved or changed card does not.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from zh_labels import ZH

from bot.render import HandSummary, SeatLabel, render_hand, render_summary, render_table
from engine.cards import parse_cards
from engine.game import Trick
from tools.demo_positions import SEATS, Positions, positions

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
TOLERANCE = 1.5
MAX_BYTES = 40 * 1024
WIDTH = 720  # drawn for a 360 px phone screen at twice its resolution

@cache
def suit_hand() -> Positions:
    return positions(17)  # spades trump; a pair trick in progress; opponents take over


@cache
def twelve_cards() -> Positions:
    return positions(17, tricks=10)  # seat 0 holds 12 cards


@cache
def no_trump_hand() -> Positions:
    return positions(68)  # no trump (two red jokers declared)


CASES: dict[str, Callable[[], bytes]] = {
    "hand_playing": lambda: render_hand(suit_hand().playing,
                                        selected=suit_hand().playing.hand[:2]),
    "hand_burying": lambda: render_hand(suit_hand().burying),
    "table_playing": lambda: render_table(suit_hand().playing.public, SEATS),
    "summary": lambda: render_summary(suit_hand().settled.public_view(), SEATS),
    "hand_declaring_zh": lambda: render_hand(no_trump_hand().declaring, labels=ZH),
    "hand_twelve_cards_zh": lambda: render_hand(twelve_cards().playing, labels=ZH,
                                                selected=twelve_cards().playing.hand[4:6]),
    "table_declarer_on_top": lambda: render_table(suit_hand().playing.public, SEATS, bottom=1),
    "table_settled_two_colour_zh": lambda: render_table(
        no_trump_hand().settled.public_view(), SEATS, four_colour=False, labels=ZH, bottom=2),
}


def load(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def check_limits(data: bytes, *, max_bytes: int = MAX_BYTES, least_aspect: float = 0.95
                 ) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= max_bytes, f"{len(data)} bytes"
    image = load(data)
    assert image.mode == "P"
    width, height = image.size
    assert width == WIDTH
    assert least_aspect <= width / height <= 2.0, image.size
    return image


def match_golden(name: str, data: bytes, image: Image.Image) -> None:
    """Compare `image` (drawn as `data`) with golden/`name`.png (write it with UPDATE)."""
    path = GOLDEN / f"{name}.png"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"no golden {path.name}: run with UPDATE_GOLDEN=1 to create it")
        path.write_bytes(data)
        return
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size, f"{name}: size {image.size} != golden {golden.size}"
    diff = ImageChops.difference(image.convert("RGB"), golden)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    assert mean <= TOLERANCE, (
        f"{name} differs from its golden (mean abs diff {mean:.2f} > {TOLERANCE}); if the change "
        f"is intended, look at it and rerun with UPDATE_GOLDEN=1")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    data = CASES[name]()
    match_golden(name, data, check_limits(data))


def test_every_phase_and_both_schemes_fit_the_limits() -> None:
    for pos in (suit_hand(), no_trump_hand()):
        views = (pos.declaring, pos.burying, pos.playing)
        for four_colour in (True, False):
            for view in views:
                check_limits(render_hand(view, four_colour=four_colour))
                check_limits(render_table(view.public, SEATS, four_colour=four_colour))
            settled = pos.settled.public_view()
            check_limits(render_table(settled, SEATS, four_colour=four_colour))
            check_limits(render_summary(settled, SEATS, four_colour=four_colour, labels=ZH))


def test_an_empty_hand_and_a_single_card() -> None:
    view = suit_hand().playing
    check_limits(render_hand(replace(view, hand=())))
    check_limits(render_hand(replace(view, hand=view.hand[:1]), selected=view.hand[:1]))


def test_selected_cards_are_raised() -> None:
    view = suit_hand().playing
    plain = load(render_hand(view)).convert("RGB")
    raised = load(render_hand(view, selected=view.hand[:1])).convert("RGB")
    assert ImageChops.difference(plain, raised).getbbox() is not None


def test_long_plays_names_and_odd_characters() -> None:
    public = suit_hand().playing.public
    throw = tuple(parse_cards("AH AH KH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H"))
    trick = Trick(number=1, leader=0, plays=(throw, throw, throw))
    seats = [SeatLabel("A very long display name that never ends 🂡🎴", computer=True),
             SeatLabel("\u0000\ttab"), SeatLabel("龍龍龍龍龍龍龍龍龍龍龍龍龍龍"),
             SeatLabel("", autopilot=True)]
    check_limits(render_table(replace(public, trick=trick), seats))


def test_summary_with_a_match_winner_and_a_huge_score() -> None:
    summary = HandSummary.from_view(suit_hand().settled.public_view())
    big = replace(summary, result=replace(summary.result, opponent_points=285, kitty_scored=80,
                                          levels_gained=5, match_winner=1))
    check_limits(render_summary(big, SEATS))
    zero = replace(summary, kitty_counted=False, result=replace(
        summary.result, opponent_points=0, kitty_scored=0, side="declarers", levels_gained=3))
    check_limits(render_summary(zero, SEATS))


def test_the_table_rotates_to_the_viewer() -> None:
    public = suit_hand().playing.public
    assert render_table(public, SEATS, bottom=0) != render_table(public, SEATS, bottom=1)


def test_the_same_picture_again_is_the_cached_png() -> None:
    view = suit_hand().playing
    assert render_table(view.public, SEATS) is render_table(view.public, list(SEATS))
    assert render_hand(view, selected=view.hand[:1]) is render_hand(view,
                                                                    selected=list(view.hand[:1]))
    assert render_hand(view) is not render_hand(view, selected=view.hand[:1])
