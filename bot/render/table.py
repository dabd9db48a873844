"""The table image: four seats, the trick in front of them, the last trick, the score."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.render.draw import Box, felt, fit, paste_row, pill, rich, row_step, text, trump_parts
from bot.render.faces import card_height
from bot.render.labels import ENGLISH, Labels
from bot.render.sorting import sort_hand
from bot.render.style import (
    DANGER,
    FELT_DARK,
    FELT_LIGHT,
    GOLD,
    INK,
    MUTED,
    PANEL,
    WHITE,
    to_png,
)
from engine.cards import Card, Rank
from engine.game import Phase, Trick
from engine.trump import Trump
from engine.views import PublicView

WIDTH: Final = 800
HEIGHT: Final = 560
CARD_W: Final = 64
CARD_STEP: Final = 42
MIN_STEP: Final = 22  # below this a play wraps onto two rows
ROW_OFFSET: Final = 40
SMALL_W: Final = 34
SMALL_STEP: Final = 16
PLATE_W: Final = 176
PLATE_H: Final = 58

# Screen positions, by place: 0 bottom, 1 right, 2 top, 3 left (play runs counter-clockwise).
_PLATE_CENTRE: Final = ((400, 522), (706, 290), (400, 40), (94, 290))
_TRICK_CENTRE: Final = ((400, 430), (526, 290), (400, 128), (274, 290))
_TRICK_ROOM: Final = (280, 176, 280, 176)
_MINI_CENTRE: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """Who sits in a seat (bot-level data; the engine knows seats only as 0–3)."""

    name: str
    computer: bool = False
    autopilot: bool = False


def render_table(view: PublicView, seats: Sequence[SeatLabel], *, four_colour: bool = True,
                 labels: Labels = ENGLISH, bottom: int = 0) -> bytes:
    """The public table as a palette PNG (800×560).

    Takes the public view only: what spectators may see. `seats` names seats 0–3; `bottom`
    is the seat drawn at the bottom (e.g. the viewer's), the others follow counter-clockwise.
    """
    if not isinstance(view, PublicView):
        raise TypeError(f"render_table takes a PublicView (public information only), not "
                        f"{type(view).__name__}")
    if len(seats) != 4:
        raise ValueError(f"seats names the 4 seats, got {len(seats)}")
    return to_png(table_image(view, seats, four_colour=four_colour, labels=labels,
                              bottom=bottom))


def winning_seat(trick: Trick, trump: Trump | None) -> int:
    """The seat winning `trick` so far, or that won it (R9)."""
    return trick.leader if trump is None else trick.winning_seat(trump)


def _declarations(view: PublicView) -> dict[int, tuple[Card, ...]]:
    """Each seat's latest declaration shown this deal."""
    shown: dict[int, tuple[Card, ...]] = {}
    for declaration in view.declarations:
        shown[declaration.seat] = declaration.cards
    return shown


def table_image(view: PublicView, seats: Sequence[SeatLabel], *, four_colour: bool = True,
                labels: Labels = ENGLISH, bottom: int = 0) -> Image.Image:
    """The table picture as an RGB image (see `render_table`)."""
    image = felt((WIDTH, HEIGHT)).copy()
    draw = ImageDraw.Draw(image)
    level = view.level if view.level is not None else Rank.TWO
    trump = view.trump
    declarer_team = view.declarer_team
    place = {seat: (seat - bottom) % 4 for seat in range(4)}

    # The plays in front of the seats: the trick, or the shown declarations while dealing.
    trick: Trick | None = view.trick
    settled = view.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER)
    if trick is None and settled:
        trick = view.last_trick
    plays: dict[int, tuple[Card, ...]] = {}
    winner: int | None = None
    if trick is not None:
        plays = dict(zip(trick.seats, trick.plays, strict=True))
        winner = winning_seat(trick, trump)
    elif view.phase is Phase.DECLARING:
        plays = _declarations(view)
        standing = view.standing
        winner = standing.seat if standing is not None else None
    for seat, cards in plays.items():
        _draw_play(image, draw, cards, place[seat], trump, level, winner == seat, four_colour,
                   labels)
    if trick is not None and trick.failed_throw is not None:
        cx, cy = _TRICK_CENTRE[place[trick.failed_throw.seat]]
        pill(draw, (cx, cy - card_height(CARD_W) / 2 - 12), labels.throw_failed, 13, DANGER,
             WHITE, anchor="m")

    # The centre: what is going on when no cards are out.
    centre = ""
    if view.phase is Phase.DECLARING:
        centre = labels.phase_dealing.format(batch=view.batch)
    elif view.phase is Phase.BURYING:
        centre = labels.phase_burying
    elif view.phase is Phase.PLAYING and view.trick is None:
        centre = labels.phase_playing.format(number=view.tricks_played + 1)
    elif settled:
        centre = labels.phase_settled
    if centre:
        text(draw, (400, 290), centre, 20, MUTED, bold=True, anchor="mm")

    for seat in range(4):
        _draw_plate(draw, seat, place[seat], seats[seat], view, declarer_team, labels)

    _draw_info(draw, view, seats, level, trump, declarer_team, four_colour, labels)
    if view.last_trick is not None and not (settled and view.trick is None):
        _draw_last_trick(image, draw, view.last_trick, place, trump, level, four_colour, labels)
    _draw_points(draw, view, labels)
    return image


