"""Stats, leaderboards, history and ratings over a small seeded set of matches.

Seeded (guild 1; team A = seats 0+2, team B = seats 1+3; H(declaring team, opponents'
points, result side, levels gained by that side)):

  M1 ch10 (101,102,103,104): H(A,40,decl,1) H(A,85,opp,0) H(B,0,decl,3)  -> B wins
  M2 ch10 (101,105,103,106): H(A,20,decl,2) H(A,130,opp,1)               -> A wins
  M3 ch10 (101,cpu,102,cpu): H(A,60,decl,1)                              -> A wins (computers)
  M4 ch20 (102,101,104,103): H(B,100,opp,0)                              -> unfinished
  M5 ch30 (102,105,103,106): H(B,30,decl,1)                              -> B wins
  M6 guild 2 (101,102,103,104): H(A,0,decl,3)                            -> A wins
"""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating
from storage_helpers import H, play_match

from bot.storage import Store

CPU = None


async def seed(store: Store) -> None:
    await play_match(store, guild=1, channel=10, match_key="M1", players=(101, 102, 103, 104),
                     hands=[H("A", 40, "declarers", 1), H("A", 85, "opponents", 0),
                            H("B", 0, "declarers", 3)], winner="B")
    await play_match(store, guild=1, channel=10, match_key="M2", players=(101, 105, 103, 106),
                     hands=[H("A", 20, "declarers", 2), H("A", 130, "opponents", 1)],
                     winner="A")
    await play_match(store, guild=1, channel=10, match_key="M3", players=(101, CPU, 102, CPU),
                     hands=[H("A", 60, "declarers", 1)], winner="A")
    await play_match(store, guild=1, channel=20, match_key="M4", players=(102, 101, 104, 103),
                     hands=[H("B", 100, "opponents", 0)], winner=None, end_table=False)
    await play_match(store, guild=1, channel=30, match_key="M5", players=(102, 105, 103, 106),
                     hands=[H("B", 30, "declarers", 1)], winner="B")
    await play_match(store, guild=2, channel=99, match_key="M6", players=(101, 102, 103, 104),
                     hands=[H("A", 0, "declarers", 3)], winner="A")


async def test_user_stats(store: Store) -> None:
    await seed(store)
    s = await store.stats(1, 101, mode="teams")
    assert (s.matches_played, s.matches_won) == (3, 2)
    assert (s.hands_as_declarers, s.held_as_declarers) == (6, 3)
    assert (s.hands_as_opponents, s.held_as_opponents) == (1, 0)
    assert s.levels_gained == 4
    assert s.avg_points_as_opponents == 0.0
    assert (s.favourite_partner, s.matches_with_favourite) == (103, 2)
    assert s.rated_hands == 6 and s.rating is not None  # M3 (computers) is not rated

    s = await store.stats(1, 101, include_computers=False, mode="teams")
    assert (s.matches_played, s.matches_won) == (2, 1)
    assert (s.hands_as_declarers, s.held_as_declarers) == (5, 2)
    assert (s.hands_as_opponents, s.held_as_opponents, s.levels_gained) == (1, 0, 3)

    s = await store.stats(1, 102, mode="teams")
    assert (s.matches_played, s.matches_won) == (3, 2)
    assert (s.hands_as_declarers, s.held_as_declarers) == (2, 2)
    assert (s.hands_as_opponents, s.held_as_opponents) == (4, 2)
    assert s.avg_points_as_opponents == 63.75  # (40 + 85 + 100 + 30) / 4
    assert s.levels_gained == 4
    # 104, 101 and 103 one finished match each; 104 and 101 won theirs -> lowest id
    assert (s.favourite_partner, s.matches_with_favourite) == (101, 1)
    s = await store.stats(1, 102, include_computers=False, mode="teams")
    assert (s.matches_played, s.matches_won, s.levels_gained) == (2, 1, 3)
    assert s.favourite_partner == 104  # tie on matches with 103, broken by wins

    s = await store.stats(2, 101, mode="teams")
    assert (s.matches_played, s.matches_won, s.levels_gained, s.rated_hands) == (1, 1, 3, 1)
    nobody = await store.stats(1, 555, mode="teams")
    assert (nobody.matches_played, nobody.hands_as_declarers, nobody.rating) == (0, 0, None)
    assert nobody.favourite_partner is None and nobody.avg_points_as_opponents is None


