"""/tractor stats, leaderboard, history, replay and settings, end to end through SimCord.

The database (a real SQLite file under tmp_path) is seeded through `Store`'s public API
before the bot starts. Guild "Tractor club"; team A = seats 1+3, team B = seats 2+4;
H(declaring team, opponents' points, result side, levels gained by that side):

  M1 #tractor (p0,p1,p2,p3):   H(A,40,decl,1) H(A,85,opp,0) H(B,45,decl,1)  -> B wins
  M2 #tractor (p4,p5,p6,p7):   H(A,20,decl,2)                              -> A wins
  M3 #tractor (p8,p9,p10,p11): H(B,60,decl,1)                              -> B wins
  M4 #tractor (p0,cpu,p2,cpu): H(A,30,decl,2)                              -> A wins (computers)
  M5 #replays (p8,cpu,p10,cpu): one real hand played by the engine (hand #7), then hand #8
                                dealt but not finished

Hand numbers (/tractor replay ids) are 1–3 (M1), 4 (M2), 5 (M3), 6 (M4), 7–8 (M5).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import discord
import simcord
from botkit import forge, reply_texts, simulated
from openskill.models import PlackettLuce
from simcord.actors import MemberActor

from bot import create_bot
from bot.app.client import TractorBot
from bot.present.replay import SeatInfo, frame_png, replay_frames
from bot.present.text import cards_text
from bot.runtime.config import Config
from bot.storage import HandAction, HandRecord, MatchRecord, Store, UserSettings
from engine.actions import StartHand
from engine.ai.random_agent import RandomAgent
from engine.cards import Card, parse_cards
from engine.events import ThrowFailed, TrickWon
from engine.game import Match
from engine.rules import RuleSet
from tools.selfplay import play_hand

CONFIG = Config(action_delay=0.0, edit_interval=0.0)
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
PRETTY = re.compile(r"(?<![\w♠♥♦♣♤♡♢♧])(10|[2-9JQKA])([♠♥♦♣♤♡♢♧])|\b(RJ|BJ)\b")
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
FOOTER = "-# Matches with computer players are not ranked."
NOT_VALID = "This button is not valid"


def make_bot(database: Path) -> TractorBot:
    return create_bot(database, config=CONFIG)


async def close_store(bot: TractorBot) -> None:
    """SimCord never calls bot.close(): close the database ourselves."""
    closer = getattr(bot, "close_store", None)
    if closer is not None:
        await closer()
    elif getattr(bot, "store", None) is not None:
        await bot.store.close()


# ---------------------------------------------------------------------------- seeding


def up(rank: str, n: int) -> str:
    return RANKS[min(RANKS.index(rank) + n, len(RANKS) - 1)]


async def new_table(store: Store, guild: int, channel: int, players: Sequence[int | None],
                    names: Sequence[str]) -> Any:
    creator = next(p for p in players if p is not None)
    doc = {"options": RuleSet().to_dict(),
           "seats": [{"user_id": p, "name": n} for p, n in zip(players, names, strict=True)]}
    return await store.create_table(guild, channel, creator, doc)


async def scripted_match(store: Store, *, guild: int, channel: int, key: str,
                         players: tuple[int | None, ...],
                         hands: Sequence[tuple[str, int, str, int]], winner: str) -> None:
    """A finished match of scripted hands, saved deal-then-settle like the bot does."""
    table = await new_table(store, guild, channel, players, ["x"] * 4)
    levels = {"A": "2", "B": "2"}
    match = MatchRecord(match_key=key, table_id=table.id, guild_id=guild, channel_id=channel,
                        players=players, mode="teams", levels=("2",) * 4)
    for number, (declaring, points, side, gained) in enumerate(hands, start=1):
        seats = (0, 2) if declaring == "A" else (1, 3)
        hand = HandRecord(hand_key=f"{key}-h{number}", match_key=key, table_id=table.id,
                          hand_no=number, seed=number, level=levels[declaring],
                          players=players, declarers=seats, starter=seats[0], mode="teams")
        table = await store.save_table(
            table.id, table.version, {"hand": number}, status="playing",
            match=replace(match, hands_played=number - 1,
                          levels=(levels["A"], levels["B"]) * 2),
            hand=hand, actions=[HandAction(hand.hand_key, 0, StartHand(number).to_dict())])
        gainer = declaring if side == "declarers" else ("B" if declaring == "A" else "A")
        levels[gainer] = up(levels[gainer], gained)
        last = number == len(hands)
        table = await store.save_table(
            table.id, table.version, {"hand": number},
            match=replace(match, hands_played=number, levels=(levels["A"], levels["B"]) * 2,
                          winners=((0, 2) if winner == "A" else (1, 3)) if last else ()),
            hand=replace(hand, trump=f"{hand.level}S", opponent_points=points,
                         result_side=side, result_levels=gained))  # type: ignore[arg-type]
    await store.end_table(table.id, table.version)


@dataclass
class RealHand:
    """A hand really played by the engine (random legal players), as the bot records it."""

    match: Match
    actions: list[dict[str, Any]]
    throws: list[tuple[int, tuple[Card, ...]]]
    """(trick number, attempted cards) of each failed throw."""


def real_hand(seed: int = 20240611) -> RealHand:
    agents = [RandomAgent(random.Random(f"records-agent-{s}")) for s in range(4)]
    actions: list[dict[str, Any]] = []
    throws: list[tuple[int, tuple[Card, ...]]] = []
    tricks = 0
    after = Match.new()
    for step in play_hand(Match.new(), seed, agents, random.Random("records-driver")):
        _before, action, after, events = step
        actions.append(action.to_dict())
        for event in events:
            if isinstance(event, ThrowFailed):
                throws.append((tricks + 1, event.attempted))
            if isinstance(event, TrickWon):
                tricks += 1
    return RealHand(after, actions, throws)


async def replay_match(store: Store, *, guild: int, channel: int,
                       players: tuple[int | None, ...], real: RealHand) -> None:
    table = await new_table(store, guild, channel, players, ["Hana", "", "Ivo", ""])
    hand = real.match.hand
    assert hand is not None and hand.result is not None and hand.starter is not None
    result = hand.result
    match = MatchRecord(match_key="M5", table_id=table.id, guild_id=guild, channel_id=channel,
                        players=players, mode="teams",
                        levels=tuple(str(level) for level in result.new_levels), hands_played=1)
    record = HandRecord(
        hand_key="M5-h1", match_key="M5", table_id=table.id, hand_no=1, seed=hand.seed,
        level=str(hand.level), trump=str(hand.trump), starter=hand.starter,
        declarers=(hand.starter % 2, hand.starter % 2 + 2), players=players,
        kitty=[str(c) for c in result.kitty], opponent_points=result.opponent_points,
        kitty_points=result.kitty_points, multiplier=result.kitty_multiplier,
        result_side=result.side, result_levels=result.levels_gained, mode="teams")
    table = await store.save_table(
        table.id, table.version, table.doc, status="playing", match=match, hand=record,
        actions=[HandAction("M5-h1", i, a) for i, a in enumerate(real.actions)])
    unfinished = HandRecord(hand_key="M5-h2", match_key="M5", table_id=table.id, hand_no=2,
                            seed=99, level=str(result.new_levels[result.next_starter % 2]),
                            starter=result.next_starter, players=players, mode="teams")
    table = await store.save_table(
        table.id, table.version, table.doc, hand=unfinished,
        actions=[HandAction("M5-h2", 0, StartHand(99).to_dict())])
    await store.end_table(table.id, table.version)


CPU = None


@dataclass
class World:
    env: simcord.Env
    database: Path
    store: Store
    guild: Any
    tractor: Any
    replays: Any
    players: list[MemberActor]
    boss: MemberActor
    real: RealHand

    @property
    def bot(self) -> TractorBot:
        bot = self.env.bot
        assert isinstance(bot, TractorBot)
        return bot

    def ids(self, *indices: int) -> list[int]:
        return [self.players[i].id for i in indices]

    async def stored_user(self, user_id: int) -> UserSettings:
        """A user's settings as stored (a fresh connection: a store keeps the settings it
        read, as the bot's own one does)."""
        async with await Store.open(self.database) as store:
            return await store.user_settings(user_id)

    async def restart(self) -> None:
        """A fresh bot object on the same database (the virtual world persists)."""
        old = self.bot
        await self.env.restart_bot(make_bot(self.database))
        await close_store(old)


