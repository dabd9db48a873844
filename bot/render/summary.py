"""The hand summary: the kitty revealed, its score, the opponents' total against the R10
table, and both teams' new levels; in Finding Friends, the final sides (the starter and its
friends) and every seat's level before → after, against the table scaled to the decks
(the opponents need 40 points per deck, levels step every 20 per deck, F5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.render.board import SeatLabel
from bot.render.draw import (
    Box,
    felt,
    fit,
    paste_row,
    pill,
    rich,
    rich_width,
    row_step,
    text,
    trump_parts,
    width_of,
)
from bot.render.labels import ENGLISH, Labels
from bot.render.sides import kitty_to_opponents, sides_of
from bot.render.sorting import sort_hand
from bot.render.style import DANGER, FELT_DARK, GOLD, INK, MUTED, PANEL, WHITE, to_png
from engine.cards import Rank
from engine.deal import level_step
from engine.events import HandSettled, KittyRevealed
from engine.game import HandResult
from engine.trump import Trump
from engine.variant import find_variant
from engine.views import PublicView

WIDTH: Final = 720
"""Drawn for a 360 px wide phone screen at twice its resolution."""
HEIGHT: Final = 700
KITTY_W: Final = 96
DETAIL: Final = 28

TEAMS = find_variant("teams")
"""The teams picture's questions (its seats' teams, the winning team)."""


@dataclass(frozen=True, slots=True)
class HandSummary:
    """What the summary shows (all public once the hand is settled): the engine's
    `HandResult` and the hand it settles."""

    hand_no: int
    level: Rank
    trump: Trump | None
    starter: int
    result: HandResult
    kitty_counted: bool
    """Whether the opponents won the last trick, so the kitty counted for them (R10)."""
    friends: bool = False
    """Finding Friends: levels per seat, sides from the calls."""
    decks: int = 2
    declarer_seats: tuple[int, ...] = ()
    """The starter's final side (its team; Finding Friends: the starter and its friends)."""

    @property
    def declarer_team(self) -> int:
        team = TEAMS.team_of(self.starter)
        assert team is not None
        return team

    @property
    def step(self) -> int:
        """The points per level step: 20 per deck (40 with two decks, R10)."""
        return level_step(self.decks)

    @classmethod
    def from_view(cls, view: PublicView) -> HandSummary:
        """From the public view right after settlement (`view.result` set)."""
        result = view.result
        if result is None or view.starter is None or view.level is None:
            raise ValueError("the hand is not settled yet: view.result is None")
        sides = sides_of(view)
        return cls(hand_no=view.hand_no, level=view.level, trump=view.trump,
                   starter=view.starter, result=result, kitty_counted=kitty_to_opponents(view),
                   friends=sides.friends, decks=sides.decks,
                   declarer_seats=result.declarer_seats or (view.starter,))

    @classmethod
    def from_events(cls, revealed: KittyRevealed, settled: HandSettled, *, level: Rank,
                    trump: Trump | None, starter: int, match_winner: int | None = None,
                    kitty_counted: bool | None = None, friends: bool = False, decks: int = 2,
                    declarer_seats: tuple[int, ...] = ()) -> HandSummary:
        """From the `KittyRevealed` and `HandSettled` events (plus the hand's level, trump and
        starter; in Finding Friends also the decks and the final side). `kitty_counted`
        defaults to "the kitty scored points"."""
        result = HandResult(
            seed=settled.seed, kitty=revealed.cards, kitty_points=revealed.points,
            kitty_multiplier=revealed.multiplier, kitty_scored=revealed.scored,
            opponent_points=settled.opponent_points, side=settled.side,
            levels_gained=settled.levels_gained, levels=settled.levels,
            new_levels=settled.new_levels, next_starter=settled.next_starter,
            match_winner=match_winner, declarer_seats=declarer_seats)
        return cls(hand_no=settled.hand_no, level=level, trump=trump, starter=starter,
                   result=result,
                   kitty_counted=revealed.scored > 0 if kitty_counted is None else kitty_counted,
                   friends=friends, decks=decks, declarer_seats=declarer_seats)


def render_summary(summary: HandSummary | PublicView, seats: Sequence[SeatLabel], *,
                   four_colour: bool = True, labels: Labels = ENGLISH) -> bytes:
    """The end-of-hand summary as a palette PNG (720×700, drawn for a phone; taller in
    Finding Friends, a row per seat). Takes a `HandSummary` or the public view right after
    settlement."""
    if isinstance(summary, PublicView):
        summary = HandSummary.from_view(summary)
    if not isinstance(summary, HandSummary):
        raise TypeError(f"render_summary takes a HandSummary or a PublicView, not "
                        f"{type(summary).__name__}")
    return to_png(summary_image(summary, seats, four_colour=four_colour, labels=labels))


