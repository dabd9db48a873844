"""The table image: four seats, the trick in front of them, the last trick, the score."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.render.board import (
    SeatLabel,
    between_hands_word,
    plays_shown,
    points_bar,
    shown_trump,
    title_parts,
    trump_so_far,
    trump_words,
)
from bot.render.draw import (
    Box,
    felt,
    fit,
    fit_first,
    paste_row,
    paste_tiles,
    pill,
    rich,
    row_step,
    text,
    text_box,
    tiles_step,
    tiles_width,
    trump_parts,
    width_of,
)
from bot.render.faces import RANK_STEP, card_height, index_height, tile_size
from bot.render.labels import ENGLISH, Labels
from bot.render.names import NameFit, fit_name
from bot.render.ring import ring_image
from bot.render.sides import two_teams
from bot.render.sorting import sort_hand
from bot.render.style import (
    DANGER,
    FELT_LIGHT,
    GOLD,
    INK,
    MUTED,
    PANEL,
    RGB,
    WHITE,
    to_png,
)
from engine.cards import Card, Rank
from engine.deal import take_over_points
from engine.game import SEATS, Phase, Trick
from engine.trump import Trump
from engine.views import PublicView

WIDTH: Final = 720
"""Drawn for a 360 px wide phone screen at twice its resolution."""
HEIGHT: Final = 730
CARD_W: Final = 84
CARD_STEP: Final = 44
MIN_STEP: Final = 30  # below this a play wraps onto two rows (the index stays visible)
NAME: Final = 30
DETAIL: Final = 28
BADGE: Final = 28
TILE_GAP: Final = 12
TILE_CARD: Final = 88  # the last trick's tiles are index strips of cards this wide
TILE_CARDS: Final = (TILE_CARD, 76, 66)
"""Narrower tiles, tried in turn where a long last trick would hide a rank (`RANK_STEP`)."""

# Places: 0 bottom, 1 right, 2 top, 3 left (play runs counter-clockwise).
_PLATE: Final[tuple[Box, ...]] = (
    (100, 501, 620, 589), (442, 196, 704, 348), (100, 104, 620, 192), (16, 196, 278, 348))
# Each place's play: centre x, top y, room for its width (a long play wraps onto two rows).
_PLAY: Final = ((360, 381, 176), (573, 360, 262), (360, 200, 152), (147, 360, 262))
_CENTRE: Final = (360, 344)
_LAST: Final[Box] = (16, 599, 704, 723)


def render_table(view: PublicView, seats: Sequence[SeatLabel], *, four_colour: bool = True,
                 labels: Labels = ENGLISH, bottom: int = 0) -> bytes:
    """The public table as a palette PNG (720 px wide, drawn for a phone; 720×730 for the
    four-seat game, taller for Finding Friends: see `bot.render.ring`).

    Takes the public view only: what spectators may see. `seats` names every seat (4–8);
    `bottom` is the seat drawn at the bottom (e.g. the viewer's), the others follow
    counter-clockwise.
    """
    if not isinstance(view, PublicView):
        raise TypeError(f"render_table takes a PublicView (public information only), not "
                        f"{type(view).__name__}")
    count = view.rules.players
    if len(seats) != count:
        raise ValueError(f"seats names the {count} seats, got {len(seats)}")
    return table_png(view, tuple(seats), four_colour, labels, bottom % count)


@lru_cache(maxsize=64)
def table_png(view: PublicView, seats: tuple[SeatLabel, ...], four_colour: bool, labels: Labels,
              bottom: int) -> bytes:
    """`render_table`, cached: the same table drawn again (another message's edit, a replay
    step, a second viewer at the same seat) costs a lookup."""
    if not two_teams(view.variant, view.seats):  # per seat: the ring of 4–8 seats
        image = ring_image(view, seats, four_colour=four_colour, labels=labels, bottom=bottom)
    else:
        image = table_image(view, seats, four_colour=four_colour, labels=labels, bottom=bottom)
    return to_png(image)


def table_image(view: PublicView, seats: Sequence[SeatLabel], *, four_colour: bool = True,
                labels: Labels = ENGLISH, bottom: int = 0) -> Image.Image:
    """The table picture as an RGB image (see `render_table`)."""
    image = felt((WIDTH, HEIGHT)).copy()
    draw = ImageDraw.Draw(image)
    level = view.level if view.level is not None else Rank.TWO
    trump = shown_trump(view)
    declarer_team = view.declarer_team
    place = {seat: (seat - bottom) % 4 for seat in range(4)}

    # The plays in front of the seats: the trick, or the shown declarations while dealing.
    trick, plays, winner = plays_shown(view, SEATS)
    settled = view.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER)
    tops: dict[int, int] = {}
    for seat, cards in plays.items():
        tops[seat] = _draw_play(image, draw, cards, place[seat], trump, level, winner == seat,
                                four_colour, labels)
    if trick is not None and trick.failed_throw is not None:
        seat = trick.failed_throw.seat
        x = _PLAY[place[seat]][0]
        pill(draw, (x, tops.get(seat, _PLAY[place[seat]][1]) - 4), labels.throw_failed, BADGE,
             DANGER, WHITE, anchor="m")
    if view.turn is not None and view.phase is Phase.PLAYING and view.turn not in plays:
        x, y, _ = _PLAY[place[view.turn]]
        y += card_height(CARD_W) // 2
        pill(draw, (x, y), labels.to_play, BADGE, WHITE, INK, anchor="m")

    # The centre: what is going on when no cards are out.
    centre = ""
    if view.phase is Phase.DECLARING:
        centre = labels.phase_dealing.format(batch=view.batch)
    elif view.phase is Phase.BURYING:
        centre = labels.phase_burying
    elif view.phase is Phase.PLAYING and view.trick is None:
        centre = labels.phase_playing.format(number=view.tricks_played + 1)
    elif settled:
        centre = between_hands_word(view, labels)
    if centre:
        text(draw, _CENTRE, fit(centre, 28, 160, bold=True), 28, MUTED, bold=True,
             anchor="mm")

    for seat in range(4):
        _draw_plate(draw, seat, place[seat], seats[seat], view, declarer_team, labels)
    _draw_info(draw, view, seats, level, trump, declarer_team, four_colour, labels)
    last = None if settled and view.trick is None else view.last_trick
    if last is not None:
        _draw_last_trick(image, draw, last, trump, level, four_colour, labels)
    return image


def _draw_play(image: Image.Image, draw: ImageDraw.ImageDraw, cards: Sequence[Card], where: int,
               trump: Trump | None, level: Rank, winning: bool, four_colour: bool,
               labels: Labels) -> int:
    """One seat's play in front of it (a long throw on two rows); returns its top y."""
    ordered = sort_hand(cards, trump, level)
    cx, anchor, room = _PLAY[where]
    rows = [ordered]
    if row_step(len(ordered), CARD_W, room, CARD_STEP) < MIN_STEP:
        half = (len(ordered) + 1) // 2
        rows = [ordered[:half], ordered[half:]]
    steps = [row_step(len(row), CARD_W, room, CARD_STEP) for row in rows]
    widths = [CARD_W + step * (len(row) - 1) for row, step in zip(rows, steps, strict=True)]
    offset = index_height(CARD_W) + 4
    height = card_height(CARD_W) + offset * (len(rows) - 1)
    top = anchor  # a second row's index strips stay clear of the plates drawn later
    if winning:
        pad, half_w = 5, max(widths) / 2
        draw.rounded_rectangle((cx - half_w - pad, top - pad, cx + half_w + pad,
                                top + height + pad), radius=10, fill=GOLD)
    for r, (row, step, width) in enumerate(zip(rows, steps, widths, strict=True)):
        paste_row(image, row, (round(cx - width / 2), top + r * offset), CARD_W, step=step,
                  trump=trump, four_colour=four_colour, labels=labels)
    return top


def plate_name(seat: int, where: int, label: SeatLabel) -> NameFit:
    """The lines of "3. Name" on a seat's plate (see `bot.render.names`): one line, or two
    on the side seats (narrow, taller)."""
    box = _PLATE[where]
    inner = box[2] - box[0] - 28
    return fit_name(f"{seat + 1}. ", label.name, label.forms, NAME, inner,
                    (inner, inner) if where in (1, 3) else None)


def _draw_plate(draw: ImageDraw.ImageDraw, seat: int, where: int, label: SeatLabel,
                view: PublicView, declarer_team: int | None, labels: Labels) -> list[Box]:
    """Name, cards left and kind of player; the role badge on a line of its own (side seats)
    or at the right of the details line (top and bottom), never over the text. A side seat's
    name takes two lines when it needs them (`plate_name`). Returns the boxes drawn in the
    plate: its lines of text, then the badge."""
    box = _PLATE[where]
    to_act = view.turn == seat or seat in view.awaiting
    draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=GOLD if to_act else FELT_LIGHT,
                           width=5 if to_act else 2)
    x, inner = box[0] + 14, box[2] - box[0] - 28
    drawn: list[Box] = []

    def line(y: float, value: str, size: int, fill: RGB, bold: bool = False) -> None:
        text(draw, (x, y), value, size, fill, bold=bold, anchor="lm")
        drawn.append(text_box((x, y), value, size, bold=bold, anchor="lm"))

    name = plate_name(seat, where, label)
    cards = labels.cards.format(count=view.cards_left[seat])
    kind = labels.autopilot if label.autopilot else labels.computer if label.computer else ""
    role, colour = "", MUTED
    if view.starter == seat:
        role, colour = labels.starter, GOLD
    elif declarer_team is not None and view.rules.variant.team_of(seat) == declarer_team:
        role = labels.declarer
    details = " · ".join(part for part in (cards, kind) if part)
    if where in (1, 3):  # narrow: a line each for what does not fit, the badge last
        two = len(name.lines) > 1
        y = box[1] + (24 if two else 26)
        for value in name.lines:
            line(y, value, NAME, WHITE, bold=True)
            y += 31
        values = [details] if width_of(details, DETAIL) <= inner else [cards, kind]
        beside = ""  # two name lines, two details lines and a badge: the kind by the badge
        if two and role and len(values) > 1:
            values, beside = [cards], kind
        for value in values:
            line(y, fit(value, DETAIL, inner), DETAIL, MUTED)
            y += 31
        if role:
            tag = pill(draw, (x - 2, y + 11), fit(role, BADGE, inner - 24, bold=True), BADGE,
                         colour, INK, anchor="l")
            if beside and width_of(beside, DETAIL) <= x + inner - tag[2] - 10:
                at = (tag[2] + 10, y + 11)  # (else only the table message's text says it)
                text(draw, at, beside, DETAIL, MUTED, anchor="lm")
                drawn.append(text_box(at, beside, DETAIL, anchor="lm"))
            drawn.append(tag)
        return drawn
    room = inner
    badge: Box | None = None
    if role:
        badge = pill(draw, (box[2] - 12, box[1] + 65), fit(role, BADGE, inner / 2, bold=True),
                     BADGE, colour, INK, anchor="r")
        room = badge[0] - x - 10
    line(box[1] + 26, name.lines[0], NAME, WHITE, bold=True)
    line(box[1] + 63, fit(details, DETAIL, room), DETAIL, MUTED)
    return drawn + ([badge] if badge else [])


