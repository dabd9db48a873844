"""Discord mode start-up errors are one line on stderr and a non-zero exit status, never a
traceback: 2 for the configuration or the database, 1 when Discord is out of reach. The
database is checked before anything goes to the network."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from bot import __main__ as entry
from bot.app import cli
from bot.runtime.config import Config, ConfigError
from bot.storage import StorageError
from bot.storage.errors import DatabaseCorrupt, SchemaTooNew

ROOT = Path(__file__).resolve().parents[2]
# Well-formed for the validator; Discord would reject it (and is never asked here).
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789"

# Loaded by the child through PYTHONPATH: any attempt to resolve or connect leaves a mark
# and fails like an unreachable network.
NO_NETWORK = '''
import os, socket
def _refuse(*args, **kwargs):
    with open(os.environ["NETWORK_MARK"], "a") as mark:
        mark.write("network used\\n")
    raise OSError("network disabled by the test")
socket.getaddrinfo = _refuse
socket.socket.connect = _refuse
socket.create_connection = _refuse
'''

# Added to the guard by `child_env(no_simcord=True)`: SimCord cannot be imported, as in the
# Docker image, which installs only the Discord bot's dependencies.
NO_SIMCORD = '''
import sys
class _NoSimcord:
    def find_spec(self, name, path=None, target=None):
        if name == "simcord" or name.startswith("simcord."):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)")
        return None
sys.meta_path.insert(0, _NoSimcord())
'''


def child_env(tmp_path: Path, *, no_simcord: bool = False, **extra: str) -> dict[str, str]:
    guard = tmp_path / "guard"
    guard.mkdir(exist_ok=True)
    (guard / "sitecustomize.py").write_text(NO_NETWORK + (NO_SIMCORD if no_simcord else ""))
    env = {key: value for key, value in os.environ.items()
           if key not in {"DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL",
                          "BOT_ACTION_DELAY", "TRACTOR_COMPUTER", "TRACTOR_DEBUG_START_LEVEL",
                          "TRACTOR_ASSETS", "LOCAL_PLAY"}}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(guard), str(ROOT),
                                                      env.get("PYTHONPATH")]))
    env["NETWORK_MARK"] = str(tmp_path / "network-used")
    env.update(extra)
    return env


def run_bot(tmp_path: Path, *options: str, prefix: tuple[str, ...] = (),
            no_simcord: bool = False, **extra: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot --env-file <empty> …options`` in `tmp_path` with the network guard
    (and `no_simcord`: with SimCord blocked); `prefix` goes before the command."""
    empty = tmp_path / "empty.env"
    empty.write_text("")
    return subprocess.run(
        [*prefix, sys.executable, "-m", "bot", "--env-file", str(empty), *options],
        capture_output=True, text=True, timeout=20, cwd=tmp_path,
        env=child_env(tmp_path, no_simcord=no_simcord, **extra))


def assert_one_line(done: subprocess.CompletedProcess[str], status: int, words: str) -> str:
    """The child exited with `status` after exactly one stderr line containing `words`."""
    assert done.returncode == status, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tractor-bot: ") and words in lines[0], lines[0]
    assert "Traceback" not in done.stderr and TOKEN not in done.stderr + done.stdout
    return lines[0]


@pytest.mark.parametrize("kind", ["garbage", "directory"])
def test_a_bad_database_is_one_line_before_any_network_use(tmp_path: Path, kind: str) -> None:
    database = tmp_path / "tractor.sqlite3"
    if kind == "garbage":
        database.write_bytes(b"not a database, just some words long enough to be read" * 4)
    else:
        database.mkdir()
    done = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(database))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tractor-bot: ") and str(database) in lines[0]
    assert "Traceback" not in done.stderr
    assert TOKEN not in done.stderr + done.stdout
    assert not (tmp_path / "network-used").exists(), "the bot went to the network first"
    if kind == "garbage":
        assert "not an SQLite database" in lines[0]
        assert database.read_bytes().startswith(b"not a database")  # left untouched


