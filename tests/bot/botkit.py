"""Helpers for the bot's end-to-end tests (tests/bot): a SimCord world with a guild, a channel and
users, driving the real bot built by `bot.create_bot` (no hand-made Discord mocks).

The tests read the stored table document only as an *oracle* (whose turn it is, what is
public); every action goes through Discord: slash commands, autocomplete, buttons,
selects, modals, DMs.
"""

from __future__ import annotations

import math
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from pg import bot_database
from simcord.actors import MemberActor

from bot import create_bot
from bot.app.client import TractorBot
from bot.core.table import TableDoc
from bot.present.text import plain
from bot.runtime.config import Config
from engine.cards import Card, Rank, parse_cards
from engine.deal import deal_shape
from engine.events import TrumpHow
from engine.game import HandState, Match, Phase
from engine.rules import RuleSet
from engine.trump import Trump

TEST_CONFIG = Config(
    action_delay=0.0,
    edit_interval=0.0,
    hand_pause=0.0,
    start_delay=0.0,
    computer_player="greedy",
    seed=20240611,
    restart_grace=15.0,
    rest_budget=math.inf,  # no REST budget: virtual time stands still between advances
)
SETTLE = 120.0
"""SimCord's settle bound, in real seconds: only a hang detector. One operation may set off
a long chain of work (the computers play a whole hand after a timeout, each move a commit
and a rendered picture), so under load it must not be what a test's outcome hangs on."""

PRETTY = re.compile(r"(?<![\w♠♥♦♣♤♡♢♧])(10|[2-9JQKA])([♠♥♦♣♤♡♢♧])|\b(RJ|BJ)\b")
"""Cards as the bot writes them (♤ ♧ for spades and clubs: bot.present.text.legible)."""
CANONICAL = re.compile(r"\b(10|[2-9JQKA])([SHDC])\b|\b(RJ|BJ)\b")


def make_bot(database: str | Path, **changes: Any) -> TractorBot:
    return create_bot(database, config=TEST_CONFIG, **changes)


def components(message: Any) -> list[Any]:
    """The buttons and selects of a message (a `discord.Message` or SimCord's
    `ResponseMessage` for interaction replies)."""
    if not isinstance(message, discord.Message):
        message = message.message
    out: list[Any] = []
    for row in message.components:
        out.extend(getattr(row, "children", [row]))
    return out


def find(message: Any, verb: str, *, extra: str | None = None) -> Any | None:
    """The component of `message` whose custom id has this verb (and arg extra)."""
    for item in components(message):
        custom_id = getattr(item, "custom_id", None) or ""
        parts = custom_id.split(":")
        if len(parts) < 5 or parts[4] != verb:
            continue
        if extra is None or (len(parts) > 5 and parts[5].split(".", 1)[-1] == extra):
            return item
    return None


def cards_in(text: str, pattern: re.Pattern[str] = PRETTY) -> set[Card]:
    found = set()
    for match in pattern.finditer(text):
        if match.group(3):
            found.add(Card.parse(match.group(3)))
        else:
            found.add(Card.parse(match.group(1) + plain(match.group(2))))
    return found


@dataclass
class World:
    """One simulated Discord with the bot, a channel and some users."""

    env: simcord.Env
    database: str | Path
    changes: dict[str, Any]
    guild: Any = None
    channel: Any = None
    users: list[MemberActor] = field(default_factory=list)
    spectator: MemberActor | None = None
    table_id: int = 0

    @property
    def bot(self) -> TractorBot:
        bot = self.env.bot
        assert isinstance(bot, TractorBot)
        return bot

    async def restart(self, **changes: Any) -> None:
        """A fresh bot object on the same database (the virtual world persists), in a real
        restart's order: the old bot finishes its work and closes its store first."""
        await self.env.settle()
        await self.bot.close_store()
        await self.env.restart_bot(make_bot(self.database, **{**self.changes, **changes}))

    # ---- oracle -------------------------------------------------------------------------

    async def doc(self) -> TableDoc:
        stored = await self.bot.store.load_table(self.table_id)
        assert stored is not None
        return TableDoc.from_dict(stored.doc)

    async def version(self) -> int:
        stored = await self.bot.store.load_table(self.table_id)
        assert stored is not None
        return stored.version

    async def match(self) -> Match:
        doc = await self.doc()
        match = doc.get_match()
        assert match is not None
        return match

    async def user_of(self, seat: int) -> MemberActor:
        doc = await self.doc()
        entry = doc.seats[seat]
        assert entry is not None and entry.user_id is not None
        return next(u for u in self.users if u.id == entry.user_id)

    # ---- what users see ------------------------------------------------------------------

    def table_message(self) -> discord.Message:
        for message in reversed(self.channel.history()):  # (a turn ping has My hand only)
            if (find(message, "myhand") and find(message, "last")) or find(message, "join"):
                return message
        raise AssertionError("no table message in the channel")

    def public_messages(self) -> list[discord.Message]:
        return [m for m in self.channel.history() if not m.flags.ephemeral]

    def dm_panel(self, user: MemberActor) -> discord.Message:
        history = user.user.dm_channel.history()
        for message in reversed(history):
            if message.components:
                return message
        assert history, f"{user.name} has no DM"
        return history[-1]

    def dms(self, user: MemberActor) -> list[discord.Message]:
        return user.user.dm_channel.history()

    # ---- setting up --------------------------------------------------------------------

    async def new_table(self, **options: Any) -> Any:
        """The first user opens a table (``/tractor new``), which becomes `table_id`; the
        command's result."""
        result = await self.users[0].slash(self.channel, "tractor new", **options)
        stored = await self.bot.store.table_in_channel(self.channel.id)
        assert stored is not None
        self.table_id = stored.id
        return result

    async def open_table(self, humans: int, **options: Any) -> None:
        """The first user opens a table; the other humans join; computers fill the rest."""
        first = self.users[0]
        result = await self.new_table(**options)
        assert result.ephemeral
        for user in self.users[1:humans]:
            await user.click(self.table_message(), label="Join")
        for _ in range((await self.doc()).seat_count - humans):
            await first.click(self.table_message(), label="Add bot")

    async def start(self) -> None:
        await self.users[0].click(self.table_message(), label="Start")


