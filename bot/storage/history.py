"""Match, hand and action records: written with each save, read for replay and history.

Writers run inside the save's transaction (see `tables.save`); settling a hand updates the
ratings there too. Readers run inside a read transaction.

A match belongs to the guild's season current when it was first saved. A hand's seat
holders (`HandRecord.holders`) are merged over its saves (`merge_holders`); a hand whose
seats are not all distinct humans, or where a seat changed hands, makes its match
unranked, and only hands of ranked matches are rated. Matches and hands have a mode
(`Mode`) and a number of seats, fixed at the match's first save. Everything is kept per
seat, in every mode (schema 7): a match seat's level, whether it won and its fixed team
(`Variant.team_of`, NULL where sides are not fixed); a hand seat's part (starter, on the
starter's side, opponent) and its level before and after the hand.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, cast

from engine.state import opt_int
from engine.variant import Variant

from . import ratings, seasons
from .interface import Connection, Row
from .records import (
    HandAction,
    HandRecord,
    Holders,
    LevelPoint,
    MatchRecord,
    MatchSummary,
    Mode,
    Side,
)
from .sql import (
    check_players,
    distinct_humans,
    dumps,
    fits,
    one,
    opt_float,
    players_of,
    rows,
)


class MatchRef(NamedTuple):
    """What a hand needs of its match."""

    id: int
    match_key: str
    table_id: int
    guild_id: int
    season: int
    ranked: bool
    mode: Mode
    seats: int


@dataclass(frozen=True, slots=True)
class HandWrite:
    """A hand record with its kitty already serialised."""

    record: HandRecord
    kitty_json: str

    @classmethod
    def of(cls, record: HandRecord) -> HandWrite:
        """Check the holders and serialise the kitty."""
        check_holders(record)
        return cls(record, dumps(list(record.kitty)))


@dataclass(frozen=True, slots=True)
class ActionWrite:
    """An action with its JSON already serialised."""

    hand_key: str
    seq: int
    action_json: str

    @classmethod
    def of(cls, action: HandAction) -> ActionWrite:
        return cls(action.hand_key, action.seq, dumps(action.action))


# ---------------------------------------------------------------------- writing

def _check_match(rec: MatchRecord, table: Row) -> Variant:
    variant = check_players(rec.players, rec.mode)
    if (rec.table_id, rec.guild_id, rec.channel_id) != (
        table["id"], table["guild_id"], table["channel_id"]
    ):
        raise ValueError(f"match {rec.match_key!r} does not match table {table['id']}")
    if len(rec.levels) != rec.seats:
        raise ValueError(f"levels must be one per seat, got {rec.levels!r}")
    if rec.winners and (list(rec.winners) != sorted(set(rec.winners)) or not all(
            0 <= seat < rec.seats for seat in rec.winners)):
        raise ValueError(f"bad winners {rec.winners!r} for a {rec.seats}-seat match")
    return variant


def upsert_match(db: Connection, rec: MatchRecord, table: Row,
                 now: float) -> MatchRef:
    """Insert or update a match of ``table`` (a level change adds a level point)."""
    variant = _check_match(rec, table)
    ranked = distinct_humans(rec.players)
    old = one(db, "SELECT * FROM matches WHERE match_key = ?", rec.match_key)
    if old is None:
        ended_at = rec.ended_at if rec.ended_at is not None else (
            now if rec.finished else None)
        season = seasons.current(db, rec.guild_id).number
        cur = db.execute(
            "INSERT INTO matches (match_key, table_id, guild_id, channel_id, hands_played,"
            " ranked, started_at, ended_at, season, mode, seats)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (rec.match_key, rec.table_id, rec.guild_id, rec.channel_id, rec.hands_played,
             int(ranked), rec.started_at if rec.started_at is not None else now, ended_at,
             season, str(rec.mode), rec.seats),
        )
        match_id = int(cur.fetchall()[0][0])
        levels_changed = True
    else:
        if old["table_id"] != rec.table_id:
            raise ValueError(f"match {rec.match_key!r} belongs to table {old['table_id']}")
        if (old["mode"], old["seats"]) != (rec.mode, rec.seats):
            raise ValueError(f"match {rec.match_key!r} is a {old['seats']}-seat"
                             f" {old['mode']} match")
        match_id = int(old["id"])
        season = int(old["season"])
        ended_at = rec.ended_at
        if ended_at is None and rec.finished:
            ended_at = opt_float(old["ended_at"]) or now
        ranked = ranked and bool(old["ranked"])
        db.execute(
            "UPDATE matches SET hands_played = ?, ranked = ?,"
            " started_at = COALESCE(?, started_at), ended_at = ? WHERE id = ?",
            (rec.hands_played, int(ranked), rec.started_at, ended_at, match_id),
        )
        stored = [r["level"] for r in rows(db, "SELECT level FROM match_seats"
                                               " WHERE match_id = ? ORDER BY seat", match_id)]
        levels_changed = stored != list(rec.levels)
    if levels_changed:
        db.execute(
            "INSERT INTO match_levels (match_id, hands_played, levels, at) VALUES (?, ?, ?, ?)",
            (match_id, rec.hands_played, dumps(list(rec.levels)), now),
        )
    db.executemany(
        "INSERT INTO match_seats (match_id, seat, user_id, level, won, team)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE"
        " SET user_id = excluded.user_id, level = excluded.level, won = excluded.won",
        [(match_id, seat, user, level, int(seat in rec.winners), variant.team_of(seat))
         for seat, (user, level) in enumerate(zip(rec.players, rec.levels, strict=True))],
    )
    return MatchRef(match_id, rec.match_key, rec.table_id, rec.guild_id, season, ranked,
                    rec.mode, rec.seats)


def _check_hand(rec: HandRecord, table_id: int, match: MatchRef) -> None:
    variant = check_players(rec.players, rec.mode)
    if rec.table_id != table_id:
        raise ValueError(f"hand {rec.hand_key!r} is not for table {table_id}")
    if (rec.mode, rec.seats) != (match.mode, match.seats):
        raise ValueError(f"hand {rec.hand_key!r} ({rec.seats}-seat {rec.mode}) does not fit"
                         f" its {match.seats}-seat {match.mode} match")
    seats = range(rec.seats)
    if rec.starter is not None and rec.starter not in seats:
        raise ValueError(f"bad starter seat {rec.starter}")
    if rec.declarers is not None and not _a_side(rec, variant):
        raise ValueError(f"declarers must be the starter's side, ascending, got"
                         f" {rec.declarers} (starter {rec.starter})")
    for levels in (rec.levels_before, rec.levels_after):
        if levels and len(levels) != rec.seats:
            raise ValueError(f"levels must be () or one per seat, got {levels!r}")
    if rec.result_side not in (None, "declarers", "opponents"):
        raise ValueError(f"bad result_side {rec.result_side!r}")
    if rec.result_side is not None and rec.declarers is None:
        raise ValueError("a settled hand needs its declarers")
    if rec.result_levels < 0:
        raise ValueError("result_levels must be >= 0")


def _a_side(rec: HandRecord, variant: Variant) -> bool:
    """Whether a hand's ``declarers`` can be the starter's side: distinct seats, ascending,
    not every seat, with the starter (if known) and all its partners."""
    declarers = rec.declarers
    if not declarers or list(declarers) != sorted(set(declarers)) or not (
            declarers[0] >= 0 and declarers[-1] < rec.seats and len(declarers) < rec.seats):
        return False
    starter = declarers[0] if rec.starter is None else rec.starter
    return starter in declarers and set(variant.partners(starter, rec.seats)) <= set(declarers)


def _match_of(db: Connection, rec: HandRecord, saved: MatchRef | None) -> MatchRef:
    if saved is not None and saved.match_key == rec.match_key:
        return saved
    row = one(db, "SELECT id, table_id, guild_id, season, ranked, mode, seats FROM matches"
                  " WHERE match_key = ?", rec.match_key)
    if row is None or row["table_id"] != rec.table_id:
        raise ValueError(f"hand {rec.hand_key!r}: no match {rec.match_key!r} at this table"
                         " (pass the MatchRecord first or in the same save)")
    return MatchRef(int(row["id"]), rec.match_key, int(row["table_id"]), int(row["guild_id"]),
                    int(row["season"]), bool(row["ranked"]), Mode(row["mode"]), int(row["seats"]))


def upsert_hand(db: Connection, hand: HandWrite, table: Row, now: float,
                saved_match: MatchRef | None) -> int:
    """Insert or update a hand of ``table``; settling it (once) updates the ratings of a
    ranked match. ``saved_match`` is the match written in the same save, if any.
    Returns the hand's id."""
    rec = hand.record
    match = _match_of(db, rec, saved_match)
    _check_hand(rec, int(table["id"]), match)
    values = (
        rec.hand_no, str(rec.seed), rec.level, rec.trump, rec.starter, hand.kitty_json,
        rec.opponent_points, rec.kitty_points, rec.multiplier,
        rec.result_side, rec.result_levels,
    )
    old = one(db, "SELECT id, match_id, result_side, result_levels FROM hands"
                  " WHERE hand_key = ?", rec.hand_key)
    settling = rec.result_side is not None
    if old is None:
        cur = db.execute(
            "INSERT INTO hands (hand_no, seed, level, trump, starter, kitty, opponent_points,"
            " kitty_points, multiplier, result_side, result_levels, hand_key, match_id,"
            " table_id, started_at, settled_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (*values, rec.hand_key, match.id, rec.table_id, now, now if settling else None),
        )
        hand_id = int(cur.fetchall()[0][0])
    else:
        hand_id = int(old["id"])
        if old["match_id"] != match.id:
            raise ValueError(f"hand {rec.hand_key!r} belongs to another match")
        if old["result_side"] is not None:
            if (old["result_side"], old["result_levels"]) != (rec.result_side,
                                                              rec.result_levels):
                raise ValueError(f"hand {rec.hand_key!r} is already settled")
            settling = False
        db.execute(
            "UPDATE hands SET hand_no = ?, seed = ?, level = ?, trump = ?, starter = ?,"
            " kitty = ?, opponent_points = ?,"
            " kitty_points = ?, multiplier = ?, result_side = ?, result_levels = ?,"
            " settled_at = COALESCE(settled_at, ?) WHERE id = ?",
            (*values, now if settling else None, hand_id),
        )
    changed = _put_hand_seats(db, hand_id, rec)
    if changed or not distinct_humans(rec.players):
        db.execute("UPDATE matches SET ranked = 0 WHERE id = ?", (match.id,))
    elif settling and match.ranked:
        ratings.record_hand(db, hand_id, match.guild_id, match.season, rec, now)
    return hand_id


