"""Local play: the real bot, no token, a simulated Discord in your browser.

``python -m bot`` (``make play``) without a ``DISCORD_TOKEN`` calls `main`. It builds the
real bot with `bot.create_bot`, attaches it to SimCord's in-process Discord, and makes a
server "Tractor Club" with a ``#tractor`` channel and you (``--players N``: 1-4 people at
this computer; the other seats are computer players). The table is the four-player game,
or Finding Friends with ``--mode friends --seats N [--decks D]`` (`Shape`: 4-8 seats,
read as ``/tractor new mode: players: decks:`` reads them). Everyone is seated through
the bot's own slash commands (``/tractor new``, ``join``, ``addbot``, ``start``), exactly
as on Discord. Then SimCord's preview serves the channel on loopback and the address is
printed on its own line (``http://127.0.0.1:PORT/#…``; the part after ``#`` is the
session key, so keep it to yourself; it is kept beside the database, `page_key`, so the
address of a saved game stays the same after a restart; with ``--port 0`` so does its
port while it is free, `last_port`). The page shows ``#tractor`` as
a Discord client would: the table message and its buttons, the ephemeral ``My hand``
panel, and a composer for the ``/tractor`` commands. With several local players the
page's viewer switch swaps seats. Ctrl-C, SIGTERM or "End session" in the page stops
it; the database is closed.

The game lives in ``./data/local.sqlite3`` (``--database``). The simulated world is built
the same way every time (same server, channel and player ids), so an unfinished game
from the last session is picked up again instead of a new one being seated, with the
seats it was saved with: the number of people and the table's shape are read from the
save (`saved_table`), and a ``--players``, ``--mode``, ``--seats`` or ``--decks`` that
differs is ignored and said so (`_announce`). The file is
opened and checked before anything else starts, so a corrupt, too-new or unusable file
(a read-only folder, say) is one line and exit status 2, as in Discord mode.

Time. SimCord runs the bot on a virtual clock that moves only when something moves it,
and after each operation waits for the bot's work, timers included. Here the clock is
set to the wall clock before the bot logs in, and a `_Pump` keeps it there, so the
computer players' ``BOT_ACTION_DELAY`` pauses, turn timers and ``<t:…:R>`` countdowns run
in real time; operations (the page's clicks, commands run from Python) wait only for the
bot's answer, not for its timers (`LocalSession._answered`); and the pump republishes the
page whenever the bot sent something, so the computer players' moves show up one by one.
The pump and the page's actions take turns on one lock.

This leans on internals of the pinned SimCord 3.2.1, each exercised by
tests/test_local_play.py: ``Env._advancing`` and ``Env._real_advance_task`` (the timer
switch), ``Env._bot_scope`` (the bot's own calls, `LocalSession.as_bot`),
``Backend.advance_clock``, ``Backend.add_member_role`` and ``Backend.bot_user``
before the bot logs in, and the
preview's ``_action``, ``_publish``, ``_page_payload``, ``_pages``, ``_blobs`` and
``_closed`` (see `_PageActions`), and its server's ``_static`` (the stylesheet and the
script, `_steady_pictures`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import io
import json
import logging
import os
import signal
import sys
import threading
import webbrowser
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, TypeVar

from bot.app.cli import EXIT_CONFIG, build_parser, fail, startup_failure
from bot.runtime.config import LOCAL_DATABASE, LOCAL_PORT, Config, ConfigError

__all__ = [
    "CHANNEL_NAME",
    "DEFAULT_DATABASE",
    "DEFAULT_PORT",
    "GUILD_NAME",
    "TEAMS",
    "LocalSession",
    "SavedTable",
    "Shape",
    "house_rules",
    "local_session",
    "main",
    "page_key",
    "saved_people",
    "saved_table",
    "serve",
]

log = logging.getLogger("tractor.local")
T = TypeVar("T")

GUILD_NAME = "Tractor Club"
CHANNEL_NAME = "tractor"
DEFAULT_DATABASE = LOCAL_DATABASE
DEFAULT_PORT = LOCAL_PORT
BOT_NAME = "Tractor"

# How long SimCord may wait for the bot to settle after an operation (see `_answered`).
_SETTLE = 30.0
_PUMP_INTERVAL = 0.1
LOCAL_FIRST_DEAL = 600.0
"""Local play deals the first hand when the page is open (`_Pump.ready_when_open`); this
many seconds after the start at the latest."""


@dataclass(frozen=True, slots=True)
class Shape:
    """The table local play seats: its mode (``teams`` or ``friends``), its seats and its
    decks (0: by seats, F1). ``--mode``, ``--seats`` and ``--decks`` choose it (`chosen`)."""

    mode: str
    seats: int
    decks: int

    @classmethod
    def chosen(cls, mode: str | None = None, seats: int | None = None,
               decks: int | None = None) -> Shape:
        """The shape the options ask for, as ``/tractor new`` reads its own: more seats or
        other decks than the four-player game is Finding Friends. `ValueError` (one line
        naming the option) when they ask for no table."""
        if seats is not None and not 4 <= seats <= 8:
            raise ValueError("--seats must be between 4 and 8")
        if decks is not None and not 2 <= decks <= 4:
            raise ValueError("--decks must be 2, 3 or 4")
        from bot.core.options import shape_mode
        from engine.variant import find_variant

        variant = find_variant(mode or shape_mode(seats, decks) or TEAMS.mode)
        if variant.table_error(seats or 4, decks or 0):
            raise ValueError("--mode teams is four seats and two decks; Finding Friends "
                             "(--mode friends) takes --seats 4-8 and --decks 2-4")
        return cls.of(variant.mode, seats or 4, decks or 0)

    @classmethod
    def of(cls, mode: str, seats: int, decks: int) -> Shape:
        """The shape of a `mode` table of `seats` seats and `decks` decks, as the mode plays
        it (`Variant.fitted`: the four-player game is `TEAMS`)."""
        from engine.variant import find_variant

        return cls(str(mode), *find_variant(mode).fitted(seats, decks))

    def new_options(self) -> dict[str, Any]:
        """The options of ``/tractor new`` that open this table (none for the default,
        `TEAMS`)."""
        if self == TEAMS:
            return {}
        return {"mode": self.mode, "players": self.seats} | (
            {"decks": self.decks} if self.decks else {})

    def describe(self) -> str:
        """How the start line names a table other than the default ("" for `TEAMS`)."""
        if self == TEAMS:
            return ""
        from engine.deal import deal_shape
        from engine.rules import Mode, RuleSet

        decks = deal_shape(RuleSet(mode=Mode(self.mode), players=self.seats,
                                   decks=self.decks)).decks
        return f" at a Finding Friends table of {self.seats} seats ({decks} decks)"

    def people_seats(self, people: int) -> tuple[int, ...]:
        """The seats (1-based) the people after the host (seat 1) take: one other sits as
        the host's partner where sides are fixed (`Variant.partners`), else they sit in
        the next seats (Finding Friends: partners are called)."""
        from engine.variant import find_variant

        partners = tuple(seat + 1 for seat in find_variant(self.mode).partners(0, self.seats)
                         if seat)
        return partners if people - 1 == len(partners) else tuple(range(2, people + 1))


TEAMS = Shape("teams", 4, 0)
"""The four-player game, what local play seats unless told otherwise."""


@dataclass(frozen=True, slots=True)
class SavedTable:
    """The unfinished table of a local play file: how many people sit at it, its shape."""

    people: int
    shape: Shape


def _player_names(count: int) -> list[tuple[str, str]]:
    """(username, display name) of the local people: "you" alone, else Player 1..N."""
    if count == 1:
        return [("you", "You")]
    return [(f"player{i}", f"Player {i}") for i in range(1, count + 1)]


@dataclass
class LocalSession:
    """A running local game: the SimCord world, the bot and the page serving it."""

    env: Any  # simcord.Env
    bot: Any  # bot.client.TractorBot
    guild: Any  # simcord.GuildHandle
    channel: Any  # simcord.ChannelHandle
    humans: tuple[Any, ...]  # simcord.MemberActor, in seat order
    database: Path
    preview: Any  # simcord.Preview
    resumed: bool = False
    last_port: int | None = None
    """The page's port at the last start on this database (None: not known)."""
    shape: Shape = TEAMS
    """The table's shape, as seated or as saved (a resumed game keeps its own)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def url(self) -> str:
        """The page address; it carries the session key after ``#``."""
        return str(self.preview.url)

    @property
    def port(self) -> int:
        """The page's port on 127.0.0.1."""
        return _port_of(self.url)

    async def act(self, operation: Callable[[], Awaitable[T]]) -> T:
        """Run one SimCord operation (an actor's slash, click, select…) between pump ticks.

        Whatever drives the world from Python (the seating, tests) comes through here,
        like the page's own actions, so no two operations overlap; see `_answered`."""
        async with self.lock:
            return await self._answered(operation)

    async def idle(self) -> None:
        """Wait until the bot has done what it can do now (its timers aside)."""
        async with self.lock:
            await self._advance(0.0)

    async def wait_closed(self) -> None:
        """Return when "End session" in the page closed the preview."""
        await self.preview.wait_closed()

    async def as_bot(self, call: Callable[[], Awaitable[T]]) -> T:
        """Call the bot's own code (its service) directly, as the bot's work.

        SimCord runs the bot's tasks on its virtual clock only when they begin in the
        bot's scope (``Env._bot_scope``: pinned SimCord 3.2.1), as every Discord event
        does. A task the bot starts from a call made outside it (the publisher's drain,
        say) would sleep on a timer that never fires: the second person's Ready began a
        coalesced table edit that waited forever, so a two-person game's channel froze at
        "Hand 0" (issue 31 item 1)."""
        async def run() -> T:
            return await call()

        with self.env._bot_scope():  # the task takes the scope with its context
            task = asyncio.ensure_future(run())
        return await task

    async def _answered(self, operation: Callable[[], Awaitable[T]]) -> T:
        """Run `operation` (lock held), settling for the bot's answer but not its timers.

        After each operation SimCord waits for the bot's work, timers included when they
        fall due before its settle deadline, in real time. A click would then return only
        after the computer players' pauses had played out, and the page would jump past
        their moves. So operations run the way SimCord runs `advance_time`: every timer
        counts as waiting, the operation returns once the bot answered, and the pump then
        plays the timers out in real time."""
        async with self._timers_held():
            return await operation()

    async def _advance(self, seconds: float) -> None:
        """Move the virtual clock on, running the bot's timers due by then (lock held)."""
        async with self._timers_held():
            try:
                # In a task of its own: SimCord lets a timer that fires in real time wait
                # for the task advancing time, so that task has to end.
                await asyncio.ensure_future(self.env.advance_time(seconds))
            except TimeoutError as error:  # the bot took longer than _SETTLE; it carries on
                log.warning("the simulated Discord is slow to settle: %s", _first_line(error))

    @contextlib.asynccontextmanager
    async def _timers_held(self) -> AsyncIterator[None]:
        """SimCord's advancing switch, on (``Env._advancing``: pinned SimCord 3.2.1).

        While it is on, every timer counts as waiting and none fires on its own. A timer
        that already fired on its own (SimCord then advances the clock in a background
        task) is let finish first: an advance started meanwhile and that task would wait
        for each other until the settle bound."""
        env = self.env
        running = env._real_advance_task
        if running is not None and not running.done():
            await asyncio.wait({running})
        env._advancing = True
        try:
            yield
        finally:
            env._advancing = False

    async def _catch_up(self) -> None:
        """Bring the virtual clock to the wall clock (lock held)."""
        lag = (datetime.now(UTC) - self.env.now()).total_seconds()
        if lag > 0.005:
            await self._advance(lag)


