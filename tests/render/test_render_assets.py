"""Where the renderer finds its fonts: ``$TRACTOR_ASSETS`` when set (the Docker image installs
the package non-editable and copies the assets to /app/assets), else the repository's
assets/."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.render import assets_dir
from bot.render import fonts as fonts_module
from bot.render.fonts import ASSETS_ENV, REPO_ASSETS, charset, font, font_path

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_fonts() -> Iterator[None]:
    """Font lookups are cached per process: start and end with empty caches."""
    font.cache_clear()
    charset.cache_clear()
    yield
    font.cache_clear()
    charset.cache_clear()


def test_default_is_the_repository_assets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ASSETS_ENV, raising=False)
    assert assets_dir() == REPO_ASSETS == ROOT / "assets"
    assert font_path().is_file() and font_path(bold=True).is_file()
    monkeypatch.setenv(ASSETS_ENV, "   ")  # blank counts as unset
    assert assets_dir() == REPO_ASSETS


def test_the_environment_names_the_assets_folder(tmp_path: Path, fresh_fonts: None,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "app" / "assets"
    shutil.copytree(REPO_ASSETS / "fonts", copy / "fonts")
    monkeypatch.setenv(ASSETS_ENV, str(copy))
    assert assets_dir() == copy
    assert font_path() == copy / "fonts" / "NotoSansCJKsc-Regular-subset.otf"
    assert font(20).path == str(font_path())  # type: ignore[attr-defined]
    assert "拖" in charset()

    empty = tmp_path / "nowhere"
    monkeypatch.setenv(ASSETS_ENV, str(empty))
    font.cache_clear()
    with pytest.raises(FileNotFoundError, match=ASSETS_ENV):
        font(20)
    assert fonts_module.fonts_dir() == empty / "fonts"


def test_an_installed_copy_without_assets_renders_with_the_variable(tmp_path: Path) -> None:
    """Like the Docker image: the packages without the source tree's assets/ beside them
    (and the demo command of tools/, which draws with them)."""
    site = tmp_path / "site"
    for package in ("bot", "engine", "tools"):
        shutil.copytree(ROOT / package, site / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    assert not (site / "assets").exists()
    env = {k: v for k, v in os.environ.items() if k != ASSETS_ENV}
    env["PYTHONPATH"] = str(site)
    command = [sys.executable, "-m", "tools.render_demo", "--demo", str(tmp_path / "out")]

    failed = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=60)
    assert failed.returncode != 0 and ASSETS_ENV in failed.stderr

    shutil.copytree(REPO_ASSETS, tmp_path / "app" / "assets")
    env[ASSETS_ENV] = str(tmp_path / "app" / "assets")
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    friends = [f"friends{n}_{what}.png" for n in (6, 8)
               for what in ("hand_burying", "summary", "table", "table_full")]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        *friends, "hand.png", "hand_burying.png", "summary.png", "table.png"]
