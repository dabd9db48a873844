"""Local play (bot/app/local.py) and the entry point the Docker image runs.

- One full hand of local play, headless: the real bot in SimCord's simulated Discord, its
  page served on a free loopback port, "you" playing through the bot's own commands and
  panels against three computer players, then a clean shutdown.
- ``python -m bot`` without a token, as ``make play`` runs it: the URL line, an HTTP GET of
  it, and a clean stop on SIGTERM and on Ctrl-C; a saved game resumed with its own seats
  (``--players`` then ignored, and said so).
- Start-up failures of local play: a corrupt database or a folder it cannot write is one
  line and exit status 2, never a traceback.
- ``tractor-bot`` (the console script the Dockerfile runs): ``--help``, and one clear line
  with exit status 2 for a malformed or (with ``LOCAL_PLAY=off``) missing token."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.request
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.app.local import (
    TEAMS,
    LocalSession,
    SavedTable,
    Shape,
    _announce,
    house_rules,
    local_session,
    saved_people,
    saved_table,
)
from bot.core.table import TableDoc, seats_to_act
from bot.runtime.config import Config, local_play_wanted
from engine.game import Match, Phase

ROOT = Path(__file__).resolve().parents[1]
URL_LINE = re.compile(r"^http://127\.0\.0\.1:(\d+)/\S*$")
# Looks like a token to a human, not to the validator (the middle part is too short).
BAD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.abc.defghijklmnopqrstuvwxyz0123"


def http_get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode("utf-8", "replace")


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment for a child process: no token or settings from this machine."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL",
                       "BOT_ACTION_DELAY", "TRACTOR_COMPUTER", "TRACTOR_DEBUG_START_LEVEL",
                       "LOCAL_PLAY", "DISPLAY", "WAYLAND_DISPLAY"}
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def empty_env_file(tmp_path: Path) -> str:
    """An empty .env, so the child never reads the repository's own .env."""
    path = tmp_path / "empty.env"
    path.write_text("")
    return str(path)


# --------------------------------------------------------------------- one hand, headless

# No pauses, so the hand takes seconds; the greedy computer player is the quick one.
FAST = Config(action_delay=0.0, edit_interval=0.0, hand_pause=0.0, computer_player="greedy",
              seed=7)


def control(components: list[dict[str, Any]], verb: str) -> dict[str, Any] | None:
    """The button or select of a message (raw component payloads) with this custom id verb
    (the bot's ids read ``tr:table:hand:step:verb[:arg]``)."""
    for component in components:
        found = control(component.get("components") or [], verb)
        if found is not None:
            return found
        parts = str(component.get("custom_id") or "").split(":")
        if len(parts) >= 5 and parts[4] == verb:
            return component
    return None


class Page:
    """The page's HTTP API, as the browser uses it (SimCord preview protocol 3)."""

    def __init__(self, session: LocalSession) -> None:
        self.url = session.url
        self.origin, self.key = self.url.split("/#", 1)
        self.context = ""
        self.sequence = 0

    def request(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"X-Simcord-Capability": self.key, "Content-Type": "application/json"}
        if self.context:
            headers["X-Simcord-Context"] = self.context
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.origin + path, data, headers, method=method)
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    async def open(self) -> dict[str, Any]:
        state = await asyncio.to_thread(self.request, "POST", "/api/pages", {})
        self.context = state["context"]["id"]
        self.sequence = 0  # a new page numbers its actions afresh
        return state

    async def state(self) -> dict[str, Any]:
        return await asyncio.to_thread(self.request, "GET", "/api/state")

    async def action(self, state: dict[str, Any], kind: str, **fields: Any) -> dict[str, Any]:
        """Send one page action made on the publication `state`."""
        self.sequence += 1
        body = {
            "protocol_version": 3, "sequence": self.sequence, "request_id": str(uuid.uuid4()),
            "generation": state["context"]["generation"], "bot_generation": state["botGeneration"],
            "published_revision": state["publishedRevision"], "kind": kind, **fields,
        }
        return await asyncio.to_thread(self.request, "POST", "/api/action", body)

    async def click(self, state: dict[str, Any], message_id: str, label: str) -> dict[str, Any]:
        """Press a button as the page does, on the publication `state` that shows it."""
        message = state["messages"][message_id]
        button = next(c for row in message["components"] for c in row["components"]
                      if c.get("label") == label)
        return await self.action(state, "click", target_id=message_id,
                                 control_key=button["control_key"])

    async def command(self, state: dict[str, Any], invocation: str, *,
                      focused: str | None = None) -> dict[str, Any]:
        """Type ``/invocation`` in the message box (with `focused`: ask for its choices)."""
        catalog = await asyncio.to_thread(self.request, "GET", "/api/commands")
        entry = next(e for e in catalog["entries"] if e["invocation"] == invocation)
        fields = {"command_id": entry["commandId"], "path": entry["path"],
                  "schema_fingerprint": entry["schemaFingerprint"], "options": {}}
        if focused is None:
            return await self.action(state, "run_command", **fields)
        return await self.action(state, "autocomplete_command", focused=focused, value="",
                                 **fields)


