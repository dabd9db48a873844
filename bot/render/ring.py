"""The Finding Friends table picture: 4 to 8 seats around a 3 × 3 board.

The viewer's seat sits at the bottom centre; the others follow counter-clockwise (play
order) on the board's rim: bottom, the right column upwards, the top row leftwards, the left
column downwards. The middle cell is the table's centre: the phase and the called cards
("1st A♥ → Bo", "2nd K♠ ?"). Each seat's cell holds its name plate (name, own level, points
won, cards left, its side as far as it is known) and its play, toward the centre (the bottom
row's play above its plate). The header gives the hand's level and trump and the opponents'
points against the 40-per-deck line; the last trick runs across the bottom, on as many rows
as keep its cards readable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
    rich_width,
    row_step,
    text,
    tiles_step,
    tiles_width,
    trump_parts,
    width_of,
)
from bot.render.faces import RANK_STEP, card_height, index_height, tile_size
from bot.render.labels import ENGLISH, Labels
from bot.render.names import NameFit, fit_name
from bot.render.sides import Call, Role, Sides, sides_of
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
)
from engine.cards import Card, Rank, Suit
from engine.game import Phase, Trick
from engine.trump import Trump
from engine.views import PublicView

WIDTH: Final = 720
"""Drawn for a 360 px wide phone screen at twice its resolution."""
MARGIN: Final = 12
GAP: Final = 6  # between cells
CELL_W: Final = (WIDTH - 2 * MARGIN - 2 * GAP) // 3  # 228
HEADER: Final = 104
PLATE_H: Final = 82
NAME_LINE: Final = 32  # a plate grows by this when a name takes two lines
PLATES: Final = (PLATE_H, PLATE_H, PLATE_H)
CARD_W: Final = 76  # the plays' cards (rank ink ≥ 11 px at phone size)
CARD_STEP: Final = 44
MIN_STEP: Final = 27  # below this a play wraps onto more rows (the index stays visible)
PLAY_ROOM: Final = CELL_W - 8  # the widest a play gets in its cell
PLAY_GAP: Final = 8  # between a plate and its play
NAME: Final = 30
DETAIL: Final = 26
BADGE: Final = 26
BADGE_SMALL: Final = 22
"""A role badge's size where the whole word does not fit at `BADGE`."""
CALL: Final = 26
CALL_SMALL: Final = 23  # a called card's line that does not fit at `CALL`
TILE_CARD: Final = 88  # the last trick's tiles are index strips of cards this wide
TILE_GAP: Final = 12
TILE_MIN_STEP: Final = TILE_CARD * RANK_STEP  # the last trick wraps rather than hide a rank
ROW_GAP: Final = 10
CELL: Final = FELT_LIGHT

# Board cells (column, row), in counter-clockwise order from the bottom centre.
B, BR, R, TR, T, TL, L, BL = (1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2)
CENTRE: Final = (1, 1)
SLOTS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    4: (B, R, T, L),
    5: (B, R, TR, TL, L),
    6: (B, R, TR, T, TL, L),
    7: (B, BR, R, TR, TL, L, BL),
    8: (B, BR, R, TR, T, TL, L, BL),
}
_ROLE_BADGE: Final[dict[Role, tuple[RGB, RGB]]] = {
    Role.STARTER: (GOLD, INK), Role.FRIEND: (GOLD, INK), Role.OPPONENT: (MUTED, INK),
}


@dataclass(frozen=True, slots=True)
class Cell:
    """A seat's cell: its plate and the box its play is centred in."""

    plate: Box
    play: Box


def cell_x(column: int) -> int:
    return MARGIN + column * (CELL_W + GAP)