def result_rows(points: int, labels: Labels, step: int = 40) -> list[tuple[str, str, bool]]:
    """The R10 table as (points, result, is this hand's row) rows, its steps `step` points
    apart (40 with two decks; 20 per deck, F5). The last row follows the points:
    200–235 → +3, 240–275 → +4 …"""
    def span(k: int) -> str:
        return f"{k * step}–{(k + 1) * step - 5}"

    rows = [
        ("0", labels.result_declarers.format(levels=3), points <= 0),
        (f"5–{step - 5}", labels.result_declarers.format(levels=2), 0 < points < step),
        (span(1), labels.result_declarers.format(levels=1), step <= points < 2 * step),
        (span(2), labels.result_swap, 2 * step <= points < 3 * step),
        (span(3), labels.result_swap_up.format(levels=1), 3 * step <= points < 4 * step),
        (span(4), labels.result_swap_up.format(levels=2), 4 * step <= points < 5 * step),
    ]
    extra = max(0, (points - 5 * step) // step)
    rows.append((span(5 + extra), labels.result_swap_up.format(levels=3 + extra),
                 points >= 5 * step))
    return rows


def summary_image(summary: HandSummary, seats: Sequence[SeatLabel], *, four_colour: bool = True,
                  labels: Labels = ENGLISH) -> Image.Image:
    """The summary picture as an RGB image (see `render_summary`)."""
    hand = summary.result
    height = friends_height(len(seats)) if summary.friends else HEIGHT
    image = felt((WIDTH, height)).copy()
    draw = ImageDraw.Draw(image)
    x, right = 30, WIDTH - 30
    title = labels.result_title.format(number=summary.hand_no)
    parts = [labels.level.format(rank=str(summary.level)) + "  ·  ",
             *trump_parts(summary.trump, labels)]
    parts_w = rich_width(parts, 28, bold=True)
    title_w = text(draw, (x, 38), fit(title, 34, right - x, bold=True), 34, WHITE, bold=True,
                   anchor="lm")
    if title_w + 24 + parts_w > right - x:  # no room beside the title: in the kitty panel
        parts = trump_parts(summary.trump, labels)
        parts_w = rich_width(parts, 28, bold=True)
        trump_y = 96
    else:
        trump_y = 38
    rich(draw, (right - parts_w, trump_y), parts, 28, WHITE, bold=True, four_colour=four_colour)

    # The kitty.
    box: Box = (16, 72, 704, 298)
    draw.rounded_rectangle(box, radius=14, fill=PANEL)
    text(draw, (x, 96), labels.kitty, DETAIL, MUTED, bold=True, anchor="lm")
    kitty = sort_hand(hand.kitty, summary.trump, summary.level)
    step = row_step(len(kitty), KITTY_W, right - x, KITTY_W + 8)
    paste_row(image, kitty, (x, 116), KITTY_W, step=step, trump=summary.trump,
              four_colour=four_colour, labels=labels)
    if summary.kitty_counted:
        line = labels.kitty_scored.format(points=hand.kitty_points,
                                          multiplier=hand.kitty_multiplier,
                                          total=hand.kitty_scored)
    else:
        line = labels.kitty_not_scored.format(points=hand.kitty_points)
    text(draw, (x, 274), fit(line, DETAIL, right - x, bold=True), DETAIL,
         GOLD if hand.kitty_scored else WHITE, bold=True, anchor="lm")

    # The opponents' total on the R10 scale, and this hand's row of the table.
    box = (16, 310, 704, 478)
    draw.rounded_rectangle(box, radius=14, fill=PANEL)
    points = hand.opponent_points
    text(draw, (x, 338), fit(labels.opponents_total.format(points=points), 30, right - x,
                             bold=True), 30, WHITE, bold=True, anchor="lm")
    _scale(draw, points, x, right, 366, summary.step)
    for span, result, current in result_rows(points, labels, summary.step):
        if current:
            pill(draw, (x - 4, 448), fit(f"{span}  ·  {result}", DETAIL, right - x - 30,
                                         bold=True), DETAIL, GOLD, INK, anchor="l")

    if summary.friends:
        _seat_levels(draw, summary, seats, labels, (16, 490, 704, height - 16))
        return image

    # New levels.
    box = (16, 490, 704, 684)
    draw.rounded_rectangle(box, radius=14, fill=PANEL)
    text(draw, (x, 514), labels.new_levels, DETAIL, MUTED, bold=True, anchor="lm")
    teams = (labels.team_a, labels.team_b)
    up_team = summary.declarer_team if hand.side == "declarers" else 1 - summary.declarer_team
    won = None if hand.match_winner is None else TEAMS.team_of(hand.match_winner)
    for team in (0, 1):
        y = 554 + team * 44
        old, new = hand.levels[team], hand.new_levels[team]
        value = f"{old} → {new}" if new != old else str(new)
        colour = GOLD if team == up_team and (new != old or won == team) \
            else WHITE
        value_w = text(draw, (right, y), value, 34, colour, bold=True, anchor="rm")
        members = (seats[team], seats[team + 2]) if len(seats) == 4 else ()
        text(draw, (x, y), team_line(teams[team], members, right - x - value_w - 20), 28,
             WHITE, bold=True, anchor="lm")
    starter_name = seats[hand.next_starter].said if len(seats) == 4 else \
        str(hand.next_starter + 1)
    if won is not None:
        banner = labels.match_won.format(team=teams[won])
        text(draw, (x, 654), fit(banner, 28, right - x, bold=True), 28, GOLD, bold=True,
             anchor="lm")
    else:
        text(draw, (x, 654), fit(labels.next_starter.format(name=starter_name), DETAIL,
                                 right - x), DETAIL, MUTED, anchor="lm")
    return image


def team_line(team: str, members: Sequence[SeatLabel], room: float, size: int = 28) -> str:
    """"Team A (Alice & Bo)" in `room` px: the team's word always whole (issue 38: a team
    name was cut), its two players by their shortest agreed names, cut ("…") only when
    both do not fit: the longer one first, neither below half of what is left."""
    if not members:
        return fit(team, size, room, bold=True)
    names = [m.said for m in members]
    line = f"{team} ({names[0]} & {names[1]})"
    if width_of(line, size, bold=True) <= room:
        return line
    rest = room - width_of(f"{team} ( & )", size, bold=True)
    widths = [width_of(name, size, bold=True) for name in names]
    rooms = [max(rest / 2, rest - widths[1]), max(rest / 2, rest - widths[0])]
    a, b = (fit(name, size, r, bold=True) for name, r in zip(names, rooms, strict=True))
    return f"{team} ({a} & {b})"


def _scale(draw: ImageDraw.ImageDraw, points: int, x0: float, x1: float, y0: float,
           step: int = 40) -> None:
    """A bar of the opponents' points with the R10 steps marked every `step` (the take-over
    line, two steps, in white)."""
    top = max(5 * step, -(-points // step) * step)
    threshold = 2 * step
    y1 = y0 + 22
    draw.rounded_rectangle((x0, y0, x1, y1), radius=11, fill=FELT_DARK)
    if points > 0:
        end = x0 + (x1 - x0) * points / top
        draw.rounded_rectangle((x0, y0, max(end, x0 + 22), y1), radius=11,
                               fill=DANGER if points >= threshold else GOLD)
    for mark in range(0, top + 1, step):
        at = x0 + (x1 - x0) * mark / top
        if 0 < mark < top:
            draw.line((at, y0 - 5, at, y1 + 5), fill=WHITE if mark == threshold else MUTED,
                      width=3 if mark == threshold else 2)
        anchor = "lm" if mark == 0 else "rm" if mark == top else "mm"
        text(draw, (at, y1 + 22), str(mark), DETAIL, WHITE if mark == threshold else MUTED,
             bold=mark == threshold, anchor=anchor)


SEAT_ROW: Final = 44


def friends_height(seats: int) -> int:
    """The Finding Friends summary's height: the teams summary's panels, then a row per
    seat."""
    return 490 + 50 + seats * SEAT_ROW + 56 + 16


def _seat_levels(draw: ImageDraw.ImageDraw, summary: HandSummary, seats: Sequence[SeatLabel],
                 labels: Labels, box: Box) -> None:
    """Every seat: its final side's badge, its name and its level before → after (gold for
    the winners), then the match's winner or the next starter."""
    hand = summary.result
    draw.rounded_rectangle(box, radius=14, fill=PANEL)
    x, right = box[0] + 14, box[2] - 14
    text(draw, (x, box[1] + 24), labels.new_levels, DETAIL, MUTED, bold=True, anchor="lm")
    declarers = set(summary.declarer_seats)
    badge_w = max(width_of(word, DETAIL, bold=True) for word in
                  (labels.starter, labels.friend, labels.opponent)) + DETAIL * 0.9
    badge_w = min(badge_w, (right - x) * 0.35)
    for seat in range(len(seats)):
        y = box[1] + 50 + SEAT_ROW // 2 + seat * SEAT_ROW
        old, new = hand.levels[seat], hand.new_levels[seat]
        value = f"{old} → {new}" if new != old else str(new)
        up = new != old or hand.match_winner == seat
        value_w = text(draw, (right, y), value, 30, GOLD if up else WHITE, bold=True,
                       anchor="rm")
        word = labels.starter if seat == summary.starter else \
            labels.friend if seat in declarers else labels.opponent
        fill = GOLD if seat in declarers else MUTED
        pill(draw, (x, y), fit(word, DETAIL, badge_w - DETAIL * 0.9, bold=True), DETAIL, fill,
             INK, anchor="l")
        name_x = x + badge_w + 12
        text(draw, (name_x, y), fit(f"{seat + 1}. {seats[seat].name}", 28,
                                    right - name_x - value_w - 16, bold=True), 28, WHITE,
             bold=True, anchor="lm")
    y = box[3] - 30
    if hand.match_winner is not None:
        banner = labels.match_won.format(team=seats[hand.match_winner].said)
        text(draw, (x, y), fit(banner, 28, right - x, bold=True), 28, GOLD, bold=True,
             anchor="lm")
    else:
        line = labels.next_starter.format(name=seats[hand.next_starter].said)
        text(draw, (x, y), fit(line, DETAIL, right - x), DETAIL, MUTED, anchor="lm")
