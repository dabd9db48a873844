"""Server defaults: a guild's default language and default table options (JSON dict)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.storage import GuildSettings, Store


async def test_defaults_until_set(store: Store) -> None:
    assert await store.guild_settings(1) == GuildSettings(1, "en", {})


async def test_options_and_language_round_trip_as_given(store: Store) -> None:
    options: dict[str, Any] = {"following": "suit_only", "ruff_throw": "every_unit",
                               "fixed_trump": None, "take_backs": True, "turn_timer": 45,
                               "名前": "桌子 ☘", "nested": {"a": [1, 2.5, "x"]}}
    got = await store.set_guild_settings(1, language="zh_Hant", table_options=options)
    assert got == GuildSettings(1, "zh_Hant", options)
    assert await store.guild_settings(1) == got
    # storage does not judge option names: that is the bot's options registry's job
    assert (await store.set_guild_settings(1, table_options={"no_such": 1})).table_options == {
        "no_such": 1}
    # language alone keeps the options, options alone keep the language
    assert await store.set_guild_settings(1, language="en") == GuildSettings(
        1, "en", {"no_such": 1})
    assert await store.set_guild_settings(1, table_options={}) == GuildSettings(1, "en", {})


async def test_single_options_change_in_one_transaction(store: Store) -> None:
    await store.set_guild_settings(1, table_options={"a": 1, "b": 2, "c": 3})
    got = await store.set_guild_settings(1, update_options={"b": None, "d": [4]},
                                         reset_options=["a", "missing"])
    assert got.table_options == {"b": None, "c": 3, "d": [4]}
    # concurrent single changes do not lose each other's writes
    await asyncio.gather(*(store.set_guild_settings(1, update_options={f"k{i}": i})
                           for i in range(8)))
    options = (await store.guild_settings(1)).table_options
    assert {k: options[k] for k in options if k.startswith("k")} == {f"k{i}": i
                                                                    for i in range(8)}
    # replacing and updating together: replace first, then update
    got = await store.set_guild_settings(1, table_options={"x": 1}, update_options={"y": 2})
    assert got.table_options == {"x": 1, "y": 2}


@pytest.mark.parametrize("bad", [
    {"table_options": ["not", "a", "dict"]},
    {"table_options": {1: "int key"}},
    {"table_options": {"x": float("nan")}},
    {"table_options": {"x": object()}},
    {"update_options": {2: "int key"}},
    {"update_options": {"x": {1, 2}}},
    {"reset_options": "abc"},
    {"language": ""},
    {"language": None},
])
async def test_bad_settings_change_nothing(store: Store, bad: dict[str, Any]) -> None:
    before = await store.set_guild_settings(1, language="zh_Hans", table_options={"a": 1})
    with pytest.raises(ValueError):
        await store.set_guild_settings(1, **bad)
    assert await store.guild_settings(1) == before