def play_rows(count: int) -> int:
    """Rows a play of `count` cards takes in a cell: one, or as many as keep every card's
    index in sight (a long throw)."""
    per_row = 1 + int((PLAY_ROOM - CARD_W) // MIN_STEP)
    return max(1, -(-count // per_row))


def play_height(count: int) -> int:
    rows = play_rows(count)
    return card_height(CARD_W) + (index_height(CARD_W) + 4) * (rows - 1)


def board_rows(plays: dict[tuple[int, int], int],
               plates: tuple[int, int, int] = PLATES) -> tuple[int, int, int]:
    """The heights of the board's three rows, given the cards played in each cell and the
    plates' height in each row: a plate and a play each, taller where a long throw wraps."""
    base = card_height(CARD_W)
    heights = [base, base, base]
    for (_, row), count in plays.items():
        heights[row] = max(heights[row], play_height(count))
    return tuple(plate + PLAY_GAP + h  # type: ignore[return-value]
                 for plate, h in zip(plates, heights, strict=True))


def plate_rows(seats: int, bottom: int, tall: set[int] | frozenset[int]) -> tuple[int, int, int]:
    """The plates' height in each board row: a line taller in a row where a seat of `tall`
    sits (its name takes two lines)."""
    rows = {SLOTS[seats][(seat - bottom) % seats][1] for seat in tall}
    return tuple(PLATE_H + (NAME_LINE if row in rows else 0)  # type: ignore[return-value]
                 for row in range(3))


def cells(seats: int, bottom: int, heights: Sequence[int],
          plates: Sequence[int] = PLATES) -> dict[int, Cell]:
    """Each seat's cell for a board whose rows are `heights` tall, their plates `plates`."""
    tops = [HEADER, HEADER + heights[0] + ROW_GAP,
            HEADER + heights[0] + heights[1] + 2 * ROW_GAP]
    out: dict[int, Cell] = {}
    for seat in range(seats):
        column, row = SLOTS[seats][(seat - bottom) % seats]
        x, y, plate_h = cell_x(column), tops[row], plates[row]
        if row == 2:  # the bottom row: the play above the plate, toward the centre
            plate = (x, y + heights[2] - plate_h, x + CELL_W, y + heights[2])
            play = (x, y + 4, x + CELL_W, plate[1] - PLAY_GAP)
        else:
            plate = (x, y, x + CELL_W, y + plate_h)
            play = (x, y + plate_h + PLAY_GAP, x + CELL_W, y + heights[row])
        out[seat] = Cell(plate, play)
    return out


def centre_box(heights: Sequence[int]) -> Box:
    x = cell_x(CENTRE[0])
    y = HEADER + heights[0] + ROW_GAP
    return (x, y, x + CELL_W, y + heights[1])


@lru_cache(maxsize=32)
def board(seats: int, heights: tuple[int, int, int], height: int,
          plates: tuple[int, int, int] = PLATES) -> Image.Image:
    """The felt with every seat's cell (a patch of lighter felt) and empty name plate: the
    same for every picture of a table of that shape (shared, never mutate)."""
    image = felt((WIDTH, height)).copy()
    draw = ImageDraw.Draw(image)
    for cell in cells(seats, 0, heights, plates).values():
        box = (cell.plate[0], min(cell.plate[1], cell.play[1]), cell.plate[2],
               max(cell.plate[3], cell.play[3]) + (4 if cell.play[1] > cell.plate[1] else 0))
        draw.rounded_rectangle(box, radius=14, fill=CELL)
        _plate_panel(draw, cell.plate, to_act=False)
    return image


def _plate_panel(draw: ImageDraw.ImageDraw, box: Box, *, to_act: bool) -> None:
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=GOLD if to_act else FELT_LIGHT,
                           width=5 if to_act else 2)


def ring_image(view: PublicView, seats: Sequence[SeatLabel], *, four_colour: bool = True,
               labels: Labels = ENGLISH, bottom: int = 0) -> Image.Image:
    """The N-seat table picture as an RGB image (see `bot.render.table.render_table`)."""
    sides = sides_of(view)
    n = sides.seats
    level = view.level if view.level is not None else Rank.TWO
    trump = shown_trump(view)

    trick, plays, winner = plays_shown(view, n)
    settled = view.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER)

    tall = frozenset(seat for seat in range(n)
                     if len(plate_name(seat, seats[seat], sides, labels).lines) > 1)
    plates = plate_rows(n, bottom, tall)
    heights = board_rows({SLOTS[n][(seat - bottom) % n]: len(cards)
                          for seat, cards in plays.items()}, plates)
    board_end = HEADER + sum(heights) + 2 * ROW_GAP
    last = None if settled and view.trick is None else view.last_trick
    last_rows = _last_rows(last, n, trump, level) if last is not None else []
    height = board_end + (ROW_GAP + _last_height(len(last_rows)) if last_rows else 0) + 14
    image = board(n, heights, height, plates).copy()
    draw = ImageDraw.Draw(image)
    where = cells(n, bottom, heights, plates)

    for seat, cards in plays.items():
        top = _draw_play(image, draw, cards, where[seat].play, trump, level, winner == seat,
                         four_colour, labels)
        if trick is not None and trick.failed_throw is not None \
                and trick.failed_throw.seat == seat:
            box = where[seat].play
            pill(draw, ((box[0] + box[2]) / 2, top - 2), labels.throw_failed, BADGE, DANGER,
                 WHITE, anchor="m")
    if view.turn is not None and view.phase is Phase.PLAYING and view.turn not in plays:
        box = where[view.turn].play
        pill(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), labels.to_play, BADGE,
             WHITE, INK, anchor="m")
    for seat in range(n):
        draw_plate(draw, where[seat].plate, seat, seats[seat], view, sides, labels)
    _draw_centre(draw, centre_box(heights), view, sides, seats, settled, labels, four_colour)
    _draw_header(draw, view, seats, sides, level, trump, four_colour, labels)
    if last_rows:
        assert last is not None
        _draw_last_trick(image, draw, (16, board_end + ROW_GAP, WIDTH - 16, height - 14),
                         last_rows, last.winning_seat(trump), trump, four_colour,
                         labels)
    return image


