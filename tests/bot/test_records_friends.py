"""Finding Friends records (issue 14): the records the bot builds from the engine at each
step (`bot.services.records`), stored and read back, and the replay of a 6-seat hand: plays by
seat, the calls and reveals, the result, and nothing hidden before its time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from friends_hand import friends_rules, play_friends_hand

from bot.i18n import t
from bot.present.replay import SeatInfo, frame_text, replay_frames
from bot.present.text import call_text, cards_text
from bot.services.records import hand_record, match_record
from bot.storage import HandAction, HandRecord, Store
from engine.actions import StartHand
from engine.cards import Rank
from engine.game import Match
from engine.rules import RuleSet

SIX = (101, 102, 103, 104, 105, 106)
SEATS = [SeatInfo(f"P{i}", f"<@{101 + i}>") for i in range(6)]


def records(seed: int, match: Match | None = None
            ) -> tuple[Match, list[HandRecord], list[dict[str, object]]]:
    """Play a hand; the hand's record after every action (as the bot saves it)."""
    steps = list(play_friends_hand(match or Match.new(friends_rules()), seed))
    out = [hand_record(after, hand_key="F:1", match_key="F", table_id=1, players=SIX)
           for _, after in steps]
    return steps[-1][1], out, [action.to_dict() for action, _ in steps]


@pytest.mark.parametrize("seed", [0, 2, 4])
def test_records_show_a_friend_only_once_revealed(seed: int) -> None:
    match, recs, _ = records(seed)
    final = recs[-1]
    result = match.hand.result if match.hand else None
    assert result is not None
    assert (final.mode, final.seats, final.result_side) == ("friends", 6, result.side)
    assert final.declarers == result.declarer_seats
    assert final.levels_before == tuple(str(r) for r in result.levels)
    assert final.levels_after == tuple(str(r) for r in result.new_levels)
    assert final.level == final.levels_before[final.starter or 0]
    side: set[int] = set()
    for rec in recs[:-1]:
        if rec.declarers is None:
            continue
        assert rec.starter in rec.declarers and rec.result_side is None
        assert set(rec.declarers) >= side  # a revealed friend stays
        side = set(rec.declarers)
        assert side <= set(final.declarers or ())
        assert rec.levels_after == ()
    assert recs[0].declarers is None  # at the deal: no starter yet


def test_reveals_reach_the_record_at_the_play_that_makes_them() -> None:
    _, recs, _ = records(0)
    revealed_at = [rec.declarers for rec in recs]
    changes = [i for i in range(1, len(revealed_at))
               if revealed_at[i] != revealed_at[i - 1] and revealed_at[i - 1] is not None]
    assert changes  # seed 0 reveals friends (seats 5 and 3) during play


def test_match_records_of_both_modes() -> None:
    match, _, _ = records(3)
    rec = match_record(match, match_key="F", table_id=1, guild_id=1, channel_id=10,
                       players=SIX, hands_played=1)
    assert (rec.mode, rec.levels, rec.winners) == (
        "friends", tuple(str(r) for r in match.levels), ())
    teams = Match.new(RuleSet())
    rec = match_record(teams, match_key="T", table_id=1, guild_id=1, channel_id=10,
                       players=SIX[:4], hands_played=0)
    assert (rec.mode, rec.levels, rec.winners) == ("teams", ("2",) * 4, ())


def test_a_teams_hand_record_is_per_seat_as_friends() -> None:
    teams = Match.new(RuleSet())
    teams, _ = teams.apply(StartHand(5))
    rec = hand_record(teams, hand_key="T:1", match_key="T", table_id=1, players=SIX[:4])
    assert rec == HandRecord(hand_key="T:1", match_key="T", table_id=1, hand_no=1, seed=5,
                             level="2", players=SIX[:4], mode="teams",
                             levels_before=("2",) * 4)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "t.sqlite3")
    yield s
    await s.close()


async def saved_hand(store: Store, seed: int) -> HandRecord:
    """A 6-seat hand saved through save_table as the service does, read back."""
    table = await store.create_table(1, 10, 101, {"options": {"mode": "friends",
                                                              "players": 6}})
    for seq, (action, match) in enumerate(play_friends_hand(Match.new(friends_rules()), seed)):
        table = await store.save_table(
            table.id, table.version, {}, status="playing",
            match=match_record(match, match_key="F", table_id=table.id, guild_id=1,
                               channel_id=10, players=SIX, hands_played=0),
            hand=hand_record(match, hand_key="F:1", match_key="F", table_id=table.id,
                             players=SIX),
            actions=[HandAction("F:1", seq, action.to_dict())])
    found = await store.hand_record("F:1")
    assert found is not None
    return found


