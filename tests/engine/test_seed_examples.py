"""The worked examples of the source rule pages (seeds 000 and 004, docs/rules.md#sources), as
engine checks. RULES.md decides where they disagree (see the `*_rules_md_decides` tests).

Seed 000 lost its suit symbols in extraction; the suits below are reconstructed so that
each example says what its text says (noted per test).
"""

from __future__ import annotations

from tractor_dsl import T, cards, sub_multisets

from engine import (
    Rank,
    check_throw,
    declaration_error,
    decompose,
    follow_error,
    kitty_multiplier,
    settle,
    trick_winner,
)


def win(plays: str, trump: str) -> int:
    return trick_winner([cards(p) for p in plays.split("|")], T(trump))


def legal(hand: str, lead: str, play: str, trump: str) -> bool:
    return follow_error(cards(hand), cards(lead), cards(play), T(trump)) is None


def legal_follows(hand: str, lead: str, trump: str) -> list[str]:
    h, ld = cards(hand), cards(lead)
    return sorted(" ".join(map(str, p)) for p in sub_multisets(h, len(ld))
                  if follow_error(h, ld, p, T(trump)) is None)


def throw(lead: str, others: tuple[str, str, str], trump: str) -> str | None:
    forced = check_throw(cards(lead), [cards(h) for h in others], T(trump))
    return None if forced is None else " ".join(sorted(map(str, forced)))


def tractor(text: str, trump: str) -> bool:
    units = decompose(cards(text), T(trump))
    return len(units) == 1 and units[0].kind == "tractor"


# ---------------------------------------------------------------- seed 000: card order


def test_seed000_sevens_and_clubs_order() -> None:
    """R3: red joker, black joker, 7♣, other sevens (equal), A♣ … 8♣ 6♣ … 2♣."""
    t = T("7C")
    order = cards("RJ BJ 7C 7H AC KC QC JC 10C 9C 8C 6C 5C 4C 3C 2C")
    assert [t.strength(c) for c in order] == sorted((t.strength(c) for c in order),
                                                    reverse=True)
    assert t.strength(cards("7H")[0]) == t.strength(cards("7S")[0]) == \
        t.strength(cards("7D")[0])
    assert t.strength(cards("8S")[0]) - t.strength(cards("6S")[0]) == 1


def test_seed000_trump_five_led_first_equal_five_wins() -> None:
    """Fives and diamonds trump (reconstructed): 5♣ led, Q♦, 10♦, 5♥ → the 5♣ wins."""
    assert win("5C | QD | 10D | 5H", "5D") == 0


def test_seed000_seven_of_hearts_led() -> None:
    """Fives and diamonds: 7♥ led; the 5♥ is a trump, so a player whose only 'heart' is
    the 5♥ is void and may play anything. 7♥, J♠, J♣, 10♥: the ten wins."""
    hand = "5H 3C 4S"
    for play in ("5H", "3C", "4S"):
        assert legal(hand, "7H", play, "5D")
    assert win("7H | JS | JC | 10H", "5D") == 3


def test_seed000_pair_led_unpaired_cards_cannot_win() -> None:
    """J♣J♣ led; West has no club pair (A♣ Q♣); South one club (4♣ + 10♥, a discard);
    East (10♣ 10♣ 7♣ 6♣ 3♣) must play 10♣10♣. North, the leader, wins."""
    t = "2S"
    assert legal("AC QC 8C", "JC JC", "AC QC", t)
    assert legal_follows("4C 10H 3D", "JC JC", t) == ["4C 10H", "4C 3D"]
    assert legal_follows("10C 10C 7C 6C 3C", "JC JC", t) == ["10C 10C"]
    assert win("JC JC | AC QC | 4C 10H | 10C 10C", t) == 0


def test_seed000_ruff_of_a_pair_needs_a_pair() -> None:
    """5♣5♣ led, West K♣K♣, South (no clubs) 2♥2♥, East (only trumps) 8♥7♥: South wins.
    Hearts trump at a level above 2 and not 7/8 (reconstructed: level 9)."""
    assert win("5C 5C | KC KC | 2H 2H | 8H 7H", "9H") == 2