def table_message_id(state: dict[str, Any]) -> str:
    """The newest table message (My hand and Last trick: a turn ping has My hand only)."""
    def labels(mid: str) -> set[str]:
        return {str(c.get("label")) for row in state["messages"][mid]["components"]
                for c in row.get("components", [])}
    return next(mid for mid in reversed(list(state["messages"]))
                if {"My hand", "Last trick"} <= labels(mid))


async def oracle(session: LocalSession) -> tuple[TableDoc, Match]:
    """The stored table: whose turn it is (the test reads it; it acts only through Discord)."""
    stored = await session.bot.store.table_in_channel(session.channel.id)
    assert stored is not None
    doc = TableDoc.from_dict(stored.doc)
    match = doc.get_match()
    assert match is not None
    return doc, match


async def dealt(session: LocalSession, page: Page) -> dict[str, Any]:
    """Open the page: the first hand is dealt then (issue 12 item 6: the deal waits for
    the page), and the page's state once it is."""
    _, match = await oracle(session)
    assert match.hand_no == 0  # not dealt while nobody looks
    await page.open()
    for _ in range(200):
        _, match = await oracle(session)
        if match.hand_no == 1:
            break
        await asyncio.sleep(0.05)  # the pump notices the page
    assert match.hand_no == 1
    await settled(session)
    return await page.open()


async def settled(session: LocalSession) -> None:
    """Wait until the bot sends nothing more to Discord (the computers' answers and the
    table's coalesced edit included), so a page opened now shows the current controls."""
    sent = -1
    while sent != len(session.env.http_requests):
        sent = len(session.env.http_requests)
        await session.idle()


async def decide(session: LocalSession) -> None:
    """One decision of the local player, through the table's ``My hand`` ephemeral panel."""
    you = session.humans[0]
    table = next(m for m in reversed(session.channel.history()) if any(
        getattr(item, "custom_id", "").endswith(":myhand")
        for row in m.components for item in getattr(row, "children", [])))
    myhand = next(item.custom_id for row in table.components for item in row.children
                  if item.custom_id.endswith(":myhand"))
    opened = await session.act(lambda: you.click(table, custom_id=myhand))
    panel = opened.response
    assert panel is not None and panel.ephemeral, "My hand answers with an ephemeral panel"
    _, match = await oracle(session)

    async def press(verb: str) -> None:
        button = control(panel.components, verb)
        assert button is not None and not button.get("disabled"), (verb, panel.content)
        result = await session.act(lambda: you.click(panel, custom_id=button["custom_id"]))
        for message in [result.response, *result.followups]:
            text = message.content if message is not None else ""
            assert "moved on" not in text and "went wrong" not in text, text

    if match.phase is Phase.DECLARING:
        await press("pass")
    elif match.phase is Phase.BURYING:
        await press("suggest")
        await press("bury")
    else:
        quick = control(panel.components, "quick")
        assert quick is not None, panel.content
        best = quick["options"][0]["value"]  # the recommended play comes first
        await session.act(lambda: you.select(panel, [best], custom_id=quick["custom_id"]))
        await press("play")


async def test_local_play_one_full_hand_headless(tmp_path: Path) -> None:
    """Local play as `make play` runs it, minus the browser: the URL line, the page over
    HTTP, one whole hand by the local player against three computers, a clean stop."""
    database = tmp_path / "data" / "local.sqlite3"
    printed = io.StringIO()
    started = time.monotonic()
    async with local_session(database, players=1, port=0, config=FAST) as session:
        _announce(session, printed)
        lines = printed.getvalue().splitlines()
        urls = [line for line in lines if URL_LINE.match(line)]
        assert urls == [session.url], lines
        url = urls[0]
        status, body = await asyncio.to_thread(http_get, url)
        assert status == 200 and "<html" in body.lower()

        # The page's own actions: "My hand" pressed over HTTP answers with the panel...
        page = Page(session)
        state = await dealt(session, page)
        for _ in range(5):  # a publication a moment older than the bot's last edit of the
            table = table_message_id(state)  # table: the next one is clicked, as in a browser
            receipt = await page.click(state, table, "My hand")
            if not receipt["rejected"]:
                break
            await settled(session)
            state = await page.open()  # the page as it is now, as a browser reloads it
        assert not receipt["rejected"] and receipt["settlement"] == "settled", (
            json.dumps(receipt["diagnostics"]), receipt["revision"], state["publishedRevision"])
        # ...and still does from a publication older than the latest, since the table
        # message (its buttons) did not change: SimCord alone would refuse it as stale.
        await session.act(session.preview.refresh)
        receipt = await page.click(state, table, "My hand")
        assert not receipt["rejected"] and receipt["settlement"] == "settled", receipt
        # The message box works the same way: a command, and the choices offered as the
        # cards are typed (the legal declarations now), from that older publication too.
        receipt = await page.command(state, "tractor help")
        assert not receipt["rejected"] and receipt["settlement"] == "settled", receipt
        receipt = await page.command(state, "tractor declare", focused="cards")
        assert receipt["settlement"] == "settled" and receipt["result"]["answered"], receipt
        # A button whose message has changed since is still refused (the bot re-posts
        # the table message; the old one loses its buttons).
        you = session.humans[0]
        await session.act(lambda: you.slash(session.channel, "tractor table"))
        await session.idle()
        receipt = await page.click(state, table, "My hand")
        assert receipt["rejected"], receipt

        # One whole hand: the local player decides through the panel whenever it is
        # their turn; the computer players and the timers run on their own.
        doc, match = await oracle(session)
        seat = doc.seat_of(you.id)
        assert seat is not None and doc.humans == [seat]  # and three computers
        played = 0  # cards the local player played through the panel
        while match.hand_no == 1 and match.phase not in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
            assert time.monotonic() - started < 300, f"the hand is stuck: {match.phase}"
            if seat not in seats_to_act(match):
                await asyncio.sleep(0.05)  # the computers (and the timers) are at it
            else:
                playing = match.phase is Phase.PLAYING
                before = len(match.view_for(seat).hand)
                await decide(session)
                doc, match = await oracle(session)
                if playing:
                    played += before - (len(match.view_for(seat).hand) if match.hand_no == 1
                                        and match.phase is Phase.PLAYING else 0)
            doc, match = await oracle(session)
        assert played == 25  # every card of the hand, none by a timer
        records = await session.bot.store.match_hands(doc.match_key or "")
        assert [h.hand_no for h in records if h.result_side] == [1]

        # The page shows the hand's end (the pump republishes what the bot posts).
        await session.idle()
        await asyncio.sleep(0.3)
        shown = await page.state()
        texts = [m["content"] for m in shown["messages"].values()]
        assert any("Hand 1 is over" in text for text in texts), texts[-3:]
        # A page opened now (a reload, a second tab) starts at the newest message.
        late = await Page(session).open()
        assert late["targetId"] == str(session.channel.last_message.id)
        assert not session.env.errors, session.env.errors
    # Stopped: the page is gone and the database closed (no WAL left behind).
    with pytest.raises(OSError):
        http_get(url)
    assert not Path(f"{database}-wal").exists()
    assert time.monotonic() - started < 300  # a hang detector, not a speed test


