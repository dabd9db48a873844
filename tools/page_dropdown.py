"""`python -m tools.page_dropdown`: open a select of the hand panel in a real browser.

Issue 31 item 2: at 1280×800 a select of the ``My hand`` panel (Quick plays, Pick cards)
would not stay open in the local play page. This starts local play on a fresh database
in a temporary folder (no pauses, the quick computer player), opens its page in headless
Chromium at 1280×800 and at 390×844, plays through the page until the panel shows a
select (``My hand``, ``Pass`` while the trumps are declared), scrolls the channel to the
bottom as a player reading the newest message would, clicks the first select and checks,
1.5 seconds later, that its list is still open and the channel did not move. One line per
size; exit status 0 when the list stayed open at every size, 1 otherwise, 2 when there is
no browser to drive.

Issue 38 items 1 and 2 (`watch`, `corner_free`): in every frame drawn while the computers
play, no picture is drawn before it is loaded (a new message's is an empty box of its
size), the hand panel's selects do not move at all, whether the reader left them in the
middle of the channel or at its bottom, and on a touch screen the pictures' download
button is not drawn over their corner. And (`selects_follow`) a select the bot changed
shows the bot's choice, not the one the page kept by the select's place.

Needs Playwright (``pip install playwright``, not a dependency of the project) and a
Chromium (``/usr/bin/chromium`` by default, ``--chromium PATH``); ``--shots DIR`` keeps a
screenshot before and after each click. tests/test_local_play.py runs `check` when both are
there and is skipped otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
SIZES: tuple[tuple[int, int], ...] = ((1280, 800), (390, 844))
TIMELINE = "#channel-timeline"
SELECT = f"{TIMELINE} .preview-select"


@dataclass(frozen=True, slots=True)
class Opened:
    """What one click on a select did at one window size."""

    width: int
    height: int
    stayed_open: bool
    scroll_before: int
    scroll_after: int

    def line(self) -> str:
        verdict = "stays open" if self.stayed_open else "CLOSED"
        return (f"{self.width}×{self.height}: the select's list {verdict}; the channel's "
                f"scroll position {self.scroll_before} → {self.scroll_after}")


def browser_missing(chromium: str = CHROMIUM) -> str | None:
    """Why no browser can be driven here (one line), or None when one can. With
    ``TRACTOR_REQUIRE_BROWSER=1`` (CI) a missing browser is an error, not a reason."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        missing: str | None = "needs Playwright (pip install playwright)"
    else:
        missing = None if Path(chromium).exists() or shutil.which(chromium) \
            else f"needs Chromium at {chromium} (apt-get install chromium)"
    if missing is not None and os.environ.get("TRACTOR_REQUIRE_BROWSER") == "1":
        raise RuntimeError(f"TRACTOR_REQUIRE_BROWSER=1 but the browser test {missing}")
    return missing


async def _scroll(page: Any) -> int:
    return int(await page.evaluate(
        f"document.querySelector('{TIMELINE}')?.scrollTop ?? -1"))