def _draw_play(image: Image.Image, draw: ImageDraw.ImageDraw, cards: Sequence[Card],
               box: Box, trump: Trump | None, level: Rank, winning: bool, four_colour: bool,
               labels: Labels) -> float:
    """One seat's play centred in `box` (a long throw on more rows); returns its top y."""
    ordered = sort_hand(cards, trump, level)
    count = play_rows(len(ordered))
    ends = [round(len(ordered) * (r + 1) / count) for r in range(count)]
    rows = [ordered[start:end] for start, end in zip([0, *ends[:-1]], ends, strict=True)]
    steps = [row_step(len(row), CARD_W, PLAY_ROOM, CARD_STEP) for row in rows]
    widths = [CARD_W + step * (len(row) - 1) for row, step in zip(rows, steps, strict=True)]
    offset = index_height(CARD_W) + 4
    height = card_height(CARD_W) + offset * (len(rows) - 1)
    cx = (box[0] + box[2]) / 2
    top = round((box[1] + box[3] - height) / 2)
    if winning:
        pad, half_w = 4, max(widths) / 2
        draw.rounded_rectangle((cx - half_w - pad, top - pad, cx + half_w + pad,
                                top + height + pad), radius=10, fill=GOLD)
    for r, (row, step, width) in enumerate(zip(rows, steps, widths, strict=True)):
        paste_row(image, row, (round(cx - width / 2), top + r * offset), CARD_W, step=step,
                  trump=trump, four_colour=four_colour, labels=labels)
    return top


def plate_name(seat: int, label: SeatLabel, sides: Sides, labels: Labels) -> NameFit:
    """The lines of "3. Name" on a seat's plate (see `bot.render.names`): one line beside
    the seat's level, else two, the level beside the second."""
    room = CELL_W - 20
    level = width_of(labels.seat_level.format(rank=str(sides.levels[seat])), DETAIL, bold=True)
    return fit_name(f"{seat + 1}. ", label.name, label.forms, NAME, room - level - 10,
                    (room, room - level - 10))


