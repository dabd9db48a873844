"""Records: ``/tractor records stats|leaderboard|history|replay`` (and their old names).

Replies to the person who asked (stats, replay) are ephemeral, in their language (their
``/tractor settings language``, else the Discord client's: `bot.ui.replies.reader_locale`);
a refusal (an unknown season or hand) takes the one error path (`bot.ui.replies.fail`). The
leaderboard and the history are public messages in the server's language; they mention
players without pinging anyone. Paging buttons are verbs of the component router
(`bot.ui.components`) whose custom id carries everything needed
(``rec:lb:<by>:<scope>:<page>[:<season>]``, ``rec:rp:<hand>:<step>``, parsed and range-
checked by `bot.ui.ids`), so they keep working after a restart. Matches with computer seats
are shown (history, stats) but ranked nowhere: `bot.storage.Store` keeps them out of
ratings and leaderboards.

Stats, leaderboard and history take ``mode:`` (one of the engine's modes; none: a new
table's, the four-player game): every mode is counted, rated and ranked apart (issue 14).
A mode without fixed sides has no partnerships (the variant says); the Finding Friends
leaderboard's buttons carry the scope word ``friends``
(``rec:lb:<by>:friends:<page>[:<season>]``), so ids posted before keep their meaning.
"""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.core.errors import UserFacingError
from bot.core.options import rules_of
from bot.features import App, Feature, add_feature, guarded
from bot.i18n import (
    lstr,
    resolve_locale,
    server_locale,
    t,
    tn,
)
from bot.present.looks import FRIENDS_SCOPE, look
from bot.present.replay import (
    Frame,
    ReplayError,
    SeatInfo,
    frame_png,
    frame_text,
    levels_before,
    replay_frames,
)
from bot.storage import (
    MODES,
    FriendsStats,
    LeaderboardPage,
    MatchSummary,
    Mode,
    Players,
    SeasonNotFound,
    Storage,
    UserStats,
)
from bot.ui.components import button
from bot.ui.ids import RECORDS, ComponentId, VerbSpec
from bot.ui.replies import edit_clicked, reader_locale, send
from engine.rules import RuleSet
from engine.variant import find_variant

__all__ = ["Records", "setup"]

NO_PINGS = discord.AllowedMentions.none()
PER_PAGE = 10
MESSAGE_LIMIT = 2000
BY = ("rating", "wins", "levels")
SCOPES = ("players", "partnerships")
DEFAULT_MODE: Mode = RuleSet().mode
"""The mode of a records command that names none: a new table's."""
REPLAY_CACHE = 32


# ---------------------------------------------------------------------------- helpers


async def public_locale(interaction: discord.Interaction, store: Storage) -> str:
    """The server's language for public messages: its ``server_language`` setting, else
    the server's Discord language."""
    if interaction.guild_id is None:
        return resolve_locale(interaction.locale)
    stored = (await store.guild_settings(interaction.guild_id)).language
    return server_locale(stored, interaction.guild_locale)


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "—"


def player_mention(user_id: int | None, seat: int, locale: str) -> str:
    """A player as a mention (rendered, never pinging), or the computer seat's name."""
    if user_id is None:
        return t("seat.computer_name", locale, number=seat + 1)
    return f"<@{user_id}>"


def seats_text(players: Players, seats: Sequence[int], locale: str) -> str:
    """Some seats' players (a partnership, a match's winners), joined by ``&``."""
    return " & ".join(player_mention(players[s], s, locale) for s in seats)


def mode_of(word: str | None) -> Mode:
    """The mode a command asked for: a known mode's word, else the tables' default
    (`engine.rules.RuleSet.mode`)."""
    return Mode(word) if word in MODES else DEFAULT_MODE


def id_ranges(ids: Sequence[int]) -> str:
    """``#3–#5, #9``: hand numbers for ``/tractor replay``."""
    parts: list[str] = []
    ordered = sorted(set(ids))
    start = prev = ordered[0]
    for value in [*ordered[1:], None]:
        if value is not None and value == prev + 1:
            prev = value
            continue
        parts.append(f"#{start}" if start == prev else f"#{start}–#{prev}")
        if value is not None:
            start = prev = value
    return ", ".join(parts)


# ---------------------------------------------------------------------------- stats