async def _to_a_select(page: Any, timeout: float) -> None:
    """Play through the page until the newest hand panel shows an enabled select."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        triggers = page.locator(f"{SELECT} .select-trigger:enabled")
        if await triggers.count():
            return
        passing = page.locator(f"{TIMELINE} button:enabled", has_text="Pass")
        myhand = page.get_by_role("button", name="My hand")
        with contextlib.suppress(Exception):
            if await passing.count():
                await passing.last.click(timeout=2000)
            elif await myhand.count():
                await myhand.last.click(timeout=2000)
        await asyncio.sleep(1.0)
    raise TimeoutError("the hand panel showed no select")


async def open_select(browser: Any, url: str, width: int, height: int, *,
                      shots: Path | None = None, timeout: float = 90.0) -> Opened:
    """Open the page at `width`×`height`, click the hand panel's first select, and say
    whether its list is still open 1.5 seconds later."""
    page = await browser.new_page(viewport={"width": width, "height": height})
    try:
        await page.goto(url)
        await _to_a_select(page, timeout)
        await asyncio.sleep(1.5)  # the pictures of the last publication are in
        await page.evaluate(f"(t => t.scrollTop = t.scrollHeight)"
                            f"(document.querySelector('{TIMELINE}'))")
        select = page.locator(SELECT).first
        await select.scroll_into_view_if_needed()
        await asyncio.sleep(0.5)
        before = await _scroll(page)
        if shots is not None:
            await page.screenshot(path=str(shots / f"{width}x{height}-before.png"))
        await select.locator(".select-trigger").click()
        await asyncio.sleep(1.5)
        if shots is not None:
            await page.screenshot(path=str(shots / f"{width}x{height}-after.png"))
        is_open = await page.locator(f"{SELECT}.is-open .select-list:popover-open").count()
        return Opened(width, height, is_open == 1, before, await _scroll(page))
    finally:
        await page.close()


async def check(url: str, sizes: Sequence[tuple[int, int]] = SIZES, *,
                chromium: str = CHROMIUM, shots: Path | None = None) -> list[Opened]:
    """`open_select` at each size, in one headless Chromium."""
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=chromium,
                                               args=["--no-sandbox"])
        try:
            return [await open_select(browser, url, width, height, shots=shots)
                    for width, height in sizes]
        finally:
            await browser.close()


async def _run(chromium: str, shots: Path | None) -> list[Opened]:
    from bot.app.local import local_session
    from bot.runtime.config import Config

    quick = Config(action_delay=0.0, edit_interval=0.0, hand_pause=0.0,
                   computer_player="greedy", seed=7)
    with tempfile.TemporaryDirectory() as folder:
        async with local_session(Path(folder) / "local.sqlite3", port=0,
                                 config=quick) as session:
            return await check(session.url, chromium=chromium, shots=shots)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.page_dropdown",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=CHROMIUM, help="the Chromium to drive")
    parser.add_argument("--shots", type=Path, help="keep screenshots in this folder")
    args = parser.parse_args(argv)
    missing = browser_missing(args.chromium)
    if missing is not None:
        print(f"page_dropdown: {missing}", file=sys.stderr)
        return 2
    if args.shots is not None:
        args.shots.mkdir(parents=True, exist_ok=True)
    results = asyncio.run(_run(args.chromium, args.shots))
    for result in results:
        print(result.line())
    return 0 if all(result.stayed_open for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())


# ---- issue 38 items 1 and 2: the panel holds still, pictures never blank out -------------

RECORD = """() => {
  const timeline = document.querySelector('#channel-timeline');
  const seen = {frames: 0, moves: 0, moved: 0, turn: false, waiting: false, bad: [],
                playing: true,
                panel: null, low: null, high: null, others: null};
  const visible = (e) => {
    const r = e.getBoundingClientRect(), b = timeline.getBoundingClientRect();
    const style = getComputedStyle(e);
    return r.bottom > b.top && r.top < b.bottom && style.display !== 'none'
      && style.visibility !== 'hidden' && r.width > 0; };
  const frame = () => {
    seen.frames += 1;
    for (const img of timeline.querySelectorAll('img.attachment-image')) {
      const box = img.getBoundingClientRect(), w = +img.getAttribute('width'),
        h = +img.getAttribute('height');
      if (visible(img) && !(img.complete && img.naturalWidth > 0 && img.getAttribute('src')))
        seen.bad.push('a picture not loaded is drawn: ' + img.alt);
      else if (getComputedStyle(img).visibility === 'hidden' && w && h && box.width
               && Math.abs(box.height - box.width * h / w) > 2)
        seen.bad.push('a picture loading is not at its size: ' + img.alt);
    }
    for (const gone of timeline.querySelectorAll('.media-unavailable'))
      if (visible(gone)) seen.bad.push('a picture is unavailable');
    const articles = [...timeline.querySelectorAll('article[data-message-id]')];
    const panel = articles.filter((a) => a.querySelector('.preview-select')).pop();
    const select = panel?.querySelector('.preview-select');
    const quick = Boolean(select) && /Quick plays/.test(select.textContent);
    const waiting = quick && Boolean(select.querySelector('.select-trigger:disabled'));
    seen.turn = quick && !waiting;
    seen.playing = quick;
    const others = articles.filter((a) => a !== panel).map((a) => a.textContent).join('|');
    // a stretch of waiting: the same panel, no message posted since (the hand's summary
    // comes below it: the page then shows it, the panel goes up)
    if (waiting && panel.dataset.messageId === seen.panel && seen.waiting
        && articles.length === seen.count) {
      const top = select.getBoundingClientRect().top;
      seen.low = Math.min(seen.low, top); seen.high = Math.max(seen.high, top);
      seen.moved = Math.max(seen.moved, Math.round(seen.high - seen.low));
      if (others !== seen.others) seen.moves += 1;  // the table message: a computer moved
    } else if (waiting) {
      seen.low = seen.high = select.getBoundingClientRect().top;
    }
    seen.waiting = waiting; seen.others = others; seen.count = articles.length;
    seen.panel = panel ? panel.dataset.messageId : null;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  window.tractorSeen = seen;
}"""
"""Watches every frame the page draws (`watch`): pictures drawn while not loaded (the
broken-image icon, the file name, a blank) or loading at another size than their own, and
how far the hand panel's first select moves while the others play (`moves`: the other
messages changed, a computer moved)."""

SETTLED = f"""() => new Promise((done) => {{
  const t = document.querySelector('{TIMELINE}');
  let last = t.scrollTop, still = 0;
  const frame = () => {{
    still = t.scrollTop === last ? still + 1 : 0; last = t.scrollTop;
    if (still >= 10) done(); else requestAnimationFrame(frame);
  }};
  requestAnimationFrame(frame);
}})"""
"""Resolves once the channel's scroll position held for ten frames (a wheel's smooth
scrolling goes on after Playwright's wheel returned)."""


