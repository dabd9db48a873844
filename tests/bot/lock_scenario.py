"""Tables ready for the five entry points measured under a foreign write lock (issue 15
item 3): used by tests/bot/test_lock_ack.py and tests/bot/bench_lock_ack.py.

Each `Group` is two tables in their own channels, with one user per entry point (so a
response is told apart by its user): ``join`` (``/tractor join`` at a lobby table),
``rules`` (``/tractor rules`` there), ``play`` (the Play press of a seated human whose
cards are selected), ``button`` (a spectator's Score button on a running table's
message) and ``stats`` (``/tractor stats``).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from botkit import World, by_panel, components, find, reply_texts, seats_to_act
from simcord.actors import MemberActor

from engine.game import Phase

KINDS = ("join", "rules", "play", "button", "stats")
WRITES = ("join", "play")


@dataclass
class Group:
    """A lobby table and a running table, and who does what."""

    lobby: World
    game: World
    users: dict[str, MemberActor] = field(default_factory=dict)

    def action(self, kind: str) -> Callable[[], Awaitable[Any]]:
        """The interaction of `kind` (a coroutine function, sent when called)."""
        user = self.users[kind]
        if kind == "join":
            return lambda: user.slash(self.lobby.channel, "tractor join")
        if kind == "rules":
            return lambda: user.slash(self.lobby.channel, "tractor rules")
        if kind == "stats":
            return lambda: user.slash(self.lobby.channel, "tractor stats")
        if kind == "button":
            table = self.game.table_message()
            score = find(table, "score")
            assert score is not None
            return lambda: user.click(table, custom_id=score.custom_id)
        assert kind == "play"
        panel = self.game.dm_panel(user)
        play = find(panel, "play")
        assert play is not None and not play.disabled, panel.content
        return lambda: user.user.click(panel, custom_id=play.custom_id)

    async def state(self) -> tuple[int, int]:
        """The two tables' stored versions (a refused write leaves them alone)."""
        return await self.lobby.version(), await self.game.version()


async def make_group(env: Any, database: Any, guild: Any, index: int) -> Group:
    """Open, start and drive the group's tables until its player may press Play."""
    def member(name: str) -> MemberActor:
        return guild.add_member(env.create_user(f"{name}{index}"))

    users = {kind: member(kind) for kind in KINDS}
    lobby = World(env, database, {}, guild, guild.create_text_channel(f"lobby{index}"),
                  [member("owner")])
    await lobby.open_table(1)
    lobby.users.append(users["join"])
    game = World(env, database, {}, guild, guild.create_text_channel(f"game{index}"),
                 [users["play"]])
    await game.open_table(1, turn_timer=0)
    await game.start()
    await ready_to_press(game, users["play"])
    return Group(lobby, game, users)


async def ready_to_press(w: World, user: MemberActor) -> None:
    """Play (by panel) until it is `user`'s turn to play a trick; select a legal play."""
    for _ in range(200):
        match = await w.match()
        doc = await w.doc()
        seat = doc.seat_of(user.id)
        if match.phase is Phase.PLAYING and seats_to_act(match) == [seat]:
            break
        assert seat in seats_to_act(match), (match.phase, seats_to_act(match))
        await by_panel(w, seat)
    else:
        raise AssertionError("never the player's turn")
    panel = w.dm_panel(user)
    if (await w.match()).public_view().trick is None:
        chosen = next(c for c in components(panel) if ":sel:" in (c.custom_id or ""))
    else:
        chosen = find(panel, "quick")
    await user.user.select(panel, [chosen.options[0].value], custom_id=chosen.custom_id)
    await w.bot.publisher.idle()


@dataclass
class Acks:
    """The moment (`time.perf_counter`) each user's interaction was first answered."""

    first: dict[int, float] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)

    def install(self, monkeypatch: Any) -> None:
        """Record the first response (defer, message, edit, modal) of every interaction."""
        for name in ("defer", "send_message", "edit_message", "send_modal"):
            original = getattr(discord.InteractionResponse, name)

            async def wrapped(response: Any, *args: Any, __original: Any = original,
                              **kwargs: Any) -> Any:
                user_id = response._parent.user.id
                if user_id not in self.first:
                    self.first[user_id] = time.perf_counter()
                    self.order.append(user_id)
                return await __original(response, *args, **kwargs)
            monkeypatch.setattr(discord.InteractionResponse, name, wrapped)


def outcome(result: Any, try_again: str) -> str:
    """``try again`` (the translated busy reply), ``error`` or ``done``."""
    texts = reply_texts(result)
    if any(try_again in text for text in texts):
        return "try again"
    if any("went wrong" in text for text in texts):
        return "error"
    return "done"
