"""The engine's rulings (engine/reasons.py): every message a player can get is a `Reason` — the
English text as a `str`, plus the key and parameters a front end translates."""

from __future__ import annotations

import ast
import copy
import pickle
import re
import string
from pathlib import Path

import pytest

from engine import (
    Card,
    IllegalPlay,
    InvalidNotation,
    Match,
    NotYourTurn,
    RuleSet,
    StartHand,
    TractorError,
    Trump,
    WrongPhase,
    declaration_error,
    follow_error,
    lead_error,
    parse_cards,
)
from engine.actions import Bury, Declare, Pass, Play
from engine.reasons import ENGLISH, Reason, display_params, pretty_cards, ruling, template_key

ENGINE = Path(__file__).resolve().parents[2] / "engine"
KEY_RE = re.compile(r"[a-z]+(?:\.[a-z_]+)+")
BASE_KEYS = {key.removesuffix(".one") for key in ENGLISH}


def _engine_sources() -> dict[str, ast.Module]:
    return {
        str(path.relative_to(ENGINE)): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(ENGINE.rglob("*.py"))
        if path.name != "reasons.py"
    }


def _ruling_keys() -> dict[str, set[str]]:
    """Every ruling key written in the engine (outside reasons.py), by file: the first
    argument of each `ruling(...)` call, and any string that looks like one (keys kept in
    tables or returned by helpers)."""
    found: dict[str, set[str]] = {}
    for name, tree in _engine_sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and KEY_RE.fullmatch(node.value) \
                    and node.value.split(".", 1)[0] in {k.split(".", 1)[0] for k in ENGLISH}:
                found.setdefault(node.value, set()).add(name)
    return found


def _ruling_calls() -> list[tuple[str, ast.expr]]:
    calls = []
    for name, tree in _engine_sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "ruling":
                assert node.args, f"{name}: ruling() without a key"
                calls.append((name, node.args[0]))
    return calls


def test_every_ruling_call_uses_a_known_key() -> None:
    calls = _ruling_calls()
    assert len(calls) >= 25
    for name, arg in calls:
        literals = [arg] if isinstance(arg, ast.Constant) else \
            [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else []
        for literal in literals:
            assert isinstance(literal, ast.Constant), f"{name}: {ast.unparse(arg)}"
            assert literal.value in ENGLISH, f"{name}: unknown ruling key {literal.value!r}"


def test_every_key_written_in_the_engine_is_in_english_and_none_is_unused() -> None:
    written = _ruling_keys()
    unknown = sorted(set(written) - BASE_KEYS)
    assert not unknown, f"keys used in the engine but not in ENGLISH: {unknown}"
    unused = sorted(BASE_KEYS - set(written))
    assert not unused, f"ENGLISH keys no engine code produces: {unused}"
    orphans = [k for k in ENGLISH if k.endswith(".one") and k.removesuffix(".one") not in ENGLISH]
    assert not orphans


def test_engine_messages_to_players_are_rulings_not_f_strings() -> None:
    """No `TractorError` is raised with an inline text: a `ruling(...)`, or a variable
    holding the reason an `*_error` function returned."""
    for name, tree in _engine_sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                    and isinstance(node.exc.func, ast.Name) and node.exc.func.id in {
                        "IllegalPlay", "NotYourTurn", "WrongPhase", "InvalidNotation",
                        "TractorError"}:
                first = node.exc.args[0]  # a ruling(...) or a reason from an *_error function
                assert isinstance(first, ast.Call | ast.Name), f"{name}: {ast.unparse(node.exc)}"
                if isinstance(first, ast.Call):
                    assert ast.unparse(first.func) == "ruling", ast.unparse(node.exc)


@pytest.mark.parametrize("key", sorted(ENGLISH))
def test_every_template_formats_with_readable_params(key: str) -> None:
    base = key.removesuffix(".one")
    names = {f for text in (ENGLISH[key], ENGLISH[base])
             for _, f, _, _ in string.Formatter().parse(text) if f}
    assert all(KEY_RE.fullmatch(key) for key in ENGLISH)
    values: dict[str, str | int] = {
        "suit": "H", "suits": "ST", "cards": "AS 10H BJ", "count": 1 if key.endswith(".one")
        else 3}
    params = {name: values.get(name, 2) for name in names}
    reason = ruling(base, **params)
    assert template_key(reason.key, reason.params) == key
    assert "{" not in reason and "}" not in reason
    if "suit" in names:
        assert "♥" in reason
    if "cards" in names:
        assert "A♠ 10♥ BJ" in reason


def test_a_reason_is_a_str_with_a_key_and_params() -> None:
    reason = ruling("follow.suit", suit="T")
    assert isinstance(reason, str) and isinstance(reason, Reason)
    assert reason == "You still hold trump cards, so every card you play must be trump (R8)"
    assert reason.key == "follow.suit" and reason.params == {"suit": "T"}
    assert str(reason) == reason and type(str(reason)) is str
    assert hash(reason) == hash(str(reason))
    for clone in (copy.copy(reason), pickle.loads(pickle.dumps(reason))):
        assert clone == reason and clone.key == "follow.suit" and clone.params == {"suit": "T"}
    plain = Reason("plain text")
    assert plain.key == "" and plain.params == {}


def test_display_params() -> None:
    assert pretty_cards("AS AS 10H RJ BJ 2C 3D") == "A♠ A♠ 10♥ RJ BJ 2♣ 3♦"
    names = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "T": "主牌"}
    assert display_params({"suit": "T", "suits": "HT", "cards": "KD", "seat": 2}, names, "、") \
        == {"suit": "主牌", "suits": "♥、主牌", "cards": "K♦", "seat": 2}


