"""Buttons and selects: ONE router for every ``tr:`` and ``rec:`` id, and the registry of
verbs.

Each feature registers its verbs (`ComponentRouter.add`: the `VerbSpec`, the handler, how
the click is acknowledged). Clicks arrive through one ``on_interaction`` listener
(`ComponentRouter.dispatch`), not through discord.py's DynamicItem machinery, which rebuilds
the clicked message's whole view (a ``View`` and every item, ``os.urandom`` included) just to
find the item. A click then goes, before anything else happens:

1. the id is parsed and range-checked (`bot.ui.ids.parse_id`); select values must be
   among the select's own options;
2. the id must belong to the message it came from: Discord sends the message a component
   was used on, and the bot only acts on an id that message carries, whose role
   (`bot.ui.ids.Role`: the public table message, a hand panel, a private reply) is the
   verb's;
3. the click is acknowledged (deferred) at once, before any database work, so Discord's
   3-second limit holds whatever the database is doing; a verb registered with
   ``ack="answer"`` is not: its handler answers with the redrawn message itself
   (`bot.ui.edits.answer_update`, one call instead of a deferral and an edit), and a late
   deferral (`bot.ui.edits.defer_late`) acknowledges it should the answer not begin
   within `ANSWER_WITHIN` seconds;
4. the person: a seat's component only works for the player in that seat (`owner`);
5. the feature's handler runs; any error takes the one error path (`bot.ui.replies.fail`).

A cluster (bot/ui/forward.py) forwards a DM click on a table another process drives after
step 3 (the click acknowledged at once, a ``answer`` verb's too): the owner of the table's
shard replays it (`ComponentRouter.replay`: steps 4 and 5 on its own table, answering
through the interaction's token). A modal verb is never forwarded (the modal must be the
click's first answer): the receiver opens it itself, needing no table. The modal's
submission is a verb of its own (`VerbSpec.opened_by`, its id the modal's), routed like a
click: step 2 asks the message the modal came from to carry the opening button (same table
and seat), and a submission on a table another process drives is forwarded like a click,
to be checked (seat, step) and applied by the owner. A lone process has no forwarder: every
click runs here.

A refused click changes nothing and gets exactly one translated ephemeral reply; a
malformed id is logged at debug level.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import discord
from discord import ui

from bot.i18n import t
from bot.runtime.logging import table_logger
from bot.ui.edits import ANSWERING_KEY, defer_late, deferral
from bot.ui.ids import ComponentId, InvalidId, Role, VerbSpec, parse_id
from bot.ui.replies import fail, locale_of, send

__all__ = ["TEMPLATE", "Ack", "ComponentRouter", "Forwarder", "Handler", "Owner",
           "button", "select", "values_of"]

TEMPLATE = re.compile(r"(?:tr|rec):(?P<rest>.{0,120})", re.DOTALL)
Ack = Literal["update", "reply", "modal", "answer"]
"""How a click is acknowledged before its handler runs: ``update`` (the message it was
used on is edited later), ``reply`` (an ephemeral "thinking…" that the answer replaces),
``modal`` (the handler opens a modal: it must be the response, so no database work may
come before it) or ``answer`` (not before: the handler answers with the redrawn message,
`bot.ui.replies.edit_clicked`; deferred late if it has not begun to)."""
ANSWER_WITHIN = 0.25
"""Seconds an ``answer`` verb's handler has to begin answering before the router defers
the click (Discord's limit is 3 s)."""
LATE_KEY = "tractor.late"
"""The interaction's pending late deferral (a task), for an ``answer`` verb."""
Handler = Callable[[discord.Interaction[Any], ComponentId, list[str]], Awaitable[None]]
Owner = Callable[[discord.Interaction[Any], ComponentId], Awaitable[None]]
"""Raises `UserFacingError` unless the user may use that seat's component."""
ReaderLocale = Callable[[discord.Interaction[Any]], Awaitable[str]]
ROUTED = (discord.InteractionType.component, discord.InteractionType.modal_submit)
"""The interactions the router serves (a modal's submission is a verb like a click)."""
PREFIX_ONLY = re.compile(r"(?:tr|rec):(?=[\s\S])")
"""`TractorItem`'s template: discord.py checks an item's id with ``match`` (a prefix: ours
start with ``tr:``/``rec:``) but dispatches a click with ``fullmatch``, which this never
does (it stops before a character it requires)."""


class Forwarder(Protocol):
    """Sends a click to the process that drives its table (`bot.ui.forward.Forwarding`)."""

    async def elsewhere(self, interaction: discord.Interaction[Any],
                        table_id: int) -> int | None:
        """The shard of the table when another process drives it, else None."""
        ...

    async def forward(self, interaction: discord.Interaction[Any], cid: ComponentId,
                      shard: int) -> None:
        """Hand the acknowledged click to that shard's owner (answers only if it cannot)."""
        ...


@dataclass(frozen=True, slots=True)
class _Verb:
    spec: VerbSpec
    handler: Handler
    ack: Ack


def message_role(message: discord.Message | None) -> Role | None:
    """The role of the message a component was used on: ``table`` for a public message,
    ``panel``/``private`` (both) for a DM or an ephemeral message."""
    if message is None:
        return None
    if message.flags.ephemeral or message.guild is None:
        return "panel"
    return "table"


def values_of(interaction: discord.Interaction[Any]) -> list[str]:
    """A select's chosen values, or a modal's typed texts (in order)."""
    data: Any = interaction.data or {}
    if interaction.type is discord.InteractionType.modal_submit:
        return [str(leaf.get("value", "")) for row in data.get("components", None) or []
                for leaf in row.get("components", None) or [row]]
    return [str(v) for v in data.get("values", None) or []]


def carried(message: discord.Message | None, custom_id: str) -> Any | None:
    """The component of `message` with this custom id, if it carries one."""
    if message is None:
        return None
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id:
                return child
    return None


class TractorItem(ui.DynamicItem[ui.Item[Any]], template=PREFIX_ONLY):
    """Every button and select the bot sends. A `DynamicItem`, so discord.py keeps no view
    of a sent message in its view store (views of dynamic items only are not kept); its
    template never matches a whole id, so discord.py never dispatches a click to it (and
    never rebuilds the message's view for it): `ComponentRouter.dispatch` serves every
    click."""

    def __init__(self, item: ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: ui.Item[Any],
                             match: re.Match[str], /) -> TractorItem:
        return cls(item)  # pragma: no cover - the template never matches a whole id


async def settled(interaction: discord.Interaction[Any]) -> None:
    """Before the router answers a click itself (a refusal, an error): an ``answer``
    click its handler has not begun answering is deferred now (the late deferral, early:
    the click is acknowledged before the refusal, as every other verb's), and a deferral
    in flight is waited for."""
    late = interaction.extras.pop(LATE_KEY, None)
    answering = interaction.extras.get(ANSWERING_KEY)
    if late is not None and not isinstance(answering, asyncio.Future):
        late.cancel()
        if answering is None and not interaction.response.is_done():
            await defer_late(interaction, 0)
    await deferral(interaction)


def _drop_late(interaction: discord.Interaction[Any]) -> None:
    """Cancel the click's late deferral when it has nothing left to do: the click is
    answered (or its answer is on its way). A handler that did not answer leaves it to
    fire."""
    late = interaction.extras.get(LATE_KEY)
    answering = interaction.extras.get(ANSWERING_KEY)
    if late is None or isinstance(answering, asyncio.Future):
        return
    if answering or interaction.response.is_done():
        late.cancel()
        del interaction.extras[LATE_KEY]


class ComponentRouter:
    """The verbs of every feature, and the checks every click passes first."""

    def __init__(self, reader_locale: ReaderLocale, owner: Owner, *,
                 forward: Forwarder | None = None) -> None:
        self._verbs: dict[str, _Verb] = {}
        self._reader_locale = reader_locale
        self._owner = owner
        self._forward = forward
        self.specs: dict[str, VerbSpec] = {}

    def add(self, spec: VerbSpec, handler: Handler, *, ack: Ack = "update") -> None:
        """Register a verb (once; a second feature claiming it is a programming error)."""
        assert spec.name not in self._verbs, f"verb {spec.name} registered twice"
        self._verbs[spec.name] = _Verb(spec, handler, ack)
        self.specs[spec.name] = spec

    def parse(self, custom_id: str) -> ComponentId:
        return parse_id(custom_id, self.specs)

    async def _refuse(self, interaction: discord.Interaction[Any], why: str) -> None:
        data: Any = interaction.data or {}
        table_logger(None).debug("component %r refused: %s", data.get("custom_id"), why)
        await settled(interaction)
        if not interaction.response.is_done():  # acknowledged before any database work
            await interaction.response.defer(ephemeral=True, thinking=True)
        await self._reader_locale(interaction)
        await send(interaction, t("error.bad_button", locale_of(interaction)))

    async def check(self, interaction: discord.Interaction[Any], custom_id: str,
                    values: list[str]) -> ComponentId | None:
        """Steps 1-4 of the module docstring; None when refused (already answered) or
        forwarded to the table's owner."""
        try:
            cid = self.parse(custom_id)
        except InvalidId as error:
            await self._refuse(interaction, str(error))
            return None
        verb = self._verbs[cid.verb]
        component = self._shown(interaction, cid, verb.spec, custom_id)
        role = message_role(interaction.message)
        wanted: set[Role] = {"table"} if verb.spec.role == "table" else {"panel", "private"}
        if component is None or role not in wanted:
            await self._refuse(interaction, f"not on a {verb.spec.role} message")
            return None
        if verb.spec.select:
            options = {o.value for o in getattr(component, "options", [])}
            if not set(values) <= options:
                await self._refuse(interaction, "select value not offered")
                return None
        try:
            if verb.ack == "update":
                await interaction.response.defer()
            elif verb.ack == "reply":
                await interaction.response.defer(ephemeral=True, thinking=True)
            elif verb.ack == "answer":
                interaction.extras[LATE_KEY] = asyncio.ensure_future(
                    defer_late(interaction, ANSWER_WITHIN))
            await self._reader_locale(interaction)
            if self._forward is not None and verb.ack != "modal":
                shard = await self._forward.elsewhere(interaction, cid.table)
                if shard is not None:
                    await settled(interaction)  # an ``answer`` verb is deferred now
                    await self._forward.forward(interaction, cid, shard)
                    return None
            await self._person(interaction, cid, verb)
        except Exception as error:
            await settled(interaction)
            await fail(interaction, error, cid.table)
            return None
        return cid

    def _shown(self, interaction: discord.Interaction[Any], cid: ComponentId,
               spec: VerbSpec, custom_id: str) -> Any | None:
        """Step 2: the component of the message this interaction answers (a click's own; a
        modal submission's opening button, at its table and seat), None if it carries
        none or the interaction is not the verb's kind."""
        submitted = interaction.type is discord.InteractionType.modal_submit
        if (spec.opened_by is not None) != submitted:
            return None
        if spec.opened_by is None:
            return carried(interaction.message, custom_id)
        for row in interaction.message.components if interaction.message else ():
            for child in getattr(row, "children", [row]):
                try:
                    shown = self.parse(str(getattr(child, "custom_id", None) or ""))
                except InvalidId:
                    continue
                if (shown.verb, shown.table, shown.seat) == (spec.opened_by, cid.table,
                                                             cid.seat):
                    return child
        return None

    async def _person(self, interaction: discord.Interaction[Any], cid: ComponentId,
                      verb: _Verb) -> None:
        """Step 4: raises unless the user may use this seat's component."""
        if cid.seat is not None and verb.spec.seat != "none" and verb.ack != "modal":
            await self._owner(interaction, cid)

    async def replay(self, interaction: discord.Interaction[Any]) -> None:
        """A click another process received, checked (steps 1-3) and acknowledged, on a
        table this process drives (bot/ui/forward.py): steps 4 and 5 here."""
        data: Any = interaction.data or {}
        values = values_of(interaction)
        cid: ComponentId | None = None
        try:
            cid = self.parse(str(data.get("custom_id", "")))
            await self._reader_locale(interaction)
            await self._person(interaction, cid, self._verbs[cid.verb])
        except Exception as error:
            await fail(interaction, error, None if cid is None else cid.table)
            return
        await self.run(interaction, cid, values)

    async def run(self, interaction: discord.Interaction[Any], cid: ComponentId,
                  values: list[str]) -> None:
        """Step 5: the feature's handler, through the one error path."""
        try:
            await self._verbs[cid.verb].handler(interaction, cid, values)
        except Exception as error:
            await settled(interaction)
            await fail(interaction, error, cid.table)
        finally:
            _drop_late(interaction)

    async def dispatch(self, interaction: discord.Interaction[Any]) -> None:
        """Every click on a ``tr:``/``rec:`` component, and every submission of a modal of
        ours: the checks, then the handler. An id the message does not carry (a modified
        client) is refused by the checks."""
        if interaction.type not in ROUTED:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if TEMPLATE.fullmatch(custom_id) is None:
            return
        values = values_of(interaction)
        cid = await self.check(interaction, custom_id, values)
        if cid is not None:
            await self.run(interaction, cid, values)

    def install(self, client: discord.Client) -> None:
        """Serve `client`'s components (called once, from ``setup_hook``)."""
        client.add_listener(self.dispatch, "on_interaction")  # type: ignore[attr-defined]


def button(cid: ComponentId, *, label: str | None = None,
           style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
           emoji: str | None = None, row: int | None = None) -> TractorItem:
    """A button with this id (handled by the router's DynamicItem); a disabled one is grey
    whatever its `style`, as `bot.ui.rows.button` draws it."""
    style = discord.ButtonStyle.secondary if disabled else style
    return TractorItem(ui.Button(label=label, style=style, disabled=disabled, emoji=emoji,
                                 custom_id=str(cid), row=row))


def select(cid: ComponentId, *, options: list[discord.SelectOption],
           placeholder: str | None = None, min_values: int = 1, max_values: int = 1,
           disabled: bool = False, row: int | None = None) -> TractorItem:
    """A string select with this id."""
    return TractorItem(ui.Select(custom_id=str(cid), options=options, placeholder=placeholder,
                                 min_values=min_values, max_values=max_values,
                                 disabled=disabled, row=row))


def link_button(label: str, url: str, row: int | None = None) -> ui.Button[Any]:
    return ui.Button(label=label, url=url, style=discord.ButtonStyle.link, row=row)

