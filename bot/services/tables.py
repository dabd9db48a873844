"""`TableService`: every change to a table goes through here.

load → check → apply (engine) → persist (one `Store.save_table` transaction with a version
compare-and-set, including the hand's actions and the hand/match records) → publish
(Discord, after the commit and outside the lock), under a per-table `asyncio.Lock`.

Callers pass a *transaction function* that mutates a `Tx` (the loaded `TableDoc`, plus the
records, announcements and panel refreshes to publish) and raises `TractorError` or
`UserFacingError` to refuse; a refused transaction writes nothing. Computer seats and
timeouts decide from ``view_for(seat)`` in a thread, outside the lock, then apply their
action through the same path, checked against the step they were computed for.

Built by the composition root with everything it uses (repository, config, the publish
sink, the clock); it never imports discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from bot.core import seat_rules
from bot.core.errors import UserFacingError
from bot.core.friends import CALLING, is_friends
from bot.core.levels import level_of, player_name
from bot.core.options import option_values, with_option
from bot.core.outcome import Announcement, Publish, hand_record, match_record
from bot.core.table import Seat, TableDoc, TimerKind, bump_step, seats_to_act
from bot.core.text import (
    call_text,
    cards_text,
    deadline_text,
    event_lines,
    mention,
    reveal_text,
    seat_name,
    summary_text,
    team_names,
)
from bot.i18n import t
from bot.runtime import offload
from bot.runtime.logging import table_logger
from bot.services.forced import forced_play
from bot.services.players import computer_action
from bot.services.repository import TableRepository
from bot.services.timers import Clock, Timers
from bot.storage import (
    HandAction,
    HandRecord,
    MatchRecord,
    StaleVersion,
    StoredTable,
    TableExists,
    TableStatus,
)
from engine.actions import Action, CloseWindow, Pass, Play, StartHand
from engine.cards import Rank
from engine.errors import TractorError
from engine.events import (
    CardsDealt,
    CardsPlayed,
    Declared,
    Event,
    FriendRevealed,
    FriendsCalled,
    HandSettled,
    HandStarted,
    MatchWon,
    NoBidTrump,
    PlayTakenBack,
    Redealt,
    StarterSet,
    ThrowFailed,
    TrumpSet,
)
from engine.game import Match, Phase
from engine.rules import FixedTrump, RuleSet

if TYPE_CHECKING:
    from bot.runtime.config import Config

__all__ = ["PublishSink", "ReadyState", "TableService", "Tx"]

T = TypeVar("T")
PublishSink = Callable[[int, Publish, bool], None]
"""``sink(table_id, publish, ended)``: show a commit's outcome (after the commit)."""


@dataclass(frozen=True, slots=True)
class ReadyState:
    """The answer to a Ready: whether the hand was dealt, and who is still awaited."""

    dealt: bool
    waiting: tuple[int, ...]


@dataclass(slots=True)
class Tx:
    """One transaction on a table: mutate ``doc``; fill the records and what to publish."""

    table: StoredTable
    doc: TableDoc
    status: TableStatus | None = None
    actions: list[HandAction] = field(default_factory=list)
    hand: HandRecord | None = None
    match: MatchRecord | None = None
    publish: Publish = field(default_factory=Publish)
    events: list[Event] = field(default_factory=list)
    end: bool = False
    changed: bool = True
    """Set False to commit nothing (a no-op)."""

    @property
    def table_id(self) -> int:
        return self.table.id


