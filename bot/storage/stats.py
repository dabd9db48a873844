"""Player stats and guild leaderboards of one season and mode (read-only queries over the
stats views, which count a seat only for whoever held it throughout; see V3__seasons.sql
and V7__seats.sql). Every mode is counted, rated and ranked apart; partnerships exist
where the engine's variant has fixed sides (`Variant.fixed_sides`), and their board is a
view over the per-seat rows (two seats of one fixed team: ``finished_partnerships``,
``settled_partnerships``)."""

from __future__ import annotations

import math

from engine.variant import find_variant

from . import ratings, seasons
from .interface import Connection
from .records import (
    FriendsStats,
    LeaderboardBy,
    LeaderboardPage,
    LeaderboardRow,
    LeaderboardScope,
    Mode,
    UserStats,
)
from .sql import one, opt_float, rows

LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Levels from lowest to highest (as the bot writes them)."""

# Leaderboard entities keyed (u1, u2): players have u2 = -1, partnerships u1 < u2.
# Parameters: ?1 guild, ?2 season, ?3 mode.
ENTITIES: dict[str, str] = {
    "players": (
        "WITH m AS (SELECT user_id AS u1, -1 AS u2, COUNT(DISTINCT match_id) AS matches,"
        " COUNT(DISTINCT CASE WHEN won THEN match_id END) AS wins FROM finished_match_seats"
        " WHERE guild_id = ?1 AND season = ?2 AND mode = ?3 AND ranked = 1 GROUP BY user_id),"
        " l AS (SELECT user_id AS u1, -1 AS u2, SUM(levels_gained) AS levels, COUNT(*) AS hands"
        " FROM settled_hand_seats WHERE guild_id = ?1 AND season = ?2 AND mode = ?3"
        " AND ranked = 1 GROUP BY user_id),"
        " r AS (SELECT user_id AS u1, -1 AS u2, mu, sigma, hands FROM ratings"
        " WHERE guild_id = ?1 AND season = ?2 AND mode = ?3),"
        " ids AS (SELECT u1, u2 FROM m UNION SELECT u1, u2 FROM l UNION SELECT u1, u2 FROM r)"
    ),
    "partnerships": (
        "WITH m AS (SELECT user_lo AS u1, user_hi AS u2, COUNT(DISTINCT match_id) AS matches,"
        " COUNT(DISTINCT CASE WHEN won THEN match_id END) AS wins FROM finished_partnerships"
        " WHERE guild_id = ?1 AND season = ?2 AND mode = ?3 AND ranked = 1 GROUP BY 1, 2),"
        " l AS (SELECT user_lo AS u1, user_hi AS u2, SUM(levels_gained) AS levels,"
        " COUNT(*) AS hands FROM settled_partnerships"
        " WHERE guild_id = ?1 AND season = ?2 AND mode = ?3 AND ranked = 1 GROUP BY 1, 2),"
        " r AS (SELECT user_lo AS u1, user_hi AS u2, mu, sigma, hands FROM pair_ratings"
        " WHERE guild_id = ?1 AND season = ?2 AND mode = ?3),"
        " ids AS (SELECT u1, u2 FROM m UNION SELECT u1, u2 FROM l UNION SELECT u1, u2 FROM r)"
    ),
}

# by -> (sort keys, which also define ties for RANK(), row filter)
ORDER: dict[str, tuple[str, str]] = {
    "rating": ("rating DESC, rated_hands DESC", "r.mu IS NOT NULL"),
    "wins": ("wins DESC, matches ASC", "m.matches > 0"),
    "levels": ("levels DESC, hands ASC", "l.hands > 0"),
}


def user_stats(db: Connection, guild_id: int, user_id: int, *,
               include_computers: bool, season: int | None, mode: str) -> UserStats:
    """A player's record in a guild, season and mode with fixed sides (see `Store.stats`)."""
    number = seasons.resolve(db, guild_id, season)
    ranked_only = "" if include_computers else " AND ranked = 1"
    partner_ranked_only = "" if include_computers else " AND me.ranked = 1"
    m = one(
        db,
        "SELECT COUNT(DISTINCT match_id) AS played,"
        " COUNT(DISTINCT CASE WHEN won THEN match_id END) AS won"
        " FROM finished_match_seats WHERE guild_id = ? AND season = ? AND user_id = ?"
        f" AND mode = ?{ranked_only}",
        guild_id, number, user_id, mode,
    )
    sides = {
        r["side"]: r for r in rows(
            db,
            "SELECT side, COUNT(*) AS n,"
            " SUM(CASE WHEN result_side = side THEN 1 ELSE 0 END) AS held,"
            " SUM(levels_gained) AS levels, AVG(opponent_points) AS avg_points"
            " FROM settled_hand_seats WHERE guild_id = ? AND season = ? AND user_id = ?"
            f" AND mode = ?{ranked_only} GROUP BY side",
            guild_id, number, user_id, mode,
        )
    }
    partner = one(
        db,
        "SELECT p.user_id, COUNT(DISTINCT me.match_id) AS n,"
        " COUNT(DISTINCT CASE WHEN me.won THEN me.match_id END) AS w"
        " FROM finished_match_seats AS me JOIN finished_match_seats AS p"
        " ON p.match_id = me.match_id AND p.team = me.team AND p.seat <> me.seat"
        " WHERE me.guild_id = ? AND me.season = ? AND me.user_id = ? AND me.mode = ?"
        f" AND p.user_id <> me.user_id{partner_ranked_only}"
        " GROUP BY p.user_id ORDER BY n DESC, w DESC, p.user_id LIMIT 1",
        guild_id, number, user_id, mode,
    )
    rating = _rating(db, guild_id, number, mode, user_id)
    assert m is not None
    decl, opp = sides.get("declarers"), sides.get("opponents")
    return UserStats(
        guild_id=guild_id,
        user_id=user_id,
        matches_played=int(m["played"]),
        matches_won=int(m["won"]),
        hands_as_declarers=int(decl["n"]) if decl else 0,
        held_as_declarers=int(decl["held"]) if decl else 0,
        hands_as_opponents=int(opp["n"]) if opp else 0,
        held_as_opponents=int(opp["held"]) if opp else 0,
        levels_gained=sum(int(r["levels"]) for r in sides.values()),
        avg_points_as_opponents=float(opp["avg_points"]) if opp else None,
        favourite_partner=int(partner["user_id"]) if partner else None,
        matches_with_favourite=int(partner["n"]) if partner else 0,
        rating=rating[0], rated_hands=rating[1], season=number,
    )


