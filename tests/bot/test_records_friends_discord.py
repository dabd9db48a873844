"""/tractor records stats|leaderboard|history mode: friends through SimCord: Finding
Friends records shown apart from the four-player game, its leaderboard's buttons (which
survive a restart) and forged ids refused.

Seeded (guild "Tractor club", #tractor), sides = the starter's final side:
  F1 (p0..p5):  starter 0 with 2, 4 won +2 · starter 0 alone lost (opponents +1)
  F2 (p6..p11): starter 6 with 7 won +1
  F3 (p0, cpu, p2, cpu, p4, p5): starter 0 with 4 won +1 (computers: shown, not ranked)
  T1 (p0..p3): a teams hand, A declares and holds, +1 (team A wins the match)
"""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import simcord
from botkit import forge, reply_texts, simulated
from friends_hand import friends_rules, play_friends_hand
from simcord.actors import MemberActor

from bot import create_bot
from bot.app.client import TractorBot
from bot.present.replay import replay_frames
from bot.present.text import cards_text
from bot.runtime.config import Config
from bot.services.records import hand_record, match_record
from bot.storage import HandAction, HandRecord, MatchRecord, Side, Store
from engine.game import Match

CONFIG = Config(action_delay=0.0, edit_interval=0.0)
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
NOT_VALID = "This button is not valid"
FOOTER = ("-# Each hand rates the starter's side against the opponents, each at its "
          "players' average rating. Matches with computer players are not ranked.")
Hand = tuple[int, tuple[int, ...], Side, int]
"""(starter, final side, result, levels gained by the winning side)"""


async def seed_friends(store: Store, *, guild: int, channel: int, key: str,
                       players: tuple[int | None, ...], hands: Sequence[Hand]) -> None:
    table = await store.create_table(guild, channel, next(p for p in players if p), {})
    n = len(players)
    levels = ["2"] * n
    match = MatchRecord(match_key=key, table_id=table.id, guild_id=guild, channel_id=channel,
                        players=players, mode="friends", levels=tuple(levels))
    for i, (starter, side, result, gained) in enumerate(hands, start=1):
        before = tuple(levels)
        won = side if result == "declarers" else [s for s in range(n) if s not in side]
        for seat in won:
            levels[seat] = RANKS[RANKS.index(levels[seat]) + gained]
        hand = HandRecord(
            hand_key=f"{key}:{i}", match_key=key, table_id=table.id, hand_no=i, seed=i,
            level=before[starter], players=players, starter=starter, declarers=side,
            mode="friends", levels_before=before, levels_after=tuple(levels),
            result_side=result, result_levels=gained, opponent_points=40)
        table = await store.save_table(
            table.id, table.version, {}, status="playing", hand=hand,
            match=replace(match, levels=tuple(levels), hands_played=i),
            actions=[HandAction(hand.hand_key, 0, {"type": "start_hand", "seed": i})])
    await store.end_table(table.id, table.version)


async def seed_teams(store: Store, *, guild: int, channel: int,
                     players: tuple[int, ...]) -> None:
    table = await store.create_table(guild, channel, players[0], {})
    match = MatchRecord(match_key="T1", table_id=table.id, guild_id=guild,
                        channel_id=channel, players=players, mode="teams",
                        levels=("3", "2", "3", "2"), hands_played=1, winners=(0, 2))
    hand = HandRecord(hand_key="T1:1", match_key="T1", table_id=table.id, hand_no=1, seed=1,
                      level="2", players=players, starter=0, declarers=(0, 2),
                      result_side="declarers", result_levels=1, opponent_points=30,
                      mode="teams")
    await store.save_table(table.id, table.version, {}, match=match, hand=hand)


@dataclass
class World:
    env: simcord.Env
    database: Path
    store: Store
    guild: Any
    channel: Any
    players: list[MemberActor]

    def mention(self, index: int) -> str:
        return self.players[index].mention

    async def restart(self) -> None:
        old = self.env.bot
        assert isinstance(old, TractorBot)
        await self.env.restart_bot(create_bot(self.database, config=CONFIG))
        await old.close_store()


