"""`TableService`: every change to a table goes through here.

load → check → apply (engine) → persist (one `Store.save_table` transaction with a version
compare-and-set, including the hand's actions and the hand/match records) → publish
(Discord, after the commit and outside the lock), under a per-table `asyncio.Lock`.

Callers pass a *transaction function* that mutates a `Tx` (the loaded `TableDoc`, plus the
records, announcements and panel refreshes to publish) and raises `TractorError` or
`UserFacingError` to refuse; a refused transaction writes nothing. What moves without a
person (timers, computer seats, forced plays, the restore after a restart) is the
`bot.services.autopilot.Autopilot`, told of every commit and acting through the same path.

Built by the composition root with everything it uses (repository, config, the publish
sink, the autopilot, the clock); it never imports discord.
"""

from __future__ import annotations

import contextlib
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from bot.core import seat_rules
from bot.core.errors import UserFacingError
from bot.core.options import option_values, with_option
from bot.core.table import Seat, TableDoc, TimerKind, bump_step, seats_to_act
from bot.i18n import t
from bot.present.looks import look
from bot.present.text import (
    call_text,
    event_lines,
    mention,
    reveal_text,
    seat_name,
    summary_text,
    taken_back_lines,
    team_letter,
    team_names,
)
from bot.runtime.logging import TableLogger, table_logger
from bot.services.outcome import Announcement, Move, Publish
from bot.services.records import hand_record, match_record
from bot.services.repository import TableRepository
from bot.services.timers import Clock
from bot.services.transaction import Tx
from bot.storage import (
    HandAction,
    HandRecord,
    MatchRecord,
    StaleVersion,
    StoredTable,
    TableExists,
)
from engine.actions import Action, StartHand, TakeBack
from engine.cards import Card, Rank
from engine.events import (
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
    from bot.services.autopilot import Autopilot

__all__ = ["PublishSink", "ReadyState", "TableService", "Tx"]

T = TypeVar("T")
PublishSink = Callable[[int, Publish, bool], None]
"""``sink(table_id, publish, ended)``: show a commit's outcome (after the commit)."""


@dataclass(frozen=True, slots=True)
class ReadyState:
    """The answer to a Ready: whether the hand was dealt, who is still awaited, and the
    table as the Ready left it (read only: to name them)."""

    dealt: bool
    waiting: tuple[int, ...]
    doc: TableDoc | None = None


class TableService:
    """One per bot: tables' lifecycle and every change to them (the autopilot moves them
    on its own through here)."""

    def __init__(self, repository: TableRepository, config: Config, *,
                 publish: PublishSink, clock: Clock, autopilot: Autopilot) -> None:
        """`publish`: the sink a commit's outcome goes to; `autopilot`: what moves on its
        own after a commit (timers, computer seats, forced plays), acting back through
        this service."""
        self.repository = repository
        self.store = repository.store
        self.config = config
        self.clock = clock
        self._publish = publish
        self.autopilot = autopilot
        autopilot.serve(self)
        self._rng: random.Random = (
            random.Random(config.seed) if config.seed is not None else secrets.SystemRandom()
        )

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
        if tx.end:
            self.autopilot.ended(tx.table_id)
        else:
            self.autopilot.committed(tx.table_id, tx.doc)
        self._publish(tx.table_id, tx.publish, tx.end)

    async def update_meta(self, table_id: int, fn: Callable[[TableDoc], None]) -> None:
        """Record message ids and similar bookkeeping (no step change, nothing published)."""
        await self.repository.update_meta(table_id, fn)

    async def close(self) -> None:
        """Nothing moves on its own from now on (the autopilot stops)."""
        await self.autopilot.close()

    async def restore(self, owns: Callable[[int], bool] | None = None) -> list[int]:
        """Re-arm every open table after a (re)start (`Autopilot.restore`; `owns`: only
        the tables of the servers it is true of, by guild id — a cluster's)."""
        return await self.autopilot.restore(owns)

    def log(self, table_id: int, doc: TableDoc | None = None) -> TableLogger:
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
            if doc.start_levels:  # debug: a fixed team's level, else the first, per seat
                team, given = rules.variant.team_of, doc.start_levels
                match = Match(rules=rules, levels=tuple(
                    Rank.parse(given[(team(seat) or 0) % len(given)])
                    for seat in range(rules.players)))
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
                # The first deal waits a moment, or for everyone's Ready: the table message,
                # posted anew, says so (and is gone once the hand is dealt: issue 38 item 4).
                bump_step(doc, match)
                doc.ready = []
                doc.timer, doc.deadline, doc.timer_step = "next_hand", self.clock() + delay, \
                    doc.step
                tx.publish.repost = True
            else:
                self.start_hand(tx)
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
            t(look(doc.rules.variant).creator_first, doc.locale,
              player=f"<@{doc.creator_id}>")))

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

    def start_hand(self, tx: Tx) -> None:
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
        self.apply(tx, StartHand(self.new_seed()))
        new = doc.get_match()
        assert new is not None
        tx.hand = self._hand_record(tx, new)
        tx.match = self._match_record(tx, new)  # the line-up may have changed between hands

    def apply(self, tx: Tx, action: Action, *, actor: int | None = None) -> tuple[Event, ...]:
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
            elif isinstance(event, PlayTakenBack):  # what the play caused is undone too
                doc.drop_notes(taken_back_lines(doc, match, event, locale))
            elif isinstance(event, HandSettled):
                self._settled(tx, match)
            elif isinstance(event, MatchWon):
                team = match.variant.team_of(event.seat)
                winner = (seat_name(doc, event.seat, locale) if team is None
                          else team_names(doc, team, locale))
                pub.announcements.append(Announcement(
                    "🏆 " + t("announce.match_won", locale, team=winner)))
        if bump_step(doc, match):
            self._arm(doc, match)
        people = tuple(i for i, s in enumerate(doc.seats)
                       if s is not None and not s.computer_acts)
        pub.moves.append(Move(tuple(events), actor, match.hand_no, doc.step,
                              tuple(seats_to_act(match)), people))

    def _settled(self, tx: Tx, match: Match) -> None:
        doc = tx.doc
        public = match.public_view()
        result = public.result
        assert result is not None
        team = None if result.match_winner is None else match.variant.team_of(
            result.match_winner)
        won = "" if result.match_winner is None else (
            f", seat {result.match_winner} won" if team is None
            else f", team {team_letter(team)} won")
        table_logger(tx.table_id, public.hand_no).info(
            "hand settled: opponents %s points, %s +%s%s", result.opponent_points, result.side,
            result.levels_gained, won)
        doc.results.append({
            "hand_no": public.hand_no, "starter": public.starter,
            "trump": None if public.trump is None else str(public.trump),
            "opponent_points": result.opponent_points, "side": result.side,
            "levels_gained": result.levels_gained,
            "new_levels": [str(r) for r in match.variant.side_levels(result.new_levels)],
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
        elif phase is Phase.CALLING and rules.turn_timer_s:
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
            self.apply(tx, action, actor=seat)
            entry.misses = 0
        tx, _ = await self.transact(table_id, fn)
        return tx

    async def take_back(self, table_id: int, user_id: int, *, step: int | None = None
                        ) -> tuple[Card, ...]:
        """`user_id` takes back their last play (R12 `take_backs`; the engine rules on it,
        `TractorError`); the cards returned to their hand. `step` as in `act`."""
        tx = await self.act(table_id, user_id, TakeBack, step=step)
        taken = [e for e in tx.events if isinstance(e, PlayTakenBack)]
        return taken[0].cards if taken else ()

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
            tx.publish.returned.add(seat)
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
                return ReadyState(False, tuple(doc.unready), doc)
            doc.ready.append(seat)
            tx.publish.table = True
            if not self.deal_if_ready(tx):
                return ReadyState(False, tuple(doc.unready), doc)
            return ReadyState(True, (), doc)
        _, state = await self.transact(table_id, fn)
        return state

    def deal_if_ready(self, tx: Tx) -> bool:
        """Deal the next hand inside `tx` when one is pending, every seat is filled and no
        seated person is still awaited (someone pressed Ready, or the awaited one left)."""
        doc = tx.doc
        if (doc.get_match() is None or doc.phase is not Phase.BETWEEN_HANDS or not doc.full
                or not doc.ready or doc.unready):
            return False
        self.start_hand(tx)
        return True