def _draw_play(image: Image.Image, draw: ImageDraw.ImageDraw, cards: Sequence[Card], where: int,
               trump: Trump | None, level: Rank, winning: bool, four_colour: bool,
               labels: Labels) -> None:
    """One seat's play in front of it; a long throw goes on two rows."""
    ordered = sort_hand(cards, trump, level)
    room = _TRICK_ROOM[where]
    rows = [ordered]
    if row_step(len(ordered), CARD_W, room, CARD_STEP) < MIN_STEP:
        half = (len(ordered) + 1) // 2
        rows = [ordered[:half], ordered[half:]]
    steps = [row_step(len(row), CARD_W, room, CARD_STEP) for row in rows]
    widths = [CARD_W + step * (len(row) - 1) for row, step in zip(rows, steps, strict=True)]
    height = card_height(CARD_W) + ROW_OFFSET * (len(rows) - 1)
    cx, cy = _TRICK_CENTRE[where]
    top = round(cy - card_height(CARD_W) / 2)  # the top seat's play grows downwards,
    if where == 0:  # the bottom seat's upwards, the side seats' both ways
        top = round(cy + card_height(CARD_W) / 2 - height)
    elif where != 2:
        top = round(cy - height / 2)
    if winning:
        pad, half_w = 5, max(widths) / 2
        draw.rounded_rectangle((cx - half_w - pad, top - pad, cx + half_w + pad,
                                top + height + pad), radius=10, fill=GOLD)
    for r, (row, step, width) in enumerate(zip(rows, steps, widths, strict=True)):
        paste_row(image, row, (round(cx - width / 2), top + r * ROW_OFFSET), CARD_W, step=step,
                  trump=trump, four_colour=four_colour, labels=labels)


def _draw_plate(draw: ImageDraw.ImageDraw, seat: int, where: int, label: SeatLabel,
                view: PublicView, declarer_team: int | None, labels: Labels) -> None:
    cx, cy = _PLATE_CENTRE[where]
    box = (cx - PLATE_W / 2, cy - PLATE_H / 2, cx + PLATE_W / 2, cy + PLATE_H / 2)
    to_act = view.turn == seat or seat in view.awaiting
    outline = GOLD if to_act else FELT_LIGHT
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=outline, width=3 if to_act else 2)
    name = fit(f"{seat + 1}. {label.name}", 19, PLATE_W - 20, bold=True)
    text(draw, (box[0] + 10, cy - 11), name, 19, WHITE, bold=True, anchor="lm")
    details = [labels.cards.format(count=view.cards_left[seat])]
    if label.autopilot:
        details.append(labels.autopilot)
    elif label.computer:
        details.append(labels.computer)
    text(draw, (box[0] + 10, cy + 14), fit("  ·  ".join(details), 15, PLATE_W - 20), 15, MUTED,
         anchor="lm")
    badge_y = box[1] - 2 if where != 2 else box[3] + 2
    if view.starter == seat:
        pill(draw, (box[2] - 6, badge_y), labels.starter, 13, GOLD, INK, anchor="r")
    elif declarer_team is not None and seat % 2 == declarer_team:
        pill(draw, (box[2] - 6, badge_y), labels.declarer, 13, MUTED, INK, anchor="r")
    if view.turn == seat and view.phase is Phase.PLAYING:
        pill(draw, (box[0] + 6, badge_y), labels.to_play, 13, WHITE, INK, anchor="l")