def test_seed000_tractor_examples() -> None:
    assert tractor("8S 8S 9S 9S", "2H")
    assert tractor("JS JS QS QS KS KS", "2H")
    assert tractor("3S 3S 5S 5S", "4H")  # fours trump: threes and fives consecutive
    assert tractor("AD AD 4S 4S", "4D")  # four of another suit is next above the ace
    assert tractor("4S 4S 4D 4D", "4D")
    assert tractor("4D 4D BJ BJ", "4D")
    assert not tractor("5S 5S 7S 7S", "2H")  # six missing
    assert not tractor("8S 8S 9H 9H", "2D")  # different suits
    assert not tractor("4S 4S 5S 5S", "4H")  # fours are trumps, fives not
    assert not tractor("3D 3D 4D 4D", "4D")  # 4♦ high trump; next above 3♦ is 5♦
    assert not tractor("4S 4S 4H 4H", "4D")  # equal, not adjacent


def test_seed000_non_consecutive_pairs_do_not_win_against_a_tractor() -> None:
    """3♥3♥4♥4♥ led by West; South's hearts J 10 10 8 6 5 5 must follow 10-10-5-5; the
    others have no heart pairs. West wins (South's pairs are not consecutive)."""
    t = "2S"
    assert legal_follows("JH 10H 10H 8H 6H 5H 5H", "3H 3H 4H 4H", t) == ["10H 10H 5H 5H"]
    assert win("3H 3H 4H 4H | AH KH QH 9H | 10H 10H 5H 5H | 7H 6H 2D 3D", t) == 0


def test_seed000_throw_examples() -> None:
    """A♥K♥K♥ stands (one other heart ace at large, so no pair beats K♥K♥);
    A♠K♠Q♠Q♠10♠ stands when nobody holds a spade above the 10; A♦Q♦ stands once both
    K♦ are gone; A♠Q♠Q♠J♠ fails because the outstanding K♠ beats the jack."""
    assert throw("AH KH KH", ("AH QH QH", "JH 10H", "9H"), "2S") is None
    assert throw("AS KS QS QS 10S", ("9S 9S 8S", "3S", "RJ 2H"), "2H") is None
    assert throw("AD QD", ("JD JD", "10D", "9D"), "2H") is None
    assert throw("AS QS QS JS", ("KS 4S", "3S", ""), "2H") == "JS"


def test_seed000_ruffs_of_throws() -> None:
    """Hearts trump at level 9 (reconstructed). A♣Q♣Q♣: West A♥5♥5♥, South 2♥7♥7♥ — the
    higher pair wins. A♣K♣Q♣: West 2♥7♥7♥, South A♥5♥5♥ — the A beats the 7 (no pair was
    led). A♣K♣: West A♥3♥, South A♥Q♥ — equal top singles: West, first, keeps it."""
    assert win("AC QC QC | AH 5H 5H | 2H 7H 7H | 3C 4C 6C", "9H") == 2
    assert win("AC KC QC | 2H 7H 7H | AH 5H 5H | 3C 4C 6C", "9H") == 2
    assert win("AC KC | AH 3H | AH QH | 3C 4C", "9H") == 1


def test_seed000_kitty_and_scoring() -> None:
    """A single last trick doubles the kitty; a tractor (four cards) multiplies it by 8.
    Declarers 7, opponents 10: 60 → declarers +1; 85 → take over; 160 → +2 (to Q)."""
    assert kitty_multiplier(cards("AS"), T("2H")) == 2
    assert kitty_multiplier(cards("9S 9S 8S 8S"), T("2H")) == 8
    assert settle(60) == ("declarers", 1)
    assert settle(85) == ("opponents", 0)
    assert settle(160) == ("opponents", 2)
    assert settle(240) == ("opponents", 4)


# ---------------------------------------------------------------- seed 004


def test_seed004_tractors() -> None:
    assert tractor("3S 3S 5S 5S", "4H")
    assert tractor("4S 4S 4D 4D", "4D")  # trump-suit level pair with another level pair
    assert tractor("4D 4D BJ BJ", "4D")
    assert tractor("BJ BJ RJ RJ", "4D")
    assert not tractor("4S 4S 4H 4H", "4D")