@asynccontextmanager
async def records_world(tmp_path: Path) -> AsyncIterator[World]:
    """The seeded database and a running bot (used as ``async with``: SimCord's context must
    open and close in the test's own task)."""
    database = tmp_path / "tractor.sqlite3"
    bot = make_bot(database)
    real = real_hand()
    async with simulated(bot) as env:
        guild = env.create_guild(name="Tractor club")
        tractor = guild.create_text_channel("tractor")
        replays = guild.create_text_channel("replays")
        players = [guild.add_member(env.create_user(f"p{i}")) for i in range(12)]
        managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
        boss = guild.add_member(env.create_user("boss"), roles=[managers])
        p = [u.id for u in players]
        seed = await Store.open(database)  # the test's own connection, seeding only
        try:
            await scripted_match(seed, guild=guild.id, channel=tractor.id, key="M1",
                                 players=(p[0], p[1], p[2], p[3]),
                                 hands=[("A", 40, "declarers", 1), ("A", 85, "opponents", 0),
                                        ("B", 45, "declarers", 1)], winner="B")
            await scripted_match(seed, guild=guild.id, channel=tractor.id, key="M2",
                                 players=(p[4], p[5], p[6], p[7]),
                                 hands=[("A", 20, "declarers", 2)], winner="A")
            await scripted_match(seed, guild=guild.id, channel=tractor.id, key="M3",
                                 players=(p[8], p[9], p[10], p[11]),
                                 hands=[("B", 60, "declarers", 1)], winner="B")
            await scripted_match(seed, guild=guild.id, channel=tractor.id, key="M4",
                                 players=(p[0], CPU, p[2], CPU),
                                 hands=[("A", 30, "declarers", 2)], winner="A")
            await replay_match(seed, guild=guild.id, channel=replays.id,
                               players=(p[8], CPU, p[10], CPU), real=real)
        finally:
            await seed.close()
        world = World(env, database, await Store.open(database), guild, tractor, replays,
                      players, boss, real)
        try:
            yield world
        finally:
            await close_store(world.bot)
            await world.store.close()


