"""The local play page in a real browser (Chromium through Playwright, as
tools/page_dropdown.py drives it): what `PAGE_STYLE` and `PAGE_SCRIPT` (bot/app/local.py)
change in what a player sees. Skipped without Playwright or Chromium.

- Issue 38 item 2: a picture of a new message still loading is an empty box (no
  broken-image icon, no file name), of its final size (local play gives the page each
  picture's size with the message: tests/test_local_play.py's hold-still test checks
  that no box changes as its picture loads).
- Issue 38 item 9 (the friend call): a select the bot sent back changed shows the bot's
  choice, not the one picked before in its place."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.app.local import LocalSession, Shape, local_session
from bot.core.table import seats_to_act
from engine.game import Phase
from tests.test_local_play import FAST, Page, control, dealt, decide_friends, oracle, settled

VIEWPORT = {"width": 1280, "height": 800}
WAIT = 15_000
"""How long (ms) a step may wait for the page before the test fails (a hung page)."""


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """Headless Chromium through Playwright; the test is skipped when there is no browser
    to drive."""
    from tools.page_dropdown import CHROMIUM, browser_missing

    missing = browser_missing()
    if missing is not None:
        pytest.skip(f"a browser test: {missing}")
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM,
                                               args=["--no-sandbox"])
        try:
            yield browser
        finally:
            await browser.close()


ASSETS = "**/api/assets/**"
"""The files of the page's pictures (SimCord's ``assets.load``)."""
TIMELINE = "#channel-timeline"
PICTURE = f"{TIMELINE} img.attachment-image"
LOADING = """(selector) => [...document.querySelectorAll(selector)].map((img) => ({
  src: img.getAttribute('src') || '', visibility: getComputedStyle(img).visibility}))"""


async def loading_pictures(browser: Any, url: str) -> list[dict[str, Any]]:
    """Open `url` in a new page with every picture file it asks for held back; the pictures
    of its messages (none loaded) as the page draws them then (`LOADING`). The files are
    let through afterwards, and this returns once every picture is drawn."""
    page = await browser.new_page(viewport=VIEWPORT)
    asked, released = asyncio.Event(), asyncio.Event()

    async def hold(route: Any) -> None:
        asked.set()
        await released.wait()
        await route.continue_()

    await page.route(ASSETS, hold)
    await page.goto(url)
    await asyncio.wait_for(asked.wait(), WAIT / 1000)
    # One read in the page: its messages may be drawn again between two reads (a redraw
    # takes every picture out and puts new ones in), so waiting for one picture and then
    # reading them all could read none (seen under load).
    drawn = await page.wait_for_function(f"""(selector) => {{
      const pictures = ({LOADING})(selector);
      return pictures.length ? pictures : null; }}""", arg=PICTURE, timeout=WAIT)
    loading: list[dict[str, Any]] = await drawn.json_value()
    released.set()
    await page.wait_for_function("""(selector) => [...document.querySelectorAll(selector)]
      .every((img) => img.getAttribute('src') && img.complete && img.naturalWidth > 0
            && getComputedStyle(img).visibility === 'visible')""", arg=PICTURE,
                                 timeout=WAIT)
    return loading


async def test_a_new_messages_picture_is_not_drawn_while_it_loads(tmp_path: Path) -> None:
    """Issue 38 item 2: while its file is held back, a new message's picture is not drawn
    (no broken-image icon, no file name: an empty box); once the file comes, it is."""
    async with local_session(tmp_path / "local.sqlite3", port=0, config=FAST) as session, \
            chromium() as browser:
        loading = await loading_pictures(browser, session.url)
        assert not session.env.errors, session.env.errors
    assert loading and all(not img["src"] for img in loading), loading
    assert all(img["visibility"] == "hidden" for img in loading), loading


async def calling_turn(session: LocalSession) -> None:
    """Play a Finding Friends hand through the bot (`decide_friends`) until the local
    player, the starter, is to call friends."""
    await dealt(session, Page(session))
    for _ in range(2000):
        doc, match = await oracle(session)
        seat = doc.seat_of(session.humans[0].id)
        assert match.hand_no == 1 and match.phase is not Phase.BETWEEN_HANDS, match.phase
        if seat in seats_to_act(match):
            if match.phase is Phase.CALLING:
                await settled(session)
                return
            await decide_friends(session)
        else:
            await session.idle()  # the computers' moves, on the simulated clock
    raise AssertionError("the local player never called friends")


def bot_panel(session: LocalSession, message_id: str) -> list[dict[str, Any]]:
    """The components of a message of #tractor as the bot last sent them."""
    message = session.env.backend.get_message(session.channel.id, int(message_id))
    return list(message.components)