@asynccontextmanager
async def friends_world(tmp_path: Path) -> AsyncIterator[World]:
    database = tmp_path / "tractor.sqlite3"
    async with simulated(create_bot(database, config=CONFIG)) as env:
        guild = env.create_guild(name="Tractor club")
        channel = guild.create_text_channel("tractor")
        players = [guild.add_member(env.create_user(f"p{i}")) for i in range(12)]
        p = [u.id for u in players]
        seed = await Store.open(database)
        try:
            await seed_friends(seed, guild=guild.id, channel=channel.id, key="F1",
                               players=tuple(p[:6]),
                               hands=[(0, (0, 2, 4), "declarers", 2),
                                      (0, (0,), "opponents", 1)])
            await seed_friends(seed, guild=guild.id, channel=channel.id, key="F2",
                               players=tuple(p[6:]), hands=[(0, (0, 1), "declarers", 1)])
            await seed_friends(seed, guild=guild.id, channel=channel.id, key="F3",
                               players=(p[0], None, p[2], None, p[4], p[5]),
                               hands=[(0, (0, 4), "declarers", 1)])
            await seed_teams(seed, guild=guild.id, channel=channel.id, players=tuple(p[:4]))
        finally:
            await seed.close()
        world = World(env, database, await Store.open(database), guild, channel, players)
        try:
            yield world
        finally:
            bot = env.bot
            assert isinstance(bot, TractorBot)
            await bot.close_store()
            await world.store.close()


def button(message: Any, label: str) -> dict[str, Any]:
    (found,) = [c for row in message.components for c in row.get("components", [row])
                if c.get("label") == label]
    return found


async def test_friends_stats_are_shown_apart_from_teams(tmp_path: Path) -> None:
    async with friends_world(tmp_path) as w:
        p0 = w.players[0]
        result = await p0.slash(w.channel, "tractor stats", mode="friends")
        assert result.ephemeral
        (embed,) = result.response.embeds
        assert embed.description == f"{p0.mention}\n**Finding Friends**"
        fields = {f.name: f.value for f in embed.fields}
        rating = (await w.store.friends_stats(w.guild.id, p0.id)).rating
        assert rating is not None
        assert fields == {
            "Matches": "0 won of 0 (—)",
            "Hands": "2 won of 3 hands (67%)",  # F1 h1 won, h2 lost alone; F3 h1 won
            "As starter": "2 won of 3 hands (67%)",
            "As a friend": "0 won of 0 hands (—)",
            "As an opponent": "0 won of 0 hands (—)",
            "Highest level reached": "4",  # F1: 2 → 4; F3 (its own match): 2 → 3
            "Levels gained": "3",
            "Rating": f"{rating:.1f} after 2 rated hands",  # F3 has computers
            "Ranked (every seat a human)": "0 won of 0 matches, levels +2",
        }
        teams = await p0.slash(w.channel, "tractor records stats")
        fields = {f.name: f.value for f in teams.response.embeds[0].fields}
        assert fields["Matches"] == "1 won of 1 (100%)"  # T1 only
        assert fields["As declarers"] == "1 held of 1 hand (100%)"
        p1 = w.players[1]
        result = await p1.slash(w.channel, "tractor records stats", user=w.players[2],
                                mode="friends")
        fields = {f.name: f.value for f in result.response.embeds[0].fields}
        assert fields["As a friend"] == "1 won of 1 hand (100%)"  # F1 h1
        assert fields["As an opponent"] == "1 won of 2 hands (50%)"  # F1 h2 won, F3 h1 lost


async def test_friends_leaderboard_pages_survive_a_restart_and_refuse_forgeries(
        tmp_path: Path) -> None:
    async with friends_world(tmp_path) as w:
        viewer = w.players[7]
        result = await viewer.slash(w.channel, "tractor leaderboard", by="levels",
                                    mode="friends")
        message = result.response
        lines = message.content.split("\n")
        assert lines[0] == ("**Tractor club leaderboard**: Levels, Finding Friends players"
                            " (page 1/2)")
        assert lines[-1] == FOOTER
        # F1: seats 2 and 4 +2 then +1 = 3; seat 0 +2; seats 1, 3, 5 +1; F2: 6, 7 +1
        assert lines[1:4] == [f"**1.** {w.mention(2)}: levels +3 in 2 hands",
                              f"**1.** {w.mention(4)}: levels +3 in 2 hands",
                              f"**3.** {w.mention(0)}: levels +2 in 2 hands"]
        board = await w.store.leaderboard(w.guild.id, "levels", "players", mode="friends")
        assert board.total_rows == 12 and [r.levels for r in board.rows[:3]] == [3, 3, 2]
        assert button(message, "▶")["custom_id"] == "rec:lb:levels:friends:2:1"
        await viewer.click(message, label="▶")
        assert message.content.startswith(
            "**Tractor club leaderboard**: Levels, Finding Friends players (page 2/2)")
        assert w.mention(0) not in message.content  # T1 (teams) counts nowhere here
        await w.restart()
        await viewer.click(message, label="◀")
        assert "(page 1/2)" in message.content and "Finding Friends" in message.content
        before = message.content
        for custom_id in ("rec:lb:levels:friend:2:1", "rec:lb:levels:friends:2:0",
                          "rec:lb:levels:friends:x:1", "rec:lb:levels:friends:2:99999",
                          "rec:lb:levels:friends:5:1", "rec:lb:levels.friends:2",
                          "rec:lb:levels:friends:2:1:1", "tr:1:0:0:lb:levels.friends"):
            forged = await forge(viewer, message, custom_id)
            texts = reply_texts(forged)
            assert len(texts) == 1 and NOT_VALID in texts[0], (custom_id, texts)
            assert message.content == before

        result = await viewer.slash(w.channel, "tractor leaderboard", scope="partnerships",
                                    mode="friends")
        content = result.response.content
        assert content.startswith("**Tractor club leaderboard**: Rating, Finding Friends")
        assert "Finding Friends has no fixed partners: players are shown." in content
        teams = await viewer.slash(w.channel, "tractor leaderboard")
        assert "Players (page 1/1)" in teams.response.content
        assert w.mention(5) not in teams.response.content  # friends players are not here