def _first_line(error: BaseException) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0]


class _Pump:
    """Keeps the virtual clock at the wall clock and the page up to date.

    Every tick, under the session lock: catch the clock up (which runs the bot's due
    timers: a computer player's pause, the coalesced table edit, a turn timer), then, if
    the bot sent anything to Discord since the page was last published, republish it."""

    def __init__(self, session: LocalSession) -> None:
        self.session = session
        self.published = -1
        self.shown = 0
        self.page_seen = False

    async def tick(self) -> None:
        session = self.session
        async with session.lock:
            if session.preview._closed:
                return
            await session._catch_up()
            await self.ready_when_open()
            sent = len(session.env.http_requests)
            if sent != self.published:
                await session._answered(session.preview.refresh)
                self.published = sent
                await self.follow()

    async def ready_when_open(self) -> None:
        """The first time a page is open (a browser showing the channel, beside SimCord's
        own Python presentation), the local people are Ready: a first deal that waits for
        them starts then, with their hand in front of them."""
        session = self.session
        if self.page_seen or not any(page != "python" for page in session.preview._pages):
            return
        self.page_seen = True
        from bot.core.errors import UserFacingError

        stored = await session.bot.store.table_in_channel(session.channel.id)
        if stored is None:
            return
        for human in session.humans:
            async def ready(user_id: int = human.id) -> None:
                await session.as_bot(lambda: session.bot.service.ready(stored.id, user_id))

            with contextlib.suppress(UserFacingError):
                await session._answered(ready)

    async def follow(self) -> None:
        """Keep the page's starting point at the newest message, so a page opened (or
        reloaded) later starts there rather than at the table of the first hand."""
        from simcord import SetupError

        session = self.session
        newest = session.channel.last_message
        if newest is None or newest.id == self.shown:
            return
        self.shown = newest.id
        with contextlib.suppress(SetupError):  # someone else's ephemeral message
            await session.preview.show(newest)

    async def run(self) -> None:
        while not self.session.preview._closed:
            try:
                await asyncio.ensure_future(self.tick())  # a task per tick: see _advance
            except asyncio.CancelledError:
                raise
            except Exception:
                if self.session.preview._closed:
                    return
                log.exception("local play: updating the page failed")
            await asyncio.sleep(_PUMP_INTERVAL)