def client_locales(monkeypatch: Any, locales: dict[int, str]) -> None:
    """Users' Discord client languages: SimCord sends every interaction with
    ``locale="en-US"`` and ``guild_locale="en-US"``; this makes `locales[user_id]` the
    interaction's locale and the guild's ``preferred_locale`` its ``guild_locale``."""
    import simcord.interactions as interactions

    original = interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        locale = locales.get(kwargs["user_id"])
        if locale is not None:
            payload["locale"] = locale
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)


class TimersByAdvanceOnly(simcord.Env):
    """SimCord with its timer switch held on (``Env._advancing``, pinned SimCord 3.2.1, as
    bot/app/local.py uses it): the bot's timers fire only through `env.advance_time`.

    Plain SimCord gives every virtual timer a wall-clock fallback: a 15-second declaration
    window closes by itself once 15 real seconds pass (a slow test, a busy machine), and a
    settle waits, in real time, for any timer due before its bound. Both made tests depend
    on the machine's speed (issue 12 item 13); with the switch held, neither happens. Every
    settle bound is at least `SETTLE` (the bot's start included)."""

    @property  # type: ignore[override]
    def _advancing(self) -> bool:
        return True

    @_advancing.setter
    def _advancing(self, value: bool) -> None:
        pass

    async def _settle_internal(self, *, timeout: float | None = None, **rest: Any) -> None:
        # SimCord settles the bot's start with a fixed 5 s bound; restoring a database's
        # tables (pictures rendered, messages edited) can take longer on a busy machine.
        if timeout is not None:
            timeout = max(timeout, self.settle_timeout)
        await super()._settle_internal(timeout=timeout, **rest)


def simulated(bot: TractorBot) -> simcord.run:
    """``simcord.run`` for the bot tests: timers by `env.advance_time` only, a generous
    settle bound (`SETTLE`)."""
    runner = simcord.run(bot, settle_timeout=SETTLE)
    runner._env.__class__ = TimersByAdvanceOnly
    return runner


def SQLITE(tmp_path: Path) -> Path:
    """An SQLite file for tests about SQLite itself (its locks, copies of its file), also
    when the suite runs on PostgreSQL."""
    return tmp_path / "tractor.sqlite3"


@asynccontextmanager
async def world(tmp_path: Path, humans: int = 4, users: int | None = None, *,
                database: str | Path | None = None, **changes: Any) -> AsyncIterator[World]:
    """The bot in a simulated Discord, its games in ``database`` (default: an SQLite file in
    `tmp_path`, or PostgreSQL with ``TRACTOR_TEST_DATABASE=postgres``; see tests/pg.py)."""
    if database is None:
        database = bot_database(tmp_path)
    bot = make_bot(database, **changes)
    async with simulated(bot) as env:
        w = World(env, database, changes)
        w.guild = env.create_guild(name="Tractor club")
        w.channel = w.guild.create_text_channel("tractor")
        names = ["alice", "bob", "carol", "dave", "erin"]
        for name in names[: users or humans]:
            w.users.append(w.guild.add_member(env.create_user(name)))
        w.spectator = w.guild.add_member(env.create_user("spectator"))
        try:
            yield w
        finally:
            await w.bot.publisher.idle()
            await w.bot.close_store()


