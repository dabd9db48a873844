"""No import circle in engine/ (issue 27), read from the source with `ast`: function-level
and TYPE_CHECKING-only imports count, as in `tests/bot/test_layers.py`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"

EXTRA: dict[Path, str] = {}
"""Source lines put after a file's own (the guard's own test)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def engine_imports(path: Path) -> set[str]:
    """The engine modules a file imports, wherever the import stands."""
    tree = ast.parse(path.read_text() + EXTRA.get(path, ""), str(path))
    package = module_name(path) if path.name == "__init__.py" else \
        module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if _is_module(candidate) else base)
    return {name for name in found if name.startswith("engine.")}


def circle() -> list[str] | None:
    """The first import circle among engine/'s modules, or None. A package's `__init__`
    re-exports its modules and nothing below imports the package itself."""
    graph = {module_name(p): engine_imports(p) for p in sorted(ENGINE.rglob("*.py"))}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt in graph and not state.get(nxt):
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if not state.get(node):
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_circle_in_the_engine() -> None:
    found = circle()
    assert found is None, " → ".join(found or ())


@pytest.mark.parametrize("source", [
    "\ndef later() -> None:\n    from engine.game import Match\n",  # a function-level import
    "\nif TYPE_CHECKING:\n    from engine.views import PlayerView\n",  # a type-only import
])
def test_the_guard_fails_on_a_circle(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(EXTRA, ENGINE / "friends.py", source)
    assert circle() is not None
