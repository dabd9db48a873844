"""Discord's markdown escaping without discord (the presentation floor imports no Discord):
the same regular expressions as ``discord.utils.escape_markdown`` (links left alone), which
tests/bot/test_markdown.py holds it to."""

from __future__ import annotations

import re

__all__ = ["escape_markdown"]

_URL = r"""(?P<url><[^: >]+:\/[^ >]+>|(?:https?|steam):\/\/[^\s<]+[^<.,:;\"\'\]\s])"""
_MARKDOWN = r"(?P<markdown>[_\\~|\*`]|^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-)"
_PATTERN = re.compile(f"(?:{_URL}|{_MARKDOWN})", re.MULTILINE)


def _replace(found: re.Match[str]) -> str:
    url = found.group("url")
    return url if url else "\\" + found.group("markdown")


def escape_markdown(text: str) -> str:
    """`text` with Discord's markdown characters escaped by a backslash, links kept."""
    return _PATTERN.sub(_replace, text)
