"""The `control` sparring player (issue 40): only legal moves, deterministic, and its
trump-control rules in play."""

from __future__ import annotations

from engine.actions import Action, Play
from engine.ai.control import bury, declaration
from engine.ai.registry import PLAYERS, make_player
from engine.cards import Card, Rank, Suit
from engine.rules import RuleSet
from engine.trump import Trump
from tools.arena import deal_setup, play_hand


def card(text: str) -> Card:
    return Card.parse(text)


def hands(seed: int, opponent: str) -> tuple[int, list[list[Action]]]:
    """The illegal moves and the actions of both hands of a duplicate deal, `control`
    against `opponent`."""
    hand_seed, level, starter = deal_setup(seed, 0)
    illegal = 0
    records = []
    for team in (0, 1):
        players = [make_player("control" if s % 2 == team else opponent, s) for s in range(4)]
        record: list[Action] = []
        illegal += play_hand(players, hand_seed, level, starter, RuleSet(), team, record).illegal
        records.append(record)
    return illegal, records


def test_control_plays_only_legal_moves_and_is_registered_for_the_arenas() -> None:
    assert "control" not in PLAYERS  # sparring only: not offered to tables
    for seed in range(4):
        illegal, records = hands(seed, "greedy" if seed % 2 else "expert")
        assert illegal == 0
        assert any(isinstance(a, Play) for a in records[0])


def test_control_is_deterministic() -> None:
    assert hands(7, "greedy") == hands(7, "greedy")


def test_declares_only_a_long_trump_suit() -> None:
    option = (card("2H"),)
    short = [card(c) for c in ("2H", "3S", "4S", "5S", "6C", "7C", "8D", "9D", "TD", "JC")]
    assert declaration(short, [option], Rank.TWO) is None
    long = [card(c) for c in ("2H", "3H", "4H", "5H", "6C", "7C", "8D", "9D", "TD", "JC")]
    assert declaration(long, [option], Rank.TWO) == option


def test_bury_voids_the_shortest_side_suit_but_keeps_its_ace() -> None:
    trump = Trump(Rank.TWO, Suit.HEARTS)
    cards = [card(c) for c in ("3C", "9C", "AD", "4D", "3S", "4S", "5S", "6S", "7S", "8S",
                               "3H", "4H")]
    buried = bury(cards, trump, 3)
    assert card("3C") in buried and card("9C") in buried  # clubs voided, not the low 3S
    assert card("AD") not in buried and not any(trump.is_trump(c) for c in buried)