def _rating(db: Connection, guild_id: int, season: int, mode: str,
            user_id: int) -> tuple[float | None, int]:
    """A player's display rating in a mode (None if unrated) and their rated hands."""
    row = one(db, "SELECT mu, sigma, hands FROM ratings WHERE guild_id = ? AND season = ?"
                  " AND mode = ? AND user_id = ?", guild_id, season, mode, user_id)
    if row is None:
        return None, 0
    return ratings.display_rating(row["mu"], row["sigma"]), int(row["hands"])


def highest(levels: list[str]) -> str | None:
    """The highest of some levels (unknown texts rank lowest), None if there are none."""
    return max(levels, key=lambda v: LEVELS.index(v) if v in LEVELS else -1, default=None)


def friends_stats(db: Connection, guild_id: int, user_id: int, *,
                  include_computers: bool, season: int | None) -> FriendsStats:
    """A player's Finding Friends record in a guild and season (see `Store.friends_stats`)."""
    number = seasons.resolve(db, guild_id, season)
    ranked_only = "" if include_computers else " AND ranked = 1"
    where = f"guild_id = ? AND season = ? AND user_id = ? AND mode = 'friends'{ranked_only}"
    m = one(db, "SELECT COUNT(DISTINCT match_id) AS played,"
                " COUNT(DISTINCT CASE WHEN won THEN match_id END) AS won"
                f" FROM finished_match_seats WHERE {where}", guild_id, number, user_id)
    assert m is not None
    roles = {r["role"]: r for r in rows(
        db, "SELECT role, COUNT(*) AS n,"
            " SUM(CASE WHEN result_side = side THEN 1 ELSE 0 END) AS won,"
            f" SUM(levels_gained) AS levels FROM settled_hand_seats WHERE {where}"
            " GROUP BY role", guild_id, number, user_id)}
    levels = [str(r[0]) for r in rows(
        db, f"SELECT DISTINCT level_after FROM settled_hand_seats WHERE {where}"
            " AND level_after IS NOT NULL", guild_id, number, user_id)]

    def count(role: str, column: str) -> int:
        return int(roles[role][column]) if role in roles else 0

    rating, rated_hands = _rating(db, guild_id, number, "friends", user_id)
    return FriendsStats(
        guild_id=guild_id, user_id=user_id, matches_played=int(m["played"]),
        matches_won=int(m["won"]), hands_played=sum(int(r["n"]) for r in roles.values()),
        hands_as_starter=count("starter", "n"), won_as_starter=count("starter", "won"),
        hands_as_friend=count("friend", "n"), won_as_friend=count("friend", "won"),
        hands_as_opponent=count("opponent", "n"), won_as_opponent=count("opponent", "won"),
        levels_gained=sum(int(r["levels"]) for r in roles.values()),
        highest_level=highest(levels), rating=rating, rated_hands=rated_hands,
        season=number,
    )