class _PageActions:
    """Adapts SimCord's page to a game that moves while you look at it.

    - The page's actions take the session lock: they are SimCord operations too, and
      SimCord refuses one that starts while another runs (the pump's, say).
    - SimCord refuses a page action made on an older publication of the page than the
      latest ("stale revision"), and here the page is republished whenever a computer
      player moves, so a click that raced one would fail. Discord has no such check: the
      client sends the custom id it shows, and the bot judges it (its custom ids carry the
      game step, so a click from an outdated panel gets "the table has moved on"). So an
      action is brought to the current revision when what it acts on is unchanged since
      the publication the browser saw: the clicked message's components, custom ids
      included, are the same (then the same control gets the same custom id, as on
      Discord); commands, autocomplete and modals do not depend on the page at all, nor
      does the page telling its size (``configure_presentation``: refused as stale while
      the computers played, a phone's page stayed laid out 1100 px wide).
    """

    _REVISION_FREE = frozenset({"run_command", "autocomplete_command", "modal_submit",
                                "configure_presentation"})
    _ON_A_MESSAGE = frozenset({"click", "select"})
    _KEEP = 32  # publications remembered per page

    def __init__(self, session: LocalSession) -> None:
        self.session = session
        self.preview = session.preview
        self.seen: dict[str, dict[int, dict[str, str]]] = {}
        self._publish = self.preview._publish
        self._action = self.preview._action
        self._payload = self.preview._page_payload
        self.preview._publish = self.publish
        self.preview._action = self.action
        self.preview._page_payload = self.payload

    def components(self, message_id: str | int) -> str:
        """The components of a message in #tractor, as SimCord resolves controls on them."""
        env, channel = self.session.env, self.session.channel
        try:
            message = env.backend.get_message(channel.id, int(message_id))
        except Exception:
            return ""
        text = json.dumps(message.components, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def publish(self, page: Any, **kwargs: Any) -> None:
        self._publish(page, **kwargs)
        snapshot = page.snapshot if isinstance(page.snapshot, Mapping) else {}
        seen = self.seen.setdefault(page.id, {})
        seen[page.revision] = {mid: self.components(mid) for mid in snapshot.get("messages", {})}
        for revision in sorted(seen)[: -self._KEEP]:
            del seen[revision]
        for closed in self.seen.keys() - self.preview._pages.keys() - {page.id}:
            del self.seen[closed]

    def payload(self, page: Any) -> dict[str, Any]:
        """What the page is sent of its publication: SimCord's, with every picture whole.

        SimCord checks a publication again when the page fetches it, and leaves out an
        attachment the message no longer has. A computer player's move edits the table
        message (a new picture) while the page fetches the publication before it, so the
        page drew the table with no picture at all, ~300-600 px shorter, until the next
        publication (issue 38 items 1 and 2). The attachment is kept: its file is refused
        all the same, and the page keeps the picture it drew before in its place
        (`PAGE_SCRIPT`) until the next publication, a moment later. Every picture is
        given its size (`_sized`)."""
        payload: dict[str, Any] = self._payload(page)
        if page.pinned_snapshot is None:
            _kept_attachments(page, payload)
        _sized(self.preview, page, payload)
        return payload

    def current(self, context_id: Any, body: Any) -> Any:
        """`body`, brought to the page's current revision when that changes nothing."""
        if not isinstance(body, Mapping) or not isinstance(context_id, str):
            return body
        kind, seen_revision = body.get("kind"), body.get("published_revision")
        page = self.preview._pages.get(context_id)
        if page is None or not isinstance(seen_revision, int) or seen_revision == page.revision:
            return body
        if kind not in self._REVISION_FREE:
            target = str(body.get("target_id"))
            seen = self.seen.get(context_id, {}).get(seen_revision, {})
            if kind not in self._ON_A_MESSAGE or target not in seen:
                return body
            if seen[target] != self.components(target):
                return body
        return {**body, "published_revision": page.revision}

    async def action(self, context_id: Any, body: Any) -> Any:
        return await self.session.act(
            lambda: self._action(context_id, self.current(context_id, body))
        )


def _kept_attachments(page: Any, payload: dict[str, Any]) -> None:
    """Put back in `payload` the attachments (and their assets' records) of its
    messages that SimCord left out since `page`'s publication (`_PageActions.payload`)."""
    published = page.snapshot.get("messages") if isinstance(page.snapshot, Mapping) else None
    messages, assets = payload.get("messages"), payload.get("assets")
    if not (isinstance(published, Mapping) and isinstance(messages, dict)
            and isinstance(assets, dict)):
        return
    for identity, message in messages.items():
        before = published.get(identity)
        if not isinstance(before, Mapping) or not isinstance(message, dict):
            continue
        attachments = list(before.get("attachments") or ())
        if len(attachments) == len(message.get("attachments") or ()):
            continue
        message["attachments"] = json.loads(json.dumps(attachments))
        for attachment in attachments:
            record = page.assets.get(attachment.get("asset_id"))
            if record is not None and record.id not in assets:
                assets[record.id] = {key: value for key, value in record.to_wire().items()
                                     if key != "diagnostic"}


def _sized(preview: Any, page: Any, snapshot: Mapping[str, Any]) -> None:
    """Give every picture of a publication its size (issue 38 item 2).

    SimCord 3.2.1 tells the page a picture's size (``displayWidth``/``displayHeight`` of
    its asset) only once that page has fetched and checked its file, so a new picture
    has no box of its own until it arrives, and everything below it moves by its height
    then. Discord sends an attachment's width and height with the message; here they
    are read from the stored file's header (``Preview._blobs`` through the page's
    asset record's digest), so every picture has its final box from its first frame.
    The page checks the size it was given against the decoded picture."""
    assets = snapshot.get("assets")
    if not isinstance(assets, dict):
        return
    for asset_id, item in assets.items():
        if not isinstance(item, dict) or "displayWidth" in item or not item.get("available"):
            continue
        record = page.assets.get(asset_id)
        blob = preview._blobs.get(record.digest) if record is not None and record.digest else None
        size = png_size(blob.data) if blob is not None else None
        if size is not None:
            item["displayWidth"], item["displayHeight"] = size


def png_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a picture file says it has (Pillow reads its header only),
    or None when `data` is no picture."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except (UnidentifiedImageError, OSError, ValueError):
        return None


PAGE_STYLE = """
/* Tractor local play (bot/app/local.py, _steady_pictures): a picture drawn again keeps
   its size while it loads, as SimCord knows it (the width and height attributes). */
.media-lightbox-trigger:disabled > img.attachment-image[width][height] { width: revert-layer; }
/* The picture drawn before stays until the new one is decoded (PAGE_SCRIPT), drawn as it
   was (its own size, within the message). */
img.attachment-image.tractor-loading { display: none; }
/* The hand panel holds still (PAGE_SCRIPT): the browser's own scroll anchoring would
   move the messages as if the reader had scrolled; the page keeps its own anchor. And
   room below the messages, so the panel can stay where it was read when what is below
   it gets shorter. */
#channel-timeline { overflow-anchor: none; }
#channel-message-list::after { content: ""; display: block; height: var(--tractor-room, 0); }
/* On a touch screen the picture's download button sits below it, not over its corner
   (the score and the card count are drawn there). */
@media (hover: none) {
  .attachment-media-actions { position: static; width: fit-content; margin: 4px 0 0 auto; }
}
/* A new message's picture is an empty box of its size until it is decoded: never the
   broken-image icon and the file name (issue 38 item 2); nor is a picture whose file
   went with an edit of its message before the page fetched it (the next publication
   brings the new one) when there is no picture before it to keep (PAGE_SCRIPT). */
.media-lightbox-trigger:disabled > img.attachment-image:not(.tractor-stand-in),
.attachment-media > .media-unavailable {
  visibility: hidden;
}
"""
"""What local play adds to SimCord's stylesheet (`_steady_pictures`)."""

PAGE_SCRIPT = """
/* Tractor local play (bot/app/local.py, _steady_pictures): a message drawn again (an
   edit, a select opening) gets new pictures whose files load afterwards; until a new
   picture is decoded, the one drawn before stays in its place, at the new one's size. */
{
  const PICTURE = "img.attachment-image", UNAVAILABLE = ".media-unavailable";
  const shown = (img) => img.complete && img.naturalWidth > 0 && Boolean(img.getAttribute("src"));
  const best = (trigger) => {
    const pictures = [...trigger.querySelectorAll(PICTURE)].filter(shown);
    return pictures.find((img) => !img.classList.contains("tractor-stand-in")) || pictures[0];
  };
  const SLOT = ".media-lightbox-trigger, .tractor-held";
  const triggers = (node) => node.matches(SLOT) ? [node] : [...node.querySelectorAll(SLOT)];
  const hold = (fresh, before) => {
    const width = fresh.getAttribute("width"), height = fresh.getAttribute("height");
    let standIn = null;
    if (before) {
      standIn = before;
      standIn.classList.remove("tractor-loading", "tractor-first");
      standIn.classList.add("tractor-stand-in");
      if (width && height) {  // the new picture's box, the old one drawn within it
        standIn.setAttribute("width", width);
        standIn.setAttribute("height", height);
        standIn.style.aspectRatio = `${width} / ${height}`;
      }
      fresh.classList.add("tractor-loading");
      fresh.before(standIn);
    } else {
      fresh.classList.add("tractor-first");  // a message's first picture: none to keep
    }
    const done = () => {
      standIn?.remove();
      fresh.classList.remove("tractor-loading", "tractor-first");
    };
    fresh.addEventListener("load", () => fresh.decode().then(done, done), { once: true });
    fresh.addEventListener("error", done, { once: true });
  };
  const before = new WeakMap();  // a message's element -> the pictures it showed last
  const message = (element) => element.closest("[data-message-id]") || element;
  new MutationObserver((records) => {
    const taken = new Set();
    for (const record of records) {
      for (const node of record.removedNodes) {
        if (!(node instanceof Element)) continue;
        const kept = triggers(node).map(best).filter(Boolean);
        if (!kept.length) continue;
        const root = message(record.target);
        before.set(root, [...(taken.has(root) ? before.get(root) : []), ...kept]);
        taken.add(root);
      }
    }
    const seen = new Set();
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element) || !node.isConnected) continue;
        // a picture superseded before it loaded (or whose file went with the message's
        // edit): the one before stays until the next
        const gone = node.matches(UNAVAILABLE) ? [node] : [...node.querySelectorAll(UNAVAILABLE)];
        for (const unavailable of taken.has(message(record.target)) ? gone : []) {
          const standIn = before.get(message(record.target))?.shift();
          if (!standIn) continue;
          const held = document.createElement("span");
          held.className = "tractor-held";
          held.append(standIn);
          unavailable.before(held);
          unavailable.hidden = true;
        }
        if (node.matches(UNAVAILABLE)) continue;
        for (const trigger of triggers(node)) {
          const fresh = [...trigger.querySelectorAll(PICTURE)].find((img) =>
            !img.classList.contains("tractor-stand-in"));
          if (!fresh || seen.has(fresh) || shown(fresh)
              || fresh.classList.contains("tractor-loading")) continue;
          seen.add(fresh);
          hold(fresh, before.get(message(trigger))?.shift());
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
}
/* The hand panel holds still while the computers play (issue 38 item 1). Their moves
   redraw the table message and the panel, whose lines of text come and go (the trick so
   far, whose turn it is), so the page's rows moved a line at a time. The page keeps the
   top of the first message in view where it was (its own scroll intent); here the first
   row of components in view of the newest hand panel (followed by nothing but pings) is
   kept where the reader saw it. A scroll that moves the messages without a change of
   layout is the reader's (a wheel, a finger, a click scrolling its control into view): it
   picks the row anew and is never undone. A change of layout (the row moved within the
   messages, or the view clamped by a message removed below) or a scroll the page's own
   script makes puts the row back. */
{
  const view = ui.timeline, list = ui.messageList;
  const native = Object.getOwnPropertyDescriptor(Element.prototype, "scrollTop");
  const scrolled = () => native.get.call(view);
  const newest = () => {
    // the newest hand panel, unless a message with a picture came after it (a new table,
    // a hand's result: the page follows them); a turn ping after it (no picture) is held
    // below it, and its removal moves nothing
    for (const article of [...list.querySelectorAll("article[data-message-id]")].reverse()) {
      if (article.querySelector(".preview-select")) return article;
      if (article.querySelector(".attachment-inline")) return null;
    }
    return null;
  };
  const rows = (article) => [...article.querySelectorAll(".component-row")];
  const where = (row) => {
    const top = row.getBoundingClientRect().top - view.getBoundingClientRect().top;
    return { view: top, at: top + scrolled() };
  };
  let pin = null;  // {id, index, view: px below the timeline's top, at: px in the messages}
  let room = 0;    // px of room kept below the messages
  let extent = 0;  // the scroll height at the last frame: a scroll that came with a change
                   // of it (a message below removed, the view clamped) is the layout's
  const setRoom = (px) => {
    room = Math.max(0, Math.ceil(px));
    list.style.setProperty("--tractor-room", `${room}px`);
  };
  const capture = () => {
    pin = null;
    const article = newest();
    if (!article) return;
    const all = rows(article), height = view.clientHeight;
    const index = all.findIndex((row) => {
      const top = where(row).view;
      return top >= 0 && top < height;
    });
    if (index >= 0) pin = { id: article.dataset.messageId, index, ...where(all[index]) };
  };
  const pinned = () => {
    const article = pin ? newest() : null;
    return article && article.dataset.messageId === pin.id ? rows(article)[pin.index] || null
      : null;
  };
  const hold = () => {
    const row = pinned();
    if (!row) return capture();
    const now = where(row), by = now.view - pin.view;
    pin.at = now.at;
    if (Math.abs(by) < 0.5) return;
    const most = view.scrollHeight - view.clientHeight;
    if (scrolled() + by > most) setRoom(room + scrolled() + by - most);
    native.set.call(view, scrolled() + by);
    extent = view.scrollHeight;
  };
  const check = () => {
    const row = pinned();
    if (row && Math.abs(where(row).at - pin.at) >= 0.5) hold();
  };
  Object.defineProperty(view, "scrollTop", {
    configurable: true,
    get: scrolled,
    set(value) { native.set.call(view, value); if (pinned()) hold(); },
  });
  view.addEventListener("scroll", () => {
    const row = pinned(), resized = view.scrollHeight !== extent;
    extent = view.scrollHeight;
    // not the reader: the row moved within the messages, or the view was clamped
    if (row && (resized || Math.abs(where(row).at - pin.at) >= 0.5)) return hold();
    if (room) setRoom(room - (view.scrollHeight - view.clientHeight - scrolled()));
    capture();
  }, { passive: true });
  // a layout that changed size (after the browser kept the scroll position in range)
  new ResizeObserver(() => { if (pin) hold(); }).observe(list);
  const frame = () => {
    if (pinned()) check(); else capture();
    extent = view.scrollHeight;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}
/* A select shows what the bot holds (issue 38, the friend call's rank): the page keeps a
   select's chosen value by its place in the message across redraws, so after the bot
   changed the select (its options, which one is chosen) it still showed the value picked
   before. When a select comes back changed, its value is the bot's again. */
{
  const SELECTS = new Set([3, 5, 6, 7, 8]);
  const known = new Map();  // control key -> the select as the bot last sent it
  const walk = (components, found) => {
    for (const component of components || []) {
      if (SELECTS.has(Number(component.type)) && typeof component.control_key === "string") {
        found.push(component);
      }
      walk(component.components, found);
      for (const child of [component.accessory, component.component]) {
        if (child) walk([child], found);
      }
    }
    return found;
  };
  const observe = selections.observe;
  selections.observe = (snapshot, ...rest) => {
    const drafts = selections.renderOptions();
    for (const message of Object.values(snapshot?.messages || {})) {
      for (const select of walk(message.components, [])) {
        const key = select.control_key;
        const sent = JSON.stringify([select.custom_id, (select.options || []).map(
          (option) => [option.value, option.default === true])]);
        if (known.get(key) === sent || state.dropdown?.key === key) continue;
        known.set(key, sent);
        const chosen = (select.options || []).filter((option) => option.default === true)
          .map((option) => String(option.value));
        drafts.onReconcileDraft(key, chosen);
      }
    }
    return observe(snapshot, ...rest);
  };
}
"""
"""What local play adds to SimCord's page script (`_steady_pictures`)."""


def _steady_pictures(preview: Any) -> None:
    """Serve SimCord's stylesheet with `PAGE_STYLE` after it (issue 31 item 2).

    The page draws every message of the channel again whenever a select opens or closes
    (SimCord 3.2.1: ``openDropdown`` → ``localRender(true)`` → ``renderChannelTimeline``
    with ``force``), and each picture is a new ``<img>`` whose source is set only once its
    asset is loaded. Its style (``.attachment-image { width: auto; height: auto }``)
    ignores the size SimCord gives it in ``width``/``height``, so until then the picture
    is one line high: at 1280×800 the channel lost ~1,500 px at once, the browser pulled
    the scroll position up to the table message, and the document's scroll listener
    (``fitOpenDropdowns``) found the select below the window and closed its list. With
    ``width: revert-layer`` a loading picture takes the size in its attributes (which
    SimCord checks equal the decoded image's), so nothing moves.

    Issue 38 item 2: a picture drawn again had no picture at all until its file loaded (a
    broken-image line, 0.1-14 s), so the page jumped by the picture's height at each move;
    `PAGE_SCRIPT` keeps the picture drawn before in its place until the new one is
    decoded. And on a touch screen the picture's download button covered its top right
    corner (the score, the card count): `PAGE_STYLE` puts it below. Issue 38 item 1: the
    hand panel's rows hold still while the computers play (`PAGE_SCRIPT` keeps the
    first row in view where the reader saw it; only the reader's scrolling moves it).

    SimCord has no setting for the page's style or script, so this wraps
    ``PreviewServer._static`` (pinned SimCord 3.2.1) on this one preview before it starts
    serving, adding to ``preview.css`` and ``app.js`` (a module: the script runs once
    the page's own has started); every other file is served as it was.
    tests/test_local_play.py checks the files served, and tools/page_dropdown.py drives
    the page in a real browser."""
    server = preview._server
    serve_static = server._static

    added = {"/preview.css": (PAGE_STYLE, "text/css"),
             "/app.js": (PAGE_SCRIPT, "application/javascript")}

    async def static(request: Any) -> Any:
        response = await serve_static(request)
        extra = added.get(request.path)
        if extra is None or response.status != 200 or response.text is None:
            return response
        from aiohttp import web

        headers = {name: value for name, value in response.headers.items()
                   if name.lower() not in {"content-type", "content-length"}}
        return web.Response(text=response.text + extra[0], content_type=extra[1],
                            headers=headers)

    server._static = static


async def _command(session: LocalSession, member: Any, name: str, **options: Any) -> None:
    """Run ``/<name>`` as `member` in #tractor and wait for the bot; a bot error raises."""
    before = len(session.env.errors)
    await session.act(lambda: member.slash(session.channel, name, **options))
    errors = session.env.errors[before:]
    if errors:
        raise RuntimeError(f"/{name} failed in the bot: {errors[0]!r}") from errors[0]


async def _seat_table(session: LocalSession, shape: Shape,
                      rules: Mapping[str, Any] | None = None) -> None:
    """Open the table and fill it through the bot's own commands, as players would;
    `rules`: house rules, as ``/tractor new`` takes them (`house_rules`)."""
    host, *others = session.humans
    await _command(session, host, "tractor new",  # host: seat 1
                   **shape.new_options(), **dict(rules or {}))
    for member, seat in zip(others, shape.people_seats(len(session.humans)), strict=False):
        await _command(session, member, "tractor join", seat=seat)
    for _ in range(shape.seats - len(session.humans)):
        await _command(session, host, "tractor addbot")
    await _command(session, host, "tractor start")


async def _stored_table(session: LocalSession) -> SavedTable | None:
    """The people and the shape of the table in #tractor, or None when there is none."""
    stored = await session.bot.store.table_in_channel(session.channel.id)
    return None if stored is None else _saved(stored.doc)


def _saved(document: Mapping[str, Any]) -> SavedTable:
    from bot.core.table import TableDoc

    doc = TableDoc.from_dict(dict(document))
    rules = doc.rules
    shape = Shape.of(rules.mode, doc.seat_count, rules.decks)
    return SavedTable(max(1, len(doc.humans)), shape)


def _kept(database: str | os.PathLike[str], name: str) -> str | None:
    """What is kept beside `database` as ``<database>.<name>`` (None when nothing is)."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        return Path(f"{os.fspath(database)}.{name}").read_text().strip()
    return None


def _keep(database: str | os.PathLike[str], name: str, value: str) -> None:
    """Keep `value` beside `database` (readable by its owner only); a folder that cannot
    be written keeps nothing."""
    with contextlib.suppress(OSError):
        descriptor = os.open(f"{os.fspath(database)}.{name}",
                             os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(value + "\n")


def page_key(database: str | os.PathLike[str]) -> str:
    """The page's key (the part of its address after ``#``) for the game in `database`.

    It is kept beside the database (``<database>.page-key``, readable by its owner only),
    so the address stays the same across restarts and an open tab works again after a
    reload (issue 31 item 5); another file gets another key. A key that cannot be kept (a
    read-only folder) is a fresh one for this run."""
    import secrets

    kept = _kept(database, "page-key") or ""
    if len(kept) >= 32 and all(c.isalnum() or c in "-_" for c in kept):
        return kept
    key = secrets.token_urlsafe(32)
    _keep(database, "page-key", key)
    return key


def _port_of(url: str) -> int:
    from urllib.parse import urlsplit

    port = urlsplit(url).port
    assert port is not None
    return port


def last_port(database: str | os.PathLike[str]) -> int | None:
    """The page's port at the last start on `database` (``<database>.page-port``), or
    None when none is known."""
    kept = _kept(database, "page-port") or ""
    return int(kept) if kept.isdigit() and 0 < int(kept) <= 65535 else None


async def _serve_page(env: Any, channel: Any, humans: Sequence[Any],
                      database: str | os.PathLike[str], port: int) -> Any:
    """SimCord's page of #tractor, serving (entered): on `port`, or for ``0`` on the port
    of last time when it is free, else on any free port (issue 38 item 8: a tab still open
    from last time then works again after a reload). Its key is `page_key`; the port it
    took is kept for the next start (`last_port`)."""
    from simcord import SetupError

    last = last_port(database) if port == 0 else None
    for candidate in ([last] if last else []) + [port]:
        preview = env.preview(channel, viewers=list(humans), layout="channel",
                              port=candidate, width=1100, height=860)
        preview.capability = page_key(database)  # the same address after a restart
        _steady_pictures(preview)  # before it starts serving: issue 31 item 2
        try:
            await preview.__aenter__()
        except SetupError as error:
            if candidate == port or "could not bind port" not in str(error):
                raise
            continue  # taken since: any free port
        _keep(database, "page-port", str(_port_of(preview.url)))
        return preview
    raise AssertionError("unreachable: the last candidate raises or serves")


@contextlib.asynccontextmanager
async def local_session(
    database: str | os.PathLike[str] = DEFAULT_DATABASE,
    *,
    players: int = 1,
    shape: Shape = TEAMS,
    port: int = 0,
    config: Config | None = None,
    seat: bool = True,
    rules: Mapping[str, Any] | None = None,
) -> AsyncIterator[LocalSession]:
    """Run local play: the bot in a simulated "Tractor Club", served on ``127.0.0.1:port``.

    `players` people sit at a table of `shape` (computer players in the other seats),
    with the house `rules` (``/tractor new``'s parameters: `house_rules`).
    `config` holds the bot's settings (the environment's by default; its token and
    database are not used). With `seat`, the table is opened and started (or the
    unfinished one re-posted, with the shape it was saved with). On exit the page, the
    simulated Discord and the bot (its database included) are shut down, in that order."""
    import discord
    import simcord

    from bot import create_bot

    if not 1 <= players <= 4:
        raise ValueError("players must be between 1 and 4")
    Shape.chosen(shape.mode, shape.seats, shape.decks or None)  # ValueError if no table
    base = config if config is not None else Config.from_env(require_token=False)
    database = Path(database)
    database.parent.mkdir(parents=True, exist_ok=True)
    bot = create_bot(database, config=base.with_changes(
        token=None, dev_guild_id=None, sync_commands=True, hands_by_dm=False,
        start_delay=max(base.start_delay, LOCAL_FIRST_DEAL)))
    env = simcord.Env(bot, settle_timeout=_SETTLE, check_errors=False)
    # The world exists before the bot logs in, as on Discord, and is built in the same
    # order every time, so its ids (and the game saved in the database) carry over.
    guild = env.create_guild(GUILD_NAME)
    channel = guild.create_text_channel(CHANNEL_NAME, topic="Tractor (升级) — local play")
    humans = tuple(
        guild.add_member(env.create_user(username, global_name=display))
        for username, display in _player_names(players)
    )
    # The people at this computer run the server, as its owner would (Manage Server: the
    # public messages' language, the server's defaults). The role is made after them, so
    # the ids of the world, and the games saved with it, stay as they were.
    host = guild.create_role("Host", permissions=discord.Permissions(manage_guild=True))
    for human in humans:
        env.backend.add_member_role(guild.id, human.id, host.id)
    env.backend.bot_user.name = BOT_NAME
    # SimCord's clock starts at 2026-01-01; it is set to the wall clock before the bot logs
    # in, so the deadlines of a restored game and the page's timestamps are real ones.
    env.backend.advance_clock(max(0.0, (datetime.now(UTC) - env.now()).total_seconds()))
    started = False
    try:
        await env.start()
        started = True
        with env.time_context():
            last = last_port(database)
            preview = await _serve_page(env, channel, humans, database, port)
            try:
                session = LocalSession(env, bot, guild, channel, humans, database, preview,
                                       last_port=last)
                _PageActions(session)
                if seat:
                    saved = await _stored_table(session)
                    session.resumed = saved is not None
                    if saved is None:
                        await _seat_table(session, shape, rules)
                        saved = await _stored_table(session)
                    if saved is not None:
                        session.shape = saved.shape
                async with session.lock:
                    await session._advance(bot.config.edit_interval)  # edits are coalesced
                if session.resumed and channel.last_message is None:
                    await _command(session, humans[0], "tractor table")  # post it again
                pump = _Pump(session)
                await pump.tick()  # also points the page at the newest message, the table
                pumping = asyncio.ensure_future(pump.run())
                try:
                    yield session
                finally:
                    pumping.cancel()
                    await asyncio.gather(pumping, return_exceptions=True)
                    await session.idle()  # the bot finishes what it was doing
            finally:
                await preview.__aexit__(None, None, None)
    finally:
        try:
            if started:
                await env.shutdown()
        finally:
            await bot.close()


# ---------------------------------------------------------------------------- command line


def _open_browser(url: str) -> None:
    """Open `url` in a graphical browser when there is one; never block, never fail.

    On Linux without a display, `webbrowser` would fall back to a text browser in this
    very terminal, so it is not asked at all."""
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return

    def open_it() -> None:
        with contextlib.suppress(Exception):
            webbrowser.open(url, new=2)

    threading.Thread(target=open_it, name="open-browser", daemon=True).start()


def _announce(session: LocalSession, out: IO[str], *, ignored: Sequence[str] = ()) -> None:
    """Print who plays, whether the saved game was resumed, and the page's address (on a
    line of its own). `ignored`: the options a resumed game did not follow, as typed
    (``--players 2``)."""
    computers = session.shape.seats - len(session.humans)
    people = ", ".join(display for _, display in _player_names(len(session.humans)))
    state = (f"the saved game was resumed from {session.database}" if session.resumed
             else "the first hand is being dealt")
    print(
        f"Tractor local play: {GUILD_NAME} #{CHANNEL_NAME} — {people} and {computers} "
        f"computer player{'s' if computers != 1 else ''}{session.shape.describe()}; "
        f"{state}.",
        file=out,
    )
    if session.resumed and ignored:
        options = (ignored[0] if len(ignored) == 1
                   else f"{', '.join(ignored[:-1])} and {ignored[-1]}")
        print(
            f"{options} {'was' if len(ignored) == 1 else 'were'} ignored: a resumed game "
            "keeps its seats and rules. To start afresh, end this game with /tractor end in the "
            "page and start again, or play in another file with --database PATH.",
            file=out,
        )
    if session.resumed and session.last_port == session.port:
        print("The page's address is the one of last time: reload a tab still open.",
              file=out)
    elif session.resumed and session.last_port is not None:
        print(f"The page's address changed since last time (port {session.last_port} → "
              f"{session.port}): a tab still open from then no longer reaches the game; "
              "open the address below.", file=out)
    print("Open this page to play (press Ctrl-C here to stop):", file=out)
    print(session.url, file=out)
    out.flush()


async def serve(
    database: str | os.PathLike[str],
    *,
    players: int,
    port: int,
    config: Config,
    shape: Shape = TEAMS,
    open_browser: bool = True,
    out: IO[str] = sys.stdout,
    ignored: Sequence[str] = (),
    rules: Mapping[str, Any] | None = None,
) -> int:
    """Run local play until Ctrl-C, SIGTERM or "End session"; returns the exit status.
    `ignored`: see `_announce`."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    starting = asyncio.current_task()

    def on_signal() -> None:
        if starting is not None and not stop.is_set() and starting.cancelling() == 0:
            if up:
                stop.set()
            else:  # still starting: abandon it (the session cleans up after itself)
                starting.cancel()

    up = False
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, on_signal)
    try:
        async with local_session(database, players=players, shape=shape, port=port,
                                 config=config, rules=rules) as session:
            up = True
            _announce(session, out, ignored=ignored)
            if open_browser:
                _open_browser(session.url)
            stopped = asyncio.ensure_future(stop.wait())
            closed = asyncio.ensure_future(session.wait_closed())
            await asyncio.wait({stopped, closed}, return_when=asyncio.FIRST_COMPLETED)
            for waiter in (stopped, closed):
                waiter.cancel()
            print("Stopping local play…", file=out, flush=True)
    except asyncio.CancelledError:
        if up:
            raise
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)
    print(f"Stopped. The game is saved in {database}.", file=out, flush=True)
    return 0