def check_holders(rec: HandRecord) -> None:
    """ValueError unless ``holders`` is empty or, per seat, a non-empty sequence ending
    with ``players[seat]``."""
    if rec.holders == ():
        return
    if len(rec.holders) != len(rec.players) or not all(
        len(held) > 0 and held[-1] == player
        for held, player in zip(rec.holders, rec.players, strict=False)
    ):
        raise ValueError(f"hand {rec.hand_key!r}: holders must be one non-empty sequence a seat,"
                         f" each ending with the seat's player; got {rec.holders!r}")


def _collapsed(holders: Sequence[int | None]) -> list[int | None]:
    out: list[int | None] = []
    for h in holders:
        if not out or out[-1] != h:
            out.append(h)
    return out


def merge_holders(stored: Sequence[int | None], given: Sequence[int | None]
                  ) -> list[int | None]:
    """A seat's holders after a save: ``given`` if it extends what was ``stored``, else
    ``stored`` followed by ``given`` (a change seen at an earlier save is kept)."""
    given = _collapsed(given)
    if given[:len(stored)] == list(stored):
        return given
    return _collapsed([*stored, *given])


def _put_hand_seats(db: Connection, hand_id: int, rec: HandRecord) -> bool:
    """Upsert the hand's seat rows with their merged holders; True if any seat changed
    hands during the hand."""
    stored = {int(r["seat"]): json.loads(r["holders"]) if r["holders"] else [r["user_id"]]
              for r in rows(db, "SELECT seat, user_id, holders FROM hand_seats"
                                " WHERE hand_id = ?", hand_id)}
    merged = [merge_holders(stored.get(seat, []),
                            rec.holders[seat] if rec.holders else (player,))
              for seat, player in enumerate(rec.players)]
    before = rec.levels_before or [None] * rec.seats
    after = rec.levels_after or [None] * rec.seats
    db.executemany(
        "INSERT INTO hand_seats (hand_id, seat, user_id, holders, side, level_before,"
        " level_after) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (hand_id, seat) DO UPDATE SET user_id = excluded.user_id,"
        " holders = excluded.holders, side = excluded.side,"
        " level_before = COALESCE(excluded.level_before, hand_seats.level_before),"
        " level_after = COALESCE(excluded.level_after, hand_seats.level_after)",
        [(hand_id, seat, player, dumps(held) if len(held) > 1 else None, rec.role(seat),
          before[seat], after[seat])
         for seat, (player, held) in enumerate(zip(rec.players, merged, strict=True))],
    )
    return any(len(held) > 1 for held in merged)