def draw_plate(draw: ImageDraw.ImageDraw, box: Box, seat: int, label: SeatLabel,
               view: PublicView, sides: Sides, labels: Labels) -> list[Box]:
    """A seat's name plate: "3. Name" (on two lines when it needs them: the plate is then
    `NAME_LINE` taller) and its own level; its side's badge (starter, friend, opponent; none
    while unknown), cards left and kind of player, and the points it won. Returns the boxes
    of what it drew (the badge last, when drawn)."""
    if view.turn == seat or seat in view.awaiting:  # the idle plate is on the board
        _plate_panel(draw, box, to_act=True)
    x, right = box[0] + 10, box[2] - 10
    drawn: list[Box] = []
    name = plate_name(seat, label, sides, labels)
    spare = box[3] - box[1] - PLATE_H - NAME_LINE * (len(name.lines) - 1)
    y1 = box[1] + 25 + max(spare, 0) / 2  # a one-line plate in a taller row: centred
    for line in name.lines:
        name_w = text(draw, (x, y1), line, NAME, WHITE, bold=True, anchor="lm")
        drawn.append((x, y1 - NAME / 2, x + name_w, y1 + NAME / 2))
        y1 += NAME_LINE
    y1 -= NAME_LINE  # the level sits beside the name's last line
    y2 = y1 + 35

    level = labels.seat_level.format(rank=str(sides.levels[seat]))
    level_w = width_of(level, DETAIL, bold=True)
    text(draw, (right, y1), level, DETAIL, WHITE, bold=True, anchor="rm")
    drawn.append((right - level_w, y1 - DETAIL / 2, right, y1 + DETAIL / 2))

    if sides.points:  # the points at the right, then the badge and details in what is left
        points = labels.seat_points.format(points=sides.points[seat])
        won = sides.points[seat] > 0
        points_w = text(draw, (right, y2), points, DETAIL, GOLD if won else MUTED,
                        anchor="rm")
        drawn.append((right - points_w, y2 - DETAIL / 2, right, y2 + DETAIL / 2))
        right -= points_w + 10
    left = float(x)
    badge: Box | None = None
    role = sides.roles[seat]
    if role in _ROLE_BADGE:
        assert role is not None
        fill, ink = _ROLE_BADGE[role]
        word = {Role.STARTER: labels.starter, Role.FRIEND: labels.friend,
                Role.OPPONENT: labels.opponent}[role]
        word, size = badge_fit(word, min(right - x, (box[2] - box[0]) * 0.6))
        badge = pill(draw, (x - 1, y2), word, size, fill, ink, anchor="l")
        left = badge[2] + 8
    kind = labels.autopilot if label.autopilot else labels.computer if label.computer else ""
    cards = labels.cards.format(count=view.cards_left[seat])
    for details in (f"{cards} · {kind}" if kind else cards, cards):  # what fits, whole
        details_w = width_of(details, DETAIL)
        if details_w <= right - left:
            text(draw, (left, y2), details, DETAIL, MUTED, anchor="lm")
            drawn.append((left, y2 - DETAIL / 2, left + details_w, y2 + DETAIL / 2))
            break
    return drawn + ([badge] if badge else [])


def badge_fit(word: str, room: float) -> tuple[str, int]:
    """A role badge's word and size for a pill `room` px wide: whole at `BADGE`, else whole
    a little smaller (a seat's three-digit points leave less room: "Star…", issue 38), cut
    only when even that does not hold it."""
    for size in (BADGE, BADGE_SMALL):
        if width_of(word, size, bold=True) + size * 0.9 <= room:
            return word, size
    return fit(word, BADGE_SMALL, room - BADGE_SMALL * 0.9, bold=True), BADGE_SMALL