async def test_a_six_seat_hand_is_stored_and_replayed(store: Store) -> None:
    record = await saved_hand(store, 0)
    assert record.mode == "friends" and record.seats == 6 and record.result_side
    frames = replay_frames(record, friends_rules())
    assert frames[0].kind == "start" and frames[-1].kind == "kitty"
    assert all(len(f.trick.plays) == 6 for f in frames[1:] if f.trick)
    last = frames[-1].view.result
    assert last is not None and last.declarer_seats == record.declarers
    texts = [frame_text(frames, i, SEATS, "en", hand_id=record.id or 0)
             for i in range(len(frames))]
    calls = ", ".join(call_text(c, "en") for c in frames[0].view.friend_calls)
    assert f"<@101> called friends: {calls}." in texts[0]  # seat 0 started
    assert all("Kitty:" not in text for text in texts[:-1]) and "Kitty:" in texts[-1]
    side = " & ".join(SEATS[s].mention for s in record.declarers or ())
    assert f"Starter's side: {side}." in texts[-1]
    assert all("/120" in text.replace(" ", "") for text in texts[1:-1])  # 3 decks: 40 each
    for i, frame in enumerate(frames[1:-1], start=1):
        assert len(texts[i].splitlines()) >= 7  # heading + six plays + points
        for seat, cards in zip(frame.trick.seats, frame.trick.plays, strict=True):  # type: ignore[union-attr]
            assert f"{SEATS[seat].mention}: {cards_text(cards)}" in texts[i]
    # each friend is announced in the trick where the called copy was played, not before
    reveal_steps = [i for i, f in enumerate(frames) if f.reveals]
    assert reveal_steps
    for i in reveal_steps:
        for reveal in frames[i].reveals:
            line = t(f"replay.reveal.{reveal.kind}", "en", player=SEATS[reveal.seat].mention,
                     call=call_text(reveal.call, "en"))
            assert line in texts[i] and all(line not in text for text in texts[:i])
    zh = frame_text(frames, 0, SEATS, "zh_Hans", hand_id=1)
    assert "叫朋友" in zh and "第" in zh


async def test_a_friends_replay_survives_a_table_switched_back_to_teams(store: Store) -> None:
    record = await saved_hand(store, 2)
    frames = replay_frames(record, RuleSet())  # the table's options now: teams
    assert frames[-1].view.result is not None
    assert frames[-1].view.result.side == record.result_side
    assert frames[-1].view.seats == 6


def test_a_friends_hand_after_the_first_uses_the_recorded_levels() -> None:
    first, _, _ = records(3)
    assert any(str(r) != "2" for r in first.levels)  # someone went up
    match, second, actions = records(11, first)
    rec = replace(second[-1], hand_key="F:2", actions=actions)
    assert rec.hand_no == 2 and len(set(rec.levels_before)) > 1
    frames = replay_frames(rec, friends_rules())
    result = frames[-1].view.result
    assert result is not None and result.levels == match.hand.result.levels  # type: ignore[union-attr]
    assert (result.side, result.opponent_points) == (rec.result_side, rec.opponent_points)


async def test_a_friends_match_won_by_a_seat_is_recorded_and_replayed(store: Store) -> None:
    """Everyone at A; seed 3: the starter (seat 3) and its friend win, and seat 3 takes
    the match (F6): the match record names the seat, the replay says so."""
    start = Match(rules=friends_rules(), levels=(Rank.ACE,) * 6, hand_no=3, starter=3)
    table = await store.create_table(1, 10, 101, {})
    steps = list(play_friends_hand(start, 3))
    for seq, (action, match) in enumerate(steps):
        table = await store.save_table(
            table.id, table.version, {},
            match=match_record(match, match_key="W", table_id=table.id, guild_id=1,
                               channel_id=10, players=SIX, hands_played=3),
            hand=hand_record(match, hand_key="W:4", match_key="W", table_id=table.id,
                             players=SIX),
            actions=[HandAction("W:4", seq, action.to_dict())])
    end = steps[-1][1]
    assert end.winner == 3
    saved = await store.match_record("W")
    assert saved is not None and saved.winners == (3,)
    assert (await store.friends_stats(1, SIX[3])).matches_won == 1
    assert (await store.friends_stats(1, SIX[2])).matches_won == 0
    record = await store.hand_record("W:4")
    assert record is not None and record.levels_before == ("A",) * 6
    frames = replay_frames(record, friends_rules())
    last = frame_text(frames, len(frames) - 1, SEATS, "en", hand_id=1)
    assert last.endswith(f"Match won by {SEATS[3].mention}!")