def append_actions(db: Connection, actions: Sequence[ActionWrite], table_id: int,
                   now: float, hand_ids: Mapping[str, int]) -> None:
    """Append actions to hands of ``table_id`` (``hand_ids``: ids of hands written in the
    same save; others are looked up by the insert itself)."""
    for a in actions:
        try:
            if a.hand_key in hand_ids:
                cur = db.execute("INSERT INTO hand_actions (hand_id, seq, action, at)"
                                 " VALUES (?, ?, ?, ?)",
                                 (hand_ids[a.hand_key], a.seq, a.action_json, now))
            else:
                cur = db.execute("INSERT INTO hand_actions (hand_id, seq, action, at)"
                                 " SELECT id, ?, ?, ? FROM hands WHERE hand_key = ?"
                                 " AND table_id = ?",
                                 (a.seq, a.action_json, now, a.hand_key, table_id))
        except db.IntegrityError as exc:
            raise ValueError(f"hand {a.hand_key!r} already has action {a.seq}") from exc
        if cur.rowcount != 1:
            raise ValueError(f"action for unknown hand {a.hand_key!r} at table {table_id}")


# ---------------------------------------------------------------------- reading

def _hands(db: Connection, where: str, *params: Any) -> list[HandRecord]:
    out = []
    for r in rows(db, "SELECT h.*, m.match_key, m.mode, m.seats FROM hands AS h JOIN matches"
                      f" AS m ON m.id = h.match_id WHERE {where} ORDER BY h.hand_no, h.id",
                  *params):
        seats = rows(db, "SELECT * FROM hand_seats WHERE hand_id = ? ORDER BY seat", r["id"])
        n = int(r["seats"])
        out.append(HandRecord(
            id=r["id"], hand_key=r["hand_key"], match_key=r["match_key"],
            table_id=r["table_id"], hand_no=r["hand_no"], seed=int(r["seed"]),
            level=r["level"], trump=r["trump"], starter=opt_int(r["starter"]),
            declarers=_declarers_of(seats), players=players_of(seats, n),
            kitty=json.loads(r["kitty"]), opponent_points=r["opponent_points"],
            kitty_points=r["kitty_points"], multiplier=r["multiplier"],
            result_side=cast(Side | None, r["result_side"]), result_levels=r["result_levels"],
            holders=_holders_of(seats, n), mode=Mode(r["mode"]),
            levels_before=_levels_of(seats, "level_before", n),
            levels_after=_levels_of(seats, "level_after", n), actions=[],
        ))
    return out