async def test_two_local_people_are_partners_and_both_view_the_page(tmp_path: Path) -> None:
    async with local_session(tmp_path / "local.sqlite3", players=2, port=0, config=FAST) as s:
        doc, _ = await oracle(s)
        assert [doc.seat_of(member.id) for member in s.humans] == [0, 2]  # seats 1 and 3
        state = await Page(s).open()
        assert {viewer["id"] for viewer in state["viewers"]} == {str(m.id) for m in s.humans}


async def shown(page: Page, words: str, *, tries: int = 600) -> dict[str, Any]:
    """The page's state once one of its messages starts with `words` (the pump
    republishes what the bot posts, in real time); fails after `tries` polls."""
    for _ in range(tries):
        state = await page.state()
        if any(m["content"].startswith(words) for m in state["messages"].values()):
            return state
        await asyncio.sleep(0.05)
    texts = [m["content"][:40] for m in state["messages"].values()]
    raise AssertionError(f"the page never showed {words!r}: {texts}")


async def test_two_local_people_see_the_deal_and_the_table_again(tmp_path: Path) -> None:
    """Issue 31 item 1: with two people at the table (and the table's edits coalesced, as
    by default), opening the page deals the hand and the channel shows it; /tractor table
    then posts the table again below. Before, the first person's Ready began a coalesced
    edit outside the bot's scope whose pause never ended: the channel stayed at Hand 0."""
    paced = FAST.with_changes(edit_interval=0.3)
    async with local_session(tmp_path / "local.sqlite3", players=2, port=0,
                             config=paced) as session:
        page = Page(session)
        opened = await page.open()
        assert not any(m["content"].startswith("**Hand 1**")
                       for m in opened["messages"].values())
        state = await shown(page, "**Hand 1**")
        tables = [mid for mid, m in state["messages"].items()
                  if m["content"].startswith("**Hand 1**")]
        receipt = await page.command(state, "tractor table")
        assert not receipt["rejected"], receipt
        for _ in range(600):
            state = await page.state()
            again = [mid for mid, m in state["messages"].items()
                     if m["content"].startswith("**Hand 1**")]
            if again and again[-1] not in tables:
                break
            await asyncio.sleep(0.05)
        assert again and again[-1] not in tables, "the table was not posted again"
        assert not session.env.errors, session.env.errors


async def test_the_page_address_of_a_saved_game_survives_a_restart(tmp_path: Path) -> None:
    """Issue 31 item 5: the key after ``#`` is the same at every start on one database
    (kept beside it, for its owner only), so a tab opened before a restart works after a
    reload; another database has another key."""
    database = tmp_path / "data" / "local.sqlite3"
    async with local_session(database, port=0, config=FAST) as session:
        before = session.url.split("#", 1)[1]
    key_file = Path(f"{database}.page-key")
    assert key_file.stat().st_mode & 0o777 == 0o600
    async with local_session(database, port=0, config=FAST) as session:
        assert session.url.split("#", 1)[1] == before
        old_tab = Page(session)
        old_tab.key = before  # the address the browser kept
        state = await old_tab.open()  # a reload of the old tab
        assert state["messages"], state
    async with local_session(tmp_path / "other.sqlite3", port=0, config=FAST) as session:
        assert session.url.split("#", 1)[1] != before