async def test_player_leaderboards_and_pagination(store: Store) -> None:
    await seed(store)
    p1 = await store.leaderboard(1, "wins", "players", 1, per_page=4, mode="teams")
    assert (p1.total_rows, p1.total_pages) == (6, 2)
    assert [(r.rank, r.users, r.wins, r.matches) for r in p1.rows] == [
        (1, (104,), 1, 1), (2, (101,), 1, 2), (2, (102,), 1, 2), (2, (105,), 1, 2)]
    p2 = await store.leaderboard(1, "wins", "players", 2, per_page=4, mode="teams")
    assert [(r.rank, r.users, r.wins, r.matches) for r in p2.rows] == [
        (2, (106,), 1, 2), (6, (103,), 1, 3)]
    assert (await store.leaderboard(1, "wins", "players", 3, per_page=4, mode="teams")).rows == []

    lv = await store.leaderboard(1, "levels", "players", 1, mode="teams")
    assert (lv.total_rows, lv.total_pages) == (6, 1)
    assert [(r.rank, r.users, r.levels, r.hands) for r in lv.rows] == [
        (1, (104,), 3, 4), (2, (102,), 3, 5), (3, (101,), 3, 6), (4, (103,), 3, 7),
        (5, (105,), 2, 3), (5, (106,), 2, 3)]

    with pytest.raises(ValueError):
        await store.leaderboard(1, "wins", "players", 0, mode="teams")
    empty = await store.leaderboard(3, "rating", "players", 1, mode="teams")
    assert (empty.rows, empty.total_rows, empty.total_pages) == ([], 0, 1)


async def test_partnership_leaderboards(store: Store) -> None:
    await seed(store)
    w = await store.leaderboard(1, "wins", "partnerships", 1, mode="teams")
    assert [(r.rank, r.users, r.wins, r.matches) for r in w.rows] == [
        (1, (102, 104), 1, 1), (2, (101, 103), 1, 2), (2, (105, 106), 1, 2),
        (4, (102, 103), 0, 1)]
    lv = await store.leaderboard(1, "levels", "partnerships", 1, per_page=3, mode="teams")
    assert (lv.total_rows, lv.total_pages) == (4, 2)
    assert [(r.rank, r.users, r.levels, r.hands) for r in lv.rows] == [
        (1, (102, 104), 3, 4), (2, (101, 103), 3, 6), (3, (105, 106), 2, 3)]
    # 101+102 only partnered in M3 (with computers): never listed
    r = await store.leaderboard(1, "rating", "partnerships", 1, mode="teams")
    assert {row.users for row in r.rows} == {(101, 103), (102, 104), (105, 106), (102, 103)}


def replay_ratings() -> tuple[dict[int, float], dict[tuple[int, int], float]]:
    """Independent replay of guild 1's ranked hands through openskill."""
    model = PlackettLuce()
    players: dict[int, PlackettLuceRating] = {}
    pairs: dict[tuple[int, int], PlackettLuceRating] = {}
    # (winning pair, losing pair) per ranked hand, in play order
    results = [((101, 103), (102, 104)), ((102, 104), (101, 103)), ((102, 104), (101, 103)),
               ((101, 103), (105, 106)), ((105, 106), (101, 103)),
               ((102, 104), (101, 103)), ((105, 106), (102, 103))]
    for win, lose in results:
        teams = [[players.get(u) or model.rating() for u in win],
                 [players.get(u) or model.rating() for u in lose]]
        for team, users in zip(model.rate(teams, ranks=[1, 2]), (win, lose), strict=True):
            players.update(zip(users, team, strict=True))
        (pw,), (pl,) = model.rate([[pairs.get(win) or model.rating()],
                                   [pairs.get(lose) or model.rating()]], ranks=[1, 2])
        pairs[win], pairs[lose] = pw, pl
    return ({u: r.mu - 3 * r.sigma for u, r in players.items()},
            {p: r.mu - 3 * r.sigma for p, r in pairs.items()})


