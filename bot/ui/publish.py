"""Publishing to Discord after a commit: announcements, the table message, DM panels.

What a job shows, to whom and by which road is decided by the one presentation policy
(bot/ui/policy.py `decide`, pure) from the commits' facts and what each seat last saw (the
publisher keeps its memory: the seats' latest DM panel clicks, whose tokens edit those
panels for free, when each last acted, the last turn each was told of); this module only
executes the plan, marking every call Discord counts against its global limit with its
`rest_priority` (bot/runtime/budget.py).

`Publisher.submit` merges what a commit wants shown into the table's pending job and
starts one drain task per table (it exits when nothing is pending, so SimCord can settle).
The drain reads the *latest* stored document, so bursts of moves are coalesced: the table
message is edited at most once per ``Config.edit_interval`` seconds (stretched by the REST
budget, `RestBudget.table_interval`; what a person is shown does not wait for it) and
always shows the newest state. Discord errors never reach the game: a failed DM (50007)
marks the seat's DMs closed and tells the player once, in the channel. Every send and edit
goes through bot/ui/edits.py: Discord's reply is not parsed into a message, and a picture
the message carries already is kept instead of uploaded again (a hand picture while only
the table moved, a table picture that did not change). What a publish needs from the
worker (the table picture, the DM panels' pictures and Quick plays) is asked for in one
job before the first message (`Workers.warm`); the messages are then built and sent as
before.

The ephemeral ``My hand`` panel follows the game too. Discord lets the bot edit an
ephemeral message only through the interaction that made it (its token lives 15 minutes),
so the handlers `track_ephemeral` the latest panel interaction of each (table, seat), in
memory; whenever the plan says so (every move), the ephemeral panel is edited
(``edit_original_response``), from the latest stored table, one edit at a time per seat,
coalesced, in its own task (never in the game's way). An expired or invalid token (10015,
50027, 401) or a dismissed message (404) just forgets it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.core.table import Seat, TableDoc
from bot.i18n import resolve_locale, t
from bot.present.images import summary_png
from bot.present.text import mention
from bot.runtime import offload
from bot.runtime.budget import Priority, RestBudget, rest_priority
from bot.runtime.logging import table_logger
from bot.runtime.offload import Want
from bot.services.outcome import Announcement, Publish
from bot.services.pictures import Pictures
from bot.services.repository import TableRepository
from bot.ui.carry import Carriers
from bot.ui.edits import TOKEN_GONE, edit_original_quietly, edit_quietly, send_quietly
from bot.ui.notify import TurnPings
from bot.ui.panels import (
    Panel,
    build_panel,
    build_table_message,
    my_hand_view,
    panel_wants,
    past_table_text,
    ready_view,
    seat_labels,
    selected_cards,
)
from bot.ui.policy import (
    Dm,
    Memory,
    Ping,
    Plan,
    SeatFacts,
    SeatPlan,
    Token,
    decide,
    remember,
    urgent,
)
from bot.ui.replies import fit
from bot.ui.selection import Selections
from engine.game import Phase

if TYPE_CHECKING:
    from bot.runtime.config import Config

__all__ = ["Publisher"]

DM_CLOSED = 50007
NONE = discord.AllowedMentions.none()
TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction token can edit its ephemeral reply (Discord: 15 minutes)."""
TOKEN_MARGIN = 20.0
"""Stop using a token this many seconds before it expires."""

PanelKey = tuple[int, int]
PANEL_ANSWERS = (discord.InteractionResponseType.deferred_message_update,
                 discord.InteractionResponseType.message_update)
"""How a click was answered when its original response is the clicked panel (its token
can edit that panel)."""


@dataclass(slots=True)
class _Ephemeral:
    """The latest ephemeral hand panel of a seat: the interaction whose original response
    (or clicked message) it is."""

    interaction: discord.Interaction[Any]
    user_id: int
    locale: str
    expires: datetime
    """When the token is no longer used (its creation + 15 minutes, less a margin)."""


@dataclass(slots=True)
class _Click:
    """The latest click on a seat's DM panel: its token edits that panel (free)."""

    interaction: discord.Interaction[Any]
    message_id: int
    expires: datetime


def _now() -> float:
    """Epoch seconds by discord.py's clock (virtual under SimCord)."""
    return discord.utils.utcnow().timestamp()


@dataclass(slots=True)
class _Job:
    publish: Publish = field(default_factory=Publish)
    ended: bool = False


