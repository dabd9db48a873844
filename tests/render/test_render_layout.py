"""Phone-first layout (issue 12): the hand in few, full rows of large cards; text and card
indices readable when the picture is shown 360 px wide."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw
from zh_labels import ZH

from bot.render import ENGLISH, Labels, SeatLabel, faces, hand, ring, summary, table
from bot.render.faces import INDEX_W
from bot.render.fonts import font
from bot.render.hand import layout, partition
from tools.demo_positions import positions

PHONE = 360  # px: the pictures are drawn at twice this width
SCALE = PHONE / hand.WIDTH
READABLE = 11  # px of ink at phone size for the main text and the card indices
SECONDARY = 9.5  # px of cap height at phone size for details (their CJK glyphs are ≥ 11)


def room(kitty: bool) -> int:
    """The rows' room under a one-line header (two lines while burying)."""
    header = 2 * hand.LINE + 2 if kitty else hand.LINE + 8
    return hand.MAX_HEIGHT - header - hand.BOTTOM


@pytest.mark.parametrize(("sizes", "rows"), [
    ((3, 2), 1),  # 5 cards: one row
    ((5, 3, 2, 2), 2),  # 12 cards: two full rows, not four short ones
    ((9, 5, 6, 5), 3),  # 25 cards
    ((8, 8, 9, 8), 3),  # the starter's 33 cards while burying
])
def test_hands_use_few_full_rows(sizes: tuple[int, ...], rows: int) -> None:
    kitty = sum(sizes) == 33
    plan = layout(sizes, kitty=kitty, room=room(kitty))
    assert len(plan.rows) == rows
    widest = max(plan.row_width(r) for r in range(rows))
    assert widest <= hand.WIDTH - 2 * hand.MARGIN
    if sum(sizes) >= 8:
        assert widest >= 0.9 * (hand.WIDTH - 2 * hand.MARGIN)  # full rows


@pytest.mark.parametrize("count", range(1, 34))
def test_card_indices_stay_readable_and_visible(count: int) -> None:
    sizes = tuple(s for s in (count // 4 + count % 4, count // 4, count // 4, count // 4) if s)
    for kitty in (False, True):
        plan = layout(sizes, kitty=kitty, room=room(kitty))
        rank_ink = 0.30 * plan.card * SCALE  # the rank's cap height: 30 % of the card width
        assert rank_ink >= 14
        assert count == 1 or plan.step >= INDEX_W * plan.card - 0.5  # the index strip shows
        assert plan.height <= room(kitty)


def test_rows_break_between_suit_groups_when_that_costs_little() -> None:
    assert partition((6, 6), 2) == ((0, 6), (6, 12))
    assert partition((7, 5), 2) == ((0, 7), (7, 12))
    spans = partition((13, 12), 2)  # one big group each: balanced anyway
    assert [end - start for start, end in spans] == [13, 12]


def test_rows_keep_the_order_and_every_card() -> None:
    for sizes in ((1,), (4, 4, 4), (9, 5, 6, 5), (30, 3)):
        for count in range(1, min(sum(sizes), 6) + 1):
            spans = partition(sizes, count)
            assert spans[0][0] == 0 and spans[-1][1] == sum(sizes)
            assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))
            assert all(end > start for start, end in spans)


@pytest.mark.parametrize(("size", "least"), [
    (hand.HEADER_SIZE, READABLE), (table.NAME, READABLE), (hand.INFO_SIZE, SECONDARY),
    (table.DETAIL, SECONDARY), (table.BADGE, SECONDARY), (summary.DETAIL, SECONDARY),
    (ring.NAME, READABLE), (ring.DETAIL, SECONDARY), (ring.BADGE, SECONDARY),
    (ring.CALL, SECONDARY),
])
def test_text_is_readable_on_a_phone(size: int, least: float) -> None:
    for bold in (False, True):
        _, top, _, bottom = font(size, bold).getbbox("H")
        assert (bottom - top) * SCALE >= least
        _, top, _, bottom = font(size, bold).getbbox("张")
        assert (bottom - top) * SCALE >= READABLE


def test_the_last_tricks_tiles_are_readable() -> None:
    assert 0.30 * table.TILE_CARD * SCALE >= 13
    assert 0.30 * table.CARD_W * SCALE >= READABLE
    assert faces.tile_size(100) == (54, 74)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("labels", [ENGLISH, ZH], ids=["en", "zh"])
@pytest.mark.parametrize("where", range(4))
def test_plate_badges_never_cover_its_lines(where: int, labels: Labels) -> None:
    """Issue 12: the top seat's "Declarer" badge overlapped its details line."""
    view = positions().playing.public
    assert view.starter is not None and view.declarer_team is not None
    image = Image.new("RGB", (table.WIDTH, table.HEIGHT))
    draw = ImageDraw.Draw(image)
    seats = [view.starter, (view.starter + 2) % 4]  # the starter's badge, the partner's
    for seat in seats:
        for label in (SeatLabel("Bernadette the Bold", computer=True),
                      SeatLabel("龍" * 20, autopilot=True), SeatLabel("A")):
            drawn = table._draw_plate(draw, seat, where, label, view, view.declarer_team,
                                      labels)
            plate = table._PLATE[where]
            *lines, badge = drawn
            assert len(lines) >= 2
            for box in drawn:  # inside the plate
                assert plate[0] < box[0] and box[2] < plate[2], (box, plate)
                assert plate[1] < box[1] and box[3] < plate[3], (box, plate)
            for box in lines:
                assert not _overlap(box, badge), (label, box, badge)
            for a, b in itertools.combinations(lines, 2):
                assert not _overlap(a, b)