def test_seed004_three_four_five_owes_a_three_pair_answer() -> None:
    (unit,) = decompose(cards("3S 3S 4S 4S 5S 5S"), T("2H"))
    assert unit.kind == "tractor" and len(unit.cards) == 6
    assert legal_follows("9S 9S 8S 8S 7S 7S QS QS", "3S 3S 4S 4S 5S 5S", "2H") == \
        ["9S 9S 8S 8S 7S 7S"]


def test_seed004_declaring() -> None:
    two = Rank.TWO
    assert declaration_error((0, cards("2S")), 1, cards("2H 2H"), two) is None
    assert declaration_error((0, cards("2H 2H")), 1, cards("BJ BJ"), two) is None  # a pair too
    assert declaration_error((0, cards("2S")), 0, cards("2S 2S"), two) is None  # add the twin
    assert declaration_error((0, cards("2S 2S")), 1, cards("2D 2D"), two) is not None
    assert declaration_error((0, cards("2S")), 2, cards("2H 2H"), two) is None  # partner
    assert declaration_error((0, cards("2S")), 0, cards("BJ BJ"), two) is not None  # yourself


def test_seed004_two_singles_never_win_a_pair_trick() -> None:
    assert win("9S 9S | AS KS | RJ BJ | 3S 3S", "2H") == 0


def test_seed004_competing_ruffs_highest_structure_decides() -> None:
    """Tractor led: the ruffs' tractors decide; pairs led: pairs; else the top single."""
    assert win("8S 8S 7S 7S | 3H 3H 4H 4H | 5H 5H 6H 6H | 2D 3D 4D 5D", "2H") == 2
    assert win("AS AS KS | 3H 3H RJ | 4H 4H 5H | 2D 3D 4D", "2H") == 2
    assert win("AS KS | 3H RJ | 4H 5H | 2D 3D", "2H") == 1


def test_seed004_kitty_multiplier_twice_the_cards() -> None:
    for lead, mult in (("AS", 2), ("AS AS", 4), ("AS AS KS KS", 8)):
        assert kitty_multiplier(cards(lead), T("2H")) == mult


# ---------------------------------------------------------------- where RULES.md decides


def test_seed000_no_trump_level_cards_are_trumps_rules_md_decides() -> None:
    """Seed 000: in no trump 'the only trumps are the four jokers'. RULES R3 (and seed 004):
    jokers and the four level cards; so a level card ruffs a side-suit lead."""
    t = T("5NT")
    assert t.is_trump(cards("5S")[0])
    assert win("AS | 5H | KS | QS", "5NT") == 1
    assert legal_follows("5S 3S 4D", "AS", "5NT") == ["3S"]  # 5♠ is not a spade


def test_seed000_played_out_ranks_do_not_make_tractors_rules_md_decides() -> None:
    """Seed 000 hints that 5-5-9-9-J-J 'becomes valid' once the ranks between are gone.
    RULES R4: adjacency is the fixed R3 order, so it is three pairs (a throw)."""
    units = decompose(cards("5S 5S 9S 9S JS JS"), T("2H"))
    assert [u.kind.value for u in units] == ["pair", "pair", "pair"]
    assert throw("5S 5S 9S 9S JS JS", ("AS KS", "QS 10S", "8S 7S 6S"), "2H") is None
    assert throw("5S 5S 9S 9S JS JS", ("6S 6S", "", ""), "2H") == "5S 5S"


def test_seed004_reinforced_declaration_only_joker_pairs_overturn_rules_md_decides() -> None:
    """Seed 004: after adding the twin 'no pair can overturn it'; RULES R5: only a joker
    pair can."""
    reinforced = (0, cards("2S 2S"))
    assert declaration_error(reinforced, 1, cards("2H 2H"), Rank.TWO) is not None
    assert declaration_error(reinforced, 1, cards("BJ BJ"), Rank.TWO) is None
    assert declaration_error(reinforced, 3, cards("RJ RJ"), Rank.TWO) is None