async def test_rating_leaderboards_match_an_independent_replay(store: Store) -> None:
    await seed(store)
    expected_players, expected_pairs = replay_ratings()
    board = await store.leaderboard(1, "rating", "players", 1, mode="teams")
    assert [r.users[0] for r in board.rows] == sorted(
        expected_players, key=lambda u: -expected_players[u])
    for row in board.rows:
        assert row.rating == pytest.approx(expected_players[row.users[0]])
    assert {r.users[0]: r.rated_hands for r in board.rows} == {
        101: 6, 102: 5, 103: 7, 104: 4, 105: 3, 106: 3}
    pairs = await store.leaderboard(1, "rating", "partnerships", 1, mode="teams")
    for row in pairs.rows:
        assert row.rating == pytest.approx(expected_pairs[(row.users[0], row.users[1])])
    assert (await store.stats(1, 104, mode="teams")).rating == pytest.approx(expected_players[104])


async def test_first_rated_hand_literal_values(store: Store) -> None:
    await play_match(store, guild=1, channel=1, match_key="X", players=(1, 2, 3, 4),
                     hands=[H("B", 90, "opponents", 0)], winner=None)
    board = await store.leaderboard(1, "rating", "players", 1, mode="teams")
    # opponents (team A: 1 and 3) took 80+: they won the hand
    assert [(r.rank, r.users) for r in board.rows] == [(1, (1,)), (1, (3,)), (3, (2,)), (3, (4,))]
    assert [r.rating for r in board.rows] == pytest.approx([2.43041, 2.43041, -1.49818, -1.49818],
                                                           abs=1e-4)
    pairs = await store.leaderboard(1, "rating", "partnerships", 1, mode="teams")
    assert [r.rating for r in pairs.rows] == pytest.approx([3.43769, -1.83309], abs=1e-4)


async def test_duplicate_seats_are_not_ranked(store: Store) -> None:
    await play_match(store, guild=1, channel=1, match_key="D", players=(7, 7, 8, 9),
                     hands=[H("A", 0, "declarers", 3)], winner="A")
    assert (await store.stats(1, 8, mode="teams")).rating is None
    assert (await store.leaderboard(1, "wins", "players", 1, mode="teams")).rows == []
    (summary,) = await store.history(1, mode="teams")
    assert (summary.ranked, summary.has_computers) == (False, False)


async def test_history_and_levels_over_time(store: Store) -> None:
    await seed(store)
    recent = await store.history(10, n=2, mode="teams")
    assert [m.match_key for m in recent] == ["M3", "M2"]
    m3, m2 = recent
    assert (m3.players, m3.has_computers, m3.ranked) == ((101, None, 102, None), True, False)
    assert (m3.levels, m3.winners, m3.hands_played) == (("3", "2", "3", "2"), (0, 2), 1)
    assert (m2.levels, m2.winners, m2.hands_played) == (("4", "3", "4", "3"), (0, 2), 2)
    assert not m2.has_computers and m2.ranked and m2.ended_at is not None
    assert [m.match_key for m in await store.history(10, mode="teams")] == ["M3", "M2", "M1"]
    (m4,) = await store.history(20, mode="teams")
    assert (m4.winners, m4.ended_at, m4.levels) == ((), None, ("2",) * 4)

    points = await store.level_history("M1")
    assert [(p.hands_played, p.levels) for p in points] == [
        (0, ("2",) * 4), (1, ("3", "2", "3", "2")), (3, ("3", "5", "3", "5"))]
    hands = await store.match_hands("M1")
    assert [(h.hand_no, h.declarers, h.result_side, h.result_levels) for h in hands] == [
        (1, (0, 2), "declarers", 1), (2, (0, 2), "opponents", 0), (3, (1, 3), "declarers", 3)]
