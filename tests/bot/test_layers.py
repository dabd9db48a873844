"""Imports in bot/ go one way (issue 11), read from the source with `ast`:

composition root (bot/app/client.py; nothing imports it) → features (bot/features) → Discord
UI (bot/ui) → services (service, repository, records, computer players, timers) → presentation
(bot/present: words and pictures) → core (the table document and its options) → runtime /
storage / render / i18n → engine.

The services, the presentation and the core never import discord; there is no import circle in bot/;
bot/app/local.py does not import bot/__main__.py back."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("root", ("bot", "bot.__main__", "bot.app")),
    ("features", ("bot.features",)),
    ("ui", ("bot.ui",)),
    ("services", ("bot.services",)),
    ("present", ("bot.present",)),
    ("core", ("bot.core",)),
    ("base", ("bot.runtime", "bot.storage", "bot.render", "bot.i18n")),
    ("engine", ("engine",)),
]
"""Each layer is folders: a module's layer is its folder's (the longest prefix)."""
DISCORD_FREE = ("services", "present", "core")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                    best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    if best is not None and best[1] == len("bot") and module not in ("bot", "bot.__main__"):
        return None  # a loose module in bot/: it must live in a layer's folder
    return None if best is None else best[0]


EXTRA: dict[Path, str] = {}
"""Source lines put before a file's own (the guard's own test)."""


def imports(path: Path) -> Iterator[tuple[str, int]]:
    """Modules imported by a file (``from x import y`` gives ``x.y`` when it is a module),
    TYPE_CHECKING-only imports included: they are dependencies too."""
    tree = ast.parse(EXTRA.get(path, "") + path.read_text(), str(path))
    package = module_name(path) if path.name == "__init__.py" else \
        module_name(path).rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                yield (candidate if _is_module(candidate) else base), node.lineno


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def bot_files() -> list[Path]:
    return sorted(p for p in BOT.rglob("*.py") if "locales" not in p.parts)


def test_every_bot_module_has_a_layer() -> None:
    missing = [module_name(p) for p in bot_files() if layer_of(module_name(p)) is None]
    assert not missing, f"give these modules a layer in tests/bot/test_layers.py: {missing}"


def upward_imports() -> list[str]:
    found = []
    for path in bot_files():
        name = module_name(path)
        mine = layer_of(name)
        assert mine is not None
        for target, line in imports(path):
            theirs = layer_of(target)
            if theirs is None:
                continue
            if theirs < mine:
                found.append(f"{name}:{line} imports {target} "
                             f"({LAYERS[mine][0]} → {LAYERS[theirs][0]})")
    return found


def test_imports_go_one_way() -> None:
    assert upward_imports() == []


def test_core_and_services_never_import_discord() -> None:
    """No exception: the presentation escapes markdown without discord (bot/present/markdown.py)."""
    found = []
    for path in bot_files():
        name = module_name(path)
        layer = layer_of(name)
        if layer is None or LAYERS[layer][0] not in DISCORD_FREE:
            continue
        found += [f"{name}:{line}" for target, line in imports(path)
                  if target.split(".")[0] == "discord"]
    assert found == []


def test_no_import_circle_in_bot() -> None:
    graph: dict[str, set[str]] = {}
    for path in bot_files():
        graph[module_name(path)] = {t for t, _ in imports(path)
                                    if t.startswith("bot.") or t == "bot"}
    graph["bot"] = set()  # the package's lazy create_bot is resolved on first use
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                raise AssertionError(" → ".join([*stack[stack.index(nxt):], nxt]))
            if nxt in graph and not state.get(nxt):
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if not state.get(node):
            visit(node)


def test_main_and_local_do_not_import_each_other() -> None:
    """``python -m bot`` starts local play (bot/app/local.py); local play never reaches back."""
    local = {t for t, _ in imports(BOT / "app" / "local.py")}
    assert "bot.__main__" not in local


@pytest.mark.parametrize("source", [
    "from bot.app.client import TractorBot\n",          # a service reaching up to the root
    "from bot.features.play import PlayFeature\n",  # a service reaching up to a feature
    "from bot.ui import panels\n",                  # a service reaching up to the UI
])
def test_the_guard_fails_on_an_upward_import(source: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(EXTRA, BOT / "services" / "tables.py", source)
    assert any(found.startswith("bot.services.tables:1 ") for found in upward_imports())


def test_the_guard_fails_on_discord_in_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(EXTRA, BOT / "core" / "table.py", "import discord\n")
    with pytest.raises(AssertionError):
        test_core_and_services_never_import_discord()


def test_the_product_never_imports_the_tools() -> None:
    """Benchmarks, the arena and self-play live in tools/, outside the package and the image."""
    found = [f"{module_name(p)}:{line}" for root in (BOT, ROOT / "engine")
             for p in sorted(root.rglob("*.py"))
             for target, line in imports(p) if target.split(".")[0] == "tools"]
    assert found == []