async def test_friends_history_lists_seats_and_levels(tmp_path: Path) -> None:
    async with friends_world(tmp_path) as w:
        result = await w.players[0].slash(w.channel, "tractor history", mode="friends")
        content = result.response.content
        lines = content.split("\n")
        assert lines[0] == "**Last Finding Friends matches in this channel**"
        matches = [line for line in lines[1:] if line.startswith("**")]
        assert len(matches) == 3
        newest = matches[0]
        assert "6 players: " in newest and "Bot 2 (level 2)" in newest
        assert f"{w.mention(4)} (level 3)" in newest and "not finished" in newest
        assert "computer players: not ranked" in newest
        f1 = [line for line in lines if f"{w.mention(2)} (level 5)" in line]
        assert len(f1) == 1
        teams = await w.players[0].slash(w.channel, "tractor history")
        assert "(level 3) vs" in teams.response.content
        assert "players:" not in teams.response.content


def n_seat_pictures() -> bool:
    """True once bot/render draws tables of 4–8 seats (ffrender's ring layout)."""
    return importlib.util.find_spec("bot.render.ring") is not None


@pytest.mark.skipif(not n_seat_pictures(), reason="needs the N-seat table picture (ffrender)")
async def test_a_six_seat_hand_replays_step_by_step_with_public_cards_only(
        tmp_path: Path) -> None:
    database = tmp_path / "tractor.sqlite3"
    async with simulated(create_bot(database, config=CONFIG)) as env:
        guild = env.create_guild(name="Tractor club")
        channel = guild.create_text_channel("tractor")
        players = [guild.add_member(env.create_user(f"p{i}")) for i in range(6)]
        ids = tuple(u.id for u in players)
        steps = list(play_friends_hand(Match.new(friends_rules()), 0))
        seed = await Store.open(database)
        try:
            table = await seed.create_table(guild.id, channel.id, ids[0], {
                "options": {"mode": "friends", "players": 6}})
            for seq, (action, match) in enumerate(steps):
                table = await seed.save_table(
                    table.id, table.version, {"options": {"mode": "friends", "players": 6}},
                    match=match_record(match, match_key="F", table_id=table.id,
                                       guild_id=guild.id, channel_id=channel.id,
                                       players=ids, hands_played=0),
                    hand=hand_record(match, hand_key="F:1", match_key="F",
                                     table_id=table.id, players=ids),
                    actions=[HandAction("F:1", seq, action.to_dict())])
            record = await seed.hand_record("F:1")
        finally:
            await seed.close()
        assert record is not None and record.id is not None
        final = steps[-1][1].hand
        assert final is not None and final.result is not None
        frames = replay_frames(record, friends_rules())
        viewer = players[3]
        result = await viewer.slash(channel, "tractor replay", hand=record.id)
        assert result.ephemeral
        message = result.response
        kitty = cards_text(final.result.kitty)
        for step, frame in enumerate(frames):
            text = message.content
            assert text.startswith(f"**Replay of hand #{record.id}** (hand 1 of its match),"
                                   f" step {step + 1}/{len(frames)}\n")
            assert len(message.attachments) == 1
            if step < len(frames) - 1:
                assert "Kitty" not in text and kitty not in text
                assert frame.view.result is None
                # nobody is shown as a friend before their called card is played
                assert set(frame.view.declarer_seats) <= set(record.declarers or ())
                await viewer.click(message, label="▶")
            else:
                assert f"Kitty: {kitty}" in text and "Starter's side:" in text
        bad = [f"rec:rp:{record.id}:12345", "rec:rp:0:1", f"rec:rp:{record.id}",
               f"rec:rp:{record.id}:1:1", f"rec:lb:rating:friends:{record.id}:x"]
        for custom_id in bad:
            forged = await forge(viewer, message, custom_id)
            texts = reply_texts(forged)
            assert len(texts) == 1 and NOT_VALID in texts[0], (custom_id, texts)
        bot = env.bot
        assert isinstance(bot, TractorBot)
        await bot.close_store()
