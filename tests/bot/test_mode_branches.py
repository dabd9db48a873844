"""The game mode stops at the engine's door (issue 39): the bot asks the table's variant for
facts and takes per-mode named values (`bot.present.looks.look`), so few conditionals in
bot/ choose by the mode, all of them in words and pictures.

A **mode branch** is a conditional — ``if``/``elif``, ``while``, a conditional expression,
a comprehension's ``if``, ``assert``, a ``match`` subject — whose test asks which kind of game
the table plays: it names a mode (``"teams"``, ``"friends"``, ``Mode.TEAMS``…, the
leaderboard's ``FRIENDS_SCOPE``) or asks a yes/no stand-in for one (``fixed_sides``,
``calling(…)``, a ``friends``/``is_friends`` flag). Not one: comparing two modes for
sameness (``rec.mode != match.mode``), ``x in friends`` (a set of seats), another object's
``mode`` (an image's)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 20
"""At most this many mode branches in bot/ (by this count: 35 before issue 39's second pass,
9 after it)."""
NAMED = {"teams", "friends"}
FLAGS = {"fixed_sides", "calling", "friends", "is_friends"}
WORDS = {"Mode", "FRIENDS_SCOPE", *FLAGS}


def _tests(tree: ast.AST) -> Iterator[tuple[int, ast.expr]]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.IfExp, ast.While, ast.Assert)):
            yield node.lineno, node.test
        elif isinstance(node, ast.comprehension):
            yield from ((test.lineno, test) for test in node.ifs)
        elif isinstance(node, ast.Match):
            yield node.lineno, node.subject


def _members(test: ast.expr) -> set[int]:
    """The ids of ``friends`` in ``x in friends``: a set of seats, not a mode."""
    return {id(right) for node in ast.walk(test) if isinstance(node, ast.Compare)
            for op, right in zip(node.ops, node.comparators, strict=True)
            if isinstance(op, (ast.In, ast.NotIn))}


def asks_the_mode(test: ast.expr) -> bool:
    members = _members(test)
    for node in ast.walk(test):
        if id(node) in members:
            continue
        if isinstance(node, ast.Constant) and node.value in NAMED:
            return True
        if isinstance(node, ast.Attribute) and (node.attr in FLAGS or (
                isinstance(node.value, ast.Name) and node.value.id == "Mode")):
            return True
        if isinstance(node, ast.Name) and node.id in WORDS:
            return True
    return False


def mode_branches(source: str, name: str) -> list[str]:
    return [f"{name}:{line}: {ast.unparse(test)}" for line, test in _tests(ast.parse(source))
            if asks_the_mode(test)]


def bot_branches() -> list[str]:
    return [found for path in sorted((ROOT / "bot").rglob("*.py"))
            for found in mode_branches(path.read_text(), str(path.relative_to(ROOT)))]


def test_few_mode_branches_in_the_bot() -> None:
    found = bot_branches()
    assert len(found) <= LIMIT, "\n".join(found)


def test_the_count_sees_a_mode_branch() -> None:
    assert len(mode_branches(
        "if rules.variant.fixed_sides:\n    pass\n"
        "x = 1 if mode == 'friends' else 2\n"
        "y = [s for s in seats if not view.variant.calling(4)]\n"
        "match Mode.TEAMS:\n    case _:\n        pass\n", "t")) == 4


def test_the_count_skips_what_is_not_a_mode() -> None:
    assert mode_branches(
        "if seat in friends:\n    pass\n"
        "if image.mode != 'RGB':\n    pass\n"
        "if rec.mode != match.mode:\n    pass\n", "t") == []