async def run(tmp_path: Path, check: Callable[[World], Awaitable[None]]) -> None:
    async with records_world(tmp_path) as w:
        await check(w)


def backend_message(w: World, message: Any) -> Any:
    return w.env.backend.get_message(message.channel_id, message.id)


def buttons(message: Any) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", [row])]


def button(message: Any, label: str) -> dict[str, Any]:
    (found,) = [b for b in buttons(message) if b.get("label") == label]
    return found


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>"


def pair(a: int, b: int) -> str:
    lo, hi = sorted((a, b))
    return f"<@{lo}> & <@{hi}>"


# ---------------------------------------------------------------------------- stats


def display_rating_after_m1(w: World) -> float:
    """p0's rating, replayed independently through openskill: in M1 team A won hand 1,
    team B hands 2 and 3."""
    model = PlackettLuce()
    skill = {u: model.rating() for u in w.ids(0, 1, 2, 3)}
    a, b = w.ids(0, 2), w.ids(1, 3)
    for winners, losers in ((a, b), (b, a), (b, a)):
        won, lost = model.rate([[skill[u] for u in winners], [skill[u] for u in losers]],
                               ranks=[1.0, 2.0])
        for u, r in zip([*winners, *losers], [*won, *lost], strict=True):
            skill[u] = r
    p0 = skill[w.ids(0)[0]]
    return p0.mu - 3 * p0.sigma


async def test_stats_counts_every_match_and_marks_computer_matches(tmp_path: Path) -> None:
    await run(tmp_path, _test_stats_counts_every_match_and_marks_computer_matches)


