"""Parts every table picture shares (four seats or more): who sits where, the plays shown
in front of the seats, the header's "how trump was set" line and the opponents' points bar."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from bot.render.draw import Box
from bot.render.labels import Labels
from bot.render.style import DANGER, FELT_DARK, GOLD, WHITE
from engine.cards import Card
from engine.views import PublicView


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """Who sits in a seat (bot-level data; the engine knows seats only by number)."""

    name: str
    computer: bool = False
    autopilot: bool = False


def declarations_shown(view: PublicView) -> dict[int, tuple[Card, ...]]:
    """Each seat's latest declaration shown this deal."""
    shown: dict[int, tuple[Card, ...]] = {}
    for declaration in view.declarations:
        shown[declaration.seat] = declaration.cards
    return shown


def how_trump_was_set(view: PublicView, seats: Sequence[SeatLabel], labels: Labels) -> str:
    """"declared by 小明 (×2)", "turned up from the kitty", or the hand's number before
    trump is set."""
    if view.trump is not None and view.trump_seat is not None and view.standing is not None:
        return labels.declared_by.format(name=seats[view.trump_seat].name,
                                         count=len(view.standing.cards))
    if view.trump is not None and view.revealed:
        return labels.trump_from_kitty
    return labels.hand_number.format(number=view.hand_no)


def points_bar(draw: ImageDraw.ImageDraw, points: int, box: Box, threshold: int = 80) -> None:
    """The opponents' points as a bar (gold, red from `threshold`) with the threshold line in
    white; the bar's full length is twice the threshold (more when they have more)."""
    x0, y0, x1, y1 = box
    top = max(2 * threshold, points)
    draw.rounded_rectangle(box, radius=(y1 - y0) / 2, fill=FELT_DARK)
    if points > 0:
        end = max(x0 + (x1 - x0) * points / top, x0 + (y1 - y0))
        draw.rounded_rectangle((x0, y0, end, y1), radius=(y1 - y0) / 2,
                               fill=DANGER if points >= threshold else GOLD)
    line = x0 + (x1 - x0) * threshold / top
    draw.line((line, y0 - 4, line, y1 + 4), fill=WHITE, width=3)