def check_leaderboard(by: str, scope: str, page: int, per_page: int, mode: str) -> None:
    """ValueError for a page < 1, an unknown ordering, scope or mode, or partnerships in
    a mode without fixed sides."""
    if page < 1 or per_page < 1:
        raise ValueError("page and per_page must be >= 1")
    if by not in ORDER or scope not in ENTITIES:
        raise ValueError(f"bad leaderboard {by!r}/{scope!r}")
    if scope != "players" and not find_variant(mode).fixed_sides:  # ValueError: no mode
        raise ValueError(f"{mode} has no partnerships")
    find_variant(mode)


def leaderboard(db: Connection, guild_id: int, by: LeaderboardBy,
                scope: LeaderboardScope, page: int, per_page: int,
                season: int | None, mode: Mode) -> LeaderboardPage:
    """One page of a guild leaderboard (see `Store.leaderboard`; arguments checked by
    `check_leaderboard`)."""
    number = seasons.resolve(db, guild_id, season)
    keys, filter_ = ORDER[by]
    sql = (
        f"{ENTITIES[scope]}, board AS (SELECT ids.u1, ids.u2,"
        " r.mu - 3 * r.sigma AS rating, COALESCE(r.hands, 0) AS rated_hands,"
        " COALESCE(m.matches, 0) AS matches, COALESCE(m.wins, 0) AS wins,"
        " COALESCE(l.levels, 0) AS levels, COALESCE(l.hands, 0) AS hands"
        " FROM ids LEFT JOIN m USING (u1, u2) LEFT JOIN l USING (u1, u2)"
        f" LEFT JOIN r USING (u1, u2) WHERE {filter_})"
    )
    total_row = one(db, f"{sql} SELECT COUNT(*) FROM board", guild_id, number, str(mode))
    assert total_row is not None
    total = int(total_row[0])
    found = rows(
        db,
        f"{sql} SELECT *, RANK() OVER (ORDER BY {keys}) AS rank FROM board"
        f" ORDER BY {keys}, u1, u2 LIMIT ? OFFSET ?",
        guild_id, number, str(mode), per_page, (page - 1) * per_page,
    )
    return LeaderboardPage(
        by=by, scope=scope, page=page, per_page=per_page, total_rows=total,
        total_pages=max(1, math.ceil(total / per_page)),
        rows=[
            LeaderboardRow(
                rank=int(r["rank"]),
                users=(int(r["u1"]),) if r["u2"] < 0 else (int(r["u1"]), int(r["u2"])),
                rating=opt_float(r["rating"]), rated_hands=int(r["rated_hands"]),
                matches=int(r["matches"]), wins=int(r["wins"]), levels=int(r["levels"]),
                hands=int(r["hands"]),
            )
            for r in found
        ],
        season=number, mode=mode,
    )