async def test_a_restart_on_any_port_keeps_the_port_of_last_time_or_says_it_changed(
        tmp_path: Path) -> None:
    """Issue 38 item 8: with ``--port 0`` a restart takes the page's port of last time when
    it is free, so the address printed (and a tab still open) is the one of last time, as
    the start line says; when that port is taken, the start line says the address changed
    instead of claiming it is the same."""
    import socket

    database = tmp_path / "local.sqlite3"
    async with local_session(database, port=0, config=FAST) as session:
        first = session.url
    said = io.StringIO()
    async with local_session(database, port=0, config=FAST) as session:
        _announce(session, said)
        assert session.resumed and session.url == first
    assert "the one of last time" in said.getvalue(), said.getvalue()
    port = int(URL_LINE.match(first).group(1))  # type: ignore[union-attr]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        said = io.StringIO()
        async with local_session(database, port=0, config=FAST) as session:
            _announce(session, said)
            assert session.resumed and session.url != first
            now = session.port
    lines = said.getvalue()
    assert "the one of last time" not in lines, lines
    assert f"changed since last time (port {port} → {now})" in lines, lines


async def test_local_people_run_the_server_and_are_not_sent_to_dms(tmp_path: Path) -> None:
    """Issue 31 item 8, local play: nothing in the channel tells the local people their
    hand is in their DMs (the page has none), and they may switch the public messages'
    language (Manage Server, as the server's owner would); the world's ids, which the
    saved games are found by, are those of before."""
    async with local_session(tmp_path / "local.sqlite3", players=2, port=0,
                             config=FAST) as session:
        assert session.channel.id == 1456074443980800005
        assert [m.id for m in session.humans] == [1456074443980800006, 1456074443980800007]
        page = Page(session)
        await page.open()
        state = await shown(page, "**Hand 1**")
        texts = [m["content"] for m in state["messages"].values()]
        assert any("**My hand**" in text for text in texts), texts
        assert not any("DM" in text for text in texts), texts
        for member in session.humans:
            result = await session.act(lambda m=member: m.slash(
                session.channel, "tractor settings", server_language="zh_Hans"))
            replies = [m.content for m in [result.response, *result.followups] if m is not None]
            assert not any("Manage Server" in reply for reply in replies), replies
        settings = await session.bot.store.guild_settings(session.guild.id)
        assert settings.language == "zh_Hans"


async def test_local_play_runs_in_real_time(tmp_path: Path) -> None:
    """With the computers' pauses on, the simulated clock follows the wall clock and the
    page is republished as the computer players move, with nobody clicking."""
    paced = FAST.with_changes(action_delay=0.5, edit_interval=0.5)
    async with local_session(tmp_path / "local.sqlite3", port=0, config=paced) as session:
        page = Page(session)
        first = (await page.open())["publishedRevision"]
        await asyncio.sleep(2.5)  # the three computers declare or pass in the first batches
        assert (await page.state())["publishedRevision"] > first
        lag = (datetime.now(UTC) - session.env.now()).total_seconds()
        assert abs(lag) < 0.5, lag
        assert not session.env.errors, session.env.errors


async def test_the_page_keeps_loading_pictures_at_their_size(tmp_path: Path) -> None:
    """Issue 31 item 2: the page's stylesheet is SimCord's with `PAGE_STYLE` after it, so a
    picture drawn again (every message is, when a select opens) keeps its size while it
    loads; its other files are served as they were, with the same headers."""
    import simcord.preview

    from bot.app.local import PAGE_SCRIPT, PAGE_STYLE

    static = Path(simcord.preview.__file__).with_name("static")
    async with local_session(tmp_path / "local.sqlite3", port=0, config=FAST,
                             seat=False) as session:
        origin = session.url.split("/#", 1)[0]

        def get(path: str) -> tuple[str, Any]:
            with urllib.request.urlopen(origin + path, timeout=10) as response:
                return response.read().decode(), response.headers

        css, headers = await asyncio.to_thread(get, "/preview.css")
        script, _ = await asyncio.to_thread(get, "/select-drafts.js")
        app, app_headers = await asyncio.to_thread(get, "/app.js")
    assert app == (static / "app.js").read_text(encoding="utf-8") + PAGE_SCRIPT
    assert app_headers["Content-Type"].startswith("application/javascript")
    assert "script-src 'self'" in app_headers["Content-Security-Policy"]
    assert css == (static / "preview.css").read_text(encoding="utf-8") + PAGE_STYLE
    assert "width: revert-layer" in PAGE_STYLE
    assert headers["Content-Type"].startswith("text/css")
    assert "style-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Cache-Control"] == "no-store"
    assert script == (static / "select-drafts.js").read_text(encoding="utf-8")