async def saved_table(database: str | os.PathLike[str]) -> SavedTable | None:
    """Check the database as Discord mode does before it connects (open, create, migrate,
    check: `bot.storage.StorageError` or `OSError` when it cannot be used) and return the
    people and the shape of the unfinished table saved in it, or None when there is none."""
    from bot.storage import open_store

    store = await open_store(database)
    try:
        tables = await store.active_tables()
    finally:
        await store.close()
    return _saved(tables[-1].doc) if tables else None


async def saved_people(database: str | os.PathLike[str]) -> int | None:
    """How many people sit at the unfinished table saved in `database` (`saved_table`)."""
    saved = await saved_table(database)
    return None if saved is None else saved.people


def _ignored(args: argparse.Namespace, saved: SavedTable, requested: Shape) -> list[str]:
    """The options, as typed, that a resumed game `saved` does not follow."""
    ignored = []
    if args.players is not None and args.players != saved.people:
        ignored.append(f"--players {args.players}")
    if requested != saved.shape:
        ignored += [f"--{name} {value}" for name in ("mode", "seats", "decks")
                    if (value := getattr(args, name, None)) is not None]
    ignored += [f"--rule {rule}" for rule in getattr(args, "rule", None) or ()]
    return ignored


def house_rules(given: Sequence[str] | None) -> dict[str, Any]:
    """``--rule NAME=VALUE`` options as ``/tractor new``'s parameters (the options
    registry reads them, `bot.core.options.house_rule`); `ValueError`, one line, for a
    rule or value it does not know."""
    from bot.core.options import house_rule

    rules: dict[str, Any] = {}
    for text in given or ():
        option, value = house_rule(text)
        assert option.command is not None
        rules[option.command] = value
    return rules