def _draw_info(draw: ImageDraw.ImageDraw, view: PublicView, seats: Sequence[SeatLabel],
               level: Rank, trump: Trump | None, declarer_team: int | None, four_colour: bool,
               labels: Labels) -> None:
    """Two lines across the top: level and trump, the opponents' points over a thin bar with
    the 80 line; how trump was set (the hand's number before), the teams' levels."""
    left, right = 24, WIDTH - 24
    points = labels.opponents_points.format(points=view.opponent_points,
                                            threshold=take_over_points(2))
    points_w = width_of(points, DETAIL, bold=True)
    points_bar(draw, view.opponent_points, (right - max(points_w, 180), 56, right, 64))
    text(draw, (right, 30), points, DETAIL, WHITE, bold=True, anchor="rm")
    parts = title_parts(labels.level.format(rank=str(level)),
                        (trump_parts(trump, labels, so_far=trump_so_far(view)),
                         trump_parts(trump, labels)), right - left - points_w - 16)
    rich(draw, (left, 32), parts, 32, WHITE, bold=True, four_colour=four_colour)
    teams = (labels.team_a, labels.team_b)
    x = float(right)
    for team in (1, 0):
        value = labels.team_level.format(team=teams[team], rank=str(view.levels[team]))
        colour = GOLD if declarer_team == team else WHITE
        x -= text(draw, (x, 84), value, DETAIL, colour, bold=True, anchor="rm") + 22
    how = trump_words(view, seats, labels)
    text(draw, (left, 84), fit_first(how, DETAIL, x - left), DETAIL, MUTED, anchor="lm")