async def test_a_select_of_the_hand_panel_stays_open_in_a_browser(tmp_path: Path) -> None:
    """Issue 31 item 2 in a real browser (tools/page_dropdown.py): at 1280×800 and 390×844
    the first select of the hand panel opens and stays open."""
    from tools.page_dropdown import browser_missing, check

    missing = browser_missing()
    if missing is not None:
        pytest.skip(f"a browser test: {missing}")
    async with local_session(tmp_path / "local.sqlite3", port=0, config=FAST) as session:
        results = await check(session.url)
    assert all(result.stayed_open for result in results), [r.line() for r in results]


async def computer_moves(session: LocalSession) -> int:
    """The cards the computer players have played in the current hand, as the table has
    them (a count the page test waits on, instead of the clock)."""
    _, match = await oracle(session)
    hand = match.hand
    return 0 if hand is None else sum(1 for seat, _ in hand.played if seat != 0)


async def test_the_page_holds_still_while_the_computers_play(tmp_path: Path) -> None:
    """Issue 38 items 1 and 2 in a real browser (tools/page_dropdown.py), at 360 px wide as on a
    phone and at 1280, watched every frame over nine computer moves each: while the computers
    play (each move edits the table message and the panel: lines of text come and go, new
    pictures; with ``TURN_PING_IDLE`` 0 each turn's ping comes below the panel and goes once
    the seat has played), the hand panel's first select does not move; no picture is ever blank
    or gone (the one drawn before stays until the new one is decoded, and a message keeps its
    picture when the page fetches a publication the bot has moved past); no picture's box
    changes when its file arrives (each has its size from its first frame); the page is laid
    out at the window's width; and on a touch screen the pictures' download button is not drawn
    over their corner (the score, the card count)."""
    from tools.page_dropdown import CHROMIUM, browser_missing, corner_free, watch

    missing = browser_missing()
    if missing is not None:
        pytest.skip(f"a browser test: {missing}")
    from playwright.async_api import async_playwright

    paced = FAST.with_changes(action_delay=0.3, edit_interval=0.3, turn_ping_idle=0.0)
    async with local_session(tmp_path / "local.sqlite3", port=0, config=paced) as session, \
            async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM,
                                               args=["--no-sandbox"])
        try:
            watched = [await watch(browser, session.url, width, height,
                                   lambda: computer_moves(session))
                       for width, height in ((360, 740), (1280, 800))]
            corner = await corner_free(browser, session.url)
        finally:
            await browser.close()
    print(*(result.line() for result in watched), sep="\n")  # the figures, with pytest -s
    for result in watched:
        assert result.moves >= 9 and result.frames > 0, result.line()
        assert result.still, result.line()
    assert corner, "the download button covers the picture's corner on a phone"


# ------------------------------------------------------------------------- entry points


def test_local_play_is_wanted_exactly_without_a_token() -> None:
    assert local_play_wanted({})
    assert local_play_wanted({"DISCORD_TOKEN": "  "})
    assert not local_play_wanted({"DISCORD_TOKEN": BAD_TOKEN})
    assert not local_play_wanted({"LOCAL_PLAY": "off"})


def test_console_script_is_the_bot_main() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["tractor-bot"] == "bot.__main__:main"


def tractor_bot() -> list[str]:
    """The installed console script (``make test`` installs the project)."""
    script = Path(sysconfig.get_path("scripts")) / "tractor-bot"
    if not script.exists():
        pytest.skip("the tractor-bot console script is not installed (make test installs it)")
    return [str(script)]


