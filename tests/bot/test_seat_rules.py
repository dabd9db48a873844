"""`bot.core.seat_rules` on table documents alone: free seats (a seat someone waits for is not
free), waiting people seated at the next hand, and the holders of a hand's seats."""

from __future__ import annotations

import pytest

from bot.core import seat_rules
from bot.core.errors import UserFacingError
from bot.core.table import Seat, TableDoc
from engine.actions import StartHand
from engine.game import Match


def table(*people: int | None) -> TableDoc:
    doc = TableDoc(guild_id=1, channel_id=2, creator_id=people[0] or 0)
    doc.seats = [Seat(p, f"p{p}" if p else "", level=None if p else "easy") for p in people]
    return doc


def dealt(doc: TableDoc) -> TableDoc:
    match, _ = Match.new(doc.rules).apply(StartHand(7))
    doc.set_match(match)
    seat_rules.start_holders(doc)
    return doc


def test_free_seats_skip_seats_someone_waits_for() -> None:
    doc = table(1, None, None, 4)
    doc.waiting[1] = Seat(5, "p5")
    assert seat_rules.free_seat(doc, None, allow_computer=True) == 2
    with pytest.raises(UserFacingError) as refused:
        seat_rules.free_seat(doc, 1, allow_computer=True)
    assert refused.value.key == "error.seat_taken"
    with pytest.raises(UserFacingError):
        seat_rules.free_seat(doc, 0, allow_computer=True)  # a person's seat
    with pytest.raises(UserFacingError):
        seat_rules.free_seat(doc, 4, allow_computer=True)
    doc.waiting[2] = Seat(6, "p6")
    with pytest.raises(UserFacingError) as full:
        seat_rules.free_seat(doc, None, allow_computer=True)
    assert full.value.key == "error.table_full"
    assert seat_rules.waiting_seat_of(doc, 6) == 2 and seat_rules.waiting_seat_of(doc, 1) is None


def test_waiting_people_sit_and_holders_follow_the_hand() -> None:
    doc = dealt(table(1, 2, None, 4))
    assert seat_rules.mid_hand(doc) and seat_rules.holders(doc) == ()
    doc.seats[1] = Seat(None, "Computer (for p2)", level="easy")
    assert seat_rules.record_holder(doc, 1)
    assert not seat_rules.record_holder(doc, 1)  # the same holder again: no change
    assert seat_rules.holders(doc) == ((1,), (2, None), (None,), (4,))
    doc.waiting[2] = Seat(7, "p7")
    assert seat_rules.seat_waiting(doc) == [2]
    assert doc.seat(2).user_id == 7 and doc.waiting == [None] * 4
    seat_rules.start_holders(doc)
    assert doc.holders == [[1], [None], [7], [4]] and seat_rules.holders(doc) == ()


def test_round_trip_keeps_levels_waiting_and_holders() -> None:
    doc = dealt(table(1, None, None, 4))
    doc.waiting[1] = Seat(5, "p5")
    doc.holders[3].append(None)
    again = TableDoc.from_dict(doc.to_dict())
    assert again.seat(1).level == "easy" and again.seat(0).level is None
    assert again.waiting[1] is not None and again.waiting[1].user_id == 5
    assert again.holders == doc.holders
