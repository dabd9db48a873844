"""Seat plates name their players whole (issue 31 item 7: "6. Co…", "5. Com…" told a phone
user nobody's name): measured with the font drawn, a plate shows the whole name, an agreed
shorter form (a computer's "Bot 3" for "Bot 3 · strong"), or the name over two lines; a
name is cut ("…") only when it has no shorter form and two lines cannot hold it, and keeps
its first dozen characters. For the Finding Friends ring (4–8 seats) and the four-seat
table, in English and both Chinese catalogs."""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.i18n import SUPPORTED, messages, t
from bot.render import Labels, SeatLabel, render_table, ring, table
from bot.render import draw as draw_module
from bot.render.demo import positions
from bot.render.draw import text_box, width_of
from bot.render.friends_demo import eight_seats, with_friends
from bot.render.names import fit_name
from bot.render.sides import sides_of
from engine.cards import parse_cards
from engine.game import Trick
from engine.views import PublicView

DISCORD_32 = ("xXx_DragonSlayer_Supreme_2024_xX", "Bernadette the Bold of the North",
              "李白的朋友们很多很多很多很多很多很多很多很多很多很多很多很多")
PEOPLE = ("Alexandria-Ocasio", "李白的朋友们很多", *DISCORD_32, "Bo")
KEEP = 12
"""A cut name keeps at least this many columns (a Chinese character counts two)."""


def columns(value: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in value)


@cache
def labels_of(locale: str) -> Labels:
    return Labels.from_messages(messages(locale))


def computer(seat: int, locale: str, level: str | None) -> SeatLabel:
    """A computer seat named as the bot names it (`bot.ui.panels.seat_labels`)."""
    name = t("seat.computer_name", locale, number=seat + 1)
    if level is None:
        return SeatLabel(name, computer=True)
    word = t(f"level.{level}", locale)
    return SeatLabel(t("seat.computer_level", locale, name=name, level=word), computer=True,
                     forms=(name,))


def seat_names(seats: int, locale: str, shift: int) -> tuple[SeatLabel, ...]:
    """Long names all round: people's (some of Discord's 32 characters, some on autopilot)
    and computers' with and without a level."""
    out: list[SeatLabel] = []
    for seat in range(seats):
        k = (seat + shift) % 8
        if k in (0, 4):
            out.append(computer(seat, locale, "strong" if k == 0 else None))
        else:
            out.append(SeatLabel(PEOPLE[k % len(PEOPLE)], autopilot=k == 3))
    return tuple(out)


def friends_view(seats: int) -> PublicView:
    base = eight_seats().playing
    return with_friends(replace(
        base, rules=replace(base.rules, players=seats), levels=(base.levels * 2)[:seats],
        cards_left=(10,) * seats, declarations=(), starter=1, turn=0,
        trick=Trick(3, 1, tuple(tuple(parse_cards("QC QC KC KC")) for _ in range(seats - 1)),
                    seat_count=seats),
        last_trick=None), friend_calls=base.friend_calls[:2], call_seats=(None, 3),
        points_by_seat=(5,) * seats)


@dataclass
class Drawn:
    value: str
    box: tuple[float, float, float, float]


def drawn_texts(monkeypatch: pytest.MonkeyPatch, view: PublicView,
                names: tuple[SeatLabel, ...], labels: Labels, bottom: int = 0) -> list[Drawn]:
    """Every text the table picture draws, in order, with the box it inks."""
    drawn: list[Drawn] = []
    real = draw_module.text

    def spy(canvas: Any, xy: tuple[float, float], value: str, size: int, *args: Any,
            **kwargs: Any) -> float:
        box = text_box(xy, value, size, bold=kwargs.get("bold", False),
                       anchor=kwargs.get("anchor", "la"))
        drawn.append(Drawn(value, box))
        return real(canvas, xy, value, size, *args, **kwargs)

    monkeypatch.setattr(table, "text", spy)
    monkeypatch.setattr(ring, "text", spy)
    render_table(view, names, labels=labels, bottom=bottom)
    return drawn


def plate_names(drawn: list[Drawn], seats: int) -> Iterator[tuple[int, str, list[Drawn]]]:
    """Each seat's plate: its number, and its first name line and the one drawn under it."""
    for seat in range(seats):
        prefix = f"{seat + 1}. "
        at = next(i for i, d in enumerate(drawn) if d.value.startswith(prefix))
        yield seat, prefix, drawn[at:at + 2]


