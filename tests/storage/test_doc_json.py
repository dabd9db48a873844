"""A table's document is written as exactly the text the standard encoder writes (orjson
makes it faster, issue 16), and what is not JSON is refused as before."""

from __future__ import annotations

import math

import pytest

from bot.core.table import Seat, TableDoc
from bot.storage.sql import doc_dumps, dumps
from tests.bot.test_hot_path_caches import playing_match


def a_document() -> dict[str, object]:
    doc = TableDoc(guild_id=2**62, channel_id=2, creator_id=3, locale="zh_Hans")
    doc.seats[0] = Seat(3, "阿丽 \"Ali\" \\ \u2028", "zh_Hans")
    doc.set_match(playing_match())
    doc.deadline, doc.timer = 1_764_650_000.123456, "turn"
    doc.add_note("出牌 A♠ — 10♥ <@3>")
    doc.results.append({"hand_no": 1, "starter": None, "new_levels": ["2", "3"]})
    return doc.to_dict()


def test_the_same_text_as_the_standard_encoder() -> None:
    for value in (a_document(), {"deadline": 0.1 + 0.2, "big": 1e16, "small": -0.0},
                  {"deadline": None, "x": []}):
        assert doc_dumps(value) == dumps(value)


def test_what_orjson_writes_otherwise_goes_to_the_standard_encoder() -> None:
    assert doc_dumps({1: "a", "n": 2**70}) == dumps({1: "a", "n": 2**70})
    for bad in (math.nan, math.inf):
        with pytest.raises(ValueError):
            doc_dumps({**a_document(), "deadline": bad})