def _declarers_of(seats: Sequence[Row]) -> tuple[int, ...] | None:
    """`HandRecord.declarers` from a hand's seat rows (None while no seat has a part)."""
    if all(s["side"] is None for s in seats):
        return None
    return tuple(int(s["seat"]) for s in seats if s["side"] in ("starter", "friend"))


def _levels_of(seats: Sequence[Row], column: str, n: int) -> tuple[str, ...]:
    """Every seat's level from a seat column, or () unless all seats have one."""
    levels = {int(s["seat"]): s[column] for s in seats}
    found = tuple(levels.get(seat) for seat in range(n))
    return cast(tuple[str, ...], found) if all(v is not None for v in found) else ()


def _holders_of(seats: Sequence[Row], n: int) -> Holders:
    """`HandRecord.holders` from a hand's seat rows: () when no seat changed hands."""
    if all(s["holders"] is None for s in seats):
        return ()
    held = {int(s["seat"]): tuple(json.loads(s["holders"])) if s["holders"]
            else (opt_int(s["user_id"]),) for s in seats}
    return tuple(held.get(seat, (None,)) for seat in range(n))


def hand_record(db: Connection, hand: int | str) -> HandRecord | None:
    """A hand by id (int) or hand_key (str), with its actions."""
    if isinstance(hand, int) and not fits(hand):
        return None
    found = _hands(db, f"{'h.id' if isinstance(hand, int) else 'h.hand_key'} = ?", hand)
    if not found:
        return None
    actions = rows(db, "SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq",
                   found[0].id)
    return replace(found[0], actions=[json.loads(r["action"]) for r in actions])