class TableService:
    """One per bot: tables' lifecycle, locks, timers and computer seats."""

    def __init__(self, repository: TableRepository, config: Config, *,
                 publish: PublishSink, clock: Clock) -> None:
        self.repository = repository
        self.store = repository.store
        self.config = config
        self.clock = clock
        self.timers = Timers(self._on_timer, clock)
        self._publish = publish
        self._pending_computer: set[tuple[int, int, int]] = set()
        self._pending_forced: set[tuple[int, int, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._rng: random.Random = (
            random.Random(config.seed) if config.seed is not None else secrets.SystemRandom()
        )
        self._closed = False

    # ---- plumbing ----------------------------------------------------------------------

    async def load(self, table_id: int) -> tuple[StoredTable, TableDoc]:
        """The open table, to read only (the live document: change it through `transact`)."""
        return await self.repository.load(table_id, shared=True)

    async def table_in_channel(self, channel_id: int) -> tuple[StoredTable, TableDoc] | None:
        return await self.repository.in_channel(channel_id)

    async def transact(self, table_id: int, fn: Callable[[Tx], T]) -> tuple[Tx, T]:
        """Run `fn` on the loaded table (a copy) under its lock and persist the result
        atomically. Once committed, ``tx.doc`` is the live table: read it, never change it."""
        repository = self.repository
        async with repository.lock(table_id):
            stored, doc = await repository.load(table_id)
            doc.restored = False
            tx = Tx(stored, doc)
            value = fn(tx)
            if not tx.changed:
                return tx, value
            if tx.end:
                await repository.save(stored, doc, status="ended", deadline=None,
                                      actions=tx.actions, hand=tx.hand, match=tx.match)
            else:  # `doc` is read only from here on: it becomes the live copy
                tx.table = await repository.save(
                    stored, doc, hand_over=True, status=tx.status,
                    deadline=doc.deadline if doc.timer else None,
                    actions=tx.actions, hand=tx.hand, match=tx.match)
        self._after_commit(tx)
        return tx, value

    def _after_commit(self, tx: Tx) -> None:
        doc = tx.doc
        if tx.end:
            self.timers.cancel(tx.table_id)
        else:
            self.timers.arm(tx.table_id, doc.deadline if doc.timer else None, doc.timer_step)
            self._schedule_computers(tx.table_id, doc)
            self._schedule_forced(tx.table_id, doc)
        self._publish(tx.table_id, tx.publish, tx.end)

    async def update_meta(self, table_id: int, fn: Callable[[TableDoc], None]) -> None:
        """Record message ids and similar bookkeeping (no step change, nothing published)."""
        await self.repository.update_meta(table_id, fn)

    async def close(self) -> None:
        self._closed = True
        await self.timers.close()

    def log(self, table_id: int, doc: TableDoc | None = None) -> Any:
        hand = None
        if doc is not None and doc.match is not None:
            hand = doc.match.get("hand_no")
        return table_logger(table_id, hand)

    async def set_locale(self, table_id: int, locale: str) -> None:
        """Switch the table's public text to `locale` (the server's language changed)."""
        def fn(tx: Tx) -> None:
            if tx.doc.locale == locale:
                tx.changed = False
                return
            tx.doc.locale = locale
        with contextlib.suppress(UserFacingError, StaleVersion):
            await self.transact(table_id, fn)

    async def relocalize(self, guild_id: int, locale: str) -> None:
        """The server's open tables switch their public text to `locale` (the server's
        language changed)."""
        for stored in await self.store.active_tables():
            if stored.guild_id == guild_id:
                await self.set_locale(stored.id, locale)

    # ---- lobby -------------------------------------------------------------------------

    async def open_table(self, guild_id: int, channel_id: int, user_id: int, name: str,
                         locale: str, options: dict[str, Any], *,
                         player_locale: str | None = None) -> tuple[StoredTable, TableDoc]:
        """Open a table: `locale` is the language of its public text (the server's),
        `player_locale` the creator's own (their panels; defaults to `locale`)."""
        doc = TableDoc(guild_id=guild_id, channel_id=channel_id, creator_id=user_id,
                       options=option_values(options), locale=locale)
        doc.resize(doc.rules.players)
        doc.seats[0] = Seat(user_id, name[:32], player_locale or locale)
        if self.config.debug_start_level:
            doc.start_levels = [self.config.debug_start_level] * 2
        doc.decision = ["lobby"]
        try:
            stored = await self.store.create_table(guild_id, channel_id, user_id, doc.to_dict())
        except TableExists:
            raise UserFacingError("error.table_exists") from None
        self.log(stored.id).info("opened by user %s", user_id)
        self._publish(stored.id, Publish(repost=True), False)
        return stored, doc

    @staticmethod
    def _lobby(tx: Tx) -> None:
        if not tx.doc.in_lobby:
            raise UserFacingError("error.match_running")

    async def set_option(self, table_id: int, user_id: int, name: str, value: Any) -> RuleSet:
        def fn(tx: Tx) -> RuleSet:
            doc = tx.doc
            self._lobby(tx)
            if user_id != doc.creator_id:
                raise UserFacingError("error.creator_only")
            before = doc.rules
            doc.options = with_option(doc.options, name, value)
            rules = doc.rules
            shape = (rules.mode, rules.players, rules.decks)
            if doc.match is not None and shape != (before.mode, before.players, before.decks):
                # The finished match was played at another table shape: back to the lobby
                # (its stored state is read with the table's options).
                doc.set_match(None)
                doc.results = []
                bump_step(doc, None)
                tx.publish.table = True
            if rules.players != doc.seat_count:  # `players` (or `mode`) changed the seats
                doc.resize(rules.players)
                doc.add_note(t("note.seats_resized", doc.locale, count=rules.players))
                tx.publish.table = True
            return rules
        _, rules = await self.transact(table_id, fn)
        return rules

    async def start(self, table_id: int, user_id: int) -> None:
        def fn(tx: Tx) -> None:
            doc = tx.doc
            self._lobby(tx)
            if doc.seat_of(user_id) is None and user_id != doc.creator_id:
                raise UserFacingError("error.not_at_table")
            rules = doc.rules
            if not doc.full:
                raise UserFacingError("error.need_seats", count=doc.seat_count)
            if rules.players != doc.seat_count:  # a table from before the option: its seats
                raise UserFacingError("error.bad_option")
            match = Match.new(rules)
            if doc.start_levels and not is_friends(rules):
                level = Rank.parse(doc.start_levels[0])
                match = Match(rules=rules, levels=(level, Rank.parse(doc.start_levels[1])))
            doc.match_no += 1
            doc.match_key = f"t{tx.table_id}-m{doc.match_no}"
            doc.results = []
            for entry in doc.seats:
                assert entry is not None
                entry.misses, entry.autopilot = 0, False
            doc.notes = []
            self._creator_first(tx)
            tx.match = self._match_record(tx, match)
            doc.set_match(match)
            tx.status = "playing"
            delay = self.config.start_delay
            if delay > 0 and doc.unready:
                # The first deal waits a moment (announced), or for everyone's Ready.
                bump_step(doc, match)
                doc.ready = []
                doc.timer, doc.deadline, doc.timer_step = "next_hand", self.clock() + delay, \
                    doc.step
                tx.publish.repost = True
                tx.publish.announcements.append(Announcement(t(
                    "announce.first_deal", doc.locale, deadline=deadline_text(doc.deadline))))
            else:
                self._start_hand(tx)
        await self.transact(table_id, fn)

    @staticmethod
    def _creator_first(tx: Tx) -> None:
        """With a fixed trump the first hand's starter is seat 1 (R12): the seats turn
        round the table until the creator, if seated, has it (partners stay partners)."""
        doc = tx.doc
        creator = doc.seat_of(doc.creator_id)
        if doc.rules.fixed_trump is FixedTrump.NONE or not creator:
            return
        doc.seats = doc.seats[creator:] + doc.seats[:creator]
        tx.publish.announcements.append(Announcement(
            t("note.creator_first_friends" if is_friends(doc.rules) else "note.creator_first",
              doc.locale, player=f"<@{doc.creator_id}>")))

    async def end(self, table_id: int, user_id: int, *, can_manage: bool) -> None:
        def fn(tx: Tx) -> None:
            doc = tx.doc
            if user_id != doc.creator_id and not can_manage:
                raise UserFacingError("error.end_not_allowed")
            tx.end = True
            doc.timer, doc.deadline = None, None
            doc.add_note(t("note.ended", doc.locale, player=f"<@{user_id}>"))
        await self.transact(table_id, fn)
        self.log(table_id).info("ended by user %s", user_id)

    async def repost(self, table_id: int) -> None:
        self._publish(table_id, Publish(repost=True), False)

    # ---- the game ------------------------------------------------------------------------

    def _match_record(self, tx: Tx, match: Match) -> MatchRecord:
        doc = tx.doc
        assert doc.match_key is not None
        return match_record(match, match_key=doc.match_key, table_id=tx.table_id,
                            guild_id=doc.guild_id, channel_id=doc.channel_id,
                            players=doc.players(), hands_played=len(doc.results))

    def _hand_record(self, tx: Tx, match: Match) -> HandRecord:
        doc = tx.doc
        assert doc.hand_key is not None and doc.match_key is not None
        return hand_record(match, hand_key=doc.hand_key, match_key=doc.match_key,
                           table_id=tx.table_id, players=doc.players(),
                           holders=seat_rules.holders(doc))

    def new_seed(self) -> int:
        return self._rng.getrandbits(63)

    def _start_hand(self, tx: Tx) -> None:
        doc = tx.doc
        match = doc.get_match()
        assert match is not None and doc.match_key is not None
        doc.hand_key = f"{doc.match_key}-h{match.hand_no + 1}"
        doc.action_seq = 0
        doc.notes = []
        for seat in seat_rules.seat_waiting(doc):  # people who took a seat during a hand
            doc.add_note(t("note.seat_taken", doc.locale, player=mention(doc, seat, doc.locale),
                           number=seat + 1))
        seat_rules.start_holders(doc)
        doc.ready = []
        self._apply(tx, StartHand(self.new_seed()))
        new = doc.get_match()
        assert new is not None
        tx.hand = self._hand_record(tx, new)
        tx.match = self._match_record(tx, new)  # the line-up may have changed between hands

    def _apply(self, tx: Tx, action: Action, *, actor: int | None = None) -> tuple[Event, ...]:
        """Apply an engine action to the doc (raises `TractorError`, changing nothing)."""
        doc = tx.doc
        match = doc.get_match()
        if match is None:
            raise UserFacingError("error.no_match")
        new, events = match.apply(action)
        assert doc.hand_key is not None
        tx.actions.append(HandAction(doc.hand_key, doc.action_seq, action.to_dict()))
        doc.action_seq += 1
        doc.set_match(new)
        doc.restored = False
        tx.events.extend(events)
        self._after_events(tx, new, events, actor)
        return events

    def _after_events(self, tx: Tx, match: Match, events: tuple[Event, ...],
                      actor: int | None) -> None:
        doc = tx.doc
        locale = doc.locale
        pub = tx.publish
        for line in event_lines(doc, events, locale):
            doc.add_note(line)
        humans = [s for s in doc.humans]
        for event in events:
            if isinstance(event, HandStarted):
                pub.repost = True
                table_logger(tx.table_id, event.hand_no).info("hand started")
            elif isinstance(event, (Redealt, NoBidTrump, ThrowFailed)):
                pub.announcements.append(Announcement(event_lines(doc, [event], locale)[0]))
            elif isinstance(event, FriendsCalled):  # shown to all at once
                text = t("announce.friends_called", locale,
                         player=seat_name(doc, event.seat, locale),
                         calls=", ".join(call_text(c, locale)
                                         for c in event.calls))
                doc.add_note(text)
                pub.announcements.append(Announcement(text))
            elif isinstance(event, FriendRevealed):  # announced as it happens
                pub.announcements.append(Announcement(reveal_text(doc, event, locale)))
                tx.hand = self._hand_record(tx, match)
            elif isinstance(event, (TrumpSet, StarterSet)):
                tx.hand = self._hand_record(tx, match)
            elif isinstance(event, Declared):
                for seat in humans:
                    pub.panel(seat, "edit")
            elif isinstance(event, HandSettled):
                self._settled(tx, match)
            elif isinstance(event, MatchWon):
                winner = (seat_name(doc, match.winner, locale)
                          if is_friends(match.rules) and match.winner is not None
                          else team_names(doc, event.team, locale))
                pub.announcements.append(Announcement(
                    "🏆 " + t("announce.match_won", locale, team=winner)))
        if actor is not None and actor in humans:
            pub.panel(actor, "edit")
        if match.rules.take_backs and any(isinstance(e, (CardsPlayed, PlayTakenBack))
                                          for e in events):
            for seat in humans:  # a Take back button appears on one panel, leaves another
                pub.panel(seat, "edit")
        if bump_step(doc, match):
            self._arm(doc, match)
            public = match.public_view()
            first_batch = any(isinstance(e, CardsDealt) and e.batch == 1 for e in events)
            if public.phase is Phase.DECLARING:
                for seat in humans:
                    pub.panel(seat, "new" if first_batch else "edit")
            elif public.phase in (Phase.BURYING, CALLING, Phase.PLAYING) \
                    and public.turn is not None:
                turn = public.turn
                entry = doc.seats[turn]
                if entry is not None and entry.user_id is not None:
                    pub.panel(turn, "edit" if entry.autopilot else "new")
                if public.phase in (Phase.BURYING, CALLING):
                    for seat in humans:
                        pub.panel(seat, "edit")
            else:
                for seat in humans:
                    pub.panel(seat, "edit")

    def _settled(self, tx: Tx, match: Match) -> None:
        doc = tx.doc
        public = match.public_view()
        result = public.result
        assert result is not None
        won = "" if result.match_winner is None else (
            f", seat {result.match_winner} won" if is_friends(match.rules)
            else f", team {'AB'[result.match_winner]} won")
        table_logger(tx.table_id, public.hand_no).info(
            "hand settled: opponents %s points, %s +%s%s", result.opponent_points, result.side,
            result.levels_gained, won)
        doc.results.append({
            "hand_no": public.hand_no, "starter": public.starter,
            "trump": None if public.trump is None else str(public.trump),
            "opponent_points": result.opponent_points, "side": result.side,
            "levels_gained": result.levels_gained,
            "new_levels": [str(r) for r in result.new_levels],
        })
        text = summary_text(doc, public, doc.locale)
        doc.last_summary = text
        tx.publish.announcements.append(Announcement(
            text, summary_image=True, summary_view=public,
            ready=match.winner is None and bool(doc.humans)))
        tx.hand = self._hand_record(tx, match)
        tx.match = self._match_record(tx, match)
        if match.winner is not None:
            tx.status = "lobby"
            seat_rules.seat_waiting(doc)  # who waited for a next hand sits for the next match
            doc.add_note(t("note.match_over", doc.locale))

    def _arm(self, doc: TableDoc, match: Match) -> None:
        """Set the deadline for the decision point just reached."""
        rules = match.rules
        phase = match.phase
        kind: TimerKind | None = None
        seconds: float = 0
        if phase is Phase.DECLARING:
            kind, seconds = "declare", rules.declare_window_s
        elif phase is Phase.BURYING and rules.turn_timer_s:
            kind, seconds = "bury", rules.turn_timer_s * 2
        elif phase == CALLING and rules.turn_timer_s:
            kind, seconds = "call", rules.turn_timer_s * 2
        elif phase is Phase.PLAYING and rules.turn_timer_s:
            kind, seconds = "turn", rules.turn_timer_s
        elif phase is Phase.BETWEEN_HANDS:
            doc.ready = []
            kind, seconds = "next_hand", self.config.hand_pause
            if doc.unready:  # people read the summary: wait for their Ready
                seconds = rules.ready_timeout_s
                if not seconds:
                    kind = None  # no limit: only everyone's Ready deals
        doc.timer = kind
        doc.deadline = None if kind is None else self.clock() + seconds
        doc.timer_step = doc.step

    # ---- player actions --------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, make: Callable[[int], Action], *,
                  step: int | None = None) -> Tx:
        """A human's action: `make(seat)` builds it. `step` (from a component) must match.

        Raises `UserFacingError` (not seated, stale) or `TractorError` (the engine's reason).
        """
        def fn(tx: Tx) -> None:
            doc = tx.doc
            seat = doc.seat_of(user_id)
            if seat is None:
                raise UserFacingError("error.not_at_table")
            if doc.match is None:
                raise UserFacingError("error.no_match")
            if step is not None and step != doc.step:
                raise UserFacingError("error.stale")
            action = make(seat)
            entry = doc.seat(seat)
            self._apply(tx, action, actor=seat)
            entry.misses = 0
        tx, _ = await self.transact(table_id, fn)
        return tx

    async def back(self, table_id: int, user_id: int) -> bool:
        """`I'm back`: the seat leaves autopilot. Returns False if it was not on autopilot."""
        def fn(tx: Tx) -> bool:
            doc = tx.doc
            seat = doc.seat_of(user_id)
            if seat is None:
                raise UserFacingError("error.not_at_table")
            entry = doc.seat(seat)
            if not entry.autopilot:
                tx.changed = False
                return False
            entry.autopilot, entry.misses = False, 0
            doc.add_note(t("note.back", doc.locale, player=seat_name(doc, seat, doc.locale)))
            tx.publish.panel(seat, "new")
            return True
        _, was = await self.transact(table_id, fn)
        return was

    async def ready(self, table_id: int, user_id: int) -> ReadyState:
        """`user_id` is ready for the next hand (the summary's or the table's Ready button;
        local play when the page is open). The hand is dealt at once when nobody else is
        awaited. Refused (`UserFacingError`) when not seated or no deal is pending;
        pressing twice changes nothing. Seats taken mid-match can reuse this check."""
        def fn(tx: Tx) -> ReadyState:
            doc = tx.doc
            seat = doc.seat_of(user_id)
            if seat is None:
                raise UserFacingError("error.not_at_table")
            if doc.get_match() is None or doc.phase is not Phase.BETWEEN_HANDS:
                raise UserFacingError("error.no_deal_pending")
            if seat in doc.ready:
                tx.changed = False
                return ReadyState(False, tuple(doc.unready))
            doc.ready.append(seat)
            tx.publish.table = True
            if not self.deal_if_ready(tx):
                return ReadyState(False, tuple(doc.unready))
            return ReadyState(True, ())
        _, state = await self.transact(table_id, fn)
        return state

    def deal_if_ready(self, tx: Tx) -> bool:
        """Deal the next hand inside `tx` when one is pending, every seat is filled and no
        seated person is still awaited (someone pressed Ready, or the awaited one left)."""
        doc = tx.doc
        if (doc.get_match() is None or doc.phase is not Phase.BETWEEN_HANDS or not doc.full
                or not doc.ready or doc.unready):
            return False
        self._start_hand(tx)
        return True

    # ---- timers and computer seats -----------------------------------------------------

    async def _on_timer(self, table_id: int, step: int) -> None:
        if self._closed:
            return
        try:
            _, doc = await self.load(table_id)
        except UserFacingError:
            return
        if doc.step != step or doc.timer_step != step or doc.timer is None:
            return
        kind = doc.timer
        match = doc.get_match()
        if match is None:
            return
        log = self.log(table_id, doc)
        if kind == "declare":
            await self._guarded(table_id, step, lambda tx: self._apply(tx, CloseWindow()))
        elif kind == "next_hand":
            def next_hand(tx: Tx) -> None:
                if tx.doc.get_match() is not None and tx.doc.phase is Phase.BETWEEN_HANDS:
                    if tx.doc.full:
                        self._start_hand(tx)
                    else:  # a seat was emptied: the hand starts once it is filled
                        tx.doc.timer, tx.doc.deadline = None, None
                else:
                    tx.changed = False
            await self._guarded(table_id, step, next_hand)
        else:
            seat = match.public_view().turn
            if seat is None:
                return
            action = await offload.run(
                computer_action, match.view_for(seat), self.player_of(doc, seat),
                table_id, match.hand_no, step)
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
                        doc.add_note(t("timer.autopilot", locale,
                                       player=mention(doc, seat, locale)))
                self._apply(tx, action, actor=seat)
            await self._guarded(table_id, step, timeout)

    async def _guarded(self, table_id: int, step: int, fn: Callable[[Tx], Any]) -> bool:
        """Apply `fn` only if the table is still at `step`; swallow a race lost."""
        def checked(tx: Tx) -> None:
            if tx.doc.step != step:
                tx.changed = False
                return
            fn(tx)
        try:
            tx, _ = await self.transact(table_id, checked)
        except (UserFacingError, StaleVersion):
            return False
        return tx.changed

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
            task = asyncio.create_task(self._computer_turn(table_id, seat, doc.step, doc),
                                       name=f"tractor-computer-{table_id}-{seat}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

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
            for _attempt in range(2):
                if committed is not None:
                    doc, committed = committed, None
                else:
                    _, doc = await self.load(table_id)
                match = doc.get_match()
                if (doc.step != step or match is None or seat not in seats_to_act(match)
                        or not doc.seat(seat).computer_acts):
                    return
                action = await offload.run(
                    computer_action, match.view_for(seat), self.player_of(doc, seat),
                    table_id, match.hand_no, step, doc.action_seq)
                def apply(tx: Tx, action: Action = action) -> None:
                    self._computer_apply(tx, seat, action)
                try:
                    await self._guarded(table_id, step, apply)
                    return
                except TractorError as error:
                    # The view went out of date (someone declared first): decide again,
                    # and pass if that fails too.
                    self.log(table_id, doc).debug("computer seat %s refused: %s", seat, error)
            # Refused twice: a race lost twice, or a computer player's bug (either mode).
            self.log(table_id, doc).warning("computer seat %s refused twice: passing", seat)
            await self._guarded(table_id, step,
                                lambda tx: self._computer_apply(tx, seat, Pass(seat)))
        except UserFacingError:
            return
        except TractorError:
            return
        except Exception:
            self.log(table_id).exception("computer seat %s failed", seat)
        finally:
            self._pending_computer.discard(key)

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
        task = asyncio.create_task(self._forced_turn(table_id, seat, entry.user_id, doc.step),
                                   name=f"tractor-forced-{table_id}-{seat}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _forced_turn(self, table_id: int, seat: int, user_id: int, step: int) -> None:
        try:
            if not (await self.store.user_settings(user_id)).auto_forced:
                return
            _, doc = await self.load(table_id)
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
                self._apply(tx, Play(seat, cards), actor=seat)
            await self._guarded(table_id, step, play)
        except (UserFacingError, TractorError, StaleVersion):
            return
        except Exception:
            self.log(table_id).exception("forced play of seat %s failed", seat)
        finally:
            self._pending_forced.discard((table_id, seat, step))

    def _computer_apply(self, tx: Tx, seat: int, action: Action) -> None:
        match = tx.doc.get_match()
        if match is None or seat not in seats_to_act(match) or not tx.doc.seat(seat).computer_acts:
            tx.changed = False
            return
        self._apply(tx, action, actor=seat)

    # ---- restart --------------------------------------------------------------------

    async def restore(self, owns: Callable[[int], bool] | None = None) -> list[int]:
        """Re-arm timers and computer seats of every open table after a (re)start, and mark
        them "restored after restart": the table message is refreshed (re-posted if it is
        gone) and every DM panel edited in place (same step, so its buttons keep working).

        A deadline that passed while the bot was down (or is about to) gets a short grace
        (`Config.restart_grace` seconds from now), so nobody is timed out by the downtime.
        `owns` (a cluster): only the tables of the servers it is true of (by guild id).
        """
        restored: list[int] = []
        grace = self.config.restart_grace
        for stored in await self.store.active_tables():
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
                if doc.match is not None:
                    for seat in doc.humans:
                        if doc.seat(seat).panel_message is not None:
                            tx.publish.panel(seat, "edit")
            try:
                await self.transact(table_id, fn)
            except Exception:
                self.log(table_id).exception("could not restore")
                continue
            restored.append(table_id)
            self.log(table_id).info("restored after restart")
        return restored
