"""The presentation's markdown escaping (`bot.present.markdown`, Discord-free) escapes as
discord.py's own ``discord.utils.escape_markdown`` does: players' names read the same."""

from __future__ import annotations

import discord
import pytest

from bot.present.markdown import escape_markdown

SAMPLES = [
    "", "Alice", "**bold**", "_under_score_", "a\\b", "~~strike~~", "||spoiler||",
    "`code`", "> quote", ">>> block", "# title", "### h3", "  - item", "[x](https://e.com)",
    "see https://example.com/a_b_c.", "<https://x.y/_z_>", "steam://run/1_2", "multi\n> line\n- x",
    "名字_中文*", "Bot 3 · strong", "a|b`c*d_e~f", "#hashtag", "-dash", "<@123>",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_the_same_as_discord(text: str) -> None:
    assert escape_markdown(text) == discord.utils.escape_markdown(text)