async def _test_stats_counts_every_match_and_marks_computer_matches(w: World) -> None:
    p0, p2 = w.players[0], w.players[2]
    result = await p0.slash(w.tractor, "tractor stats")
    assert result.ephemeral
    (embed,) = result.response.embeds
    assert embed.title == "p0: record in this server"
    assert embed.description == p0.mention
    fields = {f.name: f.value for f in embed.fields}
    rating = display_rating_after_m1(w)
    assert fields == {
        "Matches": "1 won of 2 (50%)",  # M1 lost, M4 (with computers) won
        "As declarers": "2 held of 3 hands (67%)",  # M1 h1 held, M1 h2 lost, M4 h1 held
        "As opponents": "0 of 1 hand with 80+ points (0%)",  # M1 h3: 45 points
        "Levels gained": "3",  # M1 h1 +1, M4 h1 +2
        "Average points as opponents": "45.0",
        "Favourite partner": f"{p2.mention}, 2 matches together",
        "Rating": f"{rating:.1f} after 3 rated hands",  # M4 is not rated
        "Ranked (four human players)": "0 won of 1 match, levels +1",
        "With computer players": "1 match: counted above, not in ratings or leaderboards",
    }
    assert (await w.store.stats(w.guild.id, p0.id, mode="teams")).rated_hands == 3

    # Someone else's record, and someone who never played.
    p4 = w.players[4]
    result = await p0.slash(w.tractor, "tractor stats", user=p4)
    fields = {f.name: f.value for f in result.response.embeds[0].fields}
    assert fields["Matches"] == "1 won of 1 (100%)"
    assert fields["As declarers"] == "1 held of 1 hand (100%)"
    assert fields["As opponents"] == "0 of 0 hands with 80+ points (—)"
    assert fields["Levels gained"] == "2"
    assert fields["Average points as opponents"] == "—"
    assert fields["Favourite partner"] == f"{w.players[6].mention}, 1 match together"
    assert "With computer players" not in fields

    result = await p0.slash(w.tractor, "tractor stats", user=w.boss)
    embed = result.response.embeds[0]
    assert embed.description == (
        f"{w.boss.mention}\nNo finished matches or hands in this server yet.")
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Matches"] == "0 won of 0 (—)"
    assert fields["Rating"] == "Unrated: ratings come from hands with four human players"


# ---------------------------------------------------------------------------- leaderboard


async def test_leaderboard_pages_with_buttons_that_survive_a_restart(tmp_path: Path) -> None:
    await run(tmp_path, _test_leaderboard_pages_with_buttons_that_survive_a_restart)


async def _test_leaderboard_pages_with_buttons_that_survive_a_restart(w: World) -> None:
    p = w.ids(*range(12))
    winners = sorted([p[1], p[3], p[4], p[6], p[9], p[11]])
    losers = sorted([p[0], p[2], p[5], p[7], p[8], p[10]])
    page1 = "\n".join([
        "**Tractor club leaderboard**: Wins, Players (page 1/2)",
        *[f"**1.** {mention(u)}: 1 won of 1 match" for u in winners],
        *[f"**7.** {mention(u)}: 0 won of 1 match" for u in losers[:4]],
        FOOTER,
    ])
    page2 = "\n".join([
        "**Tractor club leaderboard**: Wins, Players (page 2/2)",
        *[f"**7.** {mention(u)}: 0 won of 1 match" for u in losers[4:]],
        FOOTER,
    ])
    viewer = w.players[5]
    result = await viewer.slash(w.tractor, "tractor leaderboard", by="wins")
    assert not result.ephemeral
    message = result.response
    assert message.content == page1
    assert button(message, "◀")["disabled"] and not button(message, "▶").get("disabled")
    stored = backend_message(w, message)
    assert sorted(stored.mention_user_ids) == sorted(winners + losers[:4])  # rendered…
    assert stored.ping_user_ids == []  # …and ping nobody

    await viewer.click(message, label="▶")
    assert message.content == page2
    assert not button(message, "◀").get("disabled") and button(message, "▶")["disabled"]
    assert backend_message(w, message).ping_user_ids == []

    # A fresh bot on the same database: the buttons posted before still work.
    await w.restart()
    await w.players[0].click(message, label="◀")
    assert message.content == page1
    await w.players[0].click(message, label="▶")
    assert message.content == page2
    assert backend_message(w, message).ping_user_ids == []


async def test_leaderboard_partnerships_and_ratings(tmp_path: Path) -> None:
    await run(tmp_path, _test_leaderboard_partnerships_and_ratings)


