"""Who sits where, on the table document alone (Discord-free; issue 13 "Seats during a
match"; the transactions that use it are in `bot.services.seating`).

- A seat held by a computer (added, or left by a player) may be taken by a person: at once
  in the lobby and between hands, **from the next hand** while a hand is being played
  (``TableDoc.waiting``; `seat_waiting` seats them when the next hand starts). So nobody
  can look at a hand in progress and leave again, and the hand stays with one holder.
- ``TableDoc.holders`` keeps, per seat, every holder during the current hand (a player
  who leaves or is given away mid-hand, then the computer): `holders` is what
  `bot.storage.HandRecord.holders` gets, so storage keeps such hands out of stats and
  ratings.
"""

from __future__ import annotations

from bot.core.errors import UserFacingError
from bot.core.table import Seat, TableDoc
from engine.game import Phase

__all__ = ["computer_seat", "free_seat", "holders", "mid_hand", "record_holder",
           "seat_waiting", "start_holders", "waiting_seat_of"]

HAND_PHASES = (Phase.DECLARING, Phase.BURYING, Phase.CALLING, Phase.PLAYING)


def mid_hand(doc: TableDoc) -> bool:
    """A hand is being played (dealt and not yet settled)."""
    return doc.phase in HAND_PHASES


def computer_seat(doc: TableDoc, name: str = "", level: str | None = None) -> Seat:
    """A computer player for a seat (``name`` empty: "Computer <n>")."""
    return Seat(None, name, doc.locale, level=level)


def free_seat(doc: TableDoc, seat: int | None, *, allow_computer: bool) -> int:
    """The seat to fill: `seat` (0 to the table's seats − 1) if it is empty (or a computer's, when
    `allow_computer`), else the first such seat, empty ones first. Refusals are
    `UserFacingError` (bad seat, taken, table full)."""
    if seat is not None:
        if not 0 <= seat < doc.seat_count:
            raise UserFacingError("error.bad_seat", count=doc.seat_count)
        entry = doc.seats[seat]
        if (entry is None or (allow_computer and entry.user_id is None)) \
                and doc.waiting[seat] is None:
            return seat
        raise UserFacingError("error.seat_taken", number=seat + 1)
    for index, entry in enumerate(doc.seats):
        if entry is None and doc.waiting[index] is None:
            return index
    if allow_computer:
        for index, entry in enumerate(doc.seats):
            if entry is not None and entry.user_id is None and doc.waiting[index] is None:
                return index
    raise UserFacingError("error.table_full")


def waiting_seat_of(doc: TableDoc, user_id: int) -> int | None:
    """The seat `user_id` takes from the next hand, if any."""
    for index, entry in enumerate(doc.waiting):
        if entry is not None and entry.user_id == user_id:
            return index
    return None


def seat_waiting(doc: TableDoc) -> list[int]:
    """Seat the people waiting for the next hand (call when a hand starts); returns their
    seats."""
    seated = []
    for index, entry in enumerate(doc.waiting):
        if entry is not None:
            doc.seats[index] = entry
            doc.waiting[index] = None
            seated.append(index)
    return seated


def start_holders(doc: TableDoc) -> None:
    """A hand starts: each seat's holder is its only one so far."""
    doc.holders = [[None if s is None else s.user_id] for s in doc.seats]


def record_holder(doc: TableDoc, seat: int) -> bool:
    """Note a new holder of `seat` during the hand; True if the hand's record changes."""
    if not mid_hand(doc) or len(doc.holders) != doc.seat_count:
        return False
    entry = doc.seats[seat]
    holder = None if entry is None else entry.user_id
    if doc.holders[seat][-1] == holder:
        return False
    doc.holders[seat].append(holder)
    return True


def holders(doc: TableDoc) -> tuple[tuple[int | None, ...], ...]:
    """`HandRecord.holders` of the current hand: ``()`` when no seat changed hands."""
    if len(doc.holders) != doc.seat_count or all(len(h) == 1 for h in doc.holders):
        return ()
    return tuple(tuple(h) for h in doc.holders)