def test_tractor_bot_help(tmp_path: Path) -> None:
    done = subprocess.run(
        [*tractor_bot(), "--help"], capture_output=True, text=True, timeout=60,
        env=clean_env(tmp_path), cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: tractor-bot ")
    for option in ("--players", "--port", "--database", "--no-browser", "--local", "--env-file",
                   "--mode", "--seats", "--decks", "--rule"):
        assert option in done.stdout
    from bot.core.options import HOUSE_RULES

    for name in HOUSE_RULES:  # every house rule, from the options registry
        assert f"  {name}: " in done.stdout, name
    assert "DISCORD_TOKEN" in done.stdout


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"DISCORD_TOKEN": BAD_TOKEN}, "DISCORD_TOKEN does not look like a bot token"),
        ({"LOCAL_PLAY": "off"}, "DISCORD_TOKEN is not set"),
    ],
    ids=["malformed-token", "docker-without-token"],
)
def test_tractor_bot_token_errors_are_one_line(
    tmp_path: Path, extra: dict[str, str], expected: str
) -> None:
    done = subprocess.run(
        [*tractor_bot(), "--env-file", empty_env_file(tmp_path)],
        capture_output=True, text=True, timeout=60, env=clean_env(tmp_path, **extra),
        cwd=tmp_path,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert expected in lines[0]
    assert "Traceback" not in done.stderr
    assert BAD_TOKEN not in done.stderr + done.stdout


def run_local_play(cwd: Path, *options: str, prefix: tuple[str, ...] = (),
                   timeout: float = 60, **extra: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot --local --no-browser --port 0 …`` run to its end in `cwd`."""
    env_file = cwd.parent / "empty.env"
    env_file.write_text("")
    return subprocess.run(
        [*prefix, sys.executable, "-m", "bot", "--local", "--no-browser", "--port", "0",
         "--env-file", str(env_file), *options],
        capture_output=True, text=True, timeout=timeout, env=clean_env(cwd, **extra), cwd=cwd,
    )


def assert_one_line(done: subprocess.CompletedProcess[str], status: int, words: str) -> None:
    assert done.returncode == status, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tractor-bot: ") and words in lines[0], lines[0]
    assert "Traceback" not in done.stderr


def test_local_play_with_a_broken_database_says_so_in_one_line(tmp_path: Path) -> None:
    database = tmp_path / "local.sqlite3"
    database.write_bytes(b"not a database, just some words long enough to be read" * 4)
    assert_one_line(run_local_play(tmp_path, "--database", str(database)), 2,
                    "not an SQLite database")


@pytest.mark.parametrize("layout", ["folder", "data-folder", "saved-game"],
                         ids=["read-only-folder", "read-only-data-folder",
                              "saved-game-in-read-only-folder"])
def test_local_play_in_a_read_only_folder_is_one_line_and_status_2(
    unprivileged: Any, layout: str
) -> None:
    """``make play`` where it cannot write (issue 15): one line naming the file, exit 2,
    as for a corrupt file; never a traceback. The database is checked before the game
    starts (whether SQLite or the storage layer's own write check refuses it)."""
    folder = unprivileged.root / "game"
    folder.mkdir()
    if layout != "folder":
        (folder / "data").mkdir()
    if layout == "saved-game":
        from bot.app.client import prepare_database

        prepare_database(str(folder / "data" / "local.sqlite3"))
    if layout != "folder":
        unprivileged.read_only(folder / "data")
    unprivileged.read_only(folder)
    done = run_local_play(folder, prefix=unprivileged.prefix)
    assert_one_line(done, 2, "local.sqlite3")
    assert "Open this page" not in done.stdout


@contextlib.contextmanager
def local_play_process(tmp_path: Path, database: Path, *options: str
                       ) -> Iterator[tuple[subprocess.Popen[str], list[str], str]]:
    """``python -m bot`` without a token, as ``make play`` runs it, up to the page address:
    yields the process, the lines it printed up to the address, and the address. The
    process is killed on the way out if the test did not stop it."""
    child = subprocess.Popen(
        [sys.executable, "-m", "bot", "--no-browser", "--port", "0",
         "--database", str(database), "--env-file", empty_env_file(tmp_path), *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env=clean_env(tmp_path, BOT_ACTION_DELAY="0", LOG_LEVEL="WARNING"),
        start_new_session=True,  # its own process group, as in a terminal
    )
    try:
        assert child.stdout is not None
        printed: list[str] = []
        url = None
        while url is None:
            line = child.stdout.readline()
            if not line:
                break
            printed.append(line.rstrip("\n"))
            if URL_LINE.match(printed[-1]):
                url = printed[-1]
        assert url is not None, "\n".join(printed) + (child.stderr.read() if child.stderr else "")
        yield child, printed, url
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()


@pytest.mark.parametrize(("stop", "group"), [(signal.SIGTERM, False), (signal.SIGINT, False),
                                             (signal.SIGINT, True)],
                         ids=["SIGTERM", "Ctrl-C", "Ctrl-C-in-a-terminal"])
def test_python_m_bot_without_token_serves_local_play(
    tmp_path: Path, stop: signal.Signals, group: bool
) -> None:
    """What ``make play`` runs: it prints the URL on its own line, the URL answers, and a
    signal stops it cleanly (exit 0, the database closed). Ctrl-C in a terminal signals
    the whole process group, the picture workers included: they leave it to the bot."""
    database = tmp_path / "data" / "local.sqlite3"
    with local_play_process(tmp_path, database) as (child, _, url):
        status, body = http_get(url)
        assert status == 200
        assert "<html" in body.lower()
        if group:
            os.killpg(child.pid, stop)
        else:
            child.send_signal(stop)
        out, err = child.communicate(timeout=30)
    assert child.returncode == 0, err
    assert "Stopped." in out
    assert "Traceback" not in err, err
    assert database.exists()
    assert not Path(f"{database}-wal").exists() or Path(f"{database}-wal").stat().st_size == 0


GOOD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789"


def test_a_second_process_on_the_same_database_is_refused(tmp_path: Path) -> None:
    """Issue 31 item 4: while one ``make play`` runs on a file, a second one on it (local
    play, or the bot in Discord mode) is refused with one line and status 2 before it
    touches anything: it prints no page, and the first one carries on. Once the first
    has stopped, the file can be used again."""
    database = tmp_path / "data" / "local.sqlite3"
    with local_play_process(tmp_path, database) as (child, _, url):
        size = database.stat().st_size
        second = run_local_play(tmp_path, "--database", str(database))
        assert_one_line(second, 2, "is already in use by another tractor-bot")
        assert f"(process {child.pid})" in second.stderr
        assert "Open this page" not in second.stdout
        discord_mode = subprocess.run(
            [sys.executable, "-m", "bot", "--database", str(database), "--env-file",
             empty_env_file(tmp_path)], capture_output=True, text=True, timeout=60,
            env=clean_env(tmp_path, DISCORD_TOKEN=GOOD_TOKEN), cwd=tmp_path)
        assert_one_line(discord_mode, 2, "is already in use by another tractor-bot")
        assert database.stat().st_size == size
        assert http_get(url)[0] == 200 and child.poll() is None  # the first one plays on
        child.send_signal(signal.SIGTERM)
        child.communicate(timeout=30)
    assert child.returncode == 0
    with local_play_process(tmp_path, database) as (again, _, _):
        again.send_signal(signal.SIGTERM)
        again.communicate(timeout=30)
    assert again.returncode == 0


async def test_a_saved_game_keeps_its_seats_and_players_is_ignored(tmp_path: Path) -> None:
    """Issue 12: ``make play ARGS="--players 2"`` over a one-person save resumes the save
    with its one person, and says plainly that the option was ignored and how to start
    afresh (README, "Play"). Without a save, ``--players`` seats the new table."""
    database = tmp_path / "data" / "local.sqlite3"
    async with local_session(database, players=1, port=0, config=FAST) as session:
        you = session.humans[0].id
    assert await saved_people(database) == 1

    with local_play_process(tmp_path, database, "--players", "2", "--rule", "take_backs=true"
                            ) as (child, printed, _):
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=30)
    assert child.returncode == 0, err
    said = " ".join(printed)
    assert "— You and 3 computer players; the saved game was resumed from" in said, said
    assert ("--players 2 and --rule take_backs=true were ignored: a resumed game keeps its "
            "seats") in said, said
    assert "/tractor end" in said and "--database PATH" in said, said
    assert "address is the one of last time: reload a tab still open" in said, said

    async with local_session(database, players=1, port=0, config=FAST) as session:
        assert session.resumed and [m.id for m in session.humans] == [you]
        doc, _ = await oracle(session)
        assert doc.humans == [doc.seat_of(you)]

    fresh = tmp_path / "data" / "fresh.sqlite3"
    with local_play_process(tmp_path, fresh, "--players", "2") as (child, printed, _):
        child.send_signal(signal.SIGTERM)
        child.communicate(timeout=30)
    said = " ".join(printed)
    assert "Player 1, Player 2 and 2 computer players; the first hand is being dealt" in said
    assert "ignored" not in said
    assert await saved_people(fresh) == 2


# ------------------------------------------------------------------- Finding Friends


def fresh(session: LocalSession, panel: Any) -> Any:
    """`panel` (an ephemeral message) as it is now, after the bot edited it."""
    from simcord.results import ResponseMessage

    return ResponseMessage(session.env, session.env.backend.get_message(panel.channel_id,
                                                                        panel.id))


async def decide_friends(session: LocalSession) -> bool:
    """One decision of the local player at a Finding Friends table, through the ``My
    hand`` panel: declare a trump when nobody has, call friends with **Add** and **Call
    friends**, else as `decide`. Returns whether they called."""
    you = session.humans[0]
    _, match = await oracle(session)
    public = match.public_view()
    if public.phase is Phase.DECLARING and not public.declarations:
        table = session.channel.last_message
        assert table is not None
        opened = await session.act(lambda: you.click(table, label="My hand"))
        panel = opened.response
        assert panel is not None
        for code in "SHCDN":
            button = next((c for row in panel.components for c in row.get("components", [])
                           if str(c.get("custom_id", "")).split(":")[4:5] == ["decl"]
                           and str(c.get("custom_id", "")).endswith(f".{code}")
                           and not c.get("disabled")), None)
            if button is not None:
                await session.act(lambda b=button: you.click(panel, custom_id=b["custom_id"]))
                return False
    if public.phase is not Phase.CALLING:
        await decide(session)
        return False
    table = session.channel.last_message
    assert table is not None
    panel = (await session.act(lambda: you.click(table, label="My hand"))).response
    assert panel is not None and panel.ephemeral
    for _ in range(len(public.friend_calls), match.shape.friends):
        add = control(panel.components, "fadd")
        assert add is not None and not add.get("disabled"), panel.content
        await session.act(lambda a=add, p=panel: you.click(p, custom_id=a["custom_id"]))
        panel = fresh(session, panel)
    call = control(panel.components, "fcall")
    assert call is not None and not call.get("disabled"), panel.content
    await session.act(lambda: you.click(panel, custom_id=call["custom_id"]))
    return True


async def test_local_finding_friends_hand_with_computers(tmp_path: Path) -> None:
    """``make play ARGS="--mode friends --seats 6"``: you and five computers at a
    Finding Friends table of six seats (three decks); the hand is dealt when the page
    opens, you declare, bury, call your two friends with the panel and play every card of
    the hand through it; the computers do the rest. The save keeps its shape."""
    database = tmp_path / "local.sqlite3"
    shape = Shape.chosen("friends", 6)
    printed = io.StringIO()
    async with local_session(database, shape=shape, port=0, config=FAST) as session:
        _announce(session, printed)
        assert session.shape == Shape("friends", 6, 0)
        doc, match = await oracle(session)
        you = session.humans[0]
        seat = doc.seat_of(you.id)
        assert seat == 0 and doc.humans == [0] and doc.seat_count == 6
        assert match.rules.players == 6 and match.shape.decks == 3
        await dealt(session, Page(session))
        called = False
        for _ in range(2000):
            doc, match = await oracle(session)
            if match.hand_no != 1 or match.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
                break
            if seat in seats_to_act(match):
                called = await decide_friends(session) or called
            else:
                await session.idle()  # the computers' moves, on the simulated clock
        public = match.public_view()
        assert public.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER), public.phase
        assert public.starter == seat and called, "you took the kitty and called"
        assert len(public.friend_calls) == match.shape.friends == 2
        result = public.result
        assert result is not None and seat in result.declarer_seats
        assert not session.env.errors, session.env.errors
    said = printed.getvalue()
    assert ("— You and 5 computer players at a Finding Friends table of 6 seats (3 decks); "
            "the first hand is being dealt.") in said, said
    assert await saved_table(database) == SavedTable(1, shape)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ((None, None, None), Shape("teams", 4, 0)),
        (("teams", 4, 2), Shape("teams", 4, 0)),
        (("friends", None, None), Shape("friends", 4, 0)),
        ((None, 6, None), Shape("friends", 6, 0)),  # as /tractor new players:6 reads it
        ((None, None, 3), Shape("friends", 4, 3)),
        (("friends", 8, 3), Shape("friends", 8, 3)),
    ],
)
def test_the_table_options_choose_a_shape(
    options: tuple[str | None, int | None, int | None], expected: Shape
) -> None:
    assert Shape.chosen(*options) == expected
    assert expected.new_options() == ({} if expected.mode == "teams" else {
        "mode": "friends", "players": expected.seats, **(
            {"decks": expected.decks} if expected.decks else {})})