def _draw_info(draw: ImageDraw.ImageDraw, view: PublicView, seats: Sequence[SeatLabel],
               level: Rank, trump: Trump | None, declarer_team: int | None, four_colour: bool,
               labels: Labels) -> None:
    box: Box = (16, 14, 258, 184)
    draw.rounded_rectangle(box, radius=12, fill=PANEL)
    x = box[0] + 12
    text(draw, (x, 34), labels.hand_number.format(number=view.hand_no), 16, MUTED, bold=True,
         anchor="lm")
    text(draw, (x, 64), labels.level.format(rank=str(level)), 24, WHITE, bold=True, anchor="lm")
    rich(draw, (x, 98), trump_parts(trump, labels), 22, WHITE, bold=True,
         four_colour=four_colour)
    how = ""
    if trump is not None and view.trump_seat is not None and view.standing is not None:
        how = labels.declared_by.format(name=seats[view.trump_seat].name,
                                        count=len(view.standing.cards))
    elif trump is not None and view.revealed:
        how = labels.trump_from_kitty
    if how:
        text(draw, (x, 126), fit(how, 15, box[2] - x - 10), 15, MUTED, anchor="lm")
    teams = (labels.team_a, labels.team_b)
    for team in (0, 1):
        x0 = x + team * 118
        value = labels.team_level.format(team=teams[team], rank=str(view.levels[team]))
        colour = GOLD if declarer_team == team else WHITE
        text(draw, (x0, 160), fit(value, 16, 112, bold=True), 16, colour, bold=True,
             anchor="lm")


def _draw_last_trick(image: Image.Image, draw: ImageDraw.ImageDraw, trick: Trick,
                     place: dict[int, int], trump: Trump | None, level: Rank,
                     four_colour: bool, labels: Labels) -> None:
    box: Box = (566, 14, 786, 200)
    draw.rounded_rectangle(box, radius=12, fill=PANEL)
    text(draw, (box[0] + 12, 32), labels.last_trick, 16, MUTED, bold=True, anchor="lm")
    cx, cy = (box[0] + box[2]) / 2, 122
    h = card_height(SMALL_W)
    winner = winning_seat(trick, trump)
    for seat, cards in zip(trick.seats, trick.plays, strict=True):
        dx, dy = _MINI_CENTRE[place[seat]]
        ordered = sort_hand(cards, trump, level)
        step = row_step(len(ordered), SMALL_W, 100, SMALL_STEP)
        width = SMALL_W + step * (len(ordered) - 1)
        x0 = round(cx + dx * 52 - width / 2)
        y0 = round(cy + dy * 36 - h / 2)
        if seat == winner:
            draw.rounded_rectangle((x0 - 3, y0 - 3, x0 + width + 3, y0 + h + 3), radius=6,
                                   fill=GOLD)
        paste_row(image, ordered, (x0, y0), SMALL_W, step=step, trump=trump,
                  four_colour=four_colour, labels=labels)


def _draw_points(draw: ImageDraw.ImageDraw, view: PublicView, labels: Labels) -> None:
    box: Box = (16, 472, 298, 546)
    draw.rounded_rectangle(box, radius=12, fill=PANEL)
    points = view.opponent_points
    text(draw, (box[0] + 12, 494), labels.opponents_points.format(points=points), 18, WHITE,
         bold=True, anchor="lm")
    x0, x1, y0, y1 = box[0] + 12, box[2] - 12, 514, 530
    top = max(160, points)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=8, fill=FELT_DARK)
    fill_to = x0 + (x1 - x0) * min(points, top) / top
    if points > 0:
        colour = DANGER if points >= 80 else GOLD
        draw.rounded_rectangle((x0, y0, max(fill_to, x0 + 16), y1), radius=8, fill=colour)
    line = x0 + (x1 - x0) * 80 / top
    draw.line((line, y0 - 4, line, y1 + 4), fill=WHITE, width=3)