def stats_embed(name: str, user_mention: str, every: UserStats, ranked: UserStats,
                locale: str) -> discord.Embed:
    """The ``/tractor stats`` card: all matches (computers included), then ranked only."""
    embed = discord.Embed(title=t("stats.title", locale, name=name), colour=0x2E7D32)
    played_anything = every.matches_played or every.hands_as_declarers or every.hands_as_opponents
    embed.description = user_mention if played_anything else (
        f"{user_mention}\n{t('stats.empty', locale)}")
    embed.add_field(name=t("stats.matches", locale), value=t(
        "stats.matches.value", locale, won=every.matches_won, played=every.matches_played,
        percent=percent(every.matches_won, every.matches_played)))
    embed.add_field(name=t("stats.declarers", locale), value=tn(
        "stats.declarers.value", every.hands_as_declarers, locale,
        held=every.held_as_declarers,
        percent=percent(every.held_as_declarers, every.hands_as_declarers)))
    embed.add_field(name=t("stats.opponents", locale), value=tn(
        "stats.opponents.value", every.hands_as_opponents, locale,
        held=every.held_as_opponents,
        percent=percent(every.held_as_opponents, every.hands_as_opponents)))
    embed.add_field(name=t("stats.levels", locale), value=str(every.levels_gained))
    avg = every.avg_points_as_opponents
    embed.add_field(name=t("stats.avg_points", locale),
                    value="—" if avg is None else f"{avg:.1f}")
    partner = every.favourite_partner
    embed.add_field(name=t("stats.partner", locale), value="—" if partner is None else tn(
        "stats.partner.value", every.matches_with_favourite, locale, partner=f"<@{partner}>"))
    _rating_fields(embed, every, ranked, locale, "stats.")
    return embed


def _rating_fields(embed: discord.Embed, every: UserStats | FriendsStats,
                   ranked: UserStats | FriendsStats, locale: str, prefix: str) -> None:
    """The card's last fields: rating, ranked matches, matches with computers (`prefix`
    names the mode's ``unrated`` and ``ranked`` words)."""
    embed.add_field(
        name=t("stats.rating", locale),
        value=t(f"{prefix}unrated", locale) if every.rating is None else tn(
            "stats.rating.value", every.rated_hands, locale, rating=f"{every.rating:.1f}"),
        inline=False)
    embed.add_field(name=t(f"{prefix}ranked", locale), value=tn(
        "stats.ranked.value", ranked.matches_played, locale, won=ranked.matches_won,
        levels=ranked.levels_gained), inline=False)
    with_computers = every.matches_played - ranked.matches_played
    if with_computers:
        embed.add_field(name=t("stats.computers", locale),
                        value=tn("stats.computers.value", with_computers, locale),
                        inline=False)


def _won_of(won: int, count: int, locale: str) -> str:
    return tn("stats.friends.hands.value", count, locale, won=won,
              percent=percent(won, count))


def friends_embed(name: str, user_mention: str, every: FriendsStats, ranked: FriendsStats,
                  locale: str) -> discord.Embed:
    """``/tractor stats mode: friends``: the Finding Friends record (all matches, then
    ranked only), apart from the four-player game."""
    embed = discord.Embed(title=t("stats.title", locale, name=name), colour=0x6A1B9A)
    lines = [user_mention, f"**{t('stats.friends.mode', locale)}**"]
    if not (every.matches_played or every.hands_played):
        lines.append(t("stats.empty", locale))
    embed.description = "\n".join(lines)
    embed.add_field(name=t("stats.matches", locale), value=t(
        "stats.matches.value", locale, won=every.matches_won, played=every.matches_played,
        percent=percent(every.matches_won, every.matches_played)))
    embed.add_field(name=t("stats.friends.hands", locale),
                    value=_won_of(every.hands_won, every.hands_played, locale))
    for role, won, count in (("starter", every.won_as_starter, every.hands_as_starter),
                             ("friend", every.won_as_friend, every.hands_as_friend),
                             ("opponent", every.won_as_opponent, every.hands_as_opponent)):
        embed.add_field(name=t(f"stats.friends.{role}", locale),
                        value=_won_of(won, count, locale))
    embed.add_field(name=t("stats.friends.highest", locale),
                    value=every.highest_level or "—")
    embed.add_field(name=t("stats.levels", locale), value=str(every.levels_gained))
    _rating_fields(embed, every, ranked, locale, "stats.friends.")
    return embed


# ---------------------------------------------------------------------------- leaderboard


def _who(users: Sequence[int]) -> str:
    return " & ".join(f"<@{u}>" for u in users)


