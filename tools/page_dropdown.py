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

Issue 38 items 1 and 2 (`watch`, `corner_free`): while the computers play, the hand panel
does not move, no picture of the page is blank or gone or changes its box as it loads, the
page is laid out at the window's width, and on a touch screen the pictures' download
button is not drawn over their corner.

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
from collections.abc import Awaitable, Callable, Sequence
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

SAMPLE = """() => {
  /* Whether the newest hand panel shows Quick plays (the cards are being played), and
     whether it is off (waiting for the others). */
  const panel = [...document.querySelectorAll('#channel-timeline article[data-message-id]')]
    .filter((a) => a.querySelector('.preview-select')).pop();
  const select = panel?.querySelector('.preview-select');
  const playing = Boolean(select) && /Quick plays/.test(select.textContent);
  return {playing, waiting: playing && Boolean(select.querySelector('.select-trigger:disabled'))};
}"""


READ = """() => new Promise((done) => {
  /* The reader scrolls the newest hand panel's first select into view (the page shows a
     message taller than the window from its top), then reads once the page has settled:
     the select still for 10 frames in a row (at most 600 frames). */
  const panel = [...document.querySelectorAll('#channel-timeline article[data-message-id]')]
    .filter((a) => a.querySelector('.preview-select')).pop();
  const select = panel?.querySelector('.preview-select');
  select?.scrollIntoView({block: 'nearest'});
  let last = null, still = 0, frames = 0;
  const frame = () => {
    const top = select?.isConnected ? Math.round(select.getBoundingClientRect().top) : null;
    still = top !== null && top === last ? still + 1 : 0;
    last = top;
    frames += 1;
    if (still >= 10 || frames >= 600) done(); else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})"""


WATCHER = """() => {
  /* Every frame: the hand panel's first select while it waits for the others (its top),
     pictures blank or gone, and picture slots whose box changed when their file came. */
  const timeline = document.querySelector('#channel-timeline');
  const seen = window.__tractorWatch = {frames: 0, blank: 0, gone: 0, resized: 0, moved: 0,
                                        wide: 0, stretch: null, where: ''};
  const boxes = new WeakMap();  // a picture's slot -> its height while it loaded
  const had = new Set();        // messages that showed a picture
  const visible = (e) => {
    const r = e.getBoundingClientRect(), box = timeline.getBoundingClientRect();
    const style = getComputedStyle(e);
    return r.bottom > box.top && r.top < box.bottom && style.display !== 'none'
      && style.visibility !== 'hidden'; };
  const frame = () => {
    seen.frames += 1;
    seen.blank += [...timeline.querySelectorAll(
      'img.attachment-image:not(.tractor-first):not(.tractor-loading)')].some((img) =>
      visible(img) && !(img.complete && img.naturalWidth > 0 && img.getAttribute('src')))
      || [...timeline.querySelectorAll('.media-unavailable')].some(visible);
    const articles = [...timeline.querySelectorAll('article[data-message-id]')];
    let gone = false;
    for (const article of articles) {
      const id = article.dataset.messageId;
      if (article.querySelector('.attachment-inline')) had.add(id);
      else if (had.has(id)) gone = true;
    }
    seen.gone += gone;
    for (const slot of timeline.querySelectorAll('.media-lightbox-trigger')) {
      const height = Math.round(slot.getBoundingClientRect().height);
      if (slot.disabled) { if (!boxes.has(slot)) boxes.set(slot, height); }
      else if (boxes.has(slot)) {
        if (Math.abs(boxes.get(slot) - height) > 1) seen.resized += 1;
        boxes.delete(slot);
      }
    }
    seen.wide += timeline.scrollWidth > timeline.clientWidth + 1;
    const panel = articles.filter((a) => a.querySelector('.preview-select')).pop();
    const select = panel?.querySelector('.preview-select');
    const waiting = Boolean(select) && /Quick plays/.test(select.textContent)
      && Boolean(select.querySelector('.select-trigger:disabled'));
    if (waiting) {
      const top = select.getBoundingClientRect().top;
      const stretch = seen.stretch;
      if (stretch && stretch.panel === panel.dataset.messageId) {
        stretch.low = Math.min(stretch.low, top); stretch.high = Math.max(stretch.high, top);
        const moved = Math.round(stretch.high - stretch.low);
        if (moved > seen.moved) {
          seen.moved = moved;
          seen.where = `frame ${seen.frames}: ${Math.round(stretch.last)} → ${Math.round(top)}`
            + ` px, scrolled ${Math.round(timeline.scrollTop)} of`
            + ` ${timeline.scrollHeight - timeline.clientHeight}, messages `
            + articles.map((a) => Math.round(a.getBoundingClientRect().height)).join(' ');
        }
        stretch.last = top;
      } else if (visible(select)) {  // a stretch starts with the select in view: being read
        seen.stretch = {panel: panel.dataset.messageId, low: top, high: top, last: top};
      }
    } else {
      seen.stretch = null;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""


@dataclass(frozen=True, slots=True)
class Watched:
    """What the page did while the computers played, at one window width, every frame:
    frames with a picture blank (no picture, or "unavailable") or a message's picture
    gone, picture slots whose box changed when their file came (`resized`), frames laid
    out wider than the window (`wide`), and how far the hand panel's first select moved
    (px, its highest top less its lowest) within a stretch of waiting for the others that
    starts with the select in view (being read), over `moves` computer moves; `where` the
    frame of the largest move, the scroll position and the messages' heights then."""

    width: int
    moves: int
    frames: int
    blank: int
    gone: int
    resized: int
    wide: int
    moved: int
    where: str = ""

    def line(self) -> str:
        return (f"{self.width} px: {self.moves} computer moves, {self.frames} frames; the "
                f"panel's first select moved {self.moved} px while the others played; frames "
                f"with a blank picture {self.blank}, with a picture gone {self.gone}, laid "
                f"out wider than the window {self.wide}; pictures whose box changed as "
                f"they loaded {self.resized}"
                + (f" (the largest move: {self.where})" if self.moved > STILL else ""))

    @property
    def still(self) -> bool:
        """The panel held still and every picture kept its box, whole."""
        return self.moved <= STILL and not (self.blank or self.gone or self.resized
                                            or self.wide)