def test_the_people_sit_as_partners_or_side_by_side() -> None:
    """One other person is the host's partner where sides are fixed (seat 3 of 4); more
    take the next seats; at a Finding Friends table, always the next seats."""
    assert [TEAMS.people_seats(n) for n in (1, 2, 3, 4)] == [(), (3,), (2, 3), (2, 3, 4)]
    five = Shape.chosen("friends", 5)
    assert [five.people_seats(n) for n in (1, 2, 4)] == [(), (2,), (2, 3, 4)]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--seats", "9"], "--seats must be between 4 and 8"),
        (["--seats", "3"], "--seats must be between 4 and 8"),
        (["--mode", "friends", "--decks", "5"], "--decks must be 2, 3 or 4"),
        (["--mode", "teams", "--seats", "6"], "--mode teams is four seats and two decks"),
        (["--mode", "teams", "--decks", "3"], "--mode teams is four seats and two decks"),
        (["--rule", "turn_timer=soon"], "--rule turn_timer=soon: turn_timer takes a number"),
        (["--rule", "follow=r9"], "follow takes r8 or suit_only"),
        (["--rule", "colour=red"], "say NAME=VALUE with NAME one of turn_timer,"),
        (["--rule", "take_backs"], "say NAME=VALUE"),
    ],
)
def test_a_table_that_cannot_be_is_one_line_and_status_2(
    options: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.app.local import main

    assert main(["--local", "--no-browser", *options]) == 2  # before anything starts
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tractor-bot: ") and words in err[0], err


async def test_local_play_takes_house_rules_on_the_command_line(tmp_path: Path) -> None:
    """Issue 31 item 6: ``make play ARGS="--rule take_backs=true --rule throw_penalty=10"``
    opens the table with those rules (through /tractor new, as on Discord), and the table
    message names them during play."""
    rules = house_rules(["take_backs=true", "throw-penalty=10", "must_defend=a"])
    assert rules == {"take_backs": True, "throw_penalty": 10, "must_defend": "A"}
    async with local_session(tmp_path / "local.sqlite3", port=0, config=FAST,
                             rules=rules) as session:
        doc, _ = await oracle(session)
        assert doc.options["take_backs"] is True and doc.options["throw_penalty"] == 10
        assert doc.options["must_defend"] == "A"
        table = session.channel.last_message
        assert table is not None and "House rules (not the defaults): " in table.content
        assert "Take-backs: yes" in table.content, table.content


async def test_a_saved_friends_game_keeps_its_shape(tmp_path: Path) -> None:
    """Two people at a five-seat Finding Friends table sit side by side (partners are
    called); the save keeps its people and shape, and ``--players``/``--mode`` given
    over it are ignored, and said so."""
    database = tmp_path / "data" / "local.sqlite3"
    five = Shape.chosen("friends", 5)
    async with local_session(database, players=2, shape=five, port=0, config=FAST) as session:
        doc, _ = await oracle(session)
        assert [doc.seat_of(member.id) for member in session.humans] == [0, 1]
        assert doc.seat_count == 5 and session.shape == five
    assert await saved_table(database) == SavedTable(2, five)

    with local_play_process(tmp_path, database, "--players", "1", "--mode", "teams"
                            ) as (child, printed, _):
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=30)
    assert child.returncode == 0, err
    said = " ".join(printed)
    assert ("Player 1, Player 2 and 3 computer players at a Finding Friends table of 5 seats "
            "(2 decks); the saved game was resumed from") in said, said
    assert "--players 1 and --mode teams were ignored: a resumed game keeps its seats" in said
    assert await saved_table(database) == SavedTable(2, five)