def leaderboard_content(board: LeaderboardPage, server: str, locale: str) -> str:
    """The public leaderboard page (mentions, to be sent without pings)."""
    words = look(find_variant(board.mode))
    scope = t(words.board_scope or f"choice.scope.{board.scope}", locale)
    lines = [t("leaderboard.title", locale, server=discord.utils.escape_markdown(server),
               by=t(f"choice.by.{board.by}", locale), scope=scope, page=board.page,
               pages=board.total_pages)]
    if not board.rows:
        lines.append(t(words.board_empty, locale))
    for row in board.rows:
        who = _who(row.users)
        if board.by == "rating":
            lines.append(tn("leaderboard.row.rating", row.rated_hands, locale, rank=row.rank,
                            who=who, rating=f"{row.rating or 0.0:.1f}"))
        elif board.by == "wins":
            lines.append(tn("leaderboard.row.wins", row.matches, locale, rank=row.rank,
                            who=who, wins=row.wins))
        else:
            lines.append(tn("leaderboard.row.levels", row.hands, locale, rank=row.rank,
                            who=who, levels=row.levels))
    lines.append(f"-# {t(words.board_footer, locale)}")
    return "\n".join(lines)


def _board_ok(arg: str) -> bool:
    """The words of a leaderboard button's id (its numbers are checked by `bot.ui.ids`)."""
    by, _, rest = arg.partition(".")
    return by in BY and rest.partition(".")[0] in (*SCOPES, FRIENDS_SCOPE)


def leaderboard_button(by: str, scope: str, page: int, season: int | None, *, label: str,
                       disabled: bool) -> discord.ui.Item[Any]:
    """◀ / ▶ on a leaderboard: page ``page`` of ``season`` (the id is the whole state; ids
    without a season, from before seasons, show the current one). ``scope`` is
    `FRIENDS_SCOPE` for the Finding Friends board."""
    arg = f"{by}.{scope}" + ("" if season is None else f".{season}")
    return button(ComponentId(0, 0, page, "lb", arg, prefix=RECORDS), label=label,
                  disabled=disabled)


def leaderboard_view(board: LeaderboardPage) -> discord.ui.View:
    scope = look(find_variant(board.mode)).board_button or board.scope
    view = discord.ui.View(timeout=None)
    view.add_item(leaderboard_button(board.by, scope, board.page - 1, board.season,
                                     label="◀", disabled=board.page <= 1))
    view.add_item(leaderboard_button(board.by, scope, board.page + 1, board.season,
                                     label="▶", disabled=board.page >= board.total_pages))
    return view


def board_words(by: str, scope: str, mode: str | None) -> tuple[str, str, Mode]:
    """A leaderboard's ordering, scope and mode from what was asked or pressed (unknown
    words: the defaults; the scope word `FRIENDS_SCOPE`: the Finding Friends players)."""
    mode_ = Mode.FRIENDS if scope == FRIENDS_SCOPE else mode_of(mode)
    by_ = by if by in BY else "rating"
    scope_ = scope if scope in SCOPES and find_variant(mode_).fixed_sides else "players"
    return by_, scope_, mode_


async def leaderboard_message(interaction: discord.Interaction, store: Storage, by: str,
                              scope: str, page: int, season: int | None,
                              mode: str | None) -> tuple[str, discord.ui.View]:
    assert interaction.guild_id is not None
    by_, scope_, mode_ = board_words(by, scope, mode)
    board = await store.leaderboard(interaction.guild_id, by_, scope_,  # type: ignore[arg-type]
                                    max(page, 1), PER_PAGE, season=season, mode=mode_)
    if board.page > board.total_pages:  # the board shrank since the buttons were made
        board = await store.leaderboard(interaction.guild_id, by_, scope_,  # type: ignore[arg-type]
                                        board.total_pages, PER_PAGE, season=season,
                                        mode=mode_)
    locale = await public_locale(interaction, store)
    server = interaction.guild.name if interaction.guild is not None else ""
    content = leaderboard_content(board, server, locale)
    if scope == "partnerships" and scope_ != scope:
        content += f"\n-# {t('leaderboard.friends_no_partnerships', locale)}"
    label = await season_label(store, interaction.guild_id, board.season, locale)
    if label:
        content += f"\n-# {label}"
    return content, leaderboard_view(board)


async def season_label(store: Storage, guild_id: int, number: int, locale: str) -> str | None:
    """``Season 2`` for records of a server that has had several seasons (else None)."""
    if number == 1 and (await store.current_season(guild_id)).number == 1:
        return None
    return t("records.season", locale, number=number)


