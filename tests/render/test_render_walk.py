"""What a new player read cut or named twice in the pictures on a walk through fresh games
(issue 38, "you are the first user"): the four-player table's "declared by Bot 3 with 2 ···"
under the trump, in every hand a pair was declared; "Next starter: Bot 3 · strong" in the
result picture where the text says "Next starter: Bot 3"."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from drawn import drawn_words
from test_render_names import computer, labels_of

from bot.i18n import SUPPORTED
from bot.render import HandSummary, SeatLabel, render_summary, render_table, summary, table
from engine.cards import Card, Rank, Suit
from engine.trump import Trump
from engine.views import Declaration, TrumpHow
from tools.demo_positions import positions


@pytest.mark.parametrize("locale", SUPPORTED)
def test_who_declared_a_pair_is_read_whole_under_the_trump(monkeypatch: pytest.MonkeyPatch,
                                                            locale: str) -> None:
    """A pair declared by a computer ("Bot 3 · strong") or a person: the line under the
    trump names them whole, with the count of cards where it fits, never cut."""
    labels = labels_of(locale)
    drawn = drawn_words(monkeypatch, table)
    playing = positions().playing.public
    pair = (Card(Rank.TWO, Suit.HEARTS),) * 2
    for declarer in (2, 1):
        view = replace(playing, trump=Trump(Rank.TWO, Suit.HEARTS),
                       trump_how=TrumpHow.DECLARED, declarations=(Declaration(declarer, pair),))
        seats = [SeatLabel("Alice"), computer(1, locale, "strong"),
                 computer(2, locale, "strong"), computer(3, locale, "strong")]
        drawn.clear()
        render_table(view, seats, labels=labels)
        name = (seats[declarer].forms or (seats[declarer].name,))[-1]
        said = [value for value in drawn if name in value  # not its plate, "3. Bot 3 …"
                and not value.startswith(f"{declarer + 1}.")]
        assert said, drawn
        assert not [value for value in said if value.endswith("…")], said
        assert said[0] in (labels.declared_by_many.format(name=name, count=2),
                           labels.declared_by.format(name=name)), said


@pytest.mark.parametrize("locale", SUPPORTED)
def test_the_result_names_the_next_starter_as_the_text_does(monkeypatch: pytest.MonkeyPatch,
                                                            locale: str) -> None:
    """"Next starter: Bot 3" in the hand's text, and in its result picture too (it read
    "Next starter: Bot 3 · strong"): one name per seat."""
    labels = labels_of(locale)
    drawn = drawn_words(monkeypatch, summary)
    settled = HandSummary.from_view(positions().settled.public_view())
    seats = [SeatLabel("Alice"), *(computer(seat, locale, "strong") for seat in (1, 2, 3))]
    for starter in (1, 2, 3):
        drawn.clear()
        render_summary(replace(settled, result=replace(settled.result, next_starter=starter,
                                                       match_winner=None)),
                       seats, labels=labels)
        line = labels.next_starter.format(name=seats[starter].forms[-1])
        assert line in drawn, drawn


@pytest.mark.parametrize("locale", SUPPORTED)
def test_while_dealing_the_header_names_the_trump_declared_so_far(
        monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    """Bot 3 has declared 2♥ 2♥ and the cards are still dealt: the header said "Trump not
    set" beside the declared cards; it says "Trump ♥ so far" (jokers: "No trump so far"),
    and "Trump not set" only while nobody has declared."""
    labels = labels_of(locale)
    drawn: list[list[object]] = []
    real = table.rich

    def spy(draw: Any, xy: Any, parts: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(list(parts))
        return real(draw, xy, parts, *args, **kwargs)

    monkeypatch.setattr(table, "rich", spy)
    declaring = positions().declaring.public
    seats = [SeatLabel("Alice"), *(computer(seat, locale, "strong") for seat in (1, 2, 3))]
    so_far_words = labels.trump_so_far.partition("{trump}")[0].strip()
    for cards, want in (((Card(Rank.TWO, Suit.HEARTS),) * 2, Suit.HEARTS),
                        ((Card.parse("RJ"),) * 2, labels.no_trump_so_far),
                        ((), labels.trump_not_set)):
        drawn.clear()
        view = replace(declaring, trump=None, declarations=(Declaration(2, cards),)
                       if cards else ())
        render_table(view, seats, labels=labels)
        header = next(parts for parts in drawn if str(parts[0]).startswith(
            labels.level.format(rank=str(view.level or Rank.TWO))))
        assert want in header, header
        if want is Suit.HEARTS:
            assert any(so_far_words in str(part) for part in header), header