def match_hands(db: Connection, match_key: str) -> list[HandRecord]:
    """A match's hands in order, without actions."""
    return _hands(db, "m.match_key = ?", match_key)


def match_record(db: Connection, match_key: str) -> MatchRecord | None:
    """A match as last saved."""
    row = one(db, "SELECT * FROM matches WHERE match_key = ?", match_key)
    if row is None:
        return None
    seats = rows(db, "SELECT seat, user_id, level, won FROM match_seats WHERE match_id = ?",
                 row["id"])
    n = int(row["seats"])
    return MatchRecord(
        match_key=row["match_key"], table_id=row["table_id"], guild_id=row["guild_id"],
        channel_id=row["channel_id"], players=players_of(seats, n), mode=Mode(row["mode"]),
        levels=_levels_of(seats, "level", n), winners=_winners_of(seats),
        hands_played=row["hands_played"], started_at=row["started_at"],
        ended_at=row["ended_at"],
    )


def _winners_of(seats: Sequence[Row]) -> tuple[int, ...]:
    """`MatchRecord.winners` from a match's seat rows."""
    return tuple(sorted(int(s["seat"]) for s in seats if s["won"]))


def level_history(db: Connection, match_key: str) -> list[LevelPoint]:
    """Every seat's levels at the start and after each change."""
    return [LevelPoint(r["hands_played"], tuple(json.loads(r["levels"])), r["at"])
            for r in rows(db, "SELECT l.* FROM match_levels AS l JOIN matches AS m"
                              " ON m.id = l.match_id WHERE m.match_key = ? ORDER BY l.id",
                          match_key)]


def channel_history(db: Connection, channel_id: int, n: int,
                    season: int | None, mode: Mode) -> list[MatchSummary]:
    """The channel's last ``n`` matches of ``mode`` and ``season`` (None: its guild's
    current season), newest first."""
    if not fits(channel_id) or (season is not None and not fits(season)):
        return []
    out = []
    current = seasons.CURRENT.format(guild="m.guild_id")
    for r in rows(db, "SELECT m.*, EXISTS (SELECT 1 FROM hand_seats AS s JOIN hands AS h"
                      " ON h.id = s.hand_id WHERE h.match_id = m.id AND (s.user_id IS NULL"
                      " OR s.holders LIKE '%null%'))"  # a computer held the seat for a while
                      " AS computer_hands FROM matches AS m WHERE m.channel_id = ?"
                      f" AND m.season = COALESCE(?, {current}) AND m.mode = ?"
                      " ORDER BY m.started_at DESC, m.id DESC LIMIT ?",
                  channel_id, season, str(mode), n):
        seats = rows(db, "SELECT seat, user_id, level, won FROM match_seats"
                         " WHERE match_id = ?", r["id"])
        players = players_of(seats, int(r["seats"]))
        out.append(MatchSummary(
            id=r["id"], match_key=r["match_key"], table_id=r["table_id"],
            channel_id=r["channel_id"], players=players,
            levels=_levels_of(seats, "level", int(r["seats"])), winners=_winners_of(seats),
            hands_played=r["hands_played"],
            has_computers=None in players or bool(r["computer_hands"]),
            ranked=bool(r["ranked"]), started_at=r["started_at"],
            ended_at=opt_float(r["ended_at"]), season=r["season"], mode=Mode(r["mode"]),
        ))
    return out