@dataclass(frozen=True, slots=True)
class Watched:
    """What the page drew while the computers played, at one window size: the frames
    watched, the computer moves seen, what was wrong with a picture, and how far the hand
    panel's first select moved within a stretch of waiting for the others (px)."""

    width: int
    scrolled: bool
    frames: int
    moves: int
    bad: tuple[str, ...]
    moved: int

    def line(self) -> str:
        where = "scrolled up" if self.scrolled else "at the bottom"
        return (f"{self.width} px, {where}: {self.frames} frames, {self.moves} computer moves, "
                f"{len(self.bad)} wrong pictures {self.bad[:2]}, the panel's first select "
                f"moved {self.moved} px while the others played")


async def _to_the_play(page: Any, timeout: float) -> None:
    """Play through the page (Pass, Suggest and Bury, My hand) until the newest hand panel
    shows Quick plays: the cards are being played."""
    playing = ("() => [...document.querySelectorAll('#channel-timeline .preview-select')]"
               ".some((s) => /Quick plays/.test(s.textContent))")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if await page.evaluate(playing):
            return
        for label in ("Pass", "Suggest", "Bury (", "My hand"):
            button = page.locator(f"{TIMELINE} button:enabled", has_text=label)
            with contextlib.suppress(Exception):
                if await button.count():
                    await button.last.click(timeout=1000)
                    break
        with contextlib.suppress(Exception):  # the page changed (or a second passed)
            await page.wait_for_function("() => false", timeout=1000)
    raise TimeoutError("the cards were never played")


async def _play_quick(page: Any) -> None:
    """Play the first Quick play through the page (its list, then Play), clicking where
    the controls are: a click of Playwright's own scrolls its target into sight first (and
    again and again while it waits for it), which would be a reader's scrolling."""
    with contextlib.suppress(Exception):
        to_go = await page.evaluate(  # the reader first scrolls it into sight (the wheel)
            f"() => {{ const t = document.querySelector('{TIMELINE}').getBoundingClientRect();"
            f" const s = document.querySelector('{SELECT} .select-trigger:enabled')"
            "?.getBoundingClientRect(); if (!s) return 0;"
            " return s.bottom > t.bottom ? s.bottom - t.bottom + 20"
            " : s.top < t.top ? s.top - t.top - 20 : 0; }")
        if to_go:
            await page.mouse.wheel(0, to_go)
            await page.wait_for_function(
                f"() => {{ const t = document.querySelector('{TIMELINE}')"
                ".getBoundingClientRect(); const s = document.querySelector("
                f"'{SELECT} .select-trigger:enabled')?.getBoundingClientRect();"
                " return !s || (s.top >= t.top && s.bottom <= t.bottom); }", timeout=2000)
        await page.locator(f"{SELECT} .select-trigger:enabled").first.dispatch_event(
            "click", timeout=2000)
        await page.locator(".select-list:popover-open [role=option]").first.dispatch_event(
            "click", timeout=2000)
        await page.locator(f"{TIMELINE} button:enabled", has_text="Play (").last.dispatch_event(
            "click", timeout=2000)