def last_trick_tiles(plays: Sequence[Sequence[Card]], room: float) -> tuple[int, bool, float]:
    """The tiles' card width, whether copies stack, and the step for the last trick's plays
    in `room` px (issue 38: two 10♣ read "1010"): the first of `TILE_CARDS` whose step keeps
    every rank whole (`RANK_STEP`), else copies stacked, else the smallest tiles, stacked."""
    for stack in (False, True):
        for width in TILE_CARDS:
            step = tiles_step(plays, width, room, stack=stack)
            if step >= width * RANK_STEP:
                return width, stack, step
    width = TILE_CARDS[-1]
    return width, True, tiles_step(plays, width, room, stack=True)


def _draw_last_trick(image: Image.Image, draw: ImageDraw.ImageDraw, trick: Trick,
                     trump: Trump | None, level: Rank, four_colour: bool,
                     labels: Labels) -> None:
    """The last trick as rows of index tiles, in play order, each after its seat number;
    the winner's in gold."""
    box = _LAST
    draw.rounded_rectangle(box, radius=14, fill=PANEL)
    x0 = box[0] + 14
    text(draw, (x0, box[1] + 22), labels.last_trick, DETAIL, MUTED, bold=True, anchor="lm")
    plays = [(seat, sort_hand(cards, trump, level))
             for seat, cards in zip(trick.seats, trick.plays, strict=True)]
    numbers = [width_of(str(seat + 1), DETAIL, bold=True) + 8 for seat, _ in plays]
    room = box[2] - 14 - x0 - sum(numbers) - TILE_GAP * (len(plays) - 1)
    card, stack, step = last_trick_tiles([c for _, c in plays], room)
    tile_h = tile_size(card)[1]
    winner = trick.winning_seat(trump)
    x, y = float(x0), round(box[1]) + 46 + (tile_size(TILE_CARD)[1] - tile_h) // 2
    for seat, cards in plays:
        x += text(draw, (x, y + tile_h / 2), str(seat + 1), DETAIL, WHITE, bold=True,
                  anchor="lm") + 8
        width = tiles_width(cards, card, step, stack=stack)
        if seat == winner:
            draw.rounded_rectangle((x - 4, y - 4, x + width + 4, y + tile_h + 4), radius=8,
                                   fill=GOLD)
        paste_tiles(image, cards, (round(x), y), card, step=step, trump=trump,
                    four_colour=four_colour, labels=labels, stack=stack)
        x += width + TILE_GAP
