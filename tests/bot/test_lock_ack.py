"""Issue 15 item 3, without the clock: each entry point the lock benchmark measures
(tests/bot/bench_lock_ack.py) is acknowledged before the database is touched, and a write
that cannot get the database (`StorageBusy`) gets one translated "try again" and changes
nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botkit import SQLITE, client_locales, reply_texts, world
from lock_scenario import KINDS, WRITES, Group, make_group

from bot.i18n import t
from bot.storage import StorageBusy
from bot.storage.sqlite.database import Database


@pytest.mark.parametrize("kind", KINDS)
async def test_acknowledged_before_the_database(tmp_path: Path, kind: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=1, users=1, database=SQLITE(tmp_path)) as w:
        group = await make_group(w.env, w.database, w.guild, 0)
        action = group.action(kind)
        w.bot.service.repository.forget(group.game.table_id)  # no cached table either
        await w.bot.publisher.idle()
        await assert_acknowledged_first(w, action, monkeypatch)


async def assert_acknowledged_first(w: Any, action: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """`action`'s interaction is acknowledged (deferred) before its first database job."""
    sent = len(w.env.http_requests)
    touched: list[int] = []
    for name in ("read", "write"):
        original = getattr(Database, name)

        async def wrapped(db: Any, job: Any, __original: Any = original) -> Any:
            touched.append(len(w.env.http_requests))
            return await __original(db, job)
        monkeypatch.setattr(Database, name, wrapped)
    await action()
    monkeypatch.undo()
    assert touched, "the interaction never read the database"
    before = w.env.http_requests[sent:touched[0]]
    callbacks = [r for r in before if r.path.endswith("/callback")]
    assert callbacks and callbacks[0].json["type"] in (5, 6), [r.path for r in before]


@pytest.mark.parametrize("command", ["tractor replay", "tractor settings"])
async def test_replay_and_settings_acknowledged_before_the_database(
        tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=1, users=1, database=SQLITE(tmp_path)) as w:
        options = {"hand": 7} if command.endswith("replay") else {}
        user = w.users[0]
        await assert_acknowledged_first(
            w, lambda: user.slash(w.channel, command, **options), monkeypatch)


@pytest.mark.parametrize("kind", WRITES)
async def test_busy_write_is_one_translated_try_again(tmp_path: Path, kind: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=1, users=1, database=SQLITE(tmp_path)) as w:
        group: Group = await make_group(w.env, w.database, w.guild, 0)
        client_locales(monkeypatch, {group.users[kind].id: "zh-CN"})
        action = group.action(kind)
        await w.bot.publisher.idle()
        before = await group.state()
        game_doc = (await group.game.doc()).to_dict()

        async def busy(db: Any, job: Any, **_: Any) -> Any:
            raise StorageBusy(db.path, db.write_timeout)
        monkeypatch.setattr(Database, "write", busy)
        result = await action()
        await w.bot.publisher.idle()
        texts = [text for text in reply_texts(result) if text]
        wanted = t("error.try_again", "zh_Hans")
        assert wanted != t("error.try_again", "en")
        assert [text for text in texts if wanted in text] == [wanted], texts
        assert not any("出错" in text or "went wrong" in text for text in texts), texts
        assert await group.state() == before
        assert (await group.game.doc()).to_dict() == game_doc