def seats_to_act(match: Match) -> list[int]:
    public = match.public_view()
    if public.phase is Phase.DECLARING:
        return list(public.awaiting)
    if public.turn is not None and public.phase in (Phase.BURYING, Phase.CALLING,
                                                    Phase.PLAYING):
        return [public.turn]
    return []


def sequence(values: Sequence[Any]) -> list[Any]:
    return list(values)


# ---- simulated players and the leak scanner ----------------------------------------

HAND_RE = re.compile(r"\*\*Hand (\d+)\*\*")
SUMMARY_RE = re.compile(r"\*\*Hand (\d+) is over\*\*")


def assert_ok(result: Any) -> None:
    """The interaction was answered without an error message."""
    texts = []
    if result.response is not None:
        texts.append(result.response.content or "")
    texts += [f.content or "" for f in result.followups]
    for text in texts:
        assert "Not allowed" not in text and "went wrong" not in text, text
        assert "moved on" not in text, text


async def by_panel(w: World, seat: int) -> None:
    """One decision of `seat` with its DM panel: declare/pass buttons, card selects and
    Bury, Quick plays or a card select and Play."""
    user = await w.user_of(seat)
    match = await w.match()
    public = match.public_view()
    panel = w.dm_panel(user)
    if public.phase is Phase.DECLARING:
        if not public.declarations:
            for code in "SHCDN":
                button = find(panel, "decl", extra=code)
                if button is not None and not button.disabled:
                    assert_ok(await user.user.click(panel, custom_id=button.custom_id))
                    return
        assert_ok(await user.user.click(panel, custom_id=find(panel, "pass").custom_id))
        return
    if public.phase is Phase.CALLING:
        await call_by_panel(w, user)
        return
    if public.phase is Phase.BURYING:
        size = remaining = deal_shape(public.rules).kitty_size
        selects = [c for c in components(panel) if ":sel:" in (c.custom_id or "")]
        assert selects, panel.content
        for select in selects:
            take = [option.value for option in select.options][:remaining]
            if not take:
                continue
            panel = w.dm_panel(user)
            assert_ok(await user.user.select(panel, take, custom_id=select.custom_id))
            remaining -= len(take)
            if remaining == 0:
                break
        panel = w.dm_panel(user)
        bury = find(panel, "bury")
        assert bury is not None and not bury.disabled and f"{size}/{size}" in bury.label
        assert_ok(await user.user.click(panel, custom_id=bury.custom_id))
        return
    assert public.phase is Phase.PLAYING
    if public.trick is None:
        # Lead one card picked in the first card select (a single is always a legal lead).
        select = next(c for c in components(panel) if ":sel:" in (c.custom_id or ""))
        assert_ok(await user.user.select(panel, [select.options[0].value],
                                         custom_id=select.custom_id))
    else:
        quick = find(panel, "quick")
        assert quick is not None, panel.content
        assert_ok(await user.user.select(panel, [quick.options[0].value],
                                         custom_id=quick.custom_id))
    panel = w.dm_panel(user)
    play = find(panel, "play")
    assert play is not None and not play.disabled, panel.content
    assert_ok(await user.user.click(panel, custom_id=play.custom_id))


async def call_by_panel(w: World, user: MemberActor) -> None:
    """The starter calls friends with the panel: **Add** the card the selects show until
    every call is made, then **Call friends**."""
    match = await w.match()
    for _ in range(deal_shape(match.rules).friends):
        panel = w.dm_panel(user)
        add = find(panel, "fadd")
        assert add is not None and not add.disabled, panel.content
        assert_ok(await user.user.click(panel, custom_id=add.custom_id))
    panel = w.dm_panel(user)
    call = find(panel, "fcall")
    assert call is not None and not call.disabled, panel.content
    assert_ok(await user.user.click(panel, custom_id=call.custom_id))


async def by_typing(w: World, seat: int) -> None:
    """One decision of `seat` with the typed commands and their autocomplete choices."""
    user = await w.user_of(seat)
    match = await w.match()
    public = match.public_view()
    channel = w.channel
    if public.phase is Phase.DECLARING:
        choices = await user.autocomplete(channel, "tractor declare", "cards", "")
        if choices and not public.declarations:
            result = await user.slash(channel, "tractor declare", cards=choices[-1]["value"])
        else:
            result = await user.slash(channel, "tractor pass")
    elif public.phase is Phase.BURYING:
        choices = await user.autocomplete(channel, "tractor bury", "cards", "")
        assert len(choices) == 1 and len(choices[0]["value"].split()) == 8
        result = await user.slash(channel, "tractor bury", cards=choices[0]["value"])
    else:
        choices = await user.autocomplete(channel, "tractor play", "cards", "")
        assert choices, "a player to move always has quick plays"
        assert choices[0]["name"].startswith("★")  # the recommended default first
        result = await user.slash(channel, "tractor play", cards=choices[0]["value"])
    assert result.ephemeral
    assert_ok(result)