async def season_number(store: Storage, guild_id: int, season: int | None) -> int:
    """`season`, checked (`SeasonNotFound` past the current one), or the current one."""
    current = (await store.current_season(guild_id)).number
    if season is None:
        return current
    if not 1 <= season <= current:
        raise SeasonNotFound(guild_id, season)
    return season


# ---------------------------------------------------------------------------- history


def _history_head(match: MatchSummary, locale: str) -> str:
    """The match's line-up with the levels, per side fixed at the start (`Variant.partners`:
    a team, or in Finding Friends a seat): two teams face each other, else a list."""
    players, date, variant = match.players, f"<t:{int(match.started_at)}:f>", match.variant
    n = len(players)
    sides = variant.sides(n)
    levels = variant.side_levels(match.levels or ("?",) * n)
    texts = [seats_text(players, side, locale) for side in sides]
    if len(sides) == 2:
        return t("history.match", locale, date=date, team_a=texts[0], level_a=levels[0],
                 team_b=texts[1], level_b=levels[1])
    line = " · ".join(t("history.seat_level", locale, player=text, level=level)
                      for text, level in zip(texts, levels, strict=True))
    return t("history.friends_match", locale, date=date, count=n, players=line)


def _history_winner(match: MatchSummary, locale: str) -> str | None:
    return seats_text(match.players, match.winners, locale) if match.winners else None


def history_line(index: int, match: MatchSummary, hand_ids: Sequence[int], locale: str) -> str:
    head = _history_head(match, locale)
    winner = _history_winner(match, locale)
    outcome = (t("history.unfinished", locale) if winner is None
               else t("history.won", locale, team=winner))
    parts = [f"**{index}.** {head}", outcome]
    if match.has_computers:
        parts.append(t("history.computers", locale))
    hands = (tn("history.hands", len(hand_ids), locale, ids=id_ranges(hand_ids)) if hand_ids
             else t("history.no_hands", locale))
    return " · ".join(parts) + f"\n-# {hands}"


# ---------------------------------------------------------------------------- replay


def replay_button(hand: int, step: int, *, label: str, disabled: bool) -> discord.ui.Item[Any]:
    """◀ / ▶ of a replay: step ``step`` of hand ``hand``."""
    return button(ComponentId(0, hand, step, "rp", prefix=RECORDS), label=label,
                  disabled=disabled)


