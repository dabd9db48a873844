"""`Seating`: every change of who sits where, as `TableService` transactions (issue 13).

Joining, leaving, computers added, removed or given a level, a seat given away (``kick``)
and seats swapped. In the lobby anyone seated may seat or remove computers, as before;
once a match is on, changing someone else's seat is for the table's creator or anyone
with Manage Channels (``can_manage``), and computers are added, removed and seats swapped
only between hands. A person takes a computer's seat at once between hands and from the
next hand during one (`bot.core.seat_rules`). A hand whose seat changes holder mid-hand has
its record saved again with the holders (`bot.storage.HandRecord.holders`).
"""

from __future__ import annotations

from bot.core import seat_rules
from bot.core.errors import UserFacingError
from bot.core.levels import LEVELS, level_of
from bot.core.table import Seat, TableDoc
from bot.i18n import t
from bot.present.text import seat_name, team_names
from bot.services.outcome import Announcement
from bot.services.tables import TableService, Tx

__all__ = ["Seating"]


class Seating:
    """Seat changes of the tables behind `service` (stateless: build one where needed)."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    # ---- helpers -----------------------------------------------------------------------

    def default_level(self) -> str:
        """The level of a computer seated without one (``TRACTOR_COMPUTER``)."""
        return level_of(self.service.config.computer_player)

    def _computer_for(self, doc: TableDoc, name: str) -> Seat:
        """The computer taking over from a person named `name`."""
        return seat_rules.computer_seat(doc, t("seat.computer_for", doc.locale, name=name),
                                        self.default_level())

    @staticmethod
    def _admin(tx: Tx, user_id: int, can_manage: bool) -> None:
        if user_id != tx.doc.creator_id and not can_manage:
            raise UserFacingError("error.seat_admin_only")

    @staticmethod
    def _between_hands(tx: Tx) -> None:
        if seat_rules.mid_hand(tx.doc):
            raise UserFacingError("error.between_hands")

    def _holder_changed(self, tx: Tx, seat: int) -> None:
        """Note `seat`'s new holder; save the hand record again if the hand is under way."""
        doc = tx.doc
        match = doc.get_match()
        if seat_rules.record_holder(doc, seat) and match is not None:
            tx.hand = self.service._hand_record(tx, match)

    def _filled(self, tx: Tx) -> None:
        """A seat was filled between hands: the next hand's countdown starts again if it
        was waiting for the table to be full."""
        doc = tx.doc
        match = doc.get_match()
        if (match is not None and not doc.in_lobby and doc.full and doc.timer is None
                and not seat_rules.mid_hand(doc)):
            self.service._arm(doc, match)

    # ---- people ------------------------------------------------------------------------

    async def join(self, table_id: int, user_id: int, name: str, locale: str,
                   seat: int | None = None) -> tuple[int, bool]:
        """Seat a person (`seat` 0–3 or the first free one; a computer's seat too).
        Returns the seat and whether they sit now (False: from the next hand)."""
        def fn(tx: Tx) -> tuple[int, bool]:
            doc = tx.doc
            if doc.seat_of(user_id) is not None or \
                    seat_rules.waiting_seat_of(doc, user_id) is not None:
                raise UserFacingError("error.already_seated")
            index = seat_rules.free_seat(doc, seat, allow_computer=True)
            person = Seat(user_id, name[:32], locale)
            player = f"<@{user_id}>"
            if seat_rules.mid_hand(doc):
                doc.waiting[index] = person
                doc.add_note(t("note.seat_next_hand", doc.locale, player=player,
                               number=index + 1))
                return index, False
            doc.seats[index] = person
            doc.add_note(t("note.joined", doc.locale, player=player, number=index + 1))
            self._filled(tx)
            return index, True
        _, result = await self.service.transact(table_id, fn)
        return result

    async def leave(self, table_id: int, user_id: int) -> None:
        """Leave the seat (or the seat waited for). During a match a computer takes it."""
        def fn(tx: Tx) -> None:
            doc = tx.doc
            waiting = seat_rules.waiting_seat_of(doc, user_id)
            if waiting is not None:
                doc.waiting[waiting] = None
                doc.add_note(t("note.left", doc.locale, player=f"<@{user_id}>"))
                return
            index = doc.seat_of(user_id)
            if index is None:
                raise UserFacingError("error.not_at_table")
            self._vacate(tx, index)
            doc.add_note(t("note.left" if doc.in_lobby else "note.left_match", doc.locale,
                           player=f"<@{user_id}>"))
        await self.service.transact(table_id, fn)

    def _vacate(self, tx: Tx, index: int) -> None:
        """A person leaves seat `index`: empty in the lobby, a computer during a match;
        the table ends when no person is left."""
        doc = tx.doc
        entry = doc.seat(index)
        if doc.in_lobby:
            doc.seats[index] = None
        else:
            doc.seats[index] = self._computer_for(doc, entry.name)
            self._holder_changed(tx, index)
        if not doc.humans and not any(doc.waiting):
            tx.end = True
        else:
            self.service.deal_if_ready(tx)  # the others were ready: only this one was awaited

    async def kick(self, table_id: int, user_id: int, seat: int, *, can_manage: bool) -> str:
        """Give a person's seat away (a computer plays it until someone sits); returns
        the display name of the person."""
        def fn(tx: Tx) -> str:
            doc = tx.doc
            self._admin(tx, user_id, can_manage)
            entry = _seat_in_range(doc, seat)
            if entry is None or entry.user_id is None:
                raise UserFacingError("error.not_a_person", number=seat + 1)
            if entry.user_id == user_id:
                raise UserFacingError("error.kick_self")
            name = seat_name(doc, seat, doc.locale)
            doc.add_note(t("note.kicked", doc.locale, player=f"<@{entry.user_id}>",
                           number=seat + 1))
            self._vacate(tx, seat)
            return name
        _, name = await self.service.transact(table_id, fn)
        return name

    async def swap(self, table_id: int, user_id: int, first: int, second: int, *,
                   can_manage: bool) -> bool:
        """Swap two seats (in the lobby or between hands); returns whether partnerships
        changed (then it is announced in the channel; never in Finding Friends, which has
        no fixed partners)."""
        def fn(tx: Tx) -> bool:
            doc = tx.doc
            self._admin(tx, user_id, can_manage)
            _seat_in_range(doc, first)
            _seat_in_range(doc, second)
            if first == second:
                raise UserFacingError("error.swap_same")
            self._between_hands(tx)
            seats = doc.seats
            seats[first], seats[second] = seats[second], seats[first]
            locale = doc.locale
            doc.add_note(t("note.swapped", locale, first=first + 1, second=second + 1))
            variant = doc.rules.variant  # fixed teams: a swap across them changes partners
            partners = variant.team_of(first) != variant.team_of(second)
            if partners:
                tx.publish.announcements.append(Announcement(t(
                    "announce.partnerships", locale, first=first + 1, second=second + 1,
                    team_a=team_names(doc, 0, locale), team_b=team_names(doc, 1, locale))))
            return partners
        _, partners = await self.service.transact(table_id, fn)
        return partners

    # ---- computers ---------------------------------------------------------------------

    async def add_bot(self, table_id: int, user_id: int, seat: int | None = None,
                      level: str | None = None, *, can_manage: bool = False) -> int:
        """Seat a computer at `level` (default: ``TRACTOR_COMPUTER``'s) in an empty seat;
        on a computer's seat with a level given, that computer plays at the new level."""
        if level is not None and level not in LEVELS:
            raise UserFacingError("error.bad_level")

        def fn(tx: Tx) -> int:
            doc = tx.doc
            self._may_change_computers(tx, user_id, can_manage)
            if seat is not None and level is not None:
                entry = _seat_in_range(doc, seat)
                if entry is not None and entry.user_id is None:
                    entry.level = level
                    doc.add_note(t("note.bot_level", doc.locale, number=seat + 1,
                                   level=t(f"level.{level}", doc.locale)))
                    return seat
            index = seat_rules.free_seat(doc, seat, allow_computer=False)
            doc.seats[index] = seat_rules.computer_seat(doc, level=level or self.default_level())
            doc.add_note(t("note.bot_added", doc.locale, number=index + 1))
            self._filled(tx)
            return index
        _, index = await self.service.transact(table_id, fn)
        return index

    async def remove_bot(self, table_id: int, user_id: int, seat: int | None = None, *,
                         can_manage: bool = False) -> int:
        """Take a computer away (`seat`, else the last computer's): the seat is empty and,
        during a match, the next hand waits until someone sits there."""
        def fn(tx: Tx) -> int:
            doc = tx.doc
            self._may_change_computers(tx, user_id, can_manage)
            if seat is None:
                computers = [i for i, s in enumerate(doc.seats) if s is not None and s.is_computer]
                if not computers:
                    raise UserFacingError("error.no_computer")
                index = computers[-1]
            else:
                index = seat
                entry = _seat_in_range(doc, index)
                if entry is None or not entry.is_computer:
                    raise UserFacingError("error.not_a_computer", number=index + 1)
            doc.seats[index] = None
            doc.add_note(t("note.bot_removed", doc.locale, number=index + 1))
            return index
        _, index = await self.service.transact(table_id, fn)
        return index

    def _may_change_computers(self, tx: Tx, user_id: int, can_manage: bool) -> None:
        """In the lobby anyone seated (or the creator); during a match the creator or
        Manage Channels, between hands."""
        doc = tx.doc
        if doc.in_lobby:
            if doc.seat_of(user_id) is None and user_id != doc.creator_id and not can_manage:
                raise UserFacingError("error.not_at_table")
            return
        self._admin(tx, user_id, can_manage)
        self._between_hands(tx)


def _seat_in_range(doc: TableDoc, seat: int) -> Seat | None:
    if not 0 <= seat < len(doc.seats):
        raise UserFacingError("error.bad_seat", count=doc.seat_count)
    return doc.seats[seat]