async def _test_leaderboard_partnerships_and_ratings(w: World) -> None:
    p = w.ids(*range(12))
    result = await w.players[0].slash(w.tractor, "tractor leaderboard", by="levels",
                                      scope="partnerships")
    ties_3 = sorted([(min(p[0], p[2]), pair(p[0], p[2])), (min(p[1], p[3]), pair(p[1], p[3]))])
    ties_5 = sorted([(min(p[5], p[7]), pair(p[5], p[7])), (min(p[8], p[10]), pair(p[8], p[10]))])
    assert result.response.content == "\n".join([
        "**Tractor club leaderboard**: Levels, Partnerships (page 1/1)",
        f"**1.** {pair(p[4], p[6])}: levels +2 in 1 hand",
        f"**2.** {pair(p[9], p[11])}: levels +1 in 1 hand",
        *[f"**3.** {who}: levels +1 in 3 hands" for _, who in ties_3],
        *[f"**5.** {who}: levels +0 in 1 hand" for _, who in ties_5],
        FOOTER,
    ])
    assert button(result.response, "◀")["disabled"] and button(result.response, "▶")["disabled"]
    assert backend_message(w, result.response).ping_user_ids == []

    # Rating (the default): everyone who played a ranked hand, never the computer match.
    result = await w.players[0].slash(w.tractor, "tractor leaderboard")
    lines = result.response.content.split("\n")
    assert lines[0] == "**Tractor club leaderboard**: Rating, Players (page 1/2)"
    rows = [line for line in lines if line.startswith("**") and "rated hand" in line]
    assert len(rows) == 10
    board = await w.store.leaderboard(w.guild.id, "rating", "players", 1, mode="teams")
    first = board.rows[0]
    assert rows[0] == (f"**{first.rank}.** {mention(first.users[0])}: {first.rating:.1f} "
                       f"({first.rated_hands} rated hands)")


# ---------------------------------------------------------------------------- history


async def test_history_lists_the_channel_matches_with_hand_numbers(tmp_path: Path) -> None:
    await run(tmp_path, _test_history_lists_the_channel_matches_with_hand_numbers)


async def _test_history_lists_the_channel_matches_with_hand_numbers(w: World) -> None:
    p = w.ids(*range(12))
    result = await w.players[0].slash(w.tractor, "tractor history", n=2)
    assert not result.ephemeral
    text = re.sub(r"<t:\d+:f>", "<t:…>", result.response.content)
    assert text == "\n".join([
        "**Last matches in this channel**",
        f"**1.** <t:…>: {mention(p[0])} & {mention(p[2])} (level 4) vs Bot 2 & Bot 4"
        f" (level 2) · {mention(p[0])} & {mention(p[2])} won · computer players: not ranked",
        "-# 1 hand: #6 (/tractor replay)",
        f"**2.** <t:…>: {mention(p[8])} & {mention(p[10])} (level 2) vs {mention(p[9])} &"
        f" {mention(p[11])} (level 3) · {mention(p[9])} & {mention(p[11])} won",
        "-# 1 hand: #5 (/tractor replay)",
    ])
    assert backend_message(w, result.response).ping_user_ids == []

    result = await w.players[0].slash(w.tractor, "tractor history")
    lines = result.response.content.split("\n")
    assert len(lines) == 1 + 2 * 4  # the four matches of #tractor, newest first
    assert lines[-2].startswith("**4.** <t:") and lines[-2].endswith(
        f"{mention(p[1])} & {mention(p[3])} won")
    assert lines[-1] == "-# 3 hands: #1–#3 (/tractor replay)"

    # The real match in #replays: only its finished hand can be replayed.
    result = await w.players[8].slash(w.replays, "tractor history")
    lines = result.response.content.split("\n")
    assert "· not finished · computer players: not ranked" in lines[1]
    assert lines[2] == "-# 1 hand: #7 (/tractor replay)"

    empty = w.guild.create_text_channel("empty")
    result = await w.players[0].slash(empty, "tractor history")
    assert result.response.content == ("**Last matches in this channel**\n"
                                       "No matches have been played in this channel yet.")


# ---------------------------------------------------------------------------- replay


def tokens(text: str) -> Counter[Card]:
    found: Counter[Card] = Counter()
    for rank, suit, joker in PRETTY.findall(text):
        found[parse_cards(joker or rank + SUITS[suit])[0]] += 1
    return found


async def png(attachment: discord.Attachment) -> bytes:
    data = await attachment.read()
    assert data.startswith(b"\x89PNG")
    return data


async def test_replay_steps_through_a_hand_showing_only_public_cards(tmp_path: Path) -> None:
    await run(tmp_path, _test_replay_steps_through_a_hand_showing_only_public_cards)