def replay_view(hand: int, step: int, steps: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(replay_button(hand, step - 1 if step > 0 else steps, label="◀",
                                disabled=step <= 0))
    view.add_item(replay_button(hand, step + 1, label="▶", disabled=step >= steps - 1))
    return view


# ---------------------------------------------------------------------------- the cog

_BY_CHOICES = [app_commands.Choice(name=lstr(f"choice.by.{b}"), value=b) for b in BY]
_SCOPE_CHOICES = [app_commands.Choice(name=lstr(f"choice.scope.{s}"), value=s) for s in SCOPES]
_MODE_CHOICES = [app_commands.Choice(name=lstr(f"choice.mode.{m}"), value=m.value) for m in MODES]


class Records(Feature):
    """Stats, leaderboards, match history and hand replays."""

    subgroup = "records"
    grouped = ("stats", "leaderboard", "history", "replay")
    aliases = grouped
    """``/tractor stats`` & co. keep working; ``/tractor records stats`` is the new name."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self._frames: OrderedDict[int, tuple[Frame, ...]] = OrderedDict()
        app.router.add(VerbSpec("lb", "table", extra=_board_ok, prefix=RECORDS),
                       self._page_button)
        app.router.add(VerbSpec("rp", "private", prefix=RECORDS), self._replay_button)

    async def _page_button(self, interaction: discord.Interaction, cid: ComponentId,
                           values: list[str]) -> None:
        """A leaderboard's ◀ / ▶ (``arg``: ``by.scope[.season]``, ``step``: the page)."""
        by, scope, season = cid.board
        content, view = await leaderboard_message(interaction, self.app.store, by, scope,
                                                  cid.step, season, None)
        await edit_clicked(interaction, content=content, view=view, allowed_mentions=NO_PINGS)

    async def _replay_button(self, interaction: discord.Interaction, cid: ComponentId,
                             values: list[str]) -> None:
        """A replay's ◀ / ▶ (``hand``: the hand's id, ``step``: the step)."""
        await self.show_replay(interaction, cid.hand, cid.step, edit=True)

    # ---- /tractor stats

    @app_commands.command(name="stats", description=lstr("cmd.stats.desc"))
    @app_commands.describe(user=lstr("cmd.stats.player.desc"),
                           season=lstr("cmd.records.season.desc"),
                           mode=lstr("cmd.records.mode.desc"))
    @app_commands.choices(mode=_MODE_CHOICES)
    @guarded  # a refusal (an unknown season) takes the one error path
    async def stats(self, interaction: discord.Interaction,
                    user: discord.User | None = None,
                    season: app_commands.Range[int, 1, 9999] | None = None,
                    mode: str | None = None) -> None:
        """A player's record in this server: matches, hands, levels, partner, rating."""
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        store = self.app.store
        locale = await reader_locale(interaction, store)
        target = user or interaction.user
        name = discord.utils.escape_markdown(target.display_name)
        embed: discord.Embed
        mode_ = mode_of(mode)
        if find_variant(mode_).fixed_sides:  # partners and sides: the partnership card
            every = await store.stats(interaction.guild_id, target.id, season=season,
                                      mode=mode_)
            ranked = await store.stats(interaction.guild_id, target.id,
                                       include_computers=False, season=season, mode=mode_)
            embed = stats_embed(name, target.mention, every, ranked, locale)
            number = every.season
        else:  # sides made in play: starter, friend, opponent
            friends = await store.friends_stats(interaction.guild_id, target.id,
                                                season=season)
            ranked_friends = await store.friends_stats(
                interaction.guild_id, target.id, include_computers=False, season=season)
            embed = friends_embed(name, target.mention, friends, ranked_friends, locale)
            number = friends.season
        label = await season_label(store, interaction.guild_id, number, locale)
        if label:
            embed.set_footer(text=label)
        await send(interaction, "", embed=embed, allowed_mentions=NO_PINGS)

    # ---- /tractor leaderboard

    @app_commands.command(name="leaderboard", description=lstr("cmd.leaderboard.desc"))
    @app_commands.describe(by=lstr("cmd.leaderboard.by.desc"),
                           scope=lstr("cmd.leaderboard.scope.desc"),
                           season=lstr("cmd.records.season.desc"),
                           mode=lstr("cmd.records.mode.desc"))
    @app_commands.choices(by=_BY_CHOICES, scope=_SCOPE_CHOICES, mode=_MODE_CHOICES)
    @guarded  # a refusal (an unknown season) takes the one error path
    async def leaderboard(self, interaction: discord.Interaction, by: str = "rating",
                          scope: str = "players",
                          season: app_commands.Range[int, 1, 9999] | None = None,
                          mode: str | None = None) -> None:
        """This server's leaderboard (ranked matches only), ten a page."""
        await interaction.response.defer(thinking=True)  # public, before the database
        store = self.app.store
        content, view = await leaderboard_message(interaction, store, by, scope, 1, season,
                                                  mode)
        await send(interaction, content, ephemeral=False, view=view, allowed_mentions=NO_PINGS)

    # ---- /tractor history

    @app_commands.command(name="history", description=lstr("cmd.history.desc"))
    @app_commands.describe(n=lstr("cmd.history.n.desc"), season=lstr("cmd.records.season.desc"),
                           mode=lstr("cmd.records.mode.desc"))
    @app_commands.choices(mode=_MODE_CHOICES)
    @guarded  # a refusal (an unknown season) takes the one error path
    async def history(self, interaction: discord.Interaction,
                      n: app_commands.Range[int, 1, 25] = 10,
                      season: app_commands.Range[int, 1, 9999] | None = None,
                      mode: str | None = None) -> None:
        """The last matches in this channel, with their results and hand numbers."""
        assert interaction.channel_id is not None and interaction.guild_id is not None
        await interaction.response.defer(thinking=True)  # public, before the database
        store = self.app.store
        locale = await public_locale(interaction, store)
        number = await season_number(store, interaction.guild_id, season)
        mode_ = mode_of(mode)
        matches = await store.history(interaction.channel_id, n, season=number, mode=mode_)
        text = t(look(find_variant(mode_)).history_title, locale)
        label = await season_label(store, interaction.guild_id, number, locale)
        if label:
            text += f" · {label}"
        if not matches:
            text += "\n" + t("history.empty", locale)
        for index, match in enumerate(matches, start=1):
            hands = await store.match_hands(match.match_key)
            ids = [h.id for h in hands if h.id is not None and h.result_side is not None]
            line = history_line(index, match, ids, locale)
            if len(text) + len(line) + 1 > MESSAGE_LIMIT:
                break
            text += "\n" + line
        await send(interaction, text, ephemeral=False, allowed_mentions=NO_PINGS)

    # ---- /tractor replay

    @app_commands.command(name="replay", description=lstr("cmd.replay.desc"))
    @app_commands.describe(hand=lstr("cmd.replay.hand.desc"))
    @guarded  # a refusal (an unknown or unfinished hand) takes the one error path
    async def replay(self, interaction: discord.Interaction,
                     hand: app_commands.Range[int, 1, 999_999_999_999]) -> None:
        """Step through a finished hand trick by trick (only what was public)."""
        await interaction.response.defer(ephemeral=True, thinking=True)  # before the database
        await self.show_replay(interaction, hand, 0, edit=False)

    async def _frames_for(self, store: Storage, interaction: discord.Interaction,
                          hand_id: int) -> tuple[tuple[Frame, ...], Players, dict[str, Any]]:
        """The replay's frames, players and table document (`UserFacingError` when the
        hand is not this server's, not finished or cannot be replayed)."""
        record = await store.hand_record(hand_id)
        table = None if record is None else await store.load_table(record.table_id)
        if record is None or table is None or table.guild_id != interaction.guild_id:
            raise UserFacingError("replay.not_found", id=hand_id)
        if record.result_side is None:
            raise UserFacingError("replay.not_finished", id=hand_id)
        frames = self._frames.get(hand_id)
        if frames is None:
            options = table.doc.get("options")
            try:
                rules = rules_of(options) if isinstance(options, dict) else RuleSet()
            except (TypeError, ValueError):
                rules = RuleSet()
            levels = None if record.levels_before else levels_before(
                await store.level_history(record.match_key), record.hand_no)
            try:
                frames = await asyncio.to_thread(replay_frames, record, rules, levels)
            except ReplayError:
                raise UserFacingError("replay.unavailable", id=hand_id) from None
            self._frames[hand_id] = frames
            while len(self._frames) > REPLAY_CACHE:
                self._frames.popitem(last=False)
        else:
            self._frames.move_to_end(hand_id)
        return frames, record.players, table.doc if isinstance(table.doc, dict) else {}

    async def _seats(self, interaction: discord.Interaction, players: Players,
                     table_doc: Any, locale: str) -> list[SeatInfo]:
        names: dict[int, str] = {}
        for seat in (table_doc.get("seats") or []) if isinstance(table_doc, dict) else []:
            if isinstance(seat, dict) and seat.get("user_id") is not None and seat.get("name"):
                names[int(seat["user_id"])] = str(seat["name"])
        out = []
        for index, user_id in enumerate(players):
            if user_id is None:
                name = t("seat.computer_name", locale, number=index + 1)
                out.append(SeatInfo(name, name, computer=True))
                continue
            name = names.get(user_id) or await self._display_name(interaction, user_id)
            out.append(SeatInfo(name, f"<@{user_id}>"))
        return out

    async def _display_name(self, interaction: discord.Interaction, user_id: int) -> str:
        guild = interaction.guild
        member = guild.get_member(user_id) if guild is not None else None
        if member is not None:
            return member.display_name
        user = self.app.client.get_user(user_id)
        if user is not None:
            return user.display_name
        try:
            return (await self.app.client.fetch_user(user_id)).display_name
        except discord.HTTPException:
            return str(user_id)

    async def show_replay(self, interaction: discord.Interaction, hand_id: int, step: int, *,
                          edit: bool) -> None:
        """Answer with step ``step`` of hand ``hand_id`` (a new ephemeral message, or by
        editing the replay message whose button was clicked)."""
        store = self.app.store
        locale = await reader_locale(interaction, store)
        frames, players, table_doc = await self._frames_for(store, interaction, hand_id)
        step = min(max(step, 0), len(frames) - 1)
        seats = await self._seats(interaction, players, table_doc, locale)
        settings = await store.user_settings(interaction.user.id)
        bottom = players.index(interaction.user.id) if interaction.user.id in players else 0
        text = frame_text(frames, step, seats, locale, hand_id=hand_id)
        png = await asyncio.to_thread(frame_png, frames[step], seats, locale,
                                      four_colour=settings.four_colour, bottom=bottom)
        files = [discord.File(io.BytesIO(png), filename=f"hand{hand_id}-step{step + 1}.png")]
        view = replay_view(hand_id, step, len(frames))
        if edit:
            await edit_clicked(interaction, content=text, attachments=files, view=view,
                               allowed_mentions=NO_PINGS)
        else:
            await send(interaction, text, files=files, view=view, allowed_mentions=NO_PINGS)


async def setup(app: App) -> None:
    await add_feature(app, Records(app))