async def play_hand(w: World, how: Any, *, scanner: LeakScanner | None = None,
                    limit: int = 400) -> int:
    """Drive the humans until the current hand is settled; returns its number. A hand
    waiting to be dealt (the Ready check) is dealt first: everyone presses Ready."""
    match = await w.match()
    if match.phase is Phase.BETWEEN_HANDS:
        await ready_all(w)
        match = await w.match()
    hand_no = match.hand_no
    for _ in range(limit):
        match = await w.match()
        if match.hand_no != hand_no or match.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
            return hand_no
        seats = seats_to_act(match)
        doc = await w.doc()
        humans = [s for s in seats if doc.seat(s).user_id is not None
                  and not doc.seat(s).autopilot]
        assert humans, f"nobody to act: {match.phase} {seats}"
        await how(w, humans[0])
        if scanner is not None:
            await scanner.check()
    raise AssertionError("the hand did not end")


async def ready_all(w: World) -> None:
    """Every seated person the next deal waits for presses Ready (on the table message)."""
    doc = await w.doc()
    for seat in doc.unready:
        user = await w.user_of(seat)
        table = w.table_message()
        ready = find(table, "ready")
        assert ready is not None, table.content
        assert_ok(await user.click(table, custom_id=ready.custom_id))


class LeakScanner:
    """Checks that public messages show only public cards of the hand being played:
    played cards, declarations shown, kitty cards turned up (never the kitty otherwise,
    nor a card still in a hand). Settled hands are public (their summary shows the kitty).
    """

    def __init__(self, w: World) -> None:
        self.w = w
        self.seen: dict[int, str] = {}
        self.checked = 0

    async def check(self) -> None:
        match = await self.w.match()
        public = match.public_view()
        known: set[Card] = set()
        for _, cards in public.played:
            known.update(cards)
        for declaration in public.declarations:
            known.update(declaration.cards)
        known.update(public.revealed)
        known.update(call.card for call in public.friend_calls)  # called cards: public
        for failed in public.failed_throws:  # a failed throw is shown whole (R7)
            known.update(failed.attempted)
        settled = public.result is not None
        for message in self.w.public_messages():
            content = message.content or ""
            if self.seen.get(message.id) == content:
                continue
            self.seen[message.id] = content
            if SUMMARY_RE.search(content):
                continue  # posted at settlement: the kitty and the seed are public then
            head = HAND_RE.search(content)
            if head is not None and int(head.group(1)) < public.hand_no:
                continue  # a settled hand
            if settled and (head is None or int(head.group(1)) == public.hand_no):
                continue
            shown = cards_in(content)
            secret = shown - known
            assert not secret, f"public message shows unplayed cards {secret}: {content}"
            self.checked += 1


def message_text(message: discord.Message) -> str:
    return message.content or ""


async def forge(actor: Any, message: Any, custom_id: str, values: Sequence[str] | None = None,
                *, select: bool = False) -> Any:
    """A modified client: send a component interaction with any `custom_id` (and select
    `values`) from `message`, whether or not the message carries that component."""
    from simcord.actors import _component_interaction, _visible_message
    from simcord.enums import ComponentType

    stored = _visible_message(actor, message)
    kind = ComponentType.STRING_SELECT if select or values is not None else ComponentType.BUTTON
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if kind == ComponentType.STRING_SELECT:
        data["values"] = list(values or [])
    return await _component_interaction(actor, stored, data)


def reply_texts(result: Any) -> list[str]:
    """Every text the interaction's user was shown (response and follow-ups)."""
    texts = []
    if result.response is not None:
        texts.append(result.response.content or "")
    texts += [f.content or "" for f in result.followups]
    return texts


def playing(hands: list[str], trump: str, rules: RuleSet) -> Match:
    """A match mid-play: these hands (seat 0 to lead), this trump."""
    chosen = Trump.parse(trump)
    hand = HandState(
        number=1, seed=1, deal_no=0, phase=Phase.PLAYING, level=chosen.level, starter=0,
        hands=tuple(tuple(parse_cards(h)) for h in hands), stock=(),
        kitty=tuple(parse_cards("2C 3C 4C 6C 7C 8C 9C JC")), batch=5, trump=chosen,
        trump_how=TrumpHow.DECLARED, turn=0)
    return Match(rules=rules, levels=(Rank.TWO, Rank.TWO), hand_no=1, starter=0, hand=hand)