async def watch(browser: Any, url: str, width: int, height: int, *, moves: int = 12,
                scrolled: bool = True, shots: Path | None = None,
                timeout: float = 240.0) -> Watched:
    """Open the page, play to the hand panel's selects, scroll them to the middle as a
    reader (`scrolled`; else to the bottom), then watch every frame (`RECORD`) until the
    computers made `moves` moves while this seat waited, playing a Quick play at its turn.
    Waits on the page, not on the clock (`timeout` only bounds a page that never gets
    there)."""
    page = await browser.new_page(viewport={"width": width, "height": height})
    try:
        await page.goto(url)
        await _to_the_play(page, 120.0)
        # the reader scrolls (the mouse wheel) the panel's selects to the middle of the
        # channel (the page is then not at its bottom, as when a message above is read),
        # or to the bottom
        box = await page.locator(TIMELINE).bounding_box()
        assert box is not None
        await page.mouse.move(box["x"] + box["width"] - 30, box["y"] + 30)  # off the panel
        to_go = await page.evaluate(
            f"(middle) => {{ const t = document.querySelector('{TIMELINE}'); const s = "
            f"[...document.querySelectorAll('{SELECT}')].pop().closest('article')"
            ".querySelector('.preview-select').getBoundingClientRect().top;"
            " return middle ? s - t.getBoundingClientRect().top - t.clientHeight / 2"
            " : t.scrollHeight - t.scrollTop; }", scrolled)
        await page.mouse.wheel(0, to_go)
        await page.evaluate(SETTLED)  # the wheel's scrolling is over
        if scrolled:
            await page.wait_for_function(
                f"() => {{ const t = document.querySelector('{TIMELINE}');"
                " return t.scrollHeight - t.scrollTop - t.clientHeight > 60; }")
        await page.evaluate(RECORD)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            seen = await page.wait_for_function(
                f"() => (window.tractorSeen.moves >= {moves} || window.tractorSeen.turn"
                " || !window.tractorSeen.playing) && window.tractorSeen",
                timeout=timeout * 1000)
            got = await seen.json_value()
            if got["moves"] >= moves:
                break
            if not got["playing"]:  # the hand is over: on to the next one's play
                await _to_the_play(page, timeout)
                continue
            for _ in range(20):  # this seat's turn: the page is clicked, not measured
                await _play_quick(page)
                with contextlib.suppress(Exception):  # not played yet: again
                    await page.wait_for_function("() => !window.tractorSeen.turn",
                                                 timeout=5000)
                    break
        got = await page.evaluate("window.tractorSeen")
        if shots is not None:
            await page.screenshot(path=str(shots / f"{width}x{height}-watched.png"))
        return Watched(width, scrolled, got["frames"], got["moves"], tuple(got["bad"]),
                       got["moved"])
    finally:
        await page.close()


async def corner_free(browser: Any, url: str, width: int = 390, height: int = 844) -> bool:
    """On a phone (touch, no hover), whether every picture's download button stays off the
    picture (its top right corner holds the score and the card count)."""
    context = await browser.new_context(viewport={"width": width, "height": height},
                                        has_touch=True, is_mobile=True)
    try:
        page = await context.new_page()
        await page.goto(url)
        await page.locator(f"{TIMELINE} img.attachment-image[src]").first.wait_for(
            timeout=60000)
        return bool(await page.evaluate("""() => [...document.querySelectorAll(
            '.attachment-media')].every((media) => {
              const img = media.querySelector('img'), bar = media.querySelector(
                '.attachment-media-actions');
              if (!img || !bar || getComputedStyle(bar).opacity === '0') return true;
              const a = img.getBoundingClientRect(), b = bar.getBoundingClientRect();
              return b.top >= a.bottom || b.bottom <= a.top || b.left >= a.right
                || b.right <= a.left; })"""))
    finally:
        await context.close()


# ---- issue 38: a select shows what the bot holds ------------------------------------------

SHOWN = f"""() => {{
  const panel = [...document.querySelectorAll('{TIMELINE} article[data-message-id]')]
    .filter((a) => a.querySelector('.preview-select')).pop();
  return panel ? [...panel.querySelectorAll('.preview-select .select-trigger')]
    .map((t) => t.textContent.trim()) : [];
}}"""
"""The values the newest panel's selects show (a placeholder when nothing is chosen)."""


async def selects_follow(browser: Any, url: str) -> tuple[list[str], list[str]]:
    """At this seat's turn, choose a Quick play (the bot then holds its cards chosen, the
    Pick cards selects among them), then press Clear (the bot holds none): what the panel's
    selects show after each. The page used to keep what a select showed across the bot's
    changes, by the select's place: the cards chosen were not shown, then shown after
    Clear (the friend call's rank showed a rank the call no longer had)."""
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        await page.goto(url)
        await _to_the_play(page, 120.0)
        trigger = page.locator(f"{SELECT} .select-trigger:enabled", has_text="Quick plays")
        await trigger.first.wait_for(timeout=120000)  # this seat's turn
        await trigger.first.dispatch_event("click")
        await page.locator(".select-list:popover-open [role=option]").first.dispatch_event(
            "click")
        play = page.locator(f"{TIMELINE} button:enabled", has_text="Play (")
        await play.last.wait_for(timeout=30000)  # the bot holds the cards chosen
        chosen = await page.evaluate(SHOWN)
        await page.locator(f"{TIMELINE} button:enabled", has_text="Clear").last.dispatch_event(
            "click")
        await page.locator(f"{TIMELINE} button", has_text="Play (0)").last.wait_for(
            timeout=30000)
        return chosen, await page.evaluate(SHOWN)
    finally:
        await page.close()
