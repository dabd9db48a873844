"""A database written by an earlier release restores every table after the upgrade, and the
buttons of the messages that release posted still work (issue 11).

tests/bot/fixtures/release-1.sqlite3 was written by tests/bot/fixtures/make_release_db.py
with the code of commit e4fd666 (tables in the lobby, declaring, burying, mid-trick and
between hands); release-1.json lists the custom ids its messages carried. The SimCord world
is deterministic, so rebuilding the same guild, channels and users gives the same ids."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from botkit import assert_ok, forge, world
from pg import BACKENDS

FIXTURES = Path(__file__).parent / "fixtures"
RELEASE = "release-1"


def now(custom_id: str) -> str:
    """A table message's button as the bot posts it today: the release's id with the step
    `TABLE_STEP` (issue 38: the table message's buttons no longer carry the step, which
    none of their verbs reads)."""
    from bot.ui.panels import TABLE_STEP

    prefix, table, hand, _, rest = custom_id.split(":", 4)
    return f"{prefix}:{table}:{hand}:{TABLE_STEP}:{rest}"


@pytest.mark.parametrize("backend", BACKENDS)
async def test_every_table_of_the_release_is_restored_and_its_buttons_work(
        tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> None:
    """On SQLite the release's file itself; on PostgreSQL (issue 28) the file copied there
    by ``python -m bot.storage copy`` (ids kept: the old buttons name the tables)."""
    info = json.loads((FIXTURES / f"{RELEASE}.json").read_text())
    database: str | Path = tmp_path / "tractor.sqlite3"
    shutil.copy(FIXTURES / f"{RELEASE}.sqlite3", database)
    if backend == "postgres":
        url: str = request.getfixturevalue("pg_url")
        done = subprocess.run([sys.executable, "-m", "bot.storage", "copy", str(database),
                               url], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and done.stdout.startswith("copied "), done.stderr
        database = url
    async with world(tmp_path, humans=4, hand_pause=3600, database=database) as w:
        guild = w.env.create_guild(name="Upgrade club", id=info["guild_id"])
        channels = [guild.create_text_channel(name) for name in info["channels"]]
        users = [guild.add_member(w.env.create_user(f"u{i}")) for i in range(info["users"])]
        await w.restart()  # restore now that the channels and users exist
        tables = info["tables"]
        active = await w.bot.store.active_tables()
        assert sorted(t.id for t in active) == sorted(t["table_id"] for t in tables)
        for table in tables:
            w.table_id = table["table_id"]
            w.channel = channels[table["channel"]]
            doc = await w.doc()
            assert doc.restored
            assert doc.step == table["step"]
            match = doc.get_match()
            assert (match is None) == (table["phase"] is None)
            if match is not None:
                assert match.phase.value == table["phase"]
            seated = users[4 * table["channel"]: 4 * table["channel"] + 4]
            message = w.table_message()  # re-posted: the old one is gone from this Discord
            for custom_id in table["table_message"]:
                verb = custom_id.split(":")[4]
                if verb in ("score", "last", "rules"):
                    assert_ok(await seated[1].click(message, custom_id=now(custom_id)))
            for seat, ids in table["panels"].items():
                user = next(u for u in seated if doc.seat_of(u.id) == int(seat))
                refresh = [c for c in ids if c.split(":")[4] in ("refresh", "clear")]
                if not refresh:
                    continue
                # The old DM channel is not in this simulated Discord: the old panel's
                # button is pressed on the player's fresh hand panel.
                panel = await user.slash(w.channel, "tractor hand")
                assert_ok(panel)
                assert_ok(await forge(user, panel.response, refresh[0]))
        # The lobby table still takes players through its old Join button.
        lobby = next(t for t in tables if t["phase"] is None)
        w.table_id, w.channel = lobby["table_id"], channels[lobby["channel"]]
        join = now(next(c for c in lobby["table_message"] if c.endswith(":join")))
        joiner = users[4 * lobby["channel"] + 2]
        assert_ok(await joiner.click(w.table_message(), custom_id=join))
        assert (await w.doc()).seat_of(joiner.id) is not None


async def test_every_id_the_release_posted_parses(tmp_path: Path) -> None:
    from bot.ui.ids import make_id

    info = json.loads((FIXTURES / f"{RELEASE}.json").read_text())
    ids = [c for table in info["tables"] for c in
           [*table["table_message"], *[i for p in table["panels"].values() for i in p]]]
    assert len(ids) > 40
    async with world(tmp_path, humans=1) as w:
        router = w.bot.app.router
        for custom_id in ids:
            cid = router.parse(custom_id)
            assert make_id(cid.table, cid.hand, cid.step, cid.verb, cid.arg) == custom_id