def check_name(label: SeatLabel, prefix: str, lines: list[Drawn], room: float) -> None:
    first = lines[0].value[len(prefix):]
    forms = (label.name, *label.forms)
    assert lines[0].box[2] - lines[0].box[0] <= room, (label, lines[0])
    if first in forms:
        return
    if first.endswith("…"):  # cut on a plate of one line (the four-seat table's top, bottom)
        assert not label.forms and label.name.startswith(first[:-1]), (label, first)
        assert columns(first) >= KEEP + 1, (label, first)
        return
    # Not whole on one line: on two (the second line drawn right below the first) …
    second = lines[1]
    assert second.box[1] > lines[0].box[1] and abs(second.box[0] - lines[0].box[0]) <= 3, \
        (label, first, second)
    assert second.box[2] - second.box[0] <= room, (label, second)
    shown = {first + second.value, f"{first} {second.value}"}
    if shown & set(forms):
        return
    # … or cut, only a name with no shorter form, keeping its first dozen columns.
    assert not label.forms, (label, first, second.value)
    cut = next(s for s in shown if label.name.startswith(s.removesuffix("…")))
    assert cut.endswith("…") and columns(cut) >= KEEP + 1, (label, cut)


@pytest.mark.parametrize("locale", SUPPORTED)
@pytest.mark.parametrize("seats", range(4, 9))
def test_friends_plates_name_every_player_whole(monkeypatch: pytest.MonkeyPatch, seats: int,
                                                 locale: str) -> None:
    labels = labels_of(locale)
    view = friends_view(seats)
    for shift in range(0, 8, 3):
        names = seat_names(seats, locale, shift)
        drawn = drawn_texts(monkeypatch, view, names, labels, bottom=shift % seats)
        for seat, prefix, lines in plate_names(drawn, seats):
            check_name(names[seat], prefix, lines, ring.CELL_W - 20)


@pytest.mark.parametrize("locale", SUPPORTED)
def test_four_seat_plates_name_every_player_whole(monkeypatch: pytest.MonkeyPatch,
                                                   locale: str) -> None:
    labels = labels_of(locale)
    view = positions().playing.public
    for shift in range(8):
        names = seat_names(4, locale, shift)
        for bottom in range(4):
            drawn = drawn_texts(monkeypatch, view, names, labels, bottom=bottom)
            for seat, prefix, lines in plate_names(drawn, 4):
                box = table._PLATE[(seat - bottom) % 4]
                check_name(names[seat], prefix, lines, box[2] - box[0] - 28)


def test_computers_are_named_short_people_on_two_lines() -> None:
    """What the plates choose, measured: a computer keeps one line ("Bot 5"), a person
    gets a second line rather than a cut."""
    en = labels_of("en")
    sides = sides_of(friends_view(8))
    bot = ring.plate_name(4, computer(4, "en", "strong"), sides, en)
    assert bot.lines == ("5. Bot 5",)
    person = ring.plate_name(1, SeatLabel("Alexandria-Ocasio"), sides, en)
    assert person.lines == ("2. Alexandria-", "Ocasio") and not person.cut
    poet = ring.plate_name(2, SeatLabel("李白的朋友们很多"), sides, labels_of("zh_Hans"))
    assert "".join(poet.lines) == "3. 李白的朋友们很多"
    assert table.plate_name(1, 0, SeatLabel("Alexandria-Ocasio")).lines == (  # wide
        "2. Alexandria-Ocasio",)
    assert table.plate_name(1, 1, SeatLabel("Alexandria-Ocasio")).lines == (  # a side
        "2. Alexandria-", "Ocasio")
    assert table.plate_name(3, 3, SeatLabel("Bernadette the Bold of the North")).lines == (
        "4. Bernadette", "the Bold of th…")
    assert fit_name("1. ", "Computer 1", ("Bot 1",), 30, 1000).lines == ("1. Computer 1",)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("locale", SUPPORTED)
def test_ring_plates_hold_two_line_names_inside_and_apart(locale: str) -> None:
    labels = labels_of(locale)
    view = friends_view(8)
    sides = sides_of(view)
    canvas = ImageDraw.Draw(Image.new("RGB", (ring.WIDTH, 400)))
    for seat, label in itertools.product(range(8), seat_names(8, locale, 1)):
        name = ring.plate_name(seat, label, sides, labels)
        height = ring.PLATE_H + ring.NAME_LINE * (len(name.lines) - 1)
        box = (12, 100, 12 + ring.CELL_W, 100 + height)
        drawn = ring.draw_plate(canvas, box, seat, label, view, sides, labels)
        for b in drawn:
            assert box[0] < b[0] and b[2] < box[2] and box[1] < b[1] and b[3] < box[3], \
                (label, b, box)
        for a, b in itertools.combinations(drawn, 2):
            assert not _overlap(a, b), (seat, label, a, b)


def test_a_two_line_row_makes_its_plates_taller_only() -> None:
    names = (SeatLabel("Bo"), SeatLabel("Alexandria-Ocasio"), *(SeatLabel("Al"),) * 4)
    view = friends_view(6)
    sides = sides_of(view)
    tall = {s for s in range(6) if len(ring.plate_name(s, names[s], sides,
                                                       labels_of("en")).lines) > 1}
    assert tall == {1}
    plates = ring.plate_rows(6, 0, tall)
    assert plates == (ring.PLATE_H, ring.PLATE_H + ring.NAME_LINE, ring.PLATE_H)
    assert width_of("2. Alexandria-Ocasio", ring.NAME, bold=True) > ring.CELL_W - 20