@pytest.mark.parametrize("simcord", ["installed", "missing"])
def test_discord_out_of_reach_is_one_line_and_status_1(tmp_path: Path, simcord: str) -> None:
    """Also the whole Discord start-up path without SimCord (the runtime image has none:
    only local play needs it, the ``local`` extra)."""
    done = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path / "t.sqlite3"),
                   no_simcord=simcord == "missing")
    assert (tmp_path / "network-used").exists()  # it did try (the guard refused)
    assert_one_line(done, 1, "cannot reach Discord")


def test_discord_mode_modules_do_not_need_simcord(tmp_path: Path) -> None:
    """Every bot module but local play imports with SimCord blocked."""
    code = ("import pkgutil, importlib, bot\n"
            "for m in pkgutil.walk_packages(bot.__path__, 'bot.'):\n"
            "    if m.name != 'bot.app.local' and not m.name.endswith('__main__'):\n"
            "        importlib.import_module(m.name)\n"
            "import bot.__main__, bot.app.local\n"  # local play imports SimCord only when run
            "print('imported')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, env=child_env(tmp_path, no_simcord=True))
    assert done.returncode == 0 and "imported" in done.stdout, done.stderr


def test_local_play_without_simcord_says_how_to_install_it(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "--local", no_simcord=True)
    line = assert_one_line(done, 2, "local play needs SimCord, which is not installed")
    assert "make play" in line and "'.[local]'" in line


@pytest.mark.parametrize("database", ["saved", "new", "read-only-file"])
def test_a_database_the_bot_cannot_write_stops_the_start(unprivileged: Any,
                                                         database: str) -> None:
    """Issue 15: a database the bot cannot write is one line and status 2 before any
    network use, as for a corrupt file: a saved file or a new one in a folder the bot
    cannot write (SQLite refuses it), or a read-only file (`Store.open` refuses it)."""
    from bot.app.client import prepare_database

    folder = unprivileged.root / "db"
    folder.mkdir()
    path = folder / "tractor.sqlite3"
    if database != "new":
        prepare_database(str(path))
    if database == "read-only-file":
        path.chmod(0o444)
        folder.chmod(0o777)
    else:
        unprivileged.read_only(folder)
    marks = unprivileged.root / "marks"
    marks.mkdir(mode=0o777)
    marks.chmod(0o777)  # the guard's mark must be writable for the child
    done = run_bot(unprivileged.root, prefix=unprivileged.prefix, DISCORD_TOKEN=TOKEN,
                   DATABASE_PATH=str(path), NETWORK_MARK=str(marks / "network-used"))
    assert_one_line(done, 2, path.name)
    assert not (marks / "network-used").exists(), "the bot went to the network first"


class Key(SimpleNamespace):
    pass


@pytest.mark.parametrize(
    ("error", "status", "words"),
    [
        (discord.LoginFailure("Improper token has been passed."), 2, "rejected DISCORD_TOKEN"),
        (aiohttp.ClientConnectorError(Key(host="discord.com", port=443, ssl=True),
                                      OSError(-2, "Name or service not known")),
         1, "cannot reach Discord (discord.com:443: Name or service not known)"),
        (TimeoutError(), 1, "timed out"),
        (ConnectionResetError(104, "Connection reset by peer"), 1, "cannot reach Discord"),
        (aiohttp.ServerDisconnectedError(), 1, "cannot reach Discord"),
        (DatabaseCorrupt("db.sqlite3", "not an SQLite database\n(bad header)"), 2,
         "db.sqlite3: not an SQLite database (bad header)"),
        (SchemaTooNew("db.sqlite3", 9, 4), 2, "schema version 9 is newer"),
        (StorageError("the store is closed"), 2, "the store is closed"),
    ],
    ids=["login", "connector", "timeout", "reset", "disconnected", "corrupt", "too-new",
         "storage"],
)
def test_startup_failures_map_to_one_line(error: BaseException, status: int,
                                          words: str) -> None:
    failure = cli.startup_failure(error)
    assert failure is not None
    code, line = failure
    assert code == status
    assert words in line and "\n" not in line


def test_database_open_errors_and_bugs() -> None:
    failure = cli.startup_failure(PermissionError(13, "Permission denied"),
                                    database="/data/t.sqlite3")
    assert failure == (2, "cannot open the database /data/t.sqlite3: Permission denied")
    assert cli.startup_failure(ValueError("a bug")) is None  # raised, not hidden
    assert cli.startup_failure(KeyError("a bug"), database="x") is None


@pytest.mark.parametrize(
    ("error", "status"),
    [(discord.LoginFailure("Improper token has been passed."), 2),
     (aiohttp.ClientConnectorError(Key(host="discord.com", port=443, ssl=True),
                                   OSError(111, "Connection refused")), 1)],
    ids=["rejected-token", "unreachable"],
)
def test_run_discord_reports_a_failed_login(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str],
                                            error: BaseException, status: int) -> None:
    async def static_login(self: Any, token: str) -> Any:
        raise error

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", static_login)
    monkeypatch.setattr("bot.runtime.logging.setup_logging", lambda *a, **k: None)
    config = Config(token=TOKEN, database_path=str(tmp_path / "t.sqlite3"),
                    sync_commands=False)
    assert entry.run_discord(config) == status
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("tractor-bot: "), err
    assert TOKEN not in err


