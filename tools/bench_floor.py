"""``python -m tools.bench --floor``: what discord.py's part of a move costs alone (issue 16).

A minimal bot on discord.py (no storage, no rules, no pictures drawn, no panels built per
move) that does, per move, the Discord traffic the real bot does per move and nothing else,
in the same SimCord harness and under the same accounting as ``python -m tools.bench``
(`tools.bench_meter._Meter`, `tools.bench_meter._Window`): the same clicks parsed
(INTERACTION_CREATE with the hand panel they were made on), answered the same way
(UPDATE_MESSAGE with the redrawn panel, or a deferred update), and the same sends and
edits of DM panels and table messages, with components of the same shapes, contents of
similar lengths and pictures uploaded as often (a fixed PNG blob), through the bot's own
raw calls (`bot.ui.edits`).

The traffic per move is a `Recipe`: per kind of call (`tools.bench_traffic.kind_of`), calls
per move and the components shapes with their shares; `DEFAULT_RECIPE` is the real bench's
(``python -m tools.bench --tables 10 --seconds 60 --warmup 60 --pin``); ``--floor-recipe
FILE`` takes the ``traffic`` of any ``python -m tools.bench --json`` report.

The engine's ``apply`` runs once a move (a random agent's game, its choices computed
before measuring) so that the floor is a multiple of the same yardstick: the floor's
CPU per move is "own" less ``apply``.

``--floor-store`` adds what any bot must do per move to keep the product's promise that
each accepted move is committed before the bot answers (`FloorStore`): the match after
that ``apply``, serialised as the real bot stores it, written in one transaction through
the bot's own storage, after the click's deferral and before the move's other calls, as
the real bot orders it (`bot.services.tables.TableService.transact`).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.core.table import SEATS, Seat, TableDoc
from bot.runtime import memory
from bot.storage import Store, StoredTable
from bot.storage.sql import doc_dumps
from bot.ui.edits import (
    Picture,
    answer_update,
    edit_original_quietly,
    edit_quietly,
    send_quietly,
)
from bot.ui.rows import Rows
from engine.game import Match
from tools.bench_meter import BenchConfig, _Meter, _Press, _Window, click, wall_sleep
from tools.bench_traffic import traffic_lines

__all__ = ["CLICKS", "DEFAULT_RECIPE", "FloorBot", "FloorStore", "Recipe", "Schedule",
           "components", "run_floor"]

Recipe = dict[str, dict[str, Any]]
"""Per kind of call: ``per_move`` and ``shapes`` (each: rows, buttons, selects, options,
share, files, content), as `tools.bench_traffic.Traffic.report` gives them."""

DEFAULT_RECIPE: Recipe = {
    "answer deferred update": {"per_move": 0.828, "shapes": [
        {"rows": 0, "buttons": 0, "selects": 0, "options": 0.0, "share": 1.0,
         "files": 0.0, "content": 0.0}]},
    "answer update": {"per_move": 0.167, "shapes": [
        {"rows": 5, "buttons": 5, "selects": 4, "options": 20.3, "share": 0.919,
         "files": 1.0, "content": 240.1},
        {"rows": 4, "buttons": 5, "selects": 3, "options": 14.0, "share": 0.081,
         "files": 1.0, "content": 229.7}]},
    "edit channel": {"per_move": 0.828, "shapes": [
        {"rows": 1, "buttons": 4, "selects": 0, "options": 0.0, "share": 1.0,
         "files": 1.0, "content": 626.6}]},
    "edit dm": {"per_move": 1.0, "shapes": [
        {"rows": 0, "buttons": 0, "selects": 0, "options": 0.0, "share": 0.507,
         "files": 0.0, "content": 48.0},
        {"rows": 5, "buttons": 5, "selects": 4, "options": 16.8, "share": 0.29,
         "files": 1.0, "content": 219.3},
        {"rows": 4, "buttons": 5, "selects": 3, "options": 13.9, "share": 0.136,
         "files": 1.0, "content": 207.9},
        {"rows": 3, "buttons": 5, "selects": 2, "options": 11.9, "share": 0.063,
         "files": 1.0, "content": 209.9}]},
    "patch original": {"per_move": 0.33, "shapes": [
        {"rows": 5, "buttons": 5, "selects": 4, "options": 22.0, "share": 0.904,
         "files": 1.0, "content": 242.0},
        {"rows": 4, "buttons": 5, "selects": 3, "options": 18.7, "share": 0.096,
         "files": 1.0, "content": 219.6}]},
    "send dm": {"per_move": 0.507, "shapes": [
        {"rows": 5, "buttons": 5, "selects": 4, "options": 21.3, "share": 0.911,
         "files": 1.0, "content": 255.8},
        {"rows": 4, "buttons": 5, "selects": 3, "options": 17.3, "share": 0.089,
         "files": 1.0, "content": 238.0}]},
}
"""The real bench's traffic a move (``python -m tools.bench --tables 10 --seconds 60 --warmup
60 --pin``, main 0189c76, 221 moves; a loaded machine: the rates of coalesced edits vary
with the moves a second, e.g. table edits 0.73-0.83 a move, picks answered 0.17-0.29)."""

DEFAULT_REFERENCE: dict[str, Any] = {"own_cpu_per_move_ms": 6.428, "apply_per_move_ms": 0.092}
"""The real bench's run `DEFAULT_RECIPE` was taken from: its own CPU and ``apply`` a move."""