def _simcord_missing() -> str | None:
    """The line to print when SimCord (the ``local`` extra) is not installed, else None."""
    try:
        import simcord  # noqa: F401
    except ImportError:
        return (
            "local play needs SimCord, which is not installed here: run make play, or "
            "pip install -e '.[local]' in the checkout (or set DISCORD_TOKEN to run the bot "
            "on Discord)"
        )
    return None


def main(args: argparse.Namespace | Sequence[str] | None = None) -> int:
    """Local play from the command line (``python -m bot`` without a token)."""
    if not isinstance(args, argparse.Namespace):
        args = build_parser().parse_args(args)
    requested: int | None = args.players
    port: int = args.port
    if requested is not None and not 1 <= requested <= 4:
        return fail(EXIT_CONFIG, "--players must be between 1 and 4")
    try:
        shape = Shape.chosen(getattr(args, "mode", None), getattr(args, "seats", None),
                             getattr(args, "decks", None))
    except ValueError as error:
        return fail(EXIT_CONFIG, str(error))
    try:
        rules = house_rules(getattr(args, "rule", None))
    except ValueError as error:
        return fail(EXIT_CONFIG, str(error))
    if not 0 <= port <= 65535:
        return fail(EXIT_CONFIG, "--port must be between 0 and 65535")
    try:
        config = Config.from_env(require_token=False)
    except ConfigError as error:
        return fail(EXIT_CONFIG, str(error))
    missing = _simcord_missing()
    if missing is not None:
        return fail(EXIT_CONFIG, missing)
    from bot.runtime.logging import setup_logging

    setup_logging(config.log_level)
    if config.log_level != "DEBUG":  # the simulated Discord's own notices (voice, intents)
        logging.getLogger("discord").setLevel(logging.ERROR)
    database = args.database or DEFAULT_DATABASE
    from bot.runtime.dblock import DatabaseInUse, hold

    try:
        hold(database)  # one process per file, before anything reads it (issue 31 item 4)
    except DatabaseInUse as error:
        return fail(EXIT_CONFIG, str(error))
    try:
        saved = asyncio.run(saved_table(database))
    except Exception as error:
        failure = startup_failure(error, database=database)
        if failure is None:
            raise
        return fail(*failure)
    players = saved.people if saved is not None else requested or 1
    ignored = _ignored(args, saved, shape) if saved is not None else []
    try:
        return asyncio.run(
            serve(database, players=players, port=port, config=config,
                  shape=shape if saved is None else saved.shape,
                  open_browser=not args.no_browser, ignored=ignored, rules=rules)
        )
    except KeyboardInterrupt:  # a second Ctrl-C while shutting down
        return 130
    except Exception as error:
        from simcord import SetupError

        from bot.storage import StorageError

        if isinstance(error, SetupError) and "could not bind port" in str(error):
            return fail(EXIT_CONFIG, f"port {port} is in use; pick another with --port "
                                     "(make play ARGS=\"--port 0\" takes any free one)")
        if isinstance(error, StorageError):
            return fail(EXIT_CONFIG, str(error))
        raise