def call_parts(call: Call, seats: Sequence[SeatLabel], labels: Labels,
               name_room: float | None = None, size: int = 26, *,
               by_seat: bool = False) -> list[str | Suit]:
    """"1st A♥ → Bo" as text and suit-chip parts (the card's suit drawn as a chip);
    `by_seat`: "1st A♥ → seat 5", the number the seat's plate shows."""
    template = labels.call_open if call.seat is None else \
        labels.call_void if call.void else labels.call_found
    name = "" if call.seat is None else \
        labels.seat_ref.format(number=call.seat + 1) if by_seat else seats[call.seat].name
    if name_room is not None:
        name = fit(name, size, name_room, bold=True)
    before, _, after = template.partition("{card}")
    fill = {"nth": labels.nth(call.copy), "name": name}
    parts: list[str | Suit] = [before.format(**fill) + str(call.card.rank)]
    if call.card.suit is not None:
        parts.append(call.card.suit)
    if after:
        parts.append(after.format(**fill))
    return parts


def _draw_centre(draw: ImageDraw.ImageDraw, box: Box, view: PublicView, sides: Sides,
                 seats: Sequence[SeatLabel], settled: bool, labels: Labels,
                 four_colour: bool) -> None:
    """The phase in the middle of the table and, once made, the called cards."""
    cx = (box[0] + box[2]) / 2
    room = box[2] - box[0] - 8
    centre = ""
    if view.phase is Phase.DECLARING:
        centre = labels.phase_dealing.format(batch=view.batch)
    elif view.phase is Phase.BURYING:
        centre = labels.phase_burying
    elif view.phase is Phase.CALLING:
        centre = labels.phase_calling
    elif view.phase is Phase.PLAYING:
        centre = labels.phase_playing.format(number=view.tricks_played + 1)
    elif settled:
        centre = between_hands_word(view, labels)
    lines = len(sides.calls) + (1 if sides.calls else 0)
    y = (box[1] + box[3]) / 2 - 36 * lines / 2 if lines else (box[1] + box[3]) / 2
    if centre:
        text(draw, (cx, y), fit(centre, 28, room, bold=True), 28, MUTED, bold=True,
             anchor="mm")
    if not sides.calls:
        return
    y += 38
    text(draw, (cx, y), fit(labels.friends_heading, DETAIL, room, bold=True), DETAIL, WHITE,
         bold=True, anchor="mm")
    for call in sides.calls:
        y += 36
        parts, size = fitted_call(call, seats, labels, room)
        width = rich_width(parts, size, bold=True)
        found = call.seat is not None and not call.void
        rich(draw, (cx - min(width, room) / 2, y), parts, size, GOLD if found else WHITE,
             bold=True, four_colour=four_colour)


def fitted_call(call: Call, seats: Sequence[SeatLabel], labels: Labels,
                room: float) -> tuple[list[str | Suit], int]:
    """`call_parts` and the text size that fit `room`: `CALL`, else a little smaller, else
    the friend named by the number on its plate (issue 31 item 7: never a cut name), else
    (a room too narrow even for that) with the player's name shortened."""
    parts = call_parts(call, seats, labels)
    for size in (CALL, CALL_SMALL):
        if rich_width(parts, size, bold=True) <= room:
            return parts, size
    if call.seat is not None and not call.void:
        parts = call_parts(call, seats, labels, by_seat=True)
        for size in (CALL, CALL_SMALL):
            if rich_width(parts, size, bold=True) <= room:
                return parts, size
        parts = call_parts(call, seats, labels)
    extra = rich_width(parts, CALL_SMALL, bold=True) - room
    if call.seat is not None and not call.void:
        name = seats[call.seat].name
        name_room = max(30.0, width_of(name, CALL_SMALL, bold=True) - extra)
        parts = call_parts(call, seats, labels, name_room=name_room, size=CALL_SMALL)
    return parts, CALL_SMALL