class Publisher:
    """Per-table ordered publishing, outside the table lock."""

    def __init__(self, client: discord.Client, repository: TableRepository,
                 selections: Selections, config: Config, pictures: Pictures,
                 budget: RestBudget | None = None) -> None:
        self.bot = client
        self.repository = repository
        self.store = repository.store
        self.selections = selections
        self.config = config
        self.budget = RestBudget(config.rest_budget) if budget is None else budget
        """The bot's REST budget (bot/runtime/budget.py): table edits stretch under it."""
        self.pictures = pictures
        """The pictures, and through them the worker pool (`pictures.workers`)."""
        self._pending: dict[int, _Job] = {}
        self._running: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, float] = {}
        self._past: dict[int, str] = {}  # a table message's text once its moment passed, by id
        self._napping: dict[int, asyncio.Future[None]] = {}
        """The drains waiting out the edit interval (cut short for a person's panel)."""
        self._ephemeral: dict[PanelKey, _Ephemeral] = {}
        self._ephemeral_dirty: set[PanelKey] = set()
        self._ephemeral_tasks: dict[PanelKey, asyncio.Task[None]] = {}
        self._ephemeral_last: dict[PanelKey, float] = {}
        self.pings = TurnPings(self.store)
        self._clicks: dict[PanelKey, _Click] = {}
        self._memory: dict[PanelKey, Memory] = {}
        self._side_tasks: set[asyncio.Task[None]] = set()
        self.carriers = Carriers()
        """The channels' live interaction tokens: the table message and the announcements
        go through them when one is alive (free of the global limit; bot/ui/carry.py)."""
        self._table_messages: dict[int, int] = {}
        """Each table's current table message (whether a token still edits it)."""

    def submit(self, table_id: int, publish: Publish, ended: bool = False) -> None:
        job = self._pending.setdefault(table_id, _Job())
        job.publish.merge(publish)
        job.ended = job.ended or ended
        if urgent(publish):  # people first: a drain waiting out the edit interval goes now
            nap = self._napping.get(table_id)
            if nap is not None:
                nap.cancel()
        task = self._running.get(table_id)
        if task is None or task.done():
            self._running[table_id] = asyncio.create_task(
                self._drain(table_id), name=f"tractor-publish-{table_id}")

    @property
    def busy(self) -> bool:
        """Something is being published (or waits out a table's edit interval: under a
        virtual clock, `idle` returns only once that time is advanced)."""
        return bool(self._tasks())

    async def idle(self) -> None:
        """Wait until nothing is being published (tests, shutdown)."""
        while True:
            tasks = self._tasks()
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    def _tasks(self) -> list[asyncio.Task[None]]:
        return [task for task in [*self._running.values(), *self._ephemeral_tasks.values(),
                                  *self._side_tasks] if not task.done()]

    async def _drain(self, table_id: int) -> None:
        try:
            while table_id in self._pending:
                job = self._pending.pop(table_id)
                interval = self._table_interval(table_id)
                if interval > 0 and not job.publish.repost and not job.ended:
                    wait = self._last_edit.get(table_id, 0.0) + interval - time.monotonic()
                    if wait > 0 and urgent(job.publish):
                        # People first (issue 32): what a person is shown (their own move,
                        # their turn) goes now; the table message keeps its interval
                        # (issue 36), edited once it has passed.
                        job = self._table_later(table_id, job)
                    elif wait > 0:
                        nap = asyncio.ensure_future(asyncio.sleep(wait))
                        self._napping[table_id] = nap  # a person's panel cuts it short
                        try:
                            await asyncio.wait({nap})
                        finally:
                            cut = nap.cancelled()
                            nap.cancel()
                            self._napping.pop(table_id, None)
                        later = self._pending.pop(table_id, None)
                        if later is not None:
                            job.publish.merge(later.publish)
                            job.ended = job.ended or later.ended
                        if cut:  # a person is to be shown something: sorted out again
                            self._pending[table_id] = job
                            continue
                try:
                    await self._publish(table_id, job)
                except Exception:
                    table_logger(table_id).exception("publishing failed")
        finally:
            if self._running.get(table_id) is asyncio.current_task():
                del self._running[table_id]

    def _table_interval(self, table_id: int) -> float:
        """Seconds between two edits of the table's message: ``edit_interval`` while a
        token edits it (free), else stretched by the REST budget under pressure."""
        base = self.config.edit_interval
        if self.carriers.carried(self._table_messages.get(table_id)) is not None:
            return base
        return self.budget.table_interval(base)

    def _table_later(self, table_id: int, job: _Job) -> _Job:
        """`job` without its table edit, which is left pending (for after the interval)."""
        if job.publish.table:
            later = self._pending.setdefault(table_id, _Job())
            later.publish.merge(Publish(table=True))
            job.publish.table = False
        return job

    # ---- one job -----------------------------------------------------------------------

    async def _publish(self, table_id: int, job: _Job) -> None:
        found = await self.repository.find(table_id, shared=True)
        if found is None:
            return
        stored, doc = found
        channel = self.bot.get_partial_messageable(doc.channel_id, guild_id=doc.guild_id)
        if doc.table_message is not None:
            self._table_messages[table_id] = doc.table_message
        meta: dict[str, Any] = {"seats": {}}
        match = doc.get_match()
        ended = stored.status == "ended" or job.ended
        hand_no = 0 if match is None else match.hand_no
        waiting = match is not None and hand_no == 0 and match.phase is Phase.BETWEEN_HANDS
        plan = Plan()
        if match is not None and not ended:
            facts = await self._facts(table_id, doc, job.publish.departed)
            now = _now()
            plan = decide(job.publish, facts, now=now, idle=self.config.turn_ping_idle)
            self._remember(table_id, job.publish, plan, now)
        new_table = not ended and (job.publish.repost or plan.table == "repost"
                                   or doc.table_message is None
                                   or doc.table_message_hand != hand_no)
        if not ended:  # what the worker must draw, asked for in one job
            wants, people = self._wants(table_id, doc, job, plan)
            await self.pictures.workers.warm(
                wants, offload.PEOPLE if people else offload.PICTURES)
        if not new_table:
            # People first: a turn notice never waits behind the channel's messages, which
            # may wait for the REST budget (bot/runtime/budget.py).
            await self._seats(table_id, doc, plan, meta, channel)
        # A new hand's announcements (before its table) go with its panels, first; else
        # the announcements are last.
        with rest_priority(Priority.NOTICE if new_table else Priority.OTHER):
            for announcement in job.publish.announcements:
                summary = await self._announce(table_id, doc, channel, announcement)
                if summary is not None:
                    meta["summary_message"] = summary
        if ended:
            with rest_priority(Priority.TABLE):
                await self._close_table_message(doc, channel)
            await self._summary_done(doc, channel, meta)
            return  # an ended table is not saved again: nothing to record
        if new_table:
            # The new table message first: the panels of its hand link to it.
            with rest_priority(Priority.NOTICE):
                message_id = await self._post_table(table_id, doc, channel)
            if message_id is not None:
                meta["table_message"] = (message_id, hand_no, waiting)
            await self._seats(table_id, doc, plan, meta, channel)
            with rest_priority(Priority.OTHER):  # tidying, after the people's panels
                await self._retire_table(doc, channel, message_id)
        elif job.publish.table:
            with rest_priority(Priority.TABLE):
                ok = await self._edit_table(table_id, doc, channel)
                if not ok:
                    message_id = await self._post_table(table_id, doc, channel)
                    if message_id is not None:
                        meta["table_message"] = (message_id, hand_no, waiting)
                    await self._retire_table(doc, channel, message_id)
        await self._summary_done(doc, channel, meta)
        await self._record_meta(table_id, meta)

    async def _summary_done(self, doc: TableDoc, channel: discord.PartialMessageable,
                            meta: dict[str, Any]) -> None:
        """Once the next hand is dealt (or the table ended), the last summary loses its
        Ready button: tidying, after the people's panels."""
        match = doc.get_match()
        if (doc.summary_message is not None and "summary_message" not in meta
                and (match is None or match.phase is not Phase.BETWEEN_HANDS)):
            with rest_priority(Priority.OTHER):
                await self._close_summary(doc, channel)
            meta["summary_message"] = None

    async def _seats(self, table_id: int, doc: TableDoc, plan: Plan, meta: dict[str, Any],
                     channel: discord.PartialMessageable) -> None:
        """Each seat's part of the plan: its My hand panel, its DM panel, its ping."""
        for seat, mine in sorted(plan.seats.items()):
            if mine.hand:
                self.refresh_ephemeral(table_id, seat)
            if mine.dm is not Dm.NONE:
                await self._panel(table_id, doc, seat, mine, meta)
            if mine.ping is not Ping.NONE:
                await self._ping(table_id, doc, seat, mine, channel)
            elif mine.answered:
                await self.pings.answered(table_id, seat, channel)

    async def _facts(self, table_id: int, doc: TableDoc,
                     departed: set[int]) -> dict[int, SeatFacts]:
        """What the policy knows of each seat (bot/ui/policy.py); a seat on autopilot is
        no person, but one `departed` in this job keeps its panels' facts (they are
        drawn once more, saying so)."""
        match = doc.get_match()
        assert match is not None
        hand_no = match.hand_no
        facts: dict[int, SeatFacts] = {}
        for seat, entry in enumerate(doc.seats):
            if entry is None or entry.user_id is None or (entry.autopilot
                                                          and seat not in departed):
                facts[seat] = SeatFacts(person=False)
                continue
            settings = await self.store.user_settings(entry.user_id)
            memory = self._memory.get((table_id, seat), Memory())
            panel_hand = (None if entry.panel_message is None
                          else hand_no if entry.panel_hand == -1 else entry.panel_hand)
            facts[seat] = SeatFacts(
                person=not entry.autopilot, panel_hand=panel_hand,
                token=self._token(table_id, seat, entry),
                dm=not (settings.panel == "ephemeral" or entry.dm_closed
                        or entry.panel_lost_hand == hand_no),
                last_acted=memory.last_acted, told=memory.told,
                turn_ping=settings.turn_ping)
        return facts

    def _token(self, table_id: int, seat: int, entry: Seat) -> Token:
        """Which panel the seat's latest live token is on (its current DM panel, My hand)."""
        self._forget_expired()
        key = (table_id, seat)
        click, hand = self._clicks.get(key), self._ephemeral.get(key)
        if click is not None and (click.message_id != entry.panel_message
                                  or click.interaction.user.id != entry.user_id
                                  or click.interaction.response.type not in PANEL_ANSWERS):
            click = None  # (a Type… modal's or a reply's original response is not the panel)
        if hand is not None and hand.user_id != entry.user_id:
            hand = None
        if click is None:
            return Token.NONE if hand is None else Token.HAND
        if hand is None or click.interaction.created_at >= hand.interaction.created_at:
            return Token.DM
        return Token.HAND

    def _latest(self, table_id: int, seat: int) -> discord.Interaction[Any] | None:
        """The seat's latest live interaction (its DM panel click or its My hand)."""
        key = (table_id, seat)
        click, hand = self._clicks.get(key), self._ephemeral.get(key)
        found = [c.interaction for c in (click, hand) if c is not None]
        return max(found, key=lambda i: i.created_at, default=None)

    def _remember(self, table_id: int, publish: Publish, plan: Plan, now: float) -> None:
        acted = {move.actor for move in publish.moves}
        for seat, mine in plan.seats.items():
            key = (table_id, seat)
            self._memory[key] = remember(self._memory.get(key, Memory()), mine,
                                         acted=seat in acted, now=now)

    def note_click(self, table_id: int, seat: int, interaction: discord.Interaction[Any]
                   ) -> None:
        """A person clicked a component of their seat: they are here (not idle); a click on
        a DM panel keeps its token, which edits that panel for free (15 minutes)."""
        key = (table_id, seat)
        self._memory[key] = replace(self._memory.get(key, Memory()), last_acted=_now())
        message = interaction.message
        if message is None or message.flags.ephemeral or interaction.guild_id is not None:
            return
        expires = interaction.created_at + timedelta(seconds=TOKEN_LIFETIME - TOKEN_MARGIN)
        self._clicks[(table_id, seat)] = _Click(interaction, message.id, expires)

    def _wants(self, table_id: int, doc: TableDoc, job: _Job,
               plan: Plan) -> tuple[list[Want], bool]:
        """What the worker must make for this publish (the table picture, the DM panels'
        pictures and Quick plays) and has not made yet, to ask for in one job: the steps
        below then find it made. Only what they will surely ask for (a panel whose
        player's settings are not in memory is left to its own step). And whether a
        person's panel is among them (then it is a person's job)."""
        match = doc.get_match()
        if match is None:
            return [], False
        pictures = self.pictures
        wants: list[Want | None] = []
        people = False
        if job.publish.repost or job.publish.table or doc.table_message is None \
                or doc.table_message_hand != match.hand_no:
            wants.append(pictures.table_want(match.public_view(), seat_labels(doc, doc.locale),
                                             doc.locale))
        for seat in [s for s, mine in plan.seats.items() if mine.dm is not Dm.NONE]:
            entry = doc.seats[seat]
            if entry is None or entry.user_id is None or entry.dm_closed \
                    or entry.panel_lost_hand == match.hand_no:
                continue
            settings = self.store.known_user_settings(entry.user_id)
            if settings is None or settings.panel == "ephemeral":
                continue
            view = match.view_for(seat)
            panel = panel_wants(pictures, view,
                                resolve_locale(settings.language or entry.locale),
                                selected_cards(view, self.selections.get(table_id, seat)),
                                settings.four_colour)
            people = people or bool(panel)
            wants += panel
        return [want for want in wants if want is not None], people

    async def _record_meta(self, table_id: int, meta: dict[str, Any]) -> None:
        """Keep the new message ids. A new table message or hand summary (once a hand, or
        after a restart) is saved at once; the DM panel ids a move brings are kept in memory
        and written with the table's next save (`TableRepository.defer_meta`), so a move
        costs one save."""
        if (not meta.get("table_message") and "summary_message" not in meta
                and not any(c for _, c in meta["seats"].values())):
            return  # nothing new to record (edits keep their message ids)

        def apply(doc: TableDoc) -> None:
            if "summary_message" in meta:
                doc.summary_message = meta["summary_message"]
            if "table_message" in meta:
                doc.table_message, doc.table_message_hand, doc.table_message_waiting = \
                    meta["table_message"]
            for seat, (user_id, changes) in meta["seats"].items():
                entry = doc.seats[seat]
                if entry is None or entry.user_id != user_id:
                    continue
                for name, value in changes.items():
                    setattr(entry, name, value)

        if "table_message" in meta or "summary_message" in meta:
            await self.repository.update_meta(table_id, apply)  # once a hand: saved now
        else:  # the DM panels of a move: with the table's next save
            self.repository.defer_meta(table_id, apply)

    # ---- channel messages ----------------------------------------------------------------

    async def _announce(self, table_id: int, doc: TableDoc, channel: discord.PartialMessageable,
                        announcement: Announcement) -> int | None:
        """Post an announcement; returns the message id when it carries the Ready button."""
        picture = None
        if announcement.summary_image and announcement.summary_view is not None:
            image = await self.pictures.workers.run(summary_png, announcement.summary_view,
                                            seat_labels(doc, doc.locale), doc.locale)
            picture = Panel("", image, f"hand-{table_id}-summary.png", None).picture
        mentions = (discord.AllowedMentions(users=[discord.Object(announcement.ping)])
                    if announcement.ping else NONE)
        match = doc.get_match()
        ready = announcement.ready and match is not None and bool(doc.unready)
        kwargs: dict[str, Any] = {}
        if ready:
            assert match is not None
            kwargs["view"] = ready_view(table_id, match.hand_no, doc.step, doc.locale)
        try:
            message_id = await self.carriers.send(channel, announcement.content,
                                                  picture=picture, allowed_mentions=mentions,
                                                  **kwargs)
        except discord.HTTPException as error:
            table_logger(table_id).warning("announcement failed: %s", error.status)
            return None
        return message_id if ready else None

    async def _close_summary(self, doc: TableDoc,
                             channel: discord.PartialMessageable) -> None:
        """The last summary loses its Ready button once the next hand is dealt."""
        match = doc.get_match()
        if doc.summary_message is None or match is None:
            return
        with contextlib.suppress(discord.HTTPException):
            await self.carriers.edit(channel, doc.summary_message, view=None)

    async def _post_table(self, table_id: int, doc: TableDoc,
                          channel: discord.PartialMessageable) -> int | None:
        panel = await build_table_message(doc, table_id, self.pictures)
        try:
            message_id = await self.carriers.send(channel, panel.content,
                                                  picture=panel.picture,
                                                  allowed_mentions=NONE, **panel.view_kwargs())
        except discord.HTTPException as error:
            table_logger(table_id).warning("could not post the table message: %s",
                                           error.status)
            return None
        self._last_edit[table_id] = time.monotonic()
        self._table_messages[table_id] = message_id
        self._remember_past(message_id, doc)
        return message_id

    def _remember_past(self, message_id: int, doc: TableDoc) -> None:
        """What table message `message_id` is to say once its moment has passed (issue 38:
        no prompts, no countdown), kept from its last post or edit."""
        past = past_table_text(doc)
        if past is None:
            self._past.pop(message_id, None)
        else:
            self._past[message_id] = past

    async def _retire_table(self, doc: TableDoc, channel: discord.PartialMessageable,
                            posted: int | None) -> None:
        """The table message a new one (`posted`) replaced: the lobby or the waiting table
        is deleted, the last hand's stays without its buttons and prompts."""
        if posted is None or doc.table_message is None or doc.table_message == posted:
            return
        past = self._past.pop(doc.table_message, None)
        if doc.table_message_hand == 0:
            await self._replace_waiting(channel, doc.table_message, doc.locale)
        else:
            text: dict[str, Any] = {} if past is None else {"content": past}
            with contextlib.suppress(discord.HTTPException):
                await self.carriers.edit(channel, doc.table_message, view=None, **text)

    async def _replace_waiting(self, channel: discord.PartialMessageable, old_id: int,
                               locale: str) -> None:
        """The table message of no hand (the lobby, "Waiting for the first deal") gives way
        to the table posted after it: deleted, so that no stale seats or countdown sit above
        the live table (issue 31 item 8, issue 38 item 4); if it cannot be, it becomes one
        line pointing below."""
        try:
            await channel.get_partial_message(old_id).delete()
        except discord.NotFound:
            return
        except discord.HTTPException:
            with contextlib.suppress(discord.HTTPException):
                await self.carriers.edit(channel, old_id, content=t("table.below", locale),
                                         picture=None, view=None, allowed_mentions=NONE)

    async def _edit_table(self, table_id: int, doc: TableDoc,
                          channel: discord.PartialMessageable) -> bool:
        assert doc.table_message is not None
        panel = await build_table_message(doc, table_id, self.pictures)
        try:
            await self.carriers.edit(channel, doc.table_message, content=panel.content,
                                     picture=panel.picture, view=panel.view,
                                     allowed_mentions=NONE)
        except discord.NotFound:
            return False
        except discord.HTTPException as error:
            table_logger(table_id).warning("could not edit the table message: %s",
                                           error.status)
            return True
        self._last_edit[table_id] = time.monotonic()
        self._remember_past(doc.table_message, doc)
        return True

    async def _close_table_message(self, doc: TableDoc,
                                   channel: discord.PartialMessageable) -> None:
        if doc.table_message is None:
            return
        self._past.pop(doc.table_message, None)
        with contextlib.suppress(discord.HTTPException):
            await self.carriers.edit(channel, doc.table_message,
                                     content=t("table.closed", doc.locale), picture=None,
                                     view=None, allowed_mentions=NONE)

    # ---- DM panels ---------------------------------------------------------------------

    async def _panel(self, table_id: int, doc: TableDoc, seat: int, mine: SeatPlan,
                     meta: dict[str, Any]) -> None:
        """Show the seat's DM panel as the plan says: through its click's token (free), an
        edit, or a new message that pings (a superseded panel is left as it is: a click on
        it is answered "use the newest", through its own interaction). A panel whose DM
        channel answers 404 (lost after a restart, say) is tried once more on a freshly
        opened DM, then forgotten until the next hand: one log line, not one a move."""
        entry = doc.seats[seat]
        match = doc.get_match()
        if entry is None or entry.user_id is None or entry.dm_closed or match is None:
            return
        hand_no = match.hand_no
        if entry.panel_lost_hand == hand_no:
            return
        user_id = entry.user_id
        settings = await self.store.user_settings(user_id)
        if settings.panel == "ephemeral":
            return  # this player asked for the My hand panel only (/tractor settings)
        changes: dict[str, Any] = {}
        meta["seats"][seat] = (user_id, changes)
        selected = self.selections.get(table_id, seat)
        locale = resolve_locale(settings.language or entry.locale)
        panel = await build_panel(doc, table_id, seat, locale, selected, pictures=self.pictures,
                                  four_colour=settings.four_colour)
        if mine.dm is Dm.TOKEN and await self._edit_by_token(table_id, seat, panel):
            return
        if mine.intro:
            panel = Panel(fit(f"{panel.content}\n-# {t('panel.dm_intro', locale)}"),
                          panel.image, panel.filename, panel.view)
        mode = "new" if mine.dm is Dm.NEW else "edit"
        try:
            with rest_priority(mine.priority):
                try:
                    await self._deliver(entry, panel, mode, doc.step, hand_no, changes,
                                        entry.dm_channel, entry.panel_message)
                except discord.NotFound:
                    # The DM channel itself is gone: open it again and send once more.
                    changes.clear()
                    await self._deliver(entry, panel, mode, doc.step, hand_no, changes,
                                        None, None)
        except discord.NotFound as error:
            changes.update(dm_channel=None, panel_message=None, panel_lost_hand=hand_no)
            table_logger(table_id, hand_no).warning(
                "DM panel for seat %s failed: %s twice; not sent again this hand", seat,
                error.status)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED and error.status != 403:
                raise
            changes["dm_closed"] = True
            table_logger(table_id).info("seat %s has DMs closed", seat)
            if not entry.dm_notice_sent:
                changes["dm_notice_sent"] = True
                channel_ = self.bot.get_partial_messageable(doc.channel_id,
                                                            guild_id=doc.guild_id)
                await self._announce(table_id, doc, channel_, Announcement(
                    t("error.dm_closed_public", doc.locale,
                      player=mention(doc, seat, doc.locale)), ping=user_id))
        except discord.HTTPException as error:
            table_logger(table_id).warning("DM panel for seat %s failed: %s", seat,
                                           error.status)
        if "panel_message" in changes:
            self._clicks.pop((table_id, seat), None)  # its token is on the old panel

    async def _edit_by_token(self, table_id: int, seat: int, panel: Panel) -> bool:
        """Edit the seat's DM panel through its latest click's token; False when the
        token no longer works (then the panel is edited as a message)."""
        click = self._clicks.get((table_id, seat))
        if click is None or click.interaction.response.type not in PANEL_ANSWERS:
            return False
        try:
            await edit_original_quietly(click.interaction, content=panel.content,
                                        picture=panel.picture, view=panel.view,
                                        allowed_mentions=NONE)
        except discord.HTTPException as error:
            if error.status in (401, 404) or error.code in TOKEN_GONE:
                self._clicks.pop((table_id, seat), None)
            return False
        return True

    async def _ping(self, table_id: int, doc: TableDoc, seat: int, mine: SeatPlan,
                    channel: discord.PartialMessageable) -> None:
        """The seat's turn ping: a follow-up through its latest live token (free), or a
        channel message (a counted call, `Priority.NOTICE`)."""
        entry = doc.seats[seat]
        match = doc.get_match()
        if entry is None or entry.user_id is None or match is None:
            return
        settings = await self.store.user_settings(entry.user_id)
        locale = resolve_locale(settings.language or entry.locale)
        via = self._latest(table_id, seat) if mine.ping is Ping.TOKEN else None
        view = None
        if via is not None and via.guild_id is None:  # under their DM panel
            text = f"<@{entry.user_id}> " + t("ping.your_turn_dm", locale, number=match.hand_no)
        else:  # in the channel: its My hand button, the table message may be far above
            text = t("ping.your_turn", locale, player=f"<@{entry.user_id}>",
                     number=match.hand_no)
            view = my_hand_view(table_id, match.hand_no, locale)
        with rest_priority(Priority.NOTICE):
            await self.pings.ping(table_id, seat, entry.user_id, text, channel, via, view)

    async def _deliver(self, entry: Seat, panel: Panel, mode: str, step: int,
                       hand_no: int, changes: dict[str, Any], dm_id: int | None,
                       old_id: int | None) -> None:
        """Edit the panel message in place (mode "edit"), or send a new one that pings its
        player (the old one is left as it is). Fills `changes`."""
        user_id = entry.user_id
        assert user_id is not None
        if dm_id is None:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            dm = (user.dm_channel if entry.dm_channel is None else None) \
                or await user.create_dm()
            dm_id = dm.id
            changes["dm_channel"] = dm_id
        channel = self.bot.get_partial_messageable(dm_id, type=discord.ChannelType.private)
        if mode == "edit" and old_id is not None:
            message = channel.get_partial_message(old_id)
            try:
                await edit_quietly(message, content=panel.content, picture=panel.picture,
                                   view=panel.view, allowed_mentions=NONE)
                if entry.panel_hand != hand_no:  # else nothing to record: the same message
                    changes["panel_hand"] = hand_no
                return
            except discord.NotFound:
                pass  # the message was deleted: send it again
        content = fit(f"<@{user_id}> {panel.content}")
        mentions = discord.AllowedMentions(users=[discord.Object(user_id)])
        message_id = await send_quietly(channel, content, picture=panel.picture,
                                        allowed_mentions=mentions, **panel.view_kwargs())
        changes.update(panel_message=message_id, panel_step=step, panel_turn_step=step,
                       panel_hand=hand_no)

    # ---- ephemeral hand panels ---------------------------------------------------------

    def track_ephemeral(self, table_id: int, seat: int,
                        interaction: discord.Interaction[Any], locale: str, *,
                        new: bool = False) -> None:
        """Remember `interaction` as the latest ephemeral hand panel of (table, seat): its
        original response is the panel (the ``My hand`` reply, or the panel message a
        component on it was clicked on, answered by an update or a deferred update). A
        `new` panel supersedes the one tracked before: that one says so and stops showing
        a countdown."""
        self._forget_expired()
        before = self._ephemeral.get((table_id, seat))
        if new and before is not None and before.interaction is not interaction:
            task = asyncio.create_task(self._supersede(before),
                                       name=f"tractor-superseded-{table_id}-{seat}")
            self._side_tasks.add(task)
            task.add_done_callback(self._side_tasks.discard)
        expires = interaction.created_at + timedelta(seconds=TOKEN_LIFETIME - TOKEN_MARGIN)
        self._ephemeral[(table_id, seat)] = _Ephemeral(
            interaction, interaction.user.id, locale, expires)

    def tracked_ephemeral(self, table_id: int, seat: int) -> discord.Interaction[Any] | None:
        """The interaction of the seat's live ephemeral panel, if any (tests, diagnostics)."""
        self._forget_expired()
        entry = self._ephemeral.get((table_id, seat))
        return None if entry is None else entry.interaction

    def refresh_ephemeral(self, table_id: int, seat: int) -> None:
        """Edit the seat's ephemeral panel with the latest table (soon, in a task of its
        own; requests made while one edit runs are merged into one more)."""
        key = (table_id, seat)
        if key not in self._ephemeral:
            return  # (most seats: no sweep of every table's panels for them)
        self._forget_expired()
        if key not in self._ephemeral:
            return
        self._ephemeral_dirty.add(key)
        task = self._ephemeral_tasks.get(key)
        if task is None or task.done():
            self._ephemeral_tasks[key] = asyncio.create_task(
                self._drain_ephemeral(key), name=f"tractor-ephemeral-{table_id}-{seat}")

    def _forget_expired(self) -> None:
        clock = discord.utils.utcnow()
        for key in [k for k, e in self._ephemeral.items() if e.expires <= clock]:
            del self._ephemeral[key]
            self._ephemeral_last.pop(key, None)
        for key in [k for k, c in self._clicks.items() if c.expires <= clock]:
            del self._clicks[key]

    async def _drain_ephemeral(self, key: PanelKey) -> None:
        try:
            while key in self._ephemeral_dirty:
                interval = self.config.edit_interval
                wait = self._ephemeral_last.get(key, 0.0) + interval - time.monotonic()
                if interval > 0 and wait > 0:  # at most one edit per interval, the latest
                    await asyncio.sleep(wait)
                self._ephemeral_dirty.discard(key)
                self._ephemeral_last[key] = time.monotonic()
                try:
                    await self._edit_ephemeral(key)
                except Exception:
                    table_logger(key[0]).exception("ephemeral panel refresh failed")
        finally:
            if self._ephemeral_tasks.get(key) is asyncio.current_task():
                del self._ephemeral_tasks[key]

    async def _edit_ephemeral(self, key: PanelKey) -> None:
        table_id, seat = key
        self._forget_expired()
        tracked = self._ephemeral.get(key)
        if tracked is None:
            return
        found = await self.repository.find(table_id, shared=True)
        stored, doc = (None, None) if found is None else found
        entry = None if doc is None else doc.seats[seat]
        if (stored is None or doc is None or stored.status == "ended" or entry is None
                or entry.user_id != tracked.user_id):
            self._forget(key, tracked)
            return
        if doc.get_match() is None:
            return
        settings = await self.store.user_settings(tracked.user_id)
        locale = resolve_locale(settings.language or tracked.locale)
        selected = self.selections.get(table_id, seat)
        panel = await build_panel(doc, table_id, seat, locale, selected, pictures=self.pictures,
                                  four_colour=settings.four_colour)
        if self._ephemeral.get(key) is not tracked:
            # A newer panel interaction came in meanwhile: refresh that one instead.
            self._ephemeral_dirty.add(key)
            return
        try:
            await edit_original_quietly(tracked.interaction, content=panel.content,
                                        picture=panel.picture, view=panel.view,
                                        allowed_mentions=NONE)
        except discord.NotFound:  # the token expired (10015) or the panel was dismissed
            self._forget(key, tracked)
        except discord.HTTPException as error:
            if error.code in TOKEN_GONE or error.status == 401:
                self._forget(key, tracked)
            else:
                table_logger(table_id).debug("ephemeral panel of seat %s not edited: %s",
                                             seat, error.status)

    async def _supersede(self, tracked: _Ephemeral) -> None:
        """An ephemeral panel a newer one replaced is deleted through its own token (free;
        a stub per ``My hand`` press piled up above the live panel); where Discord refuses
        that, it is closed instead: its buttons and countdown go, a line says so."""
        try:
            await tracked.interaction.delete_original_response()
            return
        except discord.NotFound:
            return  # dismissed by its reader, or its token is gone
        except discord.HTTPException:
            pass  # refused: closed below instead
        settings = await self.store.user_settings(tracked.user_id)
        locale = resolve_locale(settings.language or tracked.locale)
        with contextlib.suppress(discord.HTTPException):
            await edit_original_quietly(tracked.interaction,
                                        content=t("panel.superseded", locale), picture=None,
                                        view=None)

    def _forget(self, key: PanelKey, tracked: _Ephemeral) -> None:
        if self._ephemeral.get(key) is tracked:
            del self._ephemeral[key]
