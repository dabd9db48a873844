"""Issue 12 item 4: `/tractor rules` and help point to the full rule book (docs/rules.md),
at the address the operator gives (TRACTOR_RULES_URL) or by its place in the source."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import reply_texts, world

from bot.runtime.config import Config, ConfigError

ROOT = Path(__file__).resolve().parents[2]


def text_of(result: object) -> str:
    return "\n".join(reply_texts(result))


async def test_rules_and_help_name_the_rule_book_file(tmp_path: Path) -> None:
    assert (ROOT / "docs" / "rules.md").is_file()
    async with world(tmp_path, humans=1) as w:
        (alice,) = w.users
        for command in ("tractor rules", "tractor help"):
            shown = text_of(await alice.slash(w.channel, command))
            assert "`docs/rules.md`" in shown, (command, shown)


async def test_rules_and_help_link_the_configured_rule_book(tmp_path: Path) -> None:
    url = "https://example.org/tractor/docs/rules.md"
    async with world(tmp_path, humans=1, rules_url=url) as w:
        (alice,) = w.users
        for command in ("tractor rules", "tractor help"):
            assert f"<{url}>" in text_of(await alice.slash(w.channel, command)), command


def test_the_rule_book_address_must_be_a_web_address() -> None:
    config = Config.from_env({"TRACTOR_RULES_URL": "https://example.org/rules"},
                             require_token=False)
    assert config.rules_url == "https://example.org/rules"
    with pytest.raises(ConfigError, match="TRACTOR_RULES_URL"):
        Config.from_env({"TRACTOR_RULES_URL": "javascript:alert(1)"}, require_token=False)