# ---- the English text is what it always was ----------------------------------------

HEARTS = Trump.parse("2S")


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def test_follow_reasons_keep_their_english_text() -> None:
    hand = cards("9H 9H KH QH JH 8H 3C 4C")
    cases = {
        ("3H 3H", "KH 3C"): ("follow.suit", "You still hold ♥ cards, so every card you play "
                                            "must be ♥ (R8)"),
        ("3H 3H", "KH QH"): ("follow.pair", "You hold a ♥ pair, so you must play a pair (R8)"),
        ("3H 3H", "AS AS"): ("follow.not_held", "You don't hold A♠ A♠ (R8)"),
        ("3H", "KH QH"): ("follow.count", "Play exactly 1 card, as many as were led (R8)"),
        ("3H 3H AH", "KH QH JH"): ("follow.pair_throw",
                                   "You hold a ♥ pair, so you must play a pair to answer the "
                                   "throw's pair (R8)"),
        ("3H 3H 4H 4H AH", "KH QH JH 8H 9H"): (
            "follow.pairs_throw", "You hold a pair in ♥, so you must play a pair to answer the "
                                  "throw's tractor of 2 pairs (R8)"),
    }
    for (lead, play), (key, text) in cases.items():
        reason = follow_error(hand, cards(lead), cards(play), HEARTS)
        assert reason == text and isinstance(reason, Reason) and reason.key == key
    short = cards("KH QH 3C 4C 5C")
    reason = follow_error(short, cards("3H 3H 4H"), cards("KH 3C 4C"), HEARTS)
    assert reason == "You must play all 2 of your ♥ cards before any other (R8)"
    reason = follow_error(cards("KH 3C 4C"), cards("3H 3H"), cards("3C 4C"), HEARTS)
    assert reason == "You must play your ♥ card before any other (R8)"
    assert reason is not None and reason.key == "follow.all_of_suit"
    assert reason.params == {"count": 1, "suit": "H"}
    tractor = cards("9H 9H 10H 10H 3C 4C KH")
    reason = follow_error(tractor, cards("3H 3H 4H 4H"), cards("9H 9H KH 10H"), HEARTS)
    assert reason == "You hold a ♥ tractor of 2 pairs, so you must play one (R8)"
    assert follow_error(hand, cards("3H 3H"), cards("9H 9H"), HEARTS) is None


def test_lead_and_declaration_reasons_keep_their_english_text() -> None:
    assert lead_error([], HEARTS) == "Choose at least one card to lead (R7)"
    mixed = lead_error(cards("AH 2S KC"), HEARTS)
    assert mixed == "A lead must be all one suit (trumps count as one suit), not ♥, ♣, trump (R7)"
    assert mixed is not None and mixed.params == {"suits": "HCT"}
    assert declaration_error(None, 0, cards("3H"), 2) == \
        "Declare with one or two identical 2s, or a pair of jokers (R5)"
    assert declaration_error(None, 0, cards("BJ BJ"), "2", RuleSet(no_trump_allowed=False)) == \
        "This table does not allow no trump: jokers cannot declare (R12)"
    assert declaration_error((1, cards("2H 2H")), 0, cards("2S 2S"), 2) == \
        "To overturn you must show something stronger than 2♥ 2♥ (R5)"
    assert declaration_error((0, cards("2H")), 0, cards("2S 2S"), 2) == (
        "Your declaration already stands: you cannot overturn yourself, only reinforce a "
        "single with its twin (R5)")


def test_errors_carry_their_ruling() -> None:
    with pytest.raises(InvalidNotation) as info:
        parse_cards("AS ZS")
    assert str(info.value) == ("'ZS' is not a card: write rank then suit, like AS, 10H, ♠K, "
                               "or RJ/BJ for jokers")
    assert info.value.ruling.key == "notation.card" and info.value.ruling.params == {"token": "ZS"}
    assert info.value.reason == str(info.value)
    with pytest.raises(InvalidNotation, match=r"^'5' is not a trump"):
        Trump.parse("5")  # too short
    plain = TractorError("something else")
    assert plain.ruling == "something else" and plain.ruling.key == ""

    match = Match()
    with pytest.raises(WrongPhase) as phase:
        match.apply(Pass(0))
    assert str(phase.value) == "Trump can only be declared while the cards are being dealt (R5)"
    assert phase.value.ruling.key == "phase.declaring"
    match, _ = match.apply(StartHand(7))
    with pytest.raises(WrongPhase, match=r"^Hand 1 is still being played$") as running:
        match.apply(StartHand(8))
    assert running.value.ruling.params == {"number": 1}
    held = match.view_for(0).hand
    foreign = next(c for c in parse_cards("RJ BJ AS KS") if c not in held)
    with pytest.raises(IllegalPlay) as declare:
        match.apply(Declare(0, (foreign,)))
    assert str(declare.value) == (f"You don't hold {foreign}: a declaration shows cards from "
                                  "your hand (R5)")
    assert declare.value.ruling.params == {"notation": str(foreign)}
    match, _ = match.apply(Pass(1))
    with pytest.raises(NotYourTurn, match="already answered") as answered:
        match.apply(Pass(1))
    assert answered.value.ruling.key == "declare.answered"
    with pytest.raises(WrongPhase, match=r"^Only the starter buries, after taking the kitty"):
        match.apply(Bury(0, ()))
    with pytest.raises(WrongPhase, match=r"^Cards are played once the kitty is buried \(R7\)$"):
        match.apply(Play(0, (held[0],)))
