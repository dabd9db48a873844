"""`Autopilot`: what moves a table without a person — deadlines (timers), computer seats,
forced plays — and the restore of every open table after a (re)start.

Told of every commit by the `TableService` (`committed`, `ended`), it re-arms the table's
timer and starts the computer seats' and forced plays' turns. Computer seats and timeouts
decide from ``view_for(seat)`` in the worker pool (`bot.runtime.offload.Workers`, as
`COMPUTERS`: people's jobs go first), outside the lock, then apply their action through the
service's transaction path, checked against the step they were computed for (a race lost is
swallowed). A step the bot takes by itself (computer move, timeout, forced play, a table's
restore) that fails on a storage error that may pass (`TRANSIENT`: the database busy or
out of reach) is tried again after a growing pause (`retry_pause`) until it is done or has
nothing left to do (the table moved on or ended, its shard is no longer this process's:
the fence refuses the save, or the autopilot closed) — never dropped. Built by the
composition root and handed to the table service, which hands itself back (`serve`); it
never imports discord.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bot.core.errors import UserFacingError
from bot.core.levels import level_of, player_name
from bot.core.table import TableDoc, seats_to_act
from bot.i18n import t
from bot.present.text import cards_text, mention, seat_name
from bot.runtime import offload
from bot.runtime.logging import TableLogger
from bot.runtime.offload import Workers
from bot.services.forced import forced_play
from bot.services.players import computer_action
from bot.services.timers import Clock, Timers
from bot.services.transaction import Tx
from bot.storage import (
    DatabaseNotWritable,
    DatabaseUnavailable,
    StaleVersion,
    Storage,
    StorageBusy,
    StoredTable,
)
from engine.actions import Action, CloseWindow, Pass, Play
from engine.errors import TractorError
from engine.events import Event
from engine.game import Phase

if TYPE_CHECKING:
    from bot.runtime.config import Config

TAKE_BACK_WINDOW = 5.0
"""Seconds a computer seat waits after a person's play that may still be taken back (R12
`take_backs`): the window to press Take back (issue 38: it was the computer's one-second
pause)."""


def person_may_take_back(doc: TableDoc) -> bool:
    """Whether the seat that may take back its last play now is a person's (not on
    autopilot): the computers wait `TAKE_BACK_WINDOW` for them."""
    match = doc.get_match()
    seat = None if match is None else match.public_view().take_back_seat
    entry = None if seat is None else doc.seats[seat]
    return entry is not None and entry.user_id is not None and not entry.autopilot


T = TypeVar("T")


class Tables(Protocol):
    """The table service as the autopilot acts through it (`TableService`; no import of
    it here: the service imports this module's `Autopilot`)."""

    async def load(self, table_id: int) -> tuple[StoredTable, TableDoc]: ...

    async def transact(self, table_id: int, fn: Callable[[Tx], T]) -> tuple[Tx, T]: ...

    def apply(self, tx: Tx, action: Action, *, actor: int | None = None
              ) -> tuple[Event, ...]: ...

    def start_hand(self, tx: Tx) -> None: ...

    def log(self, table_id: int, doc: TableDoc | None = None) -> TableLogger: ...

__all__ = ["TRANSIENT", "Autopilot", "Tables", "retry_pause"]

TRANSIENT: tuple[type[Exception], ...] = (StorageBusy, DatabaseUnavailable,
                                          DatabaseNotWritable)
"""Storage errors that may pass (nothing was written): the step is tried again."""
RETRY_FIRST = 0.2
"""Seconds before the first retry of a step (`retry_pause`)."""
RETRY_MOST = 1.0
"""Seconds at most between two tries: a table moves again about this soon after the
database is back."""


def retry_pause(attempt: int, rand: Callable[[], float] = random.random) -> float:
    """The pause before retry `attempt` (0, 1, ...): doubling from `RETRY_FIRST` up to
    `RETRY_MOST`, its second half jittered (tables failing together retry apart)."""
    most = min(RETRY_MOST, RETRY_FIRST * 2.0 ** attempt)
    return most / 2 + rand() * most / 2


class Autopilot:
    """One per bot: timers, computer seats, forced plays and the restore."""

    def __init__(self, store: Storage, config: Config, *, clock: Clock,
                 workers: Workers | None = None) -> None:
        """`workers`: the pool the computer players think in (default: threads)."""
        self.store = store
        self.config = config
        self.clock = clock
        self.workers = workers if workers is not None else Workers(0)
        self.timers = Timers(self._on_timer, clock)
        self._service: Tables | None = None
        self._pending_computer: set[tuple[int, int, int]] = set()
        self._pending_forced: set[tuple[int, int, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    def serve(self, service: Tables) -> None:
        """Act on tables through `service` (it calls this once, when built)."""
        self._service = service

    @property
    def service(self) -> Tables:
        assert self._service is not None, "the autopilot serves no table service"
        return self._service

    def committed(self, table_id: int, doc: TableDoc) -> None:
        """A commit left the table as `doc` (read only): re-arm its timer, start the
        computer seats' and forced plays' turns."""
        self.timers.arm(table_id, doc.deadline if doc.timer else None, doc.timer_step)
        self._schedule_computers(table_id, doc)
        self._schedule_forced(table_id, doc)

    def ended(self, table_id: int) -> None:
        self.timers.cancel(table_id)

    async def close(self) -> None:
        """Start nothing more; drop the pending deadlines."""
        self._closed = True
        await self.timers.close()

    async def idle(self) -> None:
        """Wait until no computer or forced turn is running (benchmarks, tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # ---- timers and computer seats -----------------------------------------------------

    async def _until_done(self, table_id: int, what: str,
                          attempt: Callable[[], Awaitable[None]]) -> None:
        """Run `attempt` again after each `TRANSIENT` storage error, pausing
        `retry_pause`, until it returns (done, or nothing left to do) or the autopilot
        closes (the process stops or was fenced)."""
        tries = 0
        while True:
            try:
                await attempt()
                return
            except TRANSIENT as error:
                if self._closed:
                    return
                pause = retry_pause(tries)
                self.service.log(table_id).warning("%s: %s; trying again in %.2f s",
                                                   what, error, pause)
                tries += 1
                await asyncio.sleep(pause)

    async def _on_timer(self, table_id: int, step: int) -> None:
        await self._until_done(table_id, f"timer of step {step}",
                               lambda: self._timer_once(table_id, step))

    async def _timer_once(self, table_id: int, step: int) -> None:
        if self._closed:
            return
        try:
            _, doc = await self.service.load(table_id)
        except UserFacingError:
            return
        if doc.step != step or doc.timer_step != step or doc.timer is None:
            return
        kind = doc.timer
        match = doc.get_match()
        if match is None:
            return
        log = self.service.log(table_id, doc)
        if kind == "declare":
            await self._guarded(table_id, step, lambda tx: self.service.apply(tx, CloseWindow()))
        elif kind == "next_hand":
            def next_hand(tx: Tx) -> None:
                if tx.doc.get_match() is not None and tx.doc.phase is Phase.BETWEEN_HANDS:
                    if tx.doc.full:
                        self.service.start_hand(tx)
                    else:  # a seat was emptied: the hand starts once it is filled
                        tx.doc.timer, tx.doc.deadline = None, None
                else:
                    tx.changed = False
            await self._guarded(table_id, step, next_hand)
        else:
            seat = match.public_view().turn
            if seat is None:
                return
            action = await self.workers.run(
                computer_action, match.view_for(seat), self.player_of(doc, seat),
                table_id, match.hand_no, step, priority=offload.COMPUTERS)
            log.info("time's up for seat %s (%s)", seat, kind)

            def timeout(tx: Tx) -> None:
                doc = tx.doc
                entry = doc.seat(seat)
                locale = doc.locale
                if entry.user_id is not None:
                    entry.misses += 1
                    doc.add_note(t("timer.auto_played", locale,
                                   player=seat_name(doc, seat, locale)))
                    if entry.misses >= 2 and not entry.autopilot:
                        entry.autopilot = True
                        tx.publish.departed.add(seat)
                        doc.add_note(t("timer.autopilot", locale,
                                       player=mention(doc, seat, locale)))
                self.service.apply(tx, action, actor=seat)
            await self._guarded(table_id, step, timeout)

    async def _guarded(self, table_id: int, step: int, fn: Callable[[Tx], Any]) -> bool:
        """Apply `fn` only if the table is still at `step`; swallow a race lost."""
        def checked(tx: Tx) -> None:
            if tx.doc.step != step:
                tx.changed = False
                return
            fn(tx)
        try:
            tx, _ = await self.service.transact(table_id, checked)
        except (UserFacingError, StaleVersion):
            return False
        return bool(tx.changed)

    def player_of(self, doc: TableDoc, seat: int) -> str:
        """The engine player deciding for `seat`: its level, else ``TRACTOR_COMPUTER``."""
        entry = doc.seats[seat]
        level = None if entry is None else entry.level
        return player_name(level or self.config.computer_player)

    def _schedule_computers(self, table_id: int, doc: TableDoc) -> None:
        if self._closed:
            return
        match = doc.get_match()
        if match is None:
            return
        for seat in seats_to_act(match):
            entry = doc.seats[seat]
            if entry is None or not entry.computer_acts:
                continue
            key = (table_id, seat, doc.step)
            if key in self._pending_computer:
                continue
            self._pending_computer.add(key)
            turn = self._after_take_back_window(table_id, seat, doc.step) \
                if person_may_take_back(doc) else \
                self._computer_turn(table_id, seat, doc.step, doc)
            self._spawn(turn, f"tractor-computer-{table_id}-{seat}")

    def _spawn(self, work: Awaitable[None], name: str) -> None:
        """Run `work` as a task `idle` waits for."""
        async def run() -> None:
            await work
        task = asyncio.create_task(run(), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _after_take_back_window(self, table_id: int, seat: int, step: int) -> None:
        """A computer's turn once `TAKE_BACK_WINDOW` has passed (its usual pause included):
        a take-back meanwhile moves the table on, and the turn is not taken (R12)."""
        try:
            await asyncio.sleep(max(0.0, TAKE_BACK_WINDOW - self.config.action_delay))
        except asyncio.CancelledError:
            self._pending_computer.discard((table_id, seat, step))
            raise
        await self._computer_turn(table_id, seat, step)

    async def _computer_turn(self, table_id: int, seat: int, step: int,
                             committed: TableDoc | None = None) -> None:
        """Decide for a computer seat at `step` (off the loop) and apply it. `committed`:
        the table as the commit that reached `step` left it (read only), decided from at
        once unless the turn waits first (``action_delay``) or is tried again."""
        key = (table_id, seat, step)
        try:
            if self.config.action_delay > 0:
                committed = None
                await asyncio.sleep(self.config.action_delay)
            first = [committed]  # decided from on the first try only

            async def once() -> None:
                await self._computer_once(table_id, seat, step, first.pop() if first else None)
            await self._until_done(table_id, f"computer seat {seat}", once)
        except Exception:
            if not self._closed:  # (closing: the store goes too; nothing is lost)
                self.service.log(table_id).exception("computer seat %s failed", seat)
        finally:
            self._pending_computer.discard(key)

    async def _computer_once(self, table_id: int, seat: int, step: int,
                             committed: TableDoc | None) -> None:
        """One try of `_computer_turn` (a storage error that may pass propagates)."""
        try:
            for _attempt in range(2):
                if committed is not None:
                    doc, committed = committed, None
                else:
                    _, doc = await self.service.load(table_id)
                match = doc.get_match()
                if (doc.step != step or match is None or seat not in seats_to_act(match)
                        or not doc.seat(seat).computer_acts):
                    return
                action = await self.workers.run(
                    computer_action, match.view_for(seat), self.player_of(doc, seat),
                    table_id, match.hand_no, step, doc.action_seq, priority=offload.COMPUTERS)
                def apply(tx: Tx, action: Action = action) -> None:
                    self._computer_apply(tx, seat, action)
                try:
                    await self._guarded(table_id, step, apply)
                    return
                except TractorError as error:
                    # The view went out of date (someone declared first): decide again,
                    # and pass if that fails too.
                    self.service.log(table_id, doc).debug("computer seat %s refused: %s",
                                                          seat, error)
            # Refused twice: a race lost twice, or a computer player's bug (either mode).
            self.service.log(table_id, doc).warning(
                "computer seat %s refused twice: passing", seat)
            await self._guarded(table_id, step,
                                lambda tx: self._computer_apply(tx, seat, Pass(seat)))
        except UserFacingError:
            return
        except TractorError:
            return

    def _schedule_forced(self, table_id: int, doc: TableDoc) -> None:
        """A human to play whose only legal play is forced: play it for them after
        ``Config.forced_pause`` seconds if they asked to (``/tractor settings forced_plays``)."""
        match = doc.get_match()
        if self._closed or match is None or match.phase is not Phase.PLAYING:
            return
        seat = match.public_view().turn
        entry = None if seat is None else doc.seats[seat]
        if seat is None or entry is None or entry.user_id is None or entry.autopilot:
            return
        known = self.store.known_user_settings(entry.user_id)
        if known is not None and not known.auto_forced:
            return  # they did not ask (their settings are in memory: no task for it)
        key = (table_id, seat, doc.step)
        if key in self._pending_forced:
            return
        self._pending_forced.add(key)
        self._spawn(self._forced_turn(table_id, seat, entry.user_id, doc.step),
                    f"tractor-forced-{table_id}-{seat}")

    async def _forced_turn(self, table_id: int, seat: int, user_id: int, step: int) -> None:
        try:
            await self._until_done(table_id, f"forced play of seat {seat}",
                                   lambda: self._forced_once(table_id, seat, user_id, step))
        except Exception:
            self.service.log(table_id).exception("forced play of seat %s failed", seat)
        finally:
            self._pending_forced.discard((table_id, seat, step))

    async def _forced_once(self, table_id: int, seat: int, user_id: int, step: int) -> None:
        """One try of `_forced_turn` (a storage error that may pass propagates)."""
        try:
            if not (await self.store.user_settings(user_id)).auto_forced:
                return
            _, doc = await self.service.load(table_id)
            match = doc.get_match()
            cards = None if match is None or doc.step != step else forced_play(
                match.view_for(seat))
            if cards is None:
                return
            await asyncio.sleep(self.config.forced_pause)
            if self._closed:
                return

            def play(tx: Tx) -> None:
                entry = tx.doc.seats[seat]
                if entry is None or entry.user_id != user_id:
                    tx.changed = False
                    return
                tx.doc.add_note(t("note.forced_play", tx.doc.locale,
                                  player=seat_name(tx.doc, seat, tx.doc.locale),
                                  cards=cards_text(cards)))
                self.service.apply(tx, Play(seat, cards), actor=seat)
            await self._guarded(table_id, step, play)
        except (UserFacingError, TractorError, StaleVersion):
            return

    def _computer_apply(self, tx: Tx, seat: int, action: Action) -> None:
        match = tx.doc.get_match()
        if match is None or seat not in seats_to_act(match) or not tx.doc.seat(seat).computer_acts:
            tx.changed = False
            return
        self.service.apply(tx, action, actor=seat)

    # ---- restart --------------------------------------------------------------------

    async def restore(self, owns: Callable[[int], bool] | None = None) -> list[int]:
        """Re-arm timers and computer seats of every open table after a (re)start, and mark
        them "restored after restart": the table message is refreshed (re-posted if it is
        gone) and every DM panel edited in place (same step, so its buttons keep working).

        A deadline that passed while the bot was down (or is about to) gets a short grace
        (`Config.restart_grace` seconds from now), so nobody is timed out by the downtime.
        `owns` (a cluster): only the tables of the servers it is true of (by guild id).
        A table the database refused for a while (`TRANSIENT`) is restored in the
        background, tried again until done (not in the list returned).
        """
        restored: list[int] = []
        grace = self.config.restart_grace
        found: list[StoredTable] = []

        async def listing() -> None:
            found[:] = await self.store.active_tables()
        await self._until_done(0, "listing the open tables", listing)
        for stored in found:
            table_id = stored.id
            if owns is not None and not owns(stored.guild_id):
                continue

            def fn(tx: Tx) -> None:
                doc = tx.doc
                doc.restored = True
                for entry in doc.seats:  # documents from before levels: the default's
                    if entry is not None and entry.is_computer and entry.level is None:
                        entry.level = level_of(self.config.computer_player)
                if doc.timer is not None and doc.deadline is not None:
                    doc.deadline = max(doc.deadline, self.clock() + grace)
                tx.publish.restored = True
            try:
                await self.service.transact(table_id, fn)
            except TRANSIENT as error:
                self.service.log(table_id).warning("not restored yet: %s", error)
                self._spawn(self._until_done(table_id, "restore",
                                             self._restoring(table_id, fn)),
                            f"tractor-restore-{table_id}")
                continue
            except Exception:
                self.service.log(table_id).exception("could not restore")
                continue
            restored.append(table_id)
            self.service.log(table_id).info("restored after restart")
        return restored

    def _restoring(self, table_id: int, fn: Callable[[Tx], None]
                   ) -> Callable[[], Awaitable[None]]:
        """One try of a table's restore (a table ended or taken over: nothing to do)."""
        async def once() -> None:
            try:
                await self.service.transact(table_id, fn)
            except (UserFacingError, StaleVersion):
                return
            self.service.log(table_id).info("restored after restart")
        return once