async def _test_replay_steps_through_a_hand_showing_only_public_cards(w: World) -> None:
    hana = w.players[8]
    hand = w.real.match.hand
    assert hand is not None and hand.result is not None
    tricks = hand.tricks_played
    steps = tricks + 2  # trump and starter, each trick, the kitty
    record = await w.store.hand_record(7)
    assert record is not None
    frames = replay_frames(record, RuleSet())
    assert len(frames) == steps
    seats = [SeatInfo("Hana", hana.mention), SeatInfo("Bot 2", "Bot 2", True),
             SeatInfo("Ivo", w.players[10].mention), SeatInfo("Bot 4", "Bot 4", True)]
    declared = Counter(c for d in hand.declarations for c in d.cards)
    kitty_text = cards_text(hand.result.kitty)

    result = await hana.slash(w.replays, "tractor replay", hand=7)
    assert result.ephemeral
    message = result.response
    for step in range(steps):
        text = message.content
        assert text.startswith(f"**Replay of hand #7** (hand 1 of its match), step {step + 1}/"
                               f"{steps}\n")
        (attachment,) = message.attachments
        assert await png(attachment) == frame_png(frames[step], seats, "en", four_colour=True,
                                                  bottom=0)
        assert button(message, "◀").get("disabled", False) == (step == 0)
        assert button(message, "▶").get("disabled", False) == (step == steps - 1)
        if step < steps - 1:
            # Only cards played so far (or shown: declarations, failed throws) appear.
            played: Counter[Card] = Counter()
            for _, cards in hand.played[: 4 * step]:
                played.update(cards)
            shown = played + declared
            for number, attempted in w.real.throws:
                if number <= step:
                    shown.update(attempted)
            unplayed = set(tokens(text)) - set(shown)
            assert not unplayed, f"step {step + 1} shows unplayed cards {unplayed}"
            assert "Kitty" not in text and kitty_text not in text
            # The image is the public view as it was: no result, nothing beyond this trick.
            view = frames[step].view
            assert view.result is None and view.match_winner is None
            assert Counter(c for _, cards in view.played for c in cards) == played
            await hana.click(message, label="▶")
        else:
            assert f"Kitty: {kitty_text} ({hand.result.kitty_points} points)." in text
            assert frames[step].view.result == hand.result
        assert backend_message(w, message).ping_user_ids == []
    if steps > 2:
        await hana.click(message, label="◀")
        assert f"step {steps - 1}/{steps}" in message.content

    # The buttons keep working after a restart.
    await w.restart()
    await hana.click(message, label="◀")
    assert f"step {steps - 2}/{steps}" in message.content

    # Unfinished, unknown and other servers' hands are not shown.
    result = await hana.slash(w.replays, "tractor replay", hand=8)
    assert result.ephemeral and result.response.content == (
        "Hand #8 is not finished yet: only finished hands can be replayed.")
    assert not result.response.attachments
    result = await hana.slash(w.replays, "tractor replay", hand=99)
    assert result.response.content == "There is no hand #99 in this server."
    other = w.env.create_guild(name="Elsewhere")
    stranger = other.add_member(w.env.create_user("stranger"))
    result = await stranger.slash(other.create_text_channel("x"), "tractor replay", hand=7)
    assert result.response.content == "There is no hand #7 in this server."


# ---------------------------------------------------------------------------- settings


async def test_settings_are_saved_and_used_for_replies_and_public_text(tmp_path: Path) -> None:
    await run(tmp_path, _test_settings_are_saved_and_used_for_replies_and_public_text)