CLICKS = {"answer update": "select", "answer deferred update": "press"}
"""The answers a person's click gets, and the click that gets each: a card picked in a
select is answered with the redrawn panel; a button with a deferral."""
ORDER = ("answer update", "answer deferred update", "send dm", "edit dm", "edit channel",
         "send channel", "patch original")
"""The order of a move's calls (clicks first; a new DM panel before the old is closed)."""
STEPS = 500
"""Engine steps computed per table before measuring (a table makes about 2 moves a second
at 10 tables): the random agents' choices are not the bot's, and are not in the window."""
PNG = bytes(range(256)) * 160
"""The pictures' bytes (40 KiB, about a hand picture's size); two objects, so that each
upload is a changed picture (`bot.ui.edits.attached`)."""
PNGS = (PNG, bytes(reversed(PNG)))


@dataclass(frozen=True, slots=True)
class Call:
    """One call of a move: its kind, its components (rows, buttons, selects, options),
    whether it uploads a picture, and its content's length."""

    kind: str
    shape: tuple[int, int, int, int]
    upload: bool
    content: int


class Schedule:
    """A recipe's calls move by move, deterministic: each kind's calls per move accumulate
    and a call is made whenever a whole one is due; its shape is the one furthest behind
    its share, its upload due the same way."""

    def __init__(self, recipe: Recipe, offset: float = 0.0) -> None:
        self.kinds = [(kind, recipe[kind]) for kind in ORDER if kind in recipe]
        self.skipped = sorted(set(recipe) - set(ORDER))
        """Kinds of call the floor does not make (reported)."""
        self.due: dict[str, float] = {kind: offset for kind, _ in self.kinds}
        self.shapes_made: Counter[tuple[str, int]] = Counter()
        self.uploads_due: defaultdict[tuple[str, int], float] = defaultdict(float)

    def move(self) -> list[Call]:
        """The calls of the next move, in `ORDER`."""
        calls: list[Call] = []
        for kind, entry in self.kinds:
            self.due[kind] += entry["per_move"] or 0.0
            while self.due[kind] >= 1.0:
                self.due[kind] -= 1.0
                calls.append(self._call(kind, entry["shapes"]))
        return calls

    def _call(self, kind: str, shapes: list[dict[str, Any]]) -> Call:
        made = sum(self.shapes_made[kind, i] for i in range(len(shapes))) + 1
        index = max(range(len(shapes)), key=lambda i: (
            shapes[i]["share"] * made - self.shapes_made[kind, i], -i))
        self.shapes_made[kind, index] += 1
        shape = shapes[index]
        self.uploads_due[kind, index] += shape.get("files", 0.0)
        upload = self.uploads_due[kind, index] >= 1.0
        if upload:
            self.uploads_due[kind, index] -= 1.0
        return Call(kind, (round(shape["rows"]), round(shape["buttons"]),
                           round(shape["selects"]), round(shape["options"])), upload,
                    round(shape.get("content", 0)))


@functools.lru_cache(maxsize=4096)
def panel(shape: tuple[int, int, int, int], table: int) -> Rows:
    """`components` as a message's view, built once: building panels is the bot's work,
    not discord.py's (discord.py only reads them)."""
    return Rows(components(shape, table))


