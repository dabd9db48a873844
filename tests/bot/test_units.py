"""Small pieces of the bot without Discord: custom ids, select packing, card instances,
the table document, configuration and the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.core.table import Seat, TableDoc, bump_step
from bot.runtime.config import Config, ConfigError
from bot.ui.panels import pack_groups
from bot.ui.selection import instances, selection_cards
from engine.actions import StartHand
from engine.cards import parse_cards
from engine.game import Match


def test_card_instances_tell_twins_apart() -> None:
    cards = parse_cards("AS AS KH RJ RJ")
    values = [v for v, _ in instances(cards)]
    assert values == ["AS", "AS.2", "KH", "RJ", "RJ.2"]
    assert selection_cards(cards, ["AS.2", "RJ", "XX", "AS.2"]) == parse_cards("AS RJ")


@pytest.mark.parametrize(("sizes", "rows"), [
    ([9, 6, 5, 7, 6], 3),   # 33 cards while burying: merged into three selects
    ([26, 3, 2, 2], 3),     # a trump group above 25 is split
    ([5, 5], 3),            # one select per group when they fit
    ([25], 1),
])
def test_select_packing(sizes: list[int], rows: int) -> None:
    groups = [[object()] * n for n in sizes]
    packed = pack_groups(groups, rows=rows)  # type: ignore[arg-type]
    assert len(packed) <= rows
    assert all(1 <= len(chunk) <= 25 for chunk in packed)
    flat = [i for chunk in packed for i in chunk]
    assert flat == list(range(sum(sizes)))  # every card once, in display order
    if len(sizes) <= rows and max(sizes) <= 25:
        assert [len(c) for c in packed] == sizes


def test_table_document_round_trip_and_steps() -> None:
    doc = TableDoc(guild_id=1, channel_id=2, creator_id=3)
    doc.seats[0] = Seat(3, "alice")
    doc.seats[1] = Seat(None, "")
    match, _ = Match.new().apply(StartHand(7))
    doc.set_match(match)
    assert bump_step(doc, match) and doc.step == 1
    assert not bump_step(doc, match)  # same decision point: same step
    again = TableDoc.from_dict(doc.to_dict())
    assert again.to_dict() == doc.to_dict()
    assert again.get_match() == match


def test_config_from_env() -> None:
    token = "A" * 24 + "." + "B" * 6 + "." + "C" * 27
    config = Config.from_env({"DISCORD_TOKEN": token, "BOT_ACTION_DELAY": "0",
                              "DEV_GUILD_ID": "123", "LOG_LEVEL": "debug"})
    assert config.action_delay == 0 and config.dev_guild_id == 123
    assert config.log_level == "DEBUG" and token not in repr(config)
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        Config.from_env({})
    with pytest.raises(ConfigError, match="does not look like a bot token"):
        Config.from_env({"DISCORD_TOKEN": "nope"})
    with pytest.raises(ConfigError, match="BOT_ACTION_DELAY"):
        Config.from_env({"DISCORD_TOKEN": token, "BOT_ACTION_DELAY": "soon"})
    assert Config.from_env({}, require_token=False).token is None
    assets = str(Path(__file__).resolve().parents[2] / "assets")
    assert Config.from_env({"TRACTOR_ASSETS": assets}, require_token=False).token is None
    assert Config.from_env({"TRACTOR_ASSETS": " "}, require_token=False).token is None
    with pytest.raises(ConfigError, match="TRACTOR_ASSETS='/nowhere' has no fonts/ folder"):
        Config.from_env({"TRACTOR_ASSETS": "/nowhere"}, require_token=False)
    with pytest.raises(ConfigError, match="TRACTOR_DEBUG_START_LEVEL"):
        Config.from_env({"TRACTOR_DEBUG_START_LEVEL": "1"}, require_token=False)
    config = Config.from_env({"TRACTOR_COMPUTER": "greedy",
                              "TRACTOR_DEBUG_START_LEVEL": "a"}, require_token=False)
    assert (config.computer_player, config.debug_start_level) == ("greedy", "A")


ROOT = Path(__file__).resolve().parents[2]


def test_command_line_help_and_bad_token() -> None:
    run = subprocess.run([sys.executable, "-m", "bot", "--help"], capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0 and "DISCORD_TOKEN" in run.stdout
    env = {"DISCORD_TOKEN": "not-a-token", "PATH": "", "LOCAL_PLAY": "off"}
    run = subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True,
                         timeout=120, env=env, cwd=ROOT)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert "not-a-token" not in run.stderr


def test_options_are_stored_once_and_old_documents_still_read() -> None:
    from engine.rules import RuleSet

    doc = TableDoc(guild_id=1, channel_id=2, creator_id=3,
                   options=RuleSet(turn_timer_s=60).to_dict())
    match = Match.new(doc.rules).apply(StartHand(5))[0]
    doc.set_match(match)
    stored = doc.to_dict()
    assert "rules" not in stored["match"] and stored["options"]["turn_timer_s"] == 60
    again = TableDoc.from_dict(stored).get_match()
    assert again is not None and again.rules == match.rules
    # A document written by release 1 keeps the rules inside the match too.
    old = dict(stored, match={**stored["match"], "rules": match.rules.to_dict()})
    restored = TableDoc.from_dict(old).get_match()
    assert restored is not None and restored.rules == match.rules
