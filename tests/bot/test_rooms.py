"""The rooms (bot/features) stand on their own (issue 27, "Smaller" and the friend call):
no room imports another or looks another up (`get_cog`), or calls another object's private
methods; every command takes the one error path; ``/tractor settings`` is its own room's,
under the same name; ``/tractor new`` states its parameters once, the options' commands;
the mode a table's shape implies is inferred in one place."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from botkit import reply_texts, world

from bot.core.options import OPTIONS, shape_mode, with_option
from bot.features.lobby import Lobby

ROOT = Path(__file__).resolve().parents[2]
FEATURES = ROOT / "bot" / "features"


def _sources() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(), str(path)))
            for path in sorted(FEATURES.glob("*.py"))]


def test_no_room_imports_or_looks_up_another() -> None:
    reaching = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "bot.features."):
                reaching.append(f"{path.name} imports {node.module}")
            if isinstance(node, ast.ImportFrom) and node.module == "bot.features":
                rooms = {a.name for a in node.names if (FEATURES / f"{a.name}.py").exists()}
                reaching += [f"{path.name} imports bot.features.{r}" for r in rooms]
            if isinstance(node, ast.Attribute) and node.attr == "get_cog":
                reaching.append(f"{path.name} calls get_cog")
    assert reaching == []


def test_no_room_calls_another_objects_private_methods() -> None:
    """``x._name(...)`` only on ``self`` (discord.py's own are listed)."""
    allowed = {"_copy_with", "_locale_description"}
    reaching = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and node.attr not in allowed
                    and not (isinstance(node.value, ast.Name) and node.value.id in
                             ("self", "cls"))):
                reaching.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert reaching == []


async def test_every_command_takes_the_one_error_path_and_settings_has_its_room(
        tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        bot = w.bot
        rooms = {c.qualified_name: type(c.binding).__name__
                 for c in bot.app.group.walk_commands() if hasattr(c, "binding")}
        assert rooms["tractor settings"] == "Settings"
        assert rooms["tractor records replay"] == rooms["tractor replay"] == "Records"
        unguarded = [c.qualified_name for c in bot.app.group.walk_commands()
                     if hasattr(c, "callback") and not hasattr(c.callback, "__wrapped__")]
        assert unguarded == []


async def test_a_refused_replay_and_settings_take_the_one_error_path(tmp_path: Path) -> None:
    """Their refusals are `UserFacingError`s answered once by `bot.ui.replies.fail` (the
    records room kept its own ``fail`` and ``reply_locale`` before)."""
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        replay = await alice.slash(w.channel, "tractor records replay", hand=424242)
        assert reply_texts(replay) == ["There is no hand #424242 in this server."]
        refused = await alice.slash(w.channel, "tractor settings", server_language="zh_Hans")
        assert reply_texts(refused) == [
            "Changing the server's language needs the Manage Server permission."]


def test_new_states_its_parameters_once_the_options_commands() -> None:
    parameters = list(inspect.signature(Lobby.new.callback).parameters)[2:]
    assert sorted(parameters) == sorted(o.command for o in OPTIONS.values() if o.command)
    source = inspect.getsource(Lobby.new.callback)
    body = source[source.index('"""'):]
    assert not any(f'"{name}"' in body for name in parameters)  # not typed again


@pytest.mark.parametrize(("players", "decks", "mode"), [
    (None, None, None), (4, None, None), (4, 2, None), (None, 0, None), (5, None, "friends"),
    (None, 3, "friends"), (8, 4, "friends")])
def test_the_mode_a_shape_implies_in_one_place(players: int | None, decks: int | None,
                                                mode: str | None) -> None:
    assert shape_mode(players, decks) == mode
    teams = {"mode": "teams", "players": 4, "decks": 0}
    if players is not None:  # an options select on a teams table infers the same way
        assert with_option(teams, "players", players)["mode"] == (mode or "teams")