@functools.lru_cache(maxsize=1024)
def content(length: int) -> str:
    """A message's text of `length` characters."""
    return ("**Hand 1** · Level: 2 · Trump: ♥ " * (length // 32 + 1))[:length]


def components(shape: tuple[int, int, int, int], table: int = 1) -> list[list[dict[str, Any]]]:
    """Rows of components like the bot's panels: `selects` card selects (the `options`
    shared out, labels and values like the cards'), the remaining rows with `buttons`
    (the last a link, as the panel's "Table"), in `rows` rows."""
    rows, buttons, selects, options = shape
    out: list[list[dict[str, Any]]] = []
    per, extra = divmod(options, selects) if selects else (0, 0)
    for index in range(selects):
        count = per + (index < extra)
        out.append([{"type": 3, "custom_id": f"tr:{table}:1:10:sel:0.{index}",
                     "min_values": 0, "max_values": count, "disabled": False,
                     "placeholder": "Pick cards: ♠ · ♣", "options": [
                         {"label": f"{10 - n % 9}♣", "value": f"{10 - n % 9}C.{n}",
                          "default": False} for n in range(count)]}])
    button_rows = max(rows - selects, 1 if buttons else 0)
    for row in range(button_rows):
        share = buttons // button_rows + (row < buttons % button_rows)
        out.append([{"type": 2, "style": 2, "disabled": False, "label": f"Button {n}",
                     "custom_id": f"tr:{table}:1:10:b{row}.{n}:0"} for n in range(share)])
    if out and out[-1] and out[-1][-1]["type"] == 2:
        link = out[-1][-1]
        del link["custom_id"]
        link.update(style=5, label="Table",
                    url="https://discord.com/channels/1456074443980800003/"
                        "1456074443980800030/1456074443980800046")
    return [row for row in out if row]


class FloorStore:
    """The one write a move needs, through the bot's own calls: per table a real table
    document (`bot.core.table.TableDoc`: the people's seats and computers', the default
    options) whose match is replaced each move by `TableDoc.set_match` (the engine's
    ``Match.to_dict(rules=False)``) and saved by `Store.save_table` (`TableDoc.to_dict`,
    `bot.storage.sql.doc_dumps`; one ``BEGIN IMMEDIATE`` transaction with the version's
    compare-and-set, on the writer thread of `bot.storage.sqlite.database.Database`), the store
    opened as the bot opens it (`Store.open`: WAL, ``synchronous = NORMAL``) on a file in
    a temporary folder. Left out, as a bot keeps its promise without them: the action
    and hand records (replays, history), the repository's lock and live copies (a table
    makes one move at a time here), timers, notes and steps."""

    def __init__(self, store: Store, folder: tempfile.TemporaryDirectory[str] | None = None
                 ) -> None:
        self.store = store
        self.tables: dict[int, tuple[StoredTable, TableDoc]] = {}
        """By table number: the table as last saved, and its document."""
        self.saves = 0
        self._folder = folder

    @classmethod
    async def open(cls) -> FloorStore:
        """A store on a new file in a temporary folder (removed by `close`)."""
        folder = tempfile.TemporaryDirectory(prefix="tractor-floor-")
        try:
            return cls(await Store.open(Path(folder.name) / "floor.sqlite3"), folder)
        except BaseException:
            folder.cleanup()
            raise

    async def add(self, number: int, guild_id: int, channel_id: int,
                  people: list[int]) -> None:
        """Store table `number`, `people` seated first, computers in the other seats."""
        doc = TableDoc(guild_id, channel_id, people[0])
        doc.seats = [Seat(person, f"Player {n + 1}") for n, person in enumerate(people)]
        doc.seats += [Seat(None, f"Bot {n + 1}") for n in range(SEATS - len(people))]
        doc.match_key = f"floor-{number}"
        doc.hand_key = f"floor-{number}-h1"
        self.tables[number] = (await self.store.create_table(
            guild_id, channel_id, people[0], doc.to_dict(), status="playing"), doc)

    async def commit(self, number: int, match: Match) -> None:
        """Table `number`'s move: `match` (after the move) serialised and written."""
        stored, doc = self.tables[number]
        doc.set_match(match)
        self.tables[number] = (await self.store.save_table(stored.id, stored.version,
                                                           doc.to_dict()), doc)
        self.saves += 1

    async def stored(self) -> list[StoredTable]:
        """The tables as the database holds them (read back)."""
        found = [await self.store.load_table(stored.id) for stored, _ in self.tables.values()]
        return [table for table in found if table is not None]

    async def close(self) -> None:
        """Close the store and remove its file (idempotent)."""
        await self.store.close()
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None


@dataclass(slots=True)
class FloorTable:
    """One table: its channel and message, its people's DM panels, its move schedule."""

    number: int
    channel_id: int
    guild_id: int
    people: list[Any]
    schedule: Schedule
    steps: list[tuple[Any, Any]]
    """(match, action) to apply, one a move (in turn, from the first again at the end)."""
    message_id: int = 0
    dms: list[int] = field(default_factory=list)
    panels: list[int] = field(default_factory=list)
    """Each person's newest DM panel (the one they click)."""
    closing: list[list[int]] = field(default_factory=list)
    """Each person's older DM panels, still to be closed."""
    plan: list[Call] = field(default_factory=list)
    clicks: int = 0
    deferred: discord.Interaction[Any] | None = None
    """The last click deferred (whose original response a move may edit)."""
    committed: asyncio.Event = field(default_factory=asyncio.Event)
    turn: int = 0
    flips: Counter[int] = field(default_factory=Counter)


class FloorBot(commands.Bot):
    """The minimal bot: discord.py as the real bot sets it up (`bot.app.client.TractorBot`:
    guilds intent only, no message cache, no mentions, its collector's settings:
    `bot.runtime.memory.configure`), one ``on_interaction`` listener."""

    def __init__(self, store: FloorStore | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, allowed_mentions=discord.AllowedMentions.none(),
                         max_messages=None)
        self.tables: dict[int, FloorTable] = {}
        """By DM channel id."""
        self.moves = 0
        self.running: set[asyncio.Future[None]] = set()
        self.moves_made: Counter[int] = Counter()
        self.pause_guard: Any = None
        self.missing: Counter[str] = Counter()
        """Calls the recipe asked for that the floor could not make (no interaction)."""
        self.store = store
        """With ``--floor-store``: where each move is committed before its calls."""

    async def setup_hook(self) -> None:
        self.add_listener(self.answer, "on_interaction")
        # the collector as the real bot sets it up (its garbage is discord.py's here)
        self.pause_guard = memory.configure(asyncio.get_running_loop())

    def release(self) -> None:
        """Uninstall the collector's guard (idempotent)."""
        if self.pause_guard is not None:
            self.pause_guard.uninstall()
            self.pause_guard = None

    async def close(self) -> None:
        self.release()
        await super().close()

    def _picture(self, table: FloorTable, message_id: int, name: str) -> Picture:
        table.flips[message_id] += 1
        return Picture(PNGS[table.flips[message_id] % 2], name)

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        """A person's click: answered as its plan says; the move is committed with the
        last click."""
        if interaction.type is not discord.InteractionType.component:
            return
        table = self.tables.get(interaction.channel_id or 0)
        if table is None:
            return
        call = table.plan[table.clicks]
        table.clicks += 1
        if call.kind == "answer update":
            message = interaction.message
            assert message is not None
            await answer_update(interaction, content=content(call.content),
                                picture=self._picture(table, message.id, "hand.png")
                                if call.upload else None,
                                view=panel(call.shape, table.number))
        else:
            await interaction.response.defer()
            table.deferred = interaction
        if table.clicks == sum(c.kind in CLICKS for c in table.plan):
            await self.commit(table)

    def computer_move(self, table: FloorTable) -> None:
        """A move without clicks (a computer's)."""
        task = asyncio.ensure_future(self.commit(table))
        self.running.add(task)  # as the real service keeps its computers' turns
        task.add_done_callback(self.running.discard)

    async def commit(self, table: FloorTable) -> None:
        """The move: the engine's ``apply`` (the yardstick), the match after it committed
        (with a `store`), then the calls of the plan that are not answers."""
        before, action = table.steps[self.moves_made[table.number] % len(table.steps)]
        self.moves_made[table.number] += 1
        after, _ = before.apply(action)
        if self.store is not None:
            await self.store.commit(table.number, after)
        for call in table.plan:
            if call.kind not in CLICKS:
                await self.make(table, call)
        self.moves += 1
        table.committed.set()

    async def make(self, table: FloorTable, call: Call) -> None:
        text = content(call.content)
        view = panel(call.shape, table.number) if call.shape[0] else None
        person = table.turn = (table.turn + 1) % len(table.people)
        if call.kind in ("edit channel", "send channel"):
            channel = self.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            picture = (self._picture(table, table.message_id, "table.png") if call.upload
                       else None)
            if call.kind == "send channel":
                await send_quietly(channel, text, picture=picture,
                                   allowed_mentions=discord.AllowedMentions.none())
                return
            await edit_quietly(channel.get_partial_message(table.message_id),
                               content=text, picture=picture, view=view,
                               allowed_mentions=discord.AllowedMentions.none())
            return
        if call.kind == "patch original":
            interaction = table.deferred
            if interaction is None or interaction.message is None:
                self.missing[call.kind] += 1
                return
            await edit_original_quietly(interaction, content=text, view=view, picture=(
                self._picture(table, interaction.message.id, "hand.png") if call.upload
                else None))
            return
        dm = self.get_partial_messageable(table.dms[person], type=discord.ChannelType.private)
        if call.kind == "send dm":
            sent = await send_quietly(dm, text, picture=Picture(PNG, "hand.png")
                                      if call.upload else None,
                                      allowed_mentions=discord.AllowedMentions.none(),
                                      view=view)
            table.closing[person].append(table.panels[person])
            table.panels[person] = sent
            return
        closing = next((n for n, old in enumerate(table.closing) if old), None)
        if view is None and closing is not None:  # an old panel closed
            person = closing
            target = table.closing[person].pop(0)
            dm = self.get_partial_messageable(table.dms[person],
                                              type=discord.ChannelType.private)
        else:
            target = table.panels[person]
            if view is None:  # no old panel to close: the panel stays clickable
                view = panel((5, 5, 4, 22), table.number)
        await edit_quietly(dm.get_partial_message(target), content=text, view=view,
                           picture=self._picture(table, target, "hand.png") if call.upload
                           else None, allowed_mentions=discord.AllowedMentions.none())


def engine_steps(seed: int) -> Iterator[tuple[Any, Any]]:
    """(match, action) of random agents' games, hand after hand (`tools.selfplay`)."""
    from engine.ai.random_agent import RandomAgent
    from engine.game import Match, Phase
    from tools.selfplay import play_hand

    seeds, driver = random.Random(seed), random.Random(seed + 1)
    match = Match.new()
    agents = [RandomAgent(random.Random(seed * 4 + seat)) for seat in range(match.seats)]
    while True:
        if match.phase is Phase.MATCH_OVER:
            match = Match.new()
        for before, action, after, _ in play_hand(match, seeds.getrandbits(64), agents,
                                                  driver):
            yield before, action
            match = after


async def _drive(bot: FloorBot, meter: _Meter, table: FloorTable, think: float,
                 rng: random.Random, acks: list[float], stop: asyncio.Event) -> None:
    """A table's simulated people: per move, think, then click what the plan says on the
    newest DM panel; a move without clicks is the computers' (the bot makes it at once)."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        table.plan = table.schedule.move()
        table.clicks = 0
        table.committed.clear()
        clicks = [call for call in table.plan if call.kind in CLICKS]
        if not clicks:
            loop.call_soon(bot.computer_move, table)
        else:
            await wall_sleep(rng.uniform(0, 2 * think))
            person = rng.randrange(len(table.people))
            user = table.people[person]
            for call in clicks:
                panel = _panel(user, table.panels[person])
                press = _press(meter, user, panel, CLICKS[call.kind])
                await press.done.wait()
                if press.acked is not None:
                    acks.append(press.acked - press.sent)
                meter.presses.pop(press.token, None)
        await table.committed.wait()


def _panel(user: Any, message_id: int) -> Any:
    return next(m for m in reversed(user.dm_channel.history()) if m.id == message_id)


def _press(meter: _Meter, user: Any, panel: Any, kind: str) -> _Press:
    items = [item for row in panel.components for item in getattr(row, "children", [row])]
    if kind == "select":
        select = next(item for item in items if getattr(item, "options", None))
        return click(meter, user, panel, select.custom_id, kind, [select.options[0].value])
    button = next(item for item in items if getattr(item, "custom_id", None)
                  and not getattr(item, "options", None))
    return click(meter, user, panel, button.custom_id, kind)


async def _setup(env: Any, bot: FloorBot, config: BenchConfig,
                 recipe: Recipe) -> list[FloorTable]:
    guild = env.create_guild(name="Floor")
    tables = []
    for number in range(config.tables):
        channel = guild.create_text_channel(f"floor-{number}")
        members = [guild.add_member(env.create_user(f"f{number}-{n}"))
                   for n in range(max(config.humans, 1))]
        table = FloorTable(number + 1, channel.id, guild.id, [m.user for m in members],
                           Schedule(recipe, offset=number / max(config.tables, 1)),
                           list(itertools.islice(engine_steps(config.seed * 1000 + number),
                                                 STEPS)))
        messageable = bot.get_partial_messageable(channel.id, guild_id=guild.id)
        table.message_id = await send_quietly(messageable, "table",
                                              view=panel((1, 4, 0, 0), table.number))
        for member in members:
            user = bot.get_user(member.id) or await bot.fetch_user(member.id)
            dm = await user.create_dm()
            table.dms.append(dm.id)
            table.panels.append(await send_quietly(
                bot.get_partial_messageable(dm.id, type=discord.ChannelType.private),
                "panel", view=panel((5, 5, 4, 22), table.number)))
            table.closing.append([])
            bot.tables[dm.id] = table
        if bot.store is not None:
            await bot.store.add(table.number, guild.id, channel.id,
                                [m.id for m in members][:SEATS])
        tables.append(table)
    return tables


async def run_floor(config: BenchConfig, recipe: Recipe | None = None,
                    reference: dict[str, Any] | None = None, *,
                    store: bool = False) -> dict[str, Any]:
    """Run the floor (`config`: tables, humans, think, seconds, warmup, seed, pinning)
    and return its report: `tools.bench._Window.accounting` plus ``floor_cpu_per_move_ms``
    ("own" less ``apply``), ``floor_over_apply`` (this run's ``apply``, a random agent's
    moves), ``left_at_20x_ms`` (20 × ``apply`` less "own"), the recipe it followed, and
    against `reference` (the real bench's report the recipe comes from; default
    `DEFAULT_REFERENCE`) ``floor_over_real_apply`` and ``floor_share_of_real_own``.
    `store`: each move committed first (`FloorStore`), reported in ``store``."""
    import simcord

    from tools.bench_meter import _identity_records, pin_process

    if recipe is None:
        recipe, reference = DEFAULT_RECIPE, reference or DEFAULT_REFERENCE
    reference = reference or {}
    if config.loop_cpus is not None:
        pin_process(config.loop_cpus)
    undo = _identity_records()
    bot = FloorBot()
    meter = _Meter()
    try:
        async with simcord.run(bot, settle_timeout=60.0) as env:
            if store:
                bot.store = await FloorStore.open()
            tables = await _setup(env, bot, config, recipe)
            meter.calibrate()
            meter.install(bot._connection, in_process=False)
            stop = asyncio.Event()
            acks: list[float] = []
            rng = random.Random(config.seed)
            tasks = [asyncio.ensure_future(meter.people(
                _drive(bot, meter, table, config.think, rng, acks, stop)))
                for table in tables]
            try:
                if config.warmup > 0:
                    await wall_sleep(config.warmup)
                with _Window(meter, asyncio.get_running_loop(), config.lag_every,
                             config.stacks, profile=config.profile) as window:
                    bot.moves = 0
                    if bot.store is not None:
                        bot.store.saves = 0
                    acks.clear()
                    await wall_sleep(config.seconds)
                    stop.set()
                    for task in tasks:
                        task.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)
                    window.close()
            finally:
                for task in tasks:
                    task.cancel()
                meter.uninstall()
            moves = bot.moves
            shared = window.accounting(moves)
            floor = None if not moves else (window.own - meter.cpu["apply"]) / moves
            apply_each = shared["apply_per_move_ms"]
            own_each = shared["own_cpu_per_move_ms"]
            return {
                "floor": True, "tables": config.tables, "humans": config.humans,
                "think": config.think, "warmup": config.warmup, **shared,
                "floor_cpu_per_move_ms": None if floor is None else round(floor * 1000, 3),
                "floor_over_apply": (None if floor is None or not apply_each
                                     else round(floor * 1000 / apply_each, 1)),
                "left_at_20x_ms": (None if apply_each is None or own_each is None
                                   else round(20 * apply_each - own_each, 3)),
                **_against(floor, reference),
                "store": None if bot.store is None else await _store_report(
                    bot.store, moves, window.threads),
                "first_reply_ms": _ms_of(acks),
                "cpu_s": {"loop_process": round(window.cpu, 3),
                          "think": round(meter.cpu["think"], 3),
                          "discord_sim": round(meter.cpu["discord"], 3),
                          "people_sim": round(meter.cpu["people"], 3),
                          "apply": round(meter.cpu["apply"], 3),
                          "instrumentation": round(window.instruments, 3),
                          "gc": round(meter.cpu["gc"], 3)},
                "recipe": {kind: entry["per_move"] for kind, entry in recipe.items()},
                "not_reproduced": sorted(set(Schedule(recipe).skipped)
                                         | set(bot.missing)),
            }
    finally:
        bot.release()
        undo()
        if bot.store is not None:
            await bot.store.close()


async def _store_report(store: FloorStore, moves: int,
                        threads: dict[str, float]) -> dict[str, Any]:
    """The commits of the window: saves a move, the database thread's CPU a move, and
    the documents' sizes as stored at the end."""
    sizes = [len(doc_dumps(table.doc).encode()) for table in await store.stored()]
    db_thread = threads.get("tractor-db-write")
    return {"saves_per_move": None if not moves else round(store.saves / moves, 3),
            "db_thread_ms_per_move": (None if not moves or db_thread is None
                                      else round(db_thread * 1000 / moves, 3)),
            "doc_bytes": round(sum(sizes) / len(sizes)) if sizes else None}


def _against(floor: float | None, reference: dict[str, Any]) -> dict[str, Any]:
    """The floor against the real bench's run the recipe comes from."""
    apply, own = reference.get("apply_per_move_ms"), reference.get("own_cpu_per_move_ms")
    ms = None if floor is None else floor * 1000
    return {"real_own_cpu_per_move_ms": own, "real_apply_per_move_ms": apply,
            "floor_over_real_apply": None if ms is None or not apply else round(ms / apply, 1),
            "floor_share_of_real_own": None if ms is None or not own else round(ms / own, 3)}


def _ms_of(values: list[float]) -> dict[str, Any]:
    from tools.bench_meter import _ms
    return _ms(values)


def floor_lines(report: dict[str, Any]) -> Iterator[str]:
    """The floor's report, printed."""
    name = "FLOOR + STORE" if report.get("store") else "FLOOR"
    yield (f"{name}: {report['tables']} tables × {report['humans']} people, "
           f"{report['seconds']} s (after {report['warmup']} s of warm-up), load average "
           f"{report['load_average']}, cpus {report['cpus']}")
    yield f"  moves {report['moves']} ({report['moves_per_second']}/s)"
    yield (f"  floor CPU per move {report['floor_cpu_per_move_ms']} ms = "
           f"{report['floor_over_apply']}× apply ({report['apply_per_move_ms']} ms); "
           f"own with apply {report['own_cpu_per_move_ms']} ms")
    yield (f"  against the real bench the recipe comes from (own "
           f"{report['real_own_cpu_per_move_ms']} ms, apply "
           f"{report['real_apply_per_move_ms']} ms a move): "
           f"{report['floor_over_real_apply']}× its apply, "
           f"{report['floor_share_of_real_own']:.0%} of its own"
           if report.get("floor_share_of_real_own") is not None else
           "  (no real bench to compare with)")
    yield (f"  at 20× apply: {report['left_at_20x_ms']} ms a move left for everything "
           f"else")
    if report.get("store"):
        yield f"  store (each move committed before its calls): {report['store']}"
    yield f"  cpu: {report['cpu_s']}  threads: {report['threads_cpu_s']}"
    yield f"  discord.py's event parsers: {report['discord_py_parse']}"
    yield f"  recipe per move: {report['recipe']}"
    if report["not_reproduced"]:
        yield f"  not reproduced: {report['not_reproduced']}"
    yield from traffic_lines(report)
