"""A modified client can send any custom id from any message (issue 15, items 1, 2, 5, 6):
every field is checked in one place and against the message it came from and the person
clicking, before anything happens; a refusal changes nothing and gets exactly one polite,
translated reply; every reply fits Discord's limits; an internal error is answered once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botkit import World, components, find, forge, reply_texts, seats_to_act, world

from bot.storage import StorageError

NOT_VALID = "This button is not valid"


def one_refusal(result: Any) -> str:
    texts = reply_texts(result)
    assert len(texts) == 1, texts
    assert NOT_VALID in texts[0], texts
    assert result.ephemeral
    return texts[0]


async def snapshot(w: World) -> tuple[int, Any, str]:
    return await w.version(), (await w.doc()).match, w.table_message().content


async def started(w: World) -> None:
    await w.open_table(2)
    await w.start()


async def test_forged_panel_ids_on_the_table_message_are_refused(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await started(w)
        alice = w.users[0]
        doc = await w.doc()
        match = await w.match()
        seat = doc.seat_of(alice.id)
        before = await snapshot(w)
        table = w.table_message()
        head = f"tr:{w.table_id}:{match.hand_no}:{doc.step}"
        for verb in ("refresh", "play", "pass", "hint"):
            one_refusal(await forge(alice, table, f"{head}:{verb}:{seat}"))
        # A spectator's "end: no" on the table message does not blank it.
        one_refusal(await forge(w.spectator, table, f"{head}:endno"))
        one_refusal(await forge(w.spectator, table, f"{head}:endyes"))
        await w.bot.publisher.idle()
        assert await snapshot(w) == before
        assert find(w.table_message(), "myhand") is not None


@pytest.mark.parametrize("tail", [
    "play:9", "decl:9.H", "sel:0.x", "decl:0.Q", "quick:7", "myhand:0", "nonsense",
    "play", "play:", "play:0.1.2",
])
async def test_malformed_ids_get_one_polite_reply(tmp_path: Path, tail: str) -> None:
    async with world(tmp_path, humans=2) as w:
        await started(w)
        alice = w.users[0]
        doc = await w.doc()
        match = await w.match()
        panel = w.dm_panel(alice)
        before = await snapshot(w)
        one_refusal(await forge(alice.user, panel, f"tr:{w.table_id}:{match.hand_no}:{doc.step}:"
                                              f"{tail}"))
        for head in (f"tr:{2**63}:1:1", f"tr:{10**30}:1:1", "tr:-1:1:1", "tr:0:1:1",
                     f"tr:{w.table_id}:1:{10**12}", f"tr:{w.table_id}:x:1"):
            one_refusal(await forge(alice, w.table_message(), f"{head}:myhand"))
        assert await snapshot(w) == before


async def test_option_values_are_checked(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        await w.new_table()
        shown = (await alice.slash(w.channel, "tractor rules")).response
        timer = find(shown, "opt")
        assert timer is not None
        before = (await w.doc()).options
        for value in ("abc", "1e3", "-5", "9" * 30):
            one_refusal(await forge(alice, shown, timer.custom_id, [value]))
        one_refusal(await forge(alice, shown, timer.custom_id.rsplit(":", 1)[0] + ":bogus",
                                ["90"]))
        assert (await w.doc()).options == before
        # Every option is offered, on pages that fit Discord's 5 rows.
        names = {c.custom_id.rsplit(":", 1)[1] for c in components(shown)
                 if ":opt:" in c.custom_id}
        more = [c for c in components(shown) if ":optpage:" in (c.custom_id or "")]
        assert len(names) == 4 and more
        await alice.click(shown, custom_id=more[0].custom_id)
        names |= {c.custom_id.rsplit(":", 1)[1] for c in components(shown)
                  if ":opt:" in c.custom_id}
        assert len(names) == 8


async def test_someone_elses_seat_component_is_refused(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await started(w)
        alice, bob = w.users[:2]
        before = await snapshot(w)
        panel = w.dm_panel(alice)
        play = next(c for c in components(panel) if (c.custom_id and ":pass:" in c.custom_id)
                    or (c.custom_id and ":play:" in c.custom_id))
        # Bob sends Alice's button id from his own panel (not on that message).
        result = await forge(bob.user, w.dm_panel(bob), play.custom_id)
        one_refusal(result)
        assert await snapshot(w) == before


async def test_very_long_typed_input_is_answered_once(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await started(w)
        match = await w.match()
        doc = await w.doc()
        seat = next(s for s in seats_to_act(match) if doc.seat(s).user_id is not None)
        user = await w.user_of(seat)
        for text in ("x" * 2000, "AS " * 1700, "🂡" * 1500):
            result = await user.slash(w.channel, "tractor play", cards=text[:6000])
            texts = reply_texts(result)
            assert len([t for t in texts if t]) == 1, texts
            assert all(len(t) <= 2000 for t in texts)


async def test_internal_and_storage_errors_are_answered_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        alice = w.users[0]
        service = w.bot.service

        async def broken(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("disk on fire")
        monkeypatch.setattr(service, "start", broken)
        result = await alice.slash(w.channel, "tractor start")
        texts = reply_texts(result)
        assert len(texts) == 1 and "went wrong" in texts[0], texts

        async def busy(*args: Any, **kwargs: Any) -> None:
            raise StorageError("database is locked")
        monkeypatch.setattr(w.bot.store, "save_table", busy)
        result = await alice.click(w.table_message(), label="Leave")
        texts = reply_texts(result)
        assert len(texts) == 1 and "try again" in texts[0], texts
        monkeypatch.undo()
        assert (await w.doc()).seat_of(alice.id) is not None  # nothing changed


async def test_every_interaction_is_acknowledged_before_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With every database call failing, each interaction is still acknowledged (deferred:
    that happens before any database work) and answered once with "try again"."""
    async with world(tmp_path, humans=2) as w:
        await started(w)
        alice = w.users[0]
        table = w.table_message()
        panel = w.dm_panel(alice)
        refresh = find(panel, "refresh") or find(panel, "clear")
        assert refresh is not None

        async def down(*args: Any, **kwargs: Any) -> None:
            raise StorageError("database is locked")
        store = w.bot.store
        for name in ("load_table", "table_in_channel", "user_settings", "save_table",
                     "guild_settings"):
            monkeypatch.setattr(store, name, down)
        w.bot.service.repository.forget(w.table_id)
        actions = [
            lambda: alice.slash(w.channel, "tractor rules"),
            lambda: alice.slash(w.channel, "tractor hand"),
            lambda: alice.click(table, label="My hand"),
            lambda: alice.user.click(panel, custom_id=refresh.custom_id),
        ]
        for action in actions:
            sent = len(w.env.http_requests)
            result = await action()
            first = w.env.http_requests[sent]
            # The first thing the bot did: acknowledge (5: "thinking…", 6: update later).
            assert first.path.endswith("/callback") and first.json["type"] in (5, 6), first
            texts = reply_texts(result)  # a panel click's response is the panel itself
            assert len([t for t in texts if "try again" in t]) == 1, texts
            assert not any("went wrong" in t for t in texts), texts