STILL = 2
"""How far (px) the panel may move while the computers play: rounding, not a line."""
STALLED = 120.0
"""A game in which no computer moves for this long has stopped (`watch` gives up)."""


async def _to_the_play(page: Any, timeout: float) -> None:
    """Play through the page (Pass, Suggest and Bury, My hand) until the newest hand panel
    shows Quick plays: the cards are being played."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if (await page.evaluate(SAMPLE))["playing"]:
            return
        for label in ("Pass", "Suggest", "Bury (", "My hand"):
            button = page.locator(f"{TIMELINE} button:enabled", has_text=label)
            with contextlib.suppress(Exception):
                if await button.count():
                    await button.last.click(timeout=1000)
                    break
        await asyncio.sleep(0.5)
    raise TimeoutError("the cards were never played")


async def _play_quick(page: Any) -> None:
    """Play the first Quick play through the page (its list, then Play)."""
    with contextlib.suppress(Exception):
        await page.locator(f"{SELECT} .select-trigger:enabled").first.click(timeout=2000)
        await page.locator(".select-list:popover-open [role=option]").first.click(timeout=2000)
        await page.locator(f"{TIMELINE} button:enabled", has_text="Play (").last.click(
            timeout=2000)


async def watch(browser: Any, url: str, width: int, height: int,
                moves: Callable[[], Awaitable[int]], *, count: int = 9,
                shots: Path | None = None) -> Watched:
    """Open the page, play to the hand panel's selects, then watch it every frame
    (`WATCHER`) until the computers have made `count` more moves (`moves` counts them, as
    the table has them), playing a Quick play whenever it is this seat's turn."""
    page = await browser.new_page(viewport={"width": width, "height": height})
    try:
        await page.goto(url)
        await _to_the_play(page, 120.0)
        await page.evaluate(READ)
        await page.evaluate(WATCHER)
        loop = asyncio.get_running_loop()
        start = await moves()
        made, since = 0, loop.time()
        while made < count:
            got = await page.evaluate(SAMPLE)
            if got["playing"] and not got["waiting"]:  # this seat's turn
                await _play_quick(page)
            await asyncio.sleep(0.05)
            now = await moves() - start
            if now != made:
                made, since = now, loop.time()
            elif loop.time() - since > STALLED:
                raise TimeoutError(f"no computer move for {STALLED:.0f} s")
        seen = await page.evaluate("window.__tractorWatch")
        if shots is not None:
            await page.screenshot(path=str(shots / f"{width}x{height}-watched.png"))
        frames, blank, gone, resized, wide, moved = (int(seen[key]) for key in (
            "frames", "blank", "gone", "resized", "wide", "moved"))
        return Watched(width, made, frames, blank, gone, resized, wide, moved,
                       str(seen["where"]))
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