async def _test_settings_are_saved_and_used_for_replies_and_public_text(w: World) -> None:
    p0, p1 = w.players[0], w.players[1]
    result = await p0.slash(w.tractor, "tractor settings")
    assert result.ephemeral
    assert result.response.content == "\n".join([
        "**Your settings**", "Cards: Four colours", "Hand panel: Direct message",
        "Language: Automatic (your Discord language)", "Turn pings (in-channel panel): yes",
        "Forced plays made for you: no", "**This server**", "Public table messages: English"])

    result = await p0.slash(w.tractor, "tractor settings", deck="two-colour",
                            panel="ephemeral", language="zh_Hant")
    assert result.response.content == "\n".join([
        "已儲存。", "**你的設定**", "牌面：雙色牌", "手牌面板：牌桌上僅自己可見", "語言：繁體中文",
        "輪到你時提醒（頻道內面板）：是", "自動出唯一合法的牌：否", "**本伺服器**",
        "公開牌桌訊息：English"])
    assert await w.stored_user(p0.id) == UserSettings(p0.id, False, "ephemeral",
                                                              "zh_Hant")
    # Replies follow the personal language (SimCord's client locale is en-US).
    result = await p0.slash(w.tractor, "tractor stats")
    fields = {f.name: f.value for f in result.response.embeds[0].fields}
    assert fields["比賽"] == "2 場勝 1 場（50%）"

    # The server's language needs Manage Server.
    result = await p1.slash(w.tractor, "tractor settings", server_language="zh_Hans")
    assert result.ephemeral and result.response.content == (
        "Changing the server's language needs the Manage Server permission.")
    assert (await w.store.guild_settings(w.guild.id)).language == "en"
    result = await w.boss.slash(w.tractor, "tractor settings", server_language="zh_Hans")
    assert result.response.content.endswith("Public table messages: 简体中文")
    assert (await w.store.guild_settings(w.guild.id)).language == "zh_Hans"

    # Public messages use the server's language; replies stay personal.
    result = await p1.slash(w.tractor, "tractor history", n=1)
    assert result.response.content.startswith("**本频道最近的比赛**\n**1.** <t:")
    assert "电脑 2 & 电脑 4（2 级）" in result.response.content
    result = await p1.slash(w.tractor, "tractor leaderboard", by="wins")
    assert result.response.content.startswith("**Tractor club 排行榜**：胜场，玩家（第 1/2 页）")
    result = await p1.slash(w.tractor, "tractor stats")
    assert result.response.embeds[0].fields[0].name == "Matches"

    # Persisted across a restart; "automatic" clears the personal language.
    await w.restart()
    result = await p0.slash(w.tractor, "tractor settings", language="auto")
    assert result.response.content.split("\n")[:5] == [
        "Saved.", "**Your settings**", "Cards: Two colours", "Hand panel: Only you, on the table",
        "Language: Automatic (your Discord language)"]
    assert await w.stored_user(p0.id) == UserSettings(p0.id, False, "ephemeral", None)


async def test_leaderboard_ids_posted_before_seasons_still_page(tmp_path: Path) -> None:
    await run(tmp_path, _test_leaderboard_ids_posted_before_seasons_still_page)


async def _test_leaderboard_ids_posted_before_seasons_still_page(w: World) -> None:
    viewer = w.players[5]
    message = (await viewer.slash(w.tractor, "tractor leaderboard", by="wins")).response
    # A message posted before seasons: its ids have no season (the current one is shown).
    stored = backend_message(w, message)
    for item in buttons(stored):
        item["custom_id"] = item["custom_id"].rsplit(":", 1)[0]
    assert button(stored, "▶")["custom_id"] == "rec:lb:wins:players:2"
    await w.restart()
    await viewer.click(message, label="▶")
    assert message.content.startswith("**Tractor club leaderboard**: Wins, Players (page 2/2)")
    assert button(message, "◀")["custom_id"] == "rec:lb:wins:players:1:1"


async def test_forged_records_ids_get_one_polite_reply(tmp_path: Path) -> None:
    await run(tmp_path, _test_forged_records_ids_get_one_polite_reply)


async def _test_forged_records_ids_get_one_polite_reply(w: World) -> None:
    viewer = w.players[5]
    message = (await viewer.slash(w.tractor, "tractor leaderboard", by="wins")).response
    before = message.content
    for custom_id in (
        "rec:lb:wins:players:1234567:1", "rec:lb:wins:players:-1", "rec:lb:wins:players:x",
        "rec:lb:bogus:players:2", "rec:lb:wins:teams:2", "rec:lb:wins:players:2:0",
        "rec:lb:wins:players:2:12345", "rec:lb:wins:players:2:1:1", "rec:lb:wins:players",
        "rec:rp:0:1", f"rec:rp:{10**19}:1", "rec:rp:7:12345", "rec:rp:7", "rec:xx:1", "rec:",
        "rec:lb:wins:players:3:1",  # well formed, but not on this message
        "rec:rp:7:1",  # a replay's button on the public leaderboard
        "tr:1:0:0:lb:wins.players", "tr:1:0:0:rp",  # records verbs in a table's id
    ):
        result = await forge(viewer, message, custom_id)
        texts = reply_texts(result)
        assert len(texts) == 1 and NOT_VALID in texts[0], (custom_id, texts)
        assert result.ephemeral, custom_id
        assert message.content == before, custom_id