def _draw_header(draw: ImageDraw.ImageDraw, view: PublicView, seats: Sequence[SeatLabel],
                 sides: Sides, level: Rank, trump: Trump | None, four_colour: bool,
                 labels: Labels) -> None:
    """The hand's level and trump, the opponents' points over a bar with their line; how
    trump was set."""
    left, right = 24, WIDTH - 24
    points = labels.opponents_points.format(points=view.opponent_points,
                                            threshold=sides.threshold)
    points_w = width_of(points, 28, bold=True)
    points_bar(draw, view.opponent_points, (right - max(points_w, 180), 56, right, 64),
               sides.threshold)
    text(draw, (right, 30), points, 28, WHITE, bold=True, anchor="rm")
    parts = title_parts(labels.level.format(rank=str(level)),
                        (trump_parts(trump, labels, so_far=trump_so_far(view)),
                         trump_parts(trump, labels)), right - left - points_w - 16)
    rich(draw, (left, 32), parts, 32, WHITE, bold=True, four_colour=four_colour)
    how = trump_words(view, seats, labels)
    text(draw, (left, 84), fit_first(how, 28, right - left), 28, MUTED, anchor="lm")


@dataclass(frozen=True, slots=True)
class _Row:
    plays: tuple[tuple[int, tuple[Card, ...]], ...]
    step: float
    stack: bool = False
    """Copies of a card stacked (see `bot.render.draw.tile_offsets`)."""


def _last_rows(trick: Trick, seats: int, trump: Trump | None, level: Rank) -> list[_Row]:
    """The last trick's plays split into as few rows as keep every tile's rank whole
    (`TILE_MIN_STEP`), in each number of rows first side by side, then with copies of a
    card stacked (a pair shows one rank over a second card's edge)."""
    plays = [(seat, tuple(sort_hand(cards, trump, level)))
             for seat, cards in zip(trick.seats, trick.plays, strict=True)]
    room = WIDTH - 32 - 28
    best: list[_Row] = []
    for count in range(1, len(plays) + 1):
        size = -(-len(plays) // count)
        chunks = [plays[i:i + size] for i in range(0, len(plays), size)]
        for stack in (False, True):
            best = [_Row(tuple(chunk), _tile_step(chunk, room, stack), stack)
                    for chunk in chunks]
            if min(row.step for row in best) >= TILE_MIN_STEP:
                return best
    return best


def _tile_step(plays: Sequence[tuple[int, tuple[Card, ...]]], room: float,
               stack: bool) -> float:
    numbers = sum(width_of(str(seat + 1), DETAIL, bold=True) + 8 for seat, _ in plays)
    return tiles_step([cards for _, cards in plays], TILE_CARD,
                      room - numbers - TILE_GAP * (len(plays) - 1), stack=stack)


def _last_height(rows: int) -> int:
    _, tile_h = tile_size(TILE_CARD)
    return 46 + rows * tile_h + (rows - 1) * 10 + 12


def _draw_last_trick(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box,
                     rows: Sequence[_Row], winner: int, trump: Trump | None,
                     four_colour: bool, labels: Labels) -> None:
    """The last trick as rows of index tiles in play order, each after its seat number;
    the winner's in gold."""
    draw.rounded_rectangle(box, radius=14, fill=PANEL)
    x0 = box[0] + 14
    text(draw, (x0, box[1] + 22), labels.last_trick, DETAIL + 4, MUTED, bold=True,
         anchor="lm")
    _, tile_h = tile_size(TILE_CARD)
    y = round(box[1]) + 44
    for row in rows:
        x = float(x0)
        step = max(row.step, 8.0)
        for seat, cards in row.plays:
            x += text(draw, (x, y + tile_h / 2), str(seat + 1), DETAIL + 4, WHITE, bold=True,
                      anchor="lm") + 8
            width = tiles_width(cards, TILE_CARD, step, stack=row.stack)
            if seat == winner:
                draw.rounded_rectangle((x - 4, y - 4, x + width + 4, y + tile_h + 4), radius=8,
                                       fill=GOLD)
            paste_tiles(image, cards, (round(x), y), TILE_CARD, step=step, trump=trump,
                        four_colour=four_colour, labels=labels, stack=row.stack)
            x += width + TILE_GAP
        y += tile_h + 10