# ------------------------------------------------------------------ TRACTOR_COMPUTER


def test_tractor_computer_must_be_a_player_make_player_builds() -> None:
    from engine.ai import CHOICES, LEVELS, PLAYERS

    for name in PLAYERS:
        assert Config.from_env({"TRACTOR_COMPUTER": name},
                               require_token=False).computer_player == name
    assert Config.from_env({"TRACTOR_COMPUTER": " Greedy "},
                           require_token=False).computer_player == "greedy"
    assert Config.from_env({"TRACTOR_COMPUTER": ""}, require_token=False).computer_player == "ai"
    with pytest.raises(ConfigError) as caught:
        Config.from_env({"TRACTOR_COMPUTER": "smart"}, require_token=False)
    assert str(caught.value) == (
        f"TRACTOR_COMPUTER must be one of {', '.join(CHOICES)}, not 'smart'")
    for level in LEVELS:  # a level names its player (`engine.ai.LEVEL_PLAYERS`)
        assert Config.from_env({"TRACTOR_COMPUTER": level.title()},
                               require_token=False).computer_player == level


@pytest.mark.parametrize("mode", ["discord", "local"])
def test_a_bad_tractor_computer_stops_the_start_in_one_line(tmp_path: Path, mode: str) -> None:
    extra = {"DISCORD_TOKEN": TOKEN} if mode == "discord" else {}
    done = run_bot(tmp_path, TRACTOR_COMPUTER="smart",
                   DATABASE_PATH=str(tmp_path / "t.sqlite3"), **extra)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("tractor-bot: TRACTOR_COMPUTER must be one of")
    assert not (tmp_path / "network-used").exists()


def test_the_entry_point_and_local_play_do_not_import_each_other(tmp_path: Path) -> None:
    """bot/__main__.py imports bot/app/local.py only when local play runs, and local play never
    imports the entry point: what both need is in bot/app/cli.py."""
    code = ("import sys, bot.app.local\n"
            "assert 'bot.__main__' not in sys.modules, 'bot.app.local imported bot.__main__'\n"
            "del sys.modules['bot.app.local']\n"
            "import bot.__main__\n"
            "assert 'bot.app.local' not in sys.modules, 'bot.__main__ imported bot.local'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, env=child_env(tmp_path))
    assert done.returncode == 0, done.stderr
    local = (ROOT / "bot" / "app" / "local.py").read_text()  # not even inside a function
    assert not re.search(r"from bot\.__main__ import|import bot\.__main__|from bot import "
                         r"__main__", local)
