"""The hand summary: the kitty revealed, its score, the opponents' total against the R10
table, and both teams' new levels."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.render.draw import Box, felt, fit, paste_row, rich, rich_width, text, trump_parts
from bot.render.labels import ENGLISH, Labels
from bot.render.sorting import sort_hand
from bot.render.style import DANGER, FELT_DARK, GOLD, INK, MUTED, PANEL, WHITE, to_png
from bot.render.table import SeatLabel, winning_seat
from engine.cards import Card, Rank
from engine.events import HandSettled, KittyRevealed, Side
from engine.trump import Trump
from engine.views import PublicView

WIDTH: Final = 800
HEIGHT: Final = 500
KITTY_W: Final = 70
KITTY_STEP: Final = 54


@dataclass(frozen=True, slots=True)
class HandSummary:
    """What the summary shows (all public once the hand is settled)."""

    hand_no: int
    level: Rank
    trump: Trump | None
    starter: int
    kitty: tuple[Card, ...]
    kitty_points: int
    kitty_multiplier: int
    kitty_scored: int
    kitty_counted: bool
    """Whether the opponents won the last trick, so the kitty counted for them (R10)."""
    opponent_points: int
    side: Side
    levels_gained: int
    levels: tuple[Rank, Rank]
    new_levels: tuple[Rank, Rank]
    next_starter: int
    match_winner: int | None = None

    @property
    def declarer_team(self) -> int:
        return self.starter % 2

    @classmethod
    def from_view(cls, view: PublicView) -> HandSummary:
        """From the public view right after settlement (`view.result` set)."""
        result = view.result
        if result is None or view.starter is None or view.level is None:
            raise ValueError("the hand is not settled yet: view.result is None")
        counted = result.kitty_scored > 0
        if view.last_trick is not None:
            counted = winning_seat(view.last_trick, view.trump) % 2 != view.starter % 2
        return cls(hand_no=view.hand_no, level=view.level, trump=view.trump,
                   starter=view.starter, kitty=result.kitty, kitty_points=result.kitty_points,
                   kitty_multiplier=result.kitty_multiplier, kitty_scored=result.kitty_scored,
                   kitty_counted=counted, opponent_points=result.opponent_points,
                   side=result.side, levels_gained=result.levels_gained, levels=result.levels,
                   new_levels=result.new_levels, next_starter=result.next_starter,
                   match_winner=result.match_winner)

    @classmethod
    def from_events(cls, revealed: KittyRevealed, settled: HandSettled, *, level: Rank,
                    trump: Trump | None, starter: int, match_winner: int | None = None,
                    kitty_counted: bool | None = None) -> HandSummary:
        """From the `KittyRevealed` and `HandSettled` events (plus the hand's level, trump and
        starter). `kitty_counted` defaults to "the kitty scored points"."""
        return cls(hand_no=settled.hand_no, level=level, trump=trump, starter=starter,
                   kitty=revealed.cards, kitty_points=revealed.points,
                   kitty_multiplier=revealed.multiplier, kitty_scored=revealed.scored,
                   kitty_counted=revealed.scored > 0 if kitty_counted is None else kitty_counted,
                   opponent_points=settled.opponent_points, side=settled.side,
                   levels_gained=settled.levels_gained, levels=settled.levels,
                   new_levels=settled.new_levels, next_starter=settled.next_starter,
                   match_winner=match_winner)


def render_summary(summary: HandSummary | PublicView, seats: Sequence[SeatLabel], *,
                   four_colour: bool = True, labels: Labels = ENGLISH) -> bytes:
    """The end-of-hand summary as a palette PNG (800×500). Takes a `HandSummary` or the
    public view right after settlement."""
    if isinstance(summary, PublicView):
        summary = HandSummary.from_view(summary)
    if not isinstance(summary, HandSummary):
        raise TypeError(f"render_summary takes a HandSummary or a PublicView, not "
                        f"{type(summary).__name__}")
    return to_png(summary_image(summary, seats, four_colour=four_colour, labels=labels))


def result_rows(points: int, labels: Labels) -> list[tuple[str, str, bool]]:
    """The R10 table as (points, result, is this hand's row) rows. The last row follows the
    points: 200–235 → +3, 240–275 → +4 …"""
    rows = [
        ("0", labels.result_declarers.format(levels=3), points <= 0),
        ("5–35", labels.result_declarers.format(levels=2), 0 < points < 40),
        ("40–75", labels.result_declarers.format(levels=1), 40 <= points < 80),
        ("80–115", labels.result_swap, 80 <= points < 120),
        ("120–155", labels.result_swap_up.format(levels=1), 120 <= points < 160),
        ("160–195", labels.result_swap_up.format(levels=2), 160 <= points < 200),
    ]
    extra = max(0, (points - 200) // 40)
    low = 200 + 40 * extra
    rows.append((f"{low}–{low + 35}", labels.result_swap_up.format(levels=3 + extra),
                 points >= 200))
    return rows


def summary_image(summary: HandSummary, seats: Sequence[SeatLabel], *, four_colour: bool = True,
                  labels: Labels = ENGLISH) -> Image.Image:
    """The summary picture as an RGB image (see `render_summary`)."""
    image = felt((WIDTH, HEIGHT)).copy()
    draw = ImageDraw.Draw(image)
    x = 28
    text(draw, (x, 38), labels.result_title.format(number=summary.hand_no), 26, WHITE,
         bold=True, anchor="lm")
    level_text = labels.level.format(rank=str(summary.level)) + "  ·  "
    parts = [level_text, *trump_parts(summary.trump, labels)]
    rich(draw, (WIDTH - 28 - rich_width(parts, 20, bold=True), 38), parts, 20, WHITE,
         bold=True, four_colour=four_colour)

    # The kitty.
    box: Box = (16, 66, 486, 258)
    draw.rounded_rectangle(box, radius=12, fill=PANEL)
    text(draw, (x, 86), labels.kitty, 17, MUTED, bold=True, anchor="lm")
    kitty = sort_hand(summary.kitty, summary.trump, summary.level)
    paste_row(image, kitty, (x, 102), KITTY_W, step=KITTY_STEP, trump=summary.trump,
              four_colour=four_colour, labels=labels)
    if summary.kitty_counted:
        line = labels.kitty_scored.format(points=summary.kitty_points,
                                          multiplier=summary.kitty_multiplier,
                                          total=summary.kitty_scored)
    else:
        line = labels.kitty_not_scored.format(points=summary.kitty_points)
    text(draw, (x, 230), fit(line, 17, box[2] - x - 10, bold=True), 17,
         GOLD if summary.kitty_scored else WHITE, bold=True, anchor="lm")

    # The opponents' total against the 80 line.
    box = (16, 270, 486, 350)
    draw.rounded_rectangle(box, radius=12, fill=PANEL)
    points = summary.opponent_points
    text(draw, (x, 294), labels.opponents_total.format(points=points), 22, WHITE, bold=True,
         anchor="lm")
    x0, x1, y0, y1 = x, box[2] - 12, 318, 336
    top = max(160, points)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=9, fill=FELT_DARK)
    if points > 0:
        end = x0 + (x1 - x0) * points / top
        draw.rounded_rectangle((x0, y0, max(end, x0 + 18), y1), radius=9,
                               fill=DANGER if points >= 80 else GOLD)
    line_x = x0 + (x1 - x0) * 80 / top
    draw.line((line_x, y0 - 5, line_x, y1 + 5), fill=WHITE, width=3)

    # New levels.
    box = (16, 362, 486, 484)
    draw.rounded_rectangle(box, radius=12, fill=PANEL)
    text(draw, (x, 382), labels.new_levels, 17, MUTED, bold=True, anchor="lm")
    teams = (labels.team_a, labels.team_b)
    up_team = summary.declarer_team if summary.side == "declarers" else 1 - summary.declarer_team
    for team in (0, 1):
        y = 414 + team * 32
        old, new = summary.levels[team], summary.new_levels[team]
        members = f" ({seats[team].name} & {seats[team + 2].name})" if len(seats) == 4 else ""
        name = fit(teams[team] + members, 18, 300, bold=True)
        text(draw, (x, y), name, 18, WHITE, bold=True, anchor="lm")
        value = f"{old} → {new}" if new != old else str(new)
        colour = GOLD if team == up_team and (new != old or summary.match_winner == team) \
            else WHITE
        text(draw, (box[2] - 14, y), value, 24, colour, bold=True, anchor="rm")
    starter_name = seats[summary.next_starter].name if len(seats) == 4 else \
        str(summary.next_starter + 1)
    if summary.match_winner is not None:
        banner = labels.match_won.format(team=teams[summary.match_winner])
        text(draw, (x, 470), fit(banner, 17, 440, bold=True), 17, GOLD, bold=True,
             anchor="lm")
    else:
        text(draw, (x, 470), fit(labels.next_starter.format(name=starter_name), 15, 440), 15,
             MUTED, anchor="lm")

    # The R10 table with this hand's row marked.
    box = (500, 66, 784, 484)
    draw.rounded_rectangle(box, radius=12, fill=PANEL)
    row_h = 56
    for i, (span, result, current) in enumerate(result_rows(points, labels)):
        y = 94 + i * row_h
        if current:
            draw.rounded_rectangle((box[0] + 6, y - row_h / 2 + 4, box[2] - 6, y + row_h / 2 - 4),
                                   radius=8, fill=GOLD)
        ink = INK if current else WHITE
        text(draw, (box[0] + 16, y - 10), span, 18, ink, bold=True, anchor="lm")
        text(draw, (box[0] + 16, y + 12), fit(result, 16, box[2] - box[0] - 30), 16,
             ink if current else MUTED, bold=current, anchor="lm")
    return image
