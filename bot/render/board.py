"""Parts every table picture shares (four seats or more): who sits where, the plays shown
in front of the seats, the header's "how trump was set" line and the opponents' points bar."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from bot.render.draw import Box, rich_width
from bot.render.labels import Labels
from bot.render.style import DANGER, FELT_DARK, GOLD, WHITE
from engine.cards import Card, Rank, Suit
from engine.declaring import declared_trump
from engine.game import Phase, Trick
from engine.rules import FixedTrump
from engine.trump import Trump
from engine.views import PublicView


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """Who sits in a seat (bot-level data; the engine knows seats only by number)."""

    name: str
    computer: bool = False
    autopilot: bool = False
    forms: tuple[str, ...] = ()
    """Agreed shorter forms of the name, best first, drawn when the name does not fit its
    plate (a computer's name without its level: "Bot 3" for "Bot 3 · strong"): see
    `bot.render.names`."""

    @property
    def said(self) -> str:
        """The name as the texts say it in a sentence: the shortest agreed form (a
        computer's "Bot 3", issue 38: one name per seat in pictures and texts)."""
        return self.forms[-1] if self.forms else self.name

    def __reduce__(self) -> tuple[type[SeatLabel], tuple[str, bool, bool, tuple[str, ...]]]:
        """Pickled as its values (a table picture's job carries one per seat): not field
        by field through `dataclasses.fields`."""
        return SeatLabel, (self.name, self.computer, self.autopilot, self.forms)


def plays_shown(view: PublicView, seats: int
                ) -> tuple[Trick | None, dict[int, tuple[Card, ...]], int | None]:
    """What lies in front of the seats: the trick (the last one once the hand is over), its
    plays by seat and the seat winning it; while dealing, the declarations shown and the
    standing one's seat."""
    trick = view.trick
    if trick is None and view.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
        trick = view.last_trick
    if trick is not None:
        return (trick, dict(zip(trick.seats, trick.plays, strict=True)),
                trick.winning_seat(view.trump))
    if view.phase is Phase.DECLARING:
        standing = view.standing
        return None, declarations_shown(view), None if standing is None else standing.seat
    return None, {}, None


def declarations_shown(view: PublicView) -> dict[int, tuple[Card, ...]]:
    """Each seat's latest declaration shown this deal."""
    shown: dict[int, tuple[Card, ...]] = {}
    for declaration in view.declarations:
        shown[declaration.seat] = declaration.cards
    return shown


def between_hands_word(view: PublicView, labels: Labels) -> str:
    """The centre of the table between hands: "Hand over", or before the first deal
    "Not dealt" (issue 31 item 8: no hand was over yet)."""
    return labels.phase_settled if view.hand_no else labels.phase_waiting


def shown_trump(view: PublicView) -> Trump | None:
    """The trump the header shows: the hand's, or where R12 `fixed_trump` fixes it for the
    match, the table's from before the first deal (issue 38: "Trump not set" while waiting
    at a table whose trump is known)."""
    fixed = view.rules.fixed_trump
    if view.trump is not None or fixed is FixedTrump.NONE:
        return view.trump
    suit = None if fixed is FixedTrump.NO_TRUMP else Suit(fixed.value)
    return Trump(view.level or Rank.TWO, suit)


def trump_so_far(view: PublicView) -> Trump | None:
    """While the cards are dealt, the trump the standing declaration would make (the
    header's "Trump ♥ so far": "Trump not set" read false beside the declared cards)."""
    standing = view.standing
    if view.trump is not None or view.phase is not Phase.DECLARING or standing is None:
        return None
    return declared_trump(standing.cards, view.level or Rank.TWO)


def title_parts(level: str, trumps: Sequence[list[str | Suit]],
                room: float) -> list[str | Suit]:
    """The header's "Level 2  ·  Trump ♥ so far": the first of `trumps` (the same words,
    longest first) that fits `room` px, with a wide separator, else a narrow one."""
    for words in trumps:
        for separator in ("  ·  ", " "):
            parts: list[str | Suit] = [level + separator, *words]
            if rich_width(parts, 32, bold=True) <= room:
                return parts
    return [level + " ", *trumps[-1]]


def trump_words(view: PublicView, seats: Sequence[SeatLabel],
                labels: Labels) -> tuple[str, ...]:
    """"declared by 小明 with 2 cards", "turned up from the kitty", or the hand's number before
    trump is set ("Waiting for the first deal" before the first); the declarer is named as
    the texts name them (a computer without its level, "declared by Bot 3", issue 38). Then
    shorter words saying the same where those do not fit: a declaration without its count
    of cards ("declared by Bot 3 with 2 ···" was cut in every four-player picture of a pair
    declared, issue 38)."""
    if view.trump is not None and view.trump_seat is not None and view.standing is not None:
        name = seats[view.trump_seat].said
        short = labels.declared_by.format(name=name)
        count = len(view.standing.cards)
        if count == 1:
            return (short,)
        return labels.declared_by_many.format(name=name, count=count), short
    if view.trump is not None and view.revealed:
        return (labels.trump_from_kitty,)
    if not view.hand_no:  # nothing dealt yet: no "Hand 0" (issue 31 item 8)
        return (labels.first_deal,)
    return (labels.hand_number.format(number=view.hand_no),)


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