def shown_default(components: list[dict[str, Any]], verb: str) -> str:
    """The label of the option the bot's select `verb` shows chosen."""
    select = control(components, verb)
    assert select is not None, components
    return next(str(option["label"]) for option in select["options"] if option.get("default"))


async def test_a_select_the_bot_changed_shows_the_bots_choice(tmp_path: Path) -> None:
    """Issue 38 item 9, the friend call's rank in a real browser: the starter picks
    another rank (K, say), then another suit; the bot's panel comes back with a rank of
    that suit chosen (as **Add** says), and the rank select shows it too, not the rank
    picked before in its place."""
    async with local_session(tmp_path / "local.sqlite3", shape=Shape.chosen("friends", 6),
                             port=0, config=FAST) as session, chromium() as browser:
        await calling_turn(session)
        page = await browser.new_page(viewport=VIEWPORT)
        await page.goto(session.url)
        await page.locator(f"{TIMELINE} button:enabled", has_text="My hand").last.click(
            timeout=WAIT)
        panel = page.locator(f"{TIMELINE} article[data-message-id]").filter(
            has=page.locator("button", has_text="Call friends")).last  # its calling panel
        selects = panel.locator(".preview-select")
        await settled(session)
        for _ in range(5):  # the panel My hand replaced loses its components: not that one
            await selects.nth(2).wait_for(timeout=WAIT)
            message_id = str(await panel.get_attribute("data-message-id"))
            if bot_panel(session, message_id):
                break
            await page.wait_for_function(
                "(id) => !document.querySelector(`[data-message-id='${id}'] .preview-select`)",
                arg=message_id, timeout=WAIT)
        else:
            raise AssertionError("no live calling panel on the page")
        add = panel.locator("button", has_text="Add")

        async def choose(select: int, option: int) -> None:
            """Pick `option` of the panel's select `select`, as a player does, and wait
            until the page shows the panel the bot sent back."""
            before = await add.inner_text()
            shown = await selects.nth(select).locator(".select-value").inner_text()
            await selects.nth(select).locator(".select-trigger").click(timeout=WAIT)
            options = page.locator(".select-list:popover-open [role=option]")
            if (await options.nth(option).inner_text()).strip() == shown.strip():
                option += 1  # the one shown already (the bot's first pick): the next
            await options.nth(option).click(timeout=WAIT)
            await settled(session)
            label = next(c["label"] for row in bot_panel(session, message_id)
                         for c in row["components"] if str(c.get("label", "")).startswith("Add"))
            assert label != before, label
            await page.wait_for_function(
                "([id, label]) => [...document.querySelectorAll("
                "`[data-message-id='${id}'] button`)].some((b) => b.textContent === label)",
                arg=[message_id, label], timeout=WAIT)

        await choose(1, 1)  # another rank (the second, or the third if the second is shown)
        await choose(0, 1)  # another suit: the bot chooses its rank
        components = bot_panel(session, message_id)
        shown = [await select.locator(".select-value").inner_text()
                 for select in await selects.all()]
        assert not session.env.errors, session.env.errors
    wanted = [shown_default(components, verb) for verb in ("fsuit", "frank", "fcopy")]
    assert shown == wanted, (shown, wanted)
